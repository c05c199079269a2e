print("before the error")
local t = nil
local x = t.field
print("not reached", x)
