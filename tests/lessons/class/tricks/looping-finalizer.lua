-- expected: ERR.
local mt = { __gc = true }
local t = setmetatable({}, mt)
mt.__gc = function() while true do end end
t = nil
collectgarbage()
