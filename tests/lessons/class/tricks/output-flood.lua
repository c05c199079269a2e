-- expected: FAIL.
local line = ("flood "):rep(1000)
for _ = 1, 2000 do print(line) end
