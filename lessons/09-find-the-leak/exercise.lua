-- Lesson 9 exercise: find the leak.
--
-- A small USB-like bus and one driver, "skel", shaped like drivers/usb/usb-skeleton.c:
-- probe() takes a reference to the device it binds to (usb_get_dev() there), and the
-- driver gives that reference back when it lets go of the device (usb_put_dev()).
--
-- The bus half (bus_init, device_add, device_del, bus_exit) is correct. The driver half
-- (probe, remove) is not: once every device is gone and the bus is unregistered, objects
-- are still alive. Run the checks, read the leak report, and fix the driver.
--
--   kobj lesson check 9    runs check.lua against this file
--   kobj lesson hint 9     one hint at a time

-- =========================================================== the bus (correct)

-- The last reference to a device is gone: in C, kfree(to_usb_device(kobj)).
local function usb_device_release(kobj)
  local dev = container_of(kobj)
  dev.freed = true
end

local usb_device_ktype = new_ktype{ name = "usb_device", release = usb_device_release }

local bus_subsys = decl_subsys("bus", nil, nil)
local usb_bus = new_kset{ name = "usb", ktype = usb_device_ktype, subsys = bus_subsys }

-- bus_init(): /sys/bus and /sys/bus/usb. Returns 0 or a negative errno.
function bus_init()
  local err = subsystem_register(bus_subsys)
  if err ~= 0 then
    return err
  end
  err = kset_register(usb_bus)
  if err ~= 0 then
    subsystem_unregister(bus_subsys)
  end
  return err
end

function bus_exit()
  kset_unregister(usb_bus)
  subsystem_unregister(bus_subsys)
end

-- device_add(name): a device appears on the bus, as /sys/bus/usb/<name>. Its two
-- references (kobject_init's and kobject_add's) belong to the bus.
-- Returns the device, or nil and a negative errno.
function device_add(name)
  local dev = { driver_data = nil }
  local kobj = new_kobject(dev)
  kobject_init(kobj)
  local err = kobject_set_name(kobj, "%s", name)
  if err == 0 then
    kobj.kset = usb_bus
    err = kobject_add(kobj)
  end
  if err ~= 0 then
    kobject_put(kobj)
    return nil, err
  end
  return dev
end

-- device_del(dev): the device is unplugged. It leaves sysfs and the bus drops its two
-- references; whoever else still holds one keeps the structure alive.
function device_del(dev)
  kobject_unregister(dev.kobj)
end

-- =========================================================== the driver "skel"

local skel = { name = "skel", bound = {}, messages = {} }

-- dev_info(): the driver's log line, naming the device as the kernel's dev_info() does.
local function dev_info(dev, text)
  skel.messages[#skel.messages + 1] = skel.name .. " " .. kobject_name(dev.kobj) .. ": " .. text
end

-- probe(dev): the driver binds to dev and keeps it until remove().
-- Returns 0 or a negative errno.
function probe(dev)
  local kobj = kobject_get(dev.kobj)
  if not kobj then
    return -ENOENT
  end
  local priv = { dev = dev, name = kobject_name(kobj) }
  skel.bound[priv.name] = priv
  dev.driver_data = priv
  dev_info(dev, "bound")
  return 0
end

-- remove(dev): the driver lets go of dev (it is unbound, or its module is unloaded).
function remove(dev)
  local priv = dev.driver_data
  dev_info(dev, "unbound")
  skel.bound[priv.name] = nil
  dev.driver_data = nil
end
