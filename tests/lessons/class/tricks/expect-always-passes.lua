-- expected: FAIL.
expect = setmetatable({}, { __index = function() return function() end end })
for _, name in ipairs{ "that", "refcount", "released", "drops", "takes", "no_leaks" } do expect[name] = function() end end
