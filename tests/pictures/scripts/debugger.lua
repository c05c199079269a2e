-- A run to step through: a helper called from three lines, a reference kept, a double
-- put, a file and a link made with today's calls.
local device = new_ktype{ name = "device", release = function(kobj) end }
local bus = decl_subsys("bus", device)
subsystem_register(bus)
local drivers = new_kset{ name = "drivers", subsys = bus, ktype = device }
kset_register(drivers)

local function add(name)
  local dev = new_kobject({})
  kobject_set_name(dev, "%s", name)
  dev.kset = drivers
  assert(kobject_register(dev) == 0)
  return dev
end

local e1000 = add("e1000")
local tg3 = add("tg3")
kobject_get(tg3)                   -- kept: never put
kobject_unregister(tg3)
kobject_unregister(e1000)
kobject_put(e1000)                 -- one put too many
local sky2 = add("sky2")
kobject_del(sky2)                  -- out of sysfs, never put

local phy = kobject_create_and_add("phy0", nil)
local port = kobject_create_and_add("port0", nil)
sysfs_create_file(port, new_kobj_attribute{ name = "speed", mode = "0444",
                                            show = function() return "1000\n" end })
sysfs_create_link(port, phy, "phy")
kobject_put(port)
kobject_put(port)                  -- one put too many, again
