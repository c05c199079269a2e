-- expected: FAIL.
print("latin-1: caf\233 na\239ve \255\254 cut: \226\130")
print("control: \1\2\27[31m red \0 nul")
-- 24,000 bytes of euro signs from byte 59 on: byte 16,384, where the kept part ends, is
-- the middle of one
print("x" .. ("\226\130\172"):rep(8000))
