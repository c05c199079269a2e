-- expected: FAIL.
lesson_results = function() return 7, 0 end
