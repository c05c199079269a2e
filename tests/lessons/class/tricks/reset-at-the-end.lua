-- expected: ERR.
reset()
