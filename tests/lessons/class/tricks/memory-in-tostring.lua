-- expected: ERR.
error(setmetatable({}, { __tostring = function() local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1e4) .. i end end }))
