-- expected: FAIL.
check = function() end
