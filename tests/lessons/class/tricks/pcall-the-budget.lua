-- expected: ERR.
for _ = 1, 1e9 do pcall(function() while true do end end) end
