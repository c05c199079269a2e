-- expected: FAIL.
pcall(function() io.open("escaped", "w") end)
pcall(function() os.execute("touch escaped") end)
pcall(function() dot("escaped.svg") end)
pcall(function() load(string.dump(print)) end)
pcall(function() require("os") end)
