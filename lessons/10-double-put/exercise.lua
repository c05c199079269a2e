-- Lesson 10 exercise: the double put.
--
-- The bus of lesson 9 and a driver, "skel", shaped like drivers/usb/usb-skeleton.c: probe()
-- keeps the device in the driver's private data (usb_get_dev() there), and skel_delete()
-- frees that private data and gives the reference back (usb_put_dev()).
--
-- The bus half (bus_init, device_add, device_del, bus_exit) is correct. The driver half
-- drops more than it took: a device is freed while the bus still counts on it, and a
-- later put lands on an object that no longer exists ("refcount_t: underflow;
-- use-after-free."). Find the put that gives back a reference the driver never took.
--
--   kobj lesson check 10    runs check.lua against this file
--   kobj lesson hint 10     one hint at a time

-- =========================================================== the bus (correct)

local function usb_device_release(kobj)
  local dev = container_of(kobj)
  dev.freed = true -- kfree(to_usb_device(kobj)) in C
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

-- device_add(name): a device appears as /sys/bus/usb/<name>. Its two references
-- (kobject_init's and kobject_add's) belong to the bus.
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

-- device_del(dev): the device is unplugged; the bus drops its two references.
function device_del(dev)
  kobject_unregister(dev.kobj)
end

-- =========================================================== the driver "skel"

local skel_driver = { name = "skel", bound = {} }

-- skel_delete(skel): frees the driver's private data for one device, and the device
-- reference that the private data holds.
local function skel_delete(skel)
  skel_driver.bound[skel.name] = nil
  kobject_put(skel.udev)
end

-- probe(dev): the driver binds to dev. Returns 0 or a negative errno.
function probe(dev)
  local udev = kobject_get(dev.kobj)
  if not udev then
    return -ENOENT
  end
  local skel = { udev = udev, name = kobject_name(udev) }
  skel_driver.bound[skel.name] = skel
  dev.driver_data = skel
  return 0
end

-- remove(dev): the driver lets go of dev.
function remove(dev)
  local skel = dev.driver_data
  dev.driver_data = nil
  kobject_put(dev.kobj)
  skel_delete(skel)
end
