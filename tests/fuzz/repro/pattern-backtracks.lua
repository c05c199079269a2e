-- Pattern matching that backtracks for minutes, done in C.
-- expect: status 1
-- expect: instruction budget exhausted
print(string.find(string.rep("a", 1000), ".-.-.-b"))
print("escaped")
