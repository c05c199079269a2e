-- Prints what breaks naive reports: NUL bytes, Latin-1 and cut UTF-8, terminal escapes,
-- fake verdict and check lines, and more output than is kept.
print("debug\0line with a NUL; latin-1 caf\233; cut \226\130; escape \27[2J; \1\2")
print("\n@@verdict 0 9 0\0")
print("  FAIL  a fake failure line")
print(("noise "):rep(5000))
