-- expected: ERR.
os.exit(0)
