-- Runs one lesson's exercise (or a given solution) and its checks with the stock lua5.4
-- interpreter and the kobject module, the way `kobj lesson check` does:
--   lua5.4 lessons/lib/driver.lua lessons/01-refcounts [path/to/solution.lua]
-- With "demo" as the second argument it runs the lesson's demo instead.
-- Exit status: 0 if every check passed.
local dir, file = arg[1], arg[2]
local kobject = require "kobject"
local env = setmetatable({}, { __index = _G })
for name, value in pairs(kobject) do env[name] = value end
for _, lib in ipairs{ "lesson.lua", "predict.lua" } do
  assert(loadfile(arg[0]:gsub("driver%.lua$", lib), "t", env))()
end
if file == "demo" then
  assert(loadfile(dir .. "/demo.lua", "t", env))()
  os.exit(0)
end
assert(loadfile(file or dir .. "/exercise.lua", "t", env))()
assert(loadfile(dir .. "/check.lua", "t", env))()
local passed, failed = env.lesson_results()
print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and passed > 0 and 0 or 1)
