-- expected: FAIL.
print("latin-1: caf\233 na\239ve \255\254 cut: \226\130")
print("control: \1\2\27[31m red \0 nul")
