-- expected: FAIL.
local mt = getmetatable("")
if mt then mt.__index = { format = function() return "" end, gsub = function() return "" end } end
string.format = function() return "" end
