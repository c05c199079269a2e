-- A random script for the kobj sandbox, from a seed: the calls the core fuzzer makes,
-- from Lua, plus hostile ones: callbacks that delete, put or reset, finalizers, huge
-- names, deep chains, pcall games, errors that are not strings. Every statement runs
-- under try(), which insists that an error says where and what went wrong; the script
-- prints FUZZ-END when it gets to its end.
--
-- Usage: lua5.4 lua_gen.lua SEED [STATEMENTS] > script.lua

local seed = tonumber(arg[1]) or 1
local nstatements = tonumber(arg[2]) or 60
math.randomseed(seed)

local function pick(t) return t[math.random(#t)] end
local function obj() return "o" .. math.random(6) end
local function kset() return "s" .. math.random(3) end
local function name()
  return pick { '"a"', '"b"', '"eth0"', '"x/y"', '""', '"twenty_characters_20"',
                'string.rep("n", 300)', '"a" .. i' }
end

local out = {}
local function emit(fmt, ...) out[#out + 1] = string.format(fmt, ...) end

-- ================================================================= statements

local statements -- filled below; callbacks draw their bodies from it too
local depth = 0

-- A statement inside another (a callback's body, a finalizer, a pcall): two levels at most.
local function nested()
  if depth >= 2 then return "local _ = 0" end
  depth = depth + 1
  local s = pick(statements)()
  depth = depth - 1
  return s
end

-- A callback body: a statement, sometimes a hostile one.
local function body(self)
  local hostile = {
    "kobject_del(" .. self .. ")", "kobject_put(" .. self .. ")", "reset()",
    "error('deliberate')", "error(setmetatable({}, { __tostring = function() return 'deliberate' end }))",
    "collectgarbage()", "kobject_get(" .. self .. ")",
  }
  if math.random(3) == 1 then return pick(hostile) end
  return nested()
end

local function ktype()
  local fields = { "release = function(k) " .. body("k") .. " end" }
  if math.random(2) == 1 then
    fields[#fields + 1] = "sysfs_ops = { show = function(k, a) " .. body("k") ..
      " return 'v' end, store = function(k, a, v) " .. body("k") .. " return #v end }"
    fields[#fields + 1] = "default_attrs = { 'state' }"
  end
  if math.random(4) == 1 then fields[1] = "name = 'plain'" end -- no release: a mistake
  return "new_ktype{ " .. table.concat(fields, ", ") .. " }"
end

local function attr()
  return string.format("new_kobj_attribute{ name = %s, mode = %s, show = function(k) %s return 'x' end, " ..
    "store = function(k, a, v) %s return #v end }", pick { '"a"', '"b"', '"a"' },
    pick { '"0644"', '"0444"', '"0777"', '"junk"', "420" }, body("k"), body("k"))
end

local function uevent_ops()
  return string.format("{ filter = function(k) %s return %s end, name = function(k) %s return %s end, " ..
    "uevent = function(k, env) %s return env:add('X=%%d', 1) end }",
    body("k"), pick { "true", "false", "nil" }, body("k"), pick { '"sub"', "nil", "42" }, body("k"))
end

statements = {
  function() return string.format("%s = new_kobject()", obj()) end,
  function() return string.format("kobject_init(%s)", obj()) end,
  function() return string.format("kobject_init(%s, %s)", obj(), ktype()) end,
  function() return string.format("kobject_set_name(%s, %s)", obj(), name()) end,
  function() return string.format("%s.parent = %s", obj(), pick { obj(), "nil" }) end,
  function() return string.format("%s.kset = %s", obj(), pick { kset(), "nil" }) end,
  function() return string.format("%s.ktype = %s", obj(), ktype()) end,
  function() return string.format("kobject_add(%s)", obj()) end,
  function() return string.format("kobject_add(%s, %s, %s)", obj(), pick { obj(), "nil" }, name()) end,
  function() return string.format("kobject_del(%s)", obj()) end,
  function() return string.format("kobject_get(%s)", obj()) end,
  function() return string.format("kobject_put(%s)", obj()) end,
  function() return string.format("kobject_register(%s)", obj()) end,
  function() return string.format("kobject_unregister(%s)", obj()) end,
  function() return string.format("%s = kobject_create_and_add(%s, %s)", obj(), name(), pick { obj(), "nil", "kernel_kobj()" }) end,
  function() return string.format("kobject_init_and_add(%s, %s, %s, %s)", obj(), ktype(), pick { obj(), "nil" }, name()) end,
  function() return string.format("kobject_rename(%s, %s)", obj(), name()) end,
  function() return string.format("kobject_move(%s, %s)", obj(), pick { obj(), "nil" }) end,
  function() return string.format("kobject_get_path(%s)", obj()) end,
  function() return string.format("kobject_get_unless_zero(%s)", obj()) end,
  function() return string.format("kobject_uevent(%s, %s)", obj(), pick { "KOBJ_ADD", "KOBJ_CHANGE", "KOBJ_REMOVE", "99" }) end,
  function() return string.format("%s = kset_create_and_add(%s, %s, %s)", kset(), name(), uevent_ops(), pick { obj(), "nil" }) end,
  function() return string.format("%s = new_kset{ name = %s, ktype = %s, hotplug_ops = { filter = function(s, k) %s return true end } }", kset(), name(), ktype(), body("k")) end,
  function() return string.format("kset_register(%s)", kset()) end,
  function() return string.format("kset_unregister(%s)", kset()) end,
  function() return string.format("kset_find_obj(%s, %s)", kset(), name()) end,
  function() return string.format("%s = decl_subsys(%s, %s, { filter = function(s, k) %s return true end })", kset(), name(), ktype(), body("k")) end,
  function() return string.format("subsystem_register(%s)", kset()) end,
  function() return string.format("subsystem_unregister(%s)", kset()) end,
  function() return string.format("sysfs_create_file(%s, %s)", obj(), attr()) end,
  function() return string.format("sysfs_create_group(%s, new_attribute_group{ name = %s, attrs = { %s, %s }, is_visible = function(k, a, n) %s return 292 end })", obj(), pick { '"g"', "nil" }, attr(), attr(), body("k")) end,
  function() return string.format("sysfs_create_link(%s, %s, %s)", obj(), obj(), name()) end,
  function() return string.format("cat((%s.path or '/sys/x') .. '/state')", obj()) end,
  function() return string.format("echo((%s.path or '/sys/x') .. '/a', '12')", obj()) end,
  function() return "ls('/sys') tree() dot() leak_report() log() objects() diagnostics() hotplug_events() kernel_log()" end,
  function() return string.format("fail_alloc(%d)", math.random(4)) end,
  function() return string.format("kobject_set_name(%s, string.rep('long', 25000))", obj()) end,
  function() return "debug_kobject_release(true)" end,
  function() return string.format("advance(%d)", math.random(0, 500)) end,
  function() return "m = module_load('m') try_module_get(m) module_unload(m) module_put(m) module_unload(m)" end,
  function() return "reset()" end,
  -- hostile ones
  function() return "setmetatable({}, { __gc = function() " .. nested() .. " end }) collectgarbage()" end,
  function() return "local p = nil for i = 1, " .. math.random(20, 800) .. " do p = kobject_create_and_add('c' .. i, p) end" end,
  function() return "pcall(pcall, function() " .. nested() .. " end)" end,
  function() return "xpcall(function() error('deliberate') end, function(e) " .. nested() .. " return e end)" end,
  function() return "coroutine.wrap(function() " .. nested() .. " coroutine.yield() end)()" end,
  function() return "kobject_get(" .. pick { "42", "'x'", "{}", "nil" } .. ")" end,
  function() return "for i = 1, " .. math.random(100, 3000) .. " do kobject_put(kobject_get(" .. obj() .. ")) end" end,
}

-- ======================================================================= the script

emit("-- generated by lua_gen.lua, seed %d", seed)
emit([[
local function clear(e)
  if type(e) ~= "string" then
    return tostring(e):find("deliberate") ~= nil
  end
  if e:find("deliberate", 1, true) then return true end
  -- "script.lua:12: what went wrong", read without patterns (their cost is charged)
  local colon = e:find(":", 1, true)
  local at = colon and colon + 1
  while at and e:byte(at) and e:byte(at) >= 48 and e:byte(at) <= 57 do at = at + 1 end
  return colon ~= nil and at > colon + 1 and e:sub(at, at + 1) == ": " and #e > at + 2
end
local function try(n, f)
  local ok, e = pcall(f)
  if not ok and not clear(e) then
    print(("FUZZ-UNCLEAR statement %%d: %%s"):format(n, tostring(e)))
  end
end
o1, o2, o3, o4, o5, o6 = new_kobject(), new_kobject(), new_kobject(), new_kobject(), new_kobject(), new_kobject()
s1 = new_kset{ name = "s1" }
s2 = kset_create_and_add("s2")
s3 = decl_subsys("s3", new_ktype{ release = function(k) end })
for i = 1, 1 do]])
for n = 1, nstatements do
  emit("try(%d, function() %s end)", n, pick(statements)())
end
emit("end\nprint('FUZZ-END')")
print(table.concat(out, "\n"))
