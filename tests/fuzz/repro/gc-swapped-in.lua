-- A __gc swapped in after setmetatable, looping for ever.
-- expect: status 1
-- expect: instruction budget exhausted
local mt = { __gc = true }
local t = setmetatable({}, mt)
mt.__gc = function() while true do end end
t = nil
collectgarbage()
print("escaped")
