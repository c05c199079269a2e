-- expected: FAIL.
collectgarbage("stop")
collectgarbage("incremental", 1, 1)
keep = setmetatable({}, { __gc = function() collectgarbage("collect") end })
