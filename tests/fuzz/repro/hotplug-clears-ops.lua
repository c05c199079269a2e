-- A 2.6.0 hotplug filter that removes the kset's hotplug_ops while the event is built.
-- expect: status 0
-- expect: No leaks
bus = decl_subsys("bus", new_ktype{ release = function(k) end },
  { filter = function(kset, k) bus.kset.hotplug_ops = nil return true end,
    name = function(kset, k) return "bus" end })
subsystem_register(bus)
local k = new_kobject()
k.kset = bus.kset
kobject_set_name(k, "eth0")
print(kobject_register(k))
kobject_unregister(k)
subsystem_unregister(bus)
