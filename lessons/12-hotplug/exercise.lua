-- Lesson 12 exercise: hotplug events.
--
-- The device tree of drivers/base/core.c in 2.6.0: every device is a kobject in the kset
-- of the subsystem "devices" (/sys/devices), and that kset's hotplug_ops decide which
-- additions and removals user space hears about (/sbin/hotplug then, udev now):
--   filter   only devices that sit on a bus; nothing else below /sys/devices
--   name     the bus's name, which becomes SUBSYSTEM=
--   hotplug  adds the bus's variables (PCI_SLOT_NAME=...) to the event's environment
--
-- devices_init(), device_register() and device_unregister() are correct. The hotplug
-- operations are not: when a PCI device is registered, user space hears nothing at all,
-- so udev would never load its driver. Watch hotplug_events() while the checks run.
--
--   kobj lesson check 12    runs check.lua against this file
--   kobj lesson hint 12     one hint at a time

-- The last reference to a device is gone: in C, kfree(to_dev(kobj)).
local function device_release(kobj)
  container_of(kobj).freed = true
end

local device_ktype = new_ktype{ name = "device", release = device_release }

-- device_hotplug_ops: the kset's say over the events of the objects in it.
local device_hotplug_ops = {
  -- filter(): true to send the event. Devices on a bus only: a bridge with no bus, or an
  -- object below a device that is not a device itself, stays quiet.
  filter = function(kset, kobj)
    if kobj.ktype == device_ktype then
      return container_of(kobj).bus ~= nil
    end
    return false
  end,
  -- name(): the subsystem user space is told about.
  name = function(kset, kobj)
    return container_of(kobj).bus.name
  end,
  -- hotplug(): the bus's own variables. Returns 0 to send the event.
  hotplug = function(kset, kobj, env)
    local dev = container_of(kobj)
    env.PCI_SLOT_NAME = kobject_name(kobj)
    env.PCI_ID = dev.id
    return 0
  end,
}

local devices_subsys = decl_subsys("devices", device_ktype, device_hotplug_ops)

-- devices_init(): /sys/devices. Returns 0 or a negative errno.
function devices_init()
  return subsystem_register(devices_subsys)
end

function devices_exit()
  subsystem_unregister(devices_subsys)
end

-- device_register(name, parent, bus, id): a device below @parent (or at the top of
-- /sys/devices), on @bus ({ name = "pci" }) or on none. Returns the device, or nil and a
-- negative errno.
function device_register(name, parent, bus, id)
  local dev = { bus = bus, id = id }
  local kobj = new_kobject(dev)
  kobject_init(kobj)
  local err = kobject_set_name(kobj, "%s", name)
  if err == 0 then
    kobj.kset = devices_subsys.kset
    if parent then
      kobj.parent = parent.kobj
    end
    err = kobject_add(kobj)
  end
  if err ~= 0 then
    kobject_put(kobj)
    return nil, err
  end
  return dev
end

function device_unregister(dev)
  kobject_unregister(dev.kobj)
end
