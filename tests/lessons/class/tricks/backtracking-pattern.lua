-- expected: ERR.
for _ = 1, 1e6 do string.find(string.rep("a", 5000), ".-.-.-b") end
