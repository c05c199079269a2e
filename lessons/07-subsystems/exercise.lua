-- Lesson 7 exercise: subsystems, and the ksets that belong to them
--
-- The bus layer of 2.6.0's driver core, small (drivers/base/bus.c). The "bus" subsystem
-- is /sys/bus. Each bus type is a subsystem of its own inside it, /sys/bus/<bus>, with
-- two ksets: "devices" and "drivers". Both belong to the bus's subsystem, whose rwsem
-- guards their lists, and each gives its members their ktype.
--   buses_init()                 registers /sys/bus
--   bus_register(name)           registers /sys/bus/<name> with its two ksets; returns
--                                the bus, or nil and an error
--   device_register(bus, name)   /sys/bus/<bus>/devices/<name>
--   driver_register(bus, name)   /sys/bus/<bus>/drivers/<name>
--   device_unregister(dev), driver_unregister(drv), bus_unregister(bus), buses_exit()
--
-- Your task: `kobj lesson check 7` registers the pci bus, a driver and a device. The
-- drivers of the bus show up in the wrong place in sysfs, and adding the first driver
-- makes the sandbox report an oops.

local bus_subsys = decl_subsys("bus", nil, nil)

local device_ktype = new_ktype{
  name = "device_ktype",
  release = function(kobj) container_of(kobj).freed = true end,
}

local driver_ktype = new_ktype{
  name = "driver_ktype",
  release = function(kobj) container_of(kobj).freed = true end,
}

function buses_init()
  return subsystem_register(bus_subsys)
end

function buses_exit()
  subsystem_unregister(bus_subsys)
end

function bus_register(name)
  local bus = { name = name }
  bus.subsys = decl_subsys(name, nil, nil)
  bus.subsys.kset.kobj.kset = bus_subsys.kset      -- /sys/bus/<name>
  local err = subsystem_register(bus.subsys)
  if err ~= 0 then
    return nil, err
  end
  bus.devices = new_kset{ name = "devices", subsys = bus.subsys, ktype = device_ktype }
  err = kset_register(bus.devices)
  if err ~= 0 then
    subsystem_unregister(bus.subsys)
    return nil, err
  end
  bus.drivers = new_kset{ name = "drivers", ktype = driver_ktype }
  err = kset_register(bus.drivers)
  if err ~= 0 then
    kset_unregister(bus.devices)
    subsystem_unregister(bus.subsys)
    return nil, err
  end
  return bus
end

function bus_unregister(bus)
  kset_unregister(bus.drivers)
  kset_unregister(bus.devices)
  subsystem_unregister(bus.subsys)
end

-- A kobject of @kset named @name, embedded in a new table; nil and an error on failure.
local function register_in(kset, name)
  local obj = { name = name }
  obj.kobj = new_kobject(obj)
  obj.kobj.kset = kset                              -- the kset supplies the ktype
  kobject_init(obj.kobj)
  local err = kobject_set_name(obj.kobj, "%s", name)
  if err == 0 then
    err = kobject_add(obj.kobj)
  end
  if err ~= 0 then
    kobject_put(obj.kobj)
    return nil, err
  end
  return obj
end

function device_register(bus, name)
  return register_in(bus.devices, name)
end

function driver_register(bus, name)
  return register_in(bus.drivers, name)
end

function device_unregister(dev)
  kobject_unregister(dev.kobj)
end

function driver_unregister(drv)
  kobject_unregister(drv.kobj)
end
