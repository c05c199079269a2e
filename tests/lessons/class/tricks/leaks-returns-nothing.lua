-- expected: FAIL.
leaks = function() return {} end
kobject.leaks = leaks
