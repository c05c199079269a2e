-- The editors' definitions (lessons/types/*.lua, LuaCATS) against the live names:
-- every global of the kobject module with its value for constants, every field and
-- method of every handle type, and every name of the lessons' vocabulary.
--   lua5.4 types_check.lua lessons/types lessons/lib   (with kobject.so on the cpath)
local types, lib = arg[1], arg[2]
local kobject = require "kobject"
local passed, failed = 0, 0

local function report(ok, fmt, ...)
  if ok then passed = passed + 1 else
    failed = failed + 1
    print("FAIL: " .. string.format(fmt, ...))
  end
end

-- The classes (with their fields), globals and constant values a definitions file declares.
local function parse(path)
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  report(load(text, "@" .. path, "t"), "%s is not valid Lua", path)
  local classes, globals, values, current = {}, {}, {}, nil
  for line in text:gmatch("[^\n]*") do
    local class = line:match("^%-%-%-@class ([%w_]+)")
    local field = line:match("^%-%-%-@field ([%w_]+)")
    if class then
      current = class
      classes[class] = {}
    elseif field and current then
      classes[current][field] = true
    elseif not line:match("^%-%-%-") then
      current = nil
    end
    local fn = line:match("^function ([%w_]+)%(")
    local name, value = line:match("^([%w_]+) = (.-)%s*$")
    if fn then globals[fn] = true end
    if name then globals[name], values[name] = true, value end
  end
  return classes, globals, values
end

-- Both ways: every name of @live is declared, every declared name is live.
local function same(what, live, declared)
  for name in pairs(live) do report(declared[name], "%s: '%s' is not declared", what, name) end
  for name in pairs(declared) do report(live[name], "%s: '%s' is declared but gone", what, name) end
end

-- The kobject module: its globals, and the values of its constants.
local classes, globals, values = parse(types .. "/kobject.lua")
local live = {}
for name, value in pairs(kobject) do
  live[name] = true
  if math.type(value) == "integer" then
    report(tonumber(values[name]) == value, "%s is %d, declared %s", name, value,
           tostring(values[name]))
  end
end
same("kobject", live, globals)

-- The handles: the fields their metatables list, and the methods their __index offers.
local registry = debug.getregistry()
for _, name in ipairs{ "kobject", "kset", "subsystem", "kobj_type", "module", "kobj_attribute",
                       "attribute_group", "kref", "kobj_uevent_env" } do
  local mt, names = registry[name], {}
  report(mt, "no metatable '%s' in the registry", name)
  for _, f in ipairs(mt and mt.__fields or {}) do names[f] = true end
  for i = 1, math.huge do
    local up, methods = debug.getupvalue(mt and mt.__index or print, i)
    if not up then break end
    if type(methods) == "table" then
      for m in pairs(methods) do names[m] = true end
    end
  end
  same(name, names, classes[name] or {})
end

-- The vocabulary: the globals lesson.lua and predict.lua define, and expect's members.
local lesson_classes, lesson_globals = parse(types .. "/lesson.lua")
local env = setmetatable({}, { __index = function(_, k) return kobject[k] or _G[k] end })
for _, file in ipairs{ "lesson.lua", "predict.lua" } do
  assert(loadfile(lib .. "/" .. file, "t", env))()
end
live = {}
for name in pairs(env) do live[name] = true end
same("vocabulary", live, lesson_globals)
live = {}
for name in pairs(env.expect) do live[name] = true end
same("expect", live, lesson_classes.lesson_expect or {})

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
