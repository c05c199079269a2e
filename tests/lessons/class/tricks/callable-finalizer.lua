-- expected: ERR.
local t = setmetatable({}, { __gc = setmetatable({}, { __call = function() while true do end end }) })
t = nil
collectgarbage()
