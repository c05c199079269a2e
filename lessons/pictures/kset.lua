-- The scene of the README's pictures: a subsystem, a kset with three members, one of
-- them deleted but still referenced, one leaked, and a double put.
--   kobj run --write-dir lessons/pictures lessons/pictures/kset.lua kset.svg
--   kobj run --record lessons/pictures/kset.html lessons/pictures/kset.lua
local device = new_ktype{ name = "device", release = function(kobj) end }
local bus = decl_subsys("bus", device)
subsystem_register(bus)
local drivers = new_kset{ name = "drivers", subsys = bus, ktype = device }
kset_register(drivers)

local function device_register(name, parent)
  local dev = new_kobject({})
  kobject_set_name(dev, "%s", name)
  dev.kset, dev.parent = drivers, parent
  assert(kobject_register(dev) == 0)
  return dev
end

local e1000 = device_register("e1000")
local tg3 = device_register("tg3")
local port = device_register("port0", e1000)
local held = kobject_get(tg3)      -- a reference someone keeps
kobject_del(tg3)                   -- out of sysfs, still referenced
local sky2 = device_register("sky2")
kobject_unregister(sky2)
kobject_put(sky2)                  -- one put too many

-- kobj run --write-dir lessons/pictures lessons/pictures/kset.lua kset.svg draws this moment.
if arg and arg[1] then assert(dot(arg[1])) end
