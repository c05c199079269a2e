-- A callable table as __gc, looping for ever.
-- expect: status 1
-- expect: instruction budget exhausted
local t = setmetatable({}, { __gc = setmetatable({}, { __call = function() while true do end end }) })
t = nil
collectgarbage()
print("escaped")
