-- expected: FAIL.
pcall = function() return true end
