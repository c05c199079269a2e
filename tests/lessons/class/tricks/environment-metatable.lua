-- expected: FAIL.
setmetatable(_ENV, { __index = function() return function() return true end end })
