-- Lesson 9 demo: finding a leak by reading who took each reference.
--
-- Mirrors drivers/usb/usb-skeleton.c: skel_probe() takes a reference to the USB device
-- with usb_get_dev(), and skel_delete() gives it back with usb_put_dev(). Here a driver
-- takes its reference and forgets to give it back; the device, its kset and the
-- subsystem above it all stay alive, and the leak report says which line is to blame.
--
-- Watch for: the count staying at 1 after the device leaves sysfs; one leaked child
-- keeping its kset and subsystem alive; the "taken at ... by kobject_get, never put"
-- line, which points at the get that has no put.

local function release(kobj)
  container_of(kobj).freed = true
end

local usb_device_ktype = new_ktype{ name = "usb_device", release = release }
local bus = decl_subsys("bus", nil, nil)
local usb = new_kset{ name = "usb", ktype = usb_device_ktype, subsys = bus }
local dev = { name = "1-1" }

do
  step("A bus: /sys/bus/usb is a kset in the subsystem 'bus'")
  assert(subsystem_register(bus) == 0)
  assert(kset_register(usb) == 0)
  show_tree()
end

do
  step("A device appears on the bus")
  local kobj = new_kobject(dev)
  kobject_init(kobj)
  assert(kobject_set_name(kobj, "%s", dev.name) == 0)
  kobj.kset = usb
  assert(kobject_add(kobj) == 0)
  predict("What is the device's refcount now?", function() return dev.kobj.refcount end,
          "kobject_init() gave its creator 1, kobject_add() took 1 for the sysfs directory.")
  show_tree()
end

do
  step("A driver binds: probe() takes a reference for itself")
  local kobj = kobject_get(dev.kobj)
  assert(kobj, "kobject_get() failed: the device is already on its way out")
  dev.driver_data = { kobj = kobj }
  predict("What is the device's refcount after probe()?", function() return dev.kobj.refcount end,
          "The bus holds 2 and the driver 1. Nobody else knows about the driver's reference.")
end

do
  step("The device is unplugged: the bus drops its two references")
  kobject_unregister(dev.kobj)
  predict("The directory is gone. What is the device's refcount?",
          function() return dev.kobj.refcount end,
          "The driver's reference keeps the structure alive after it left sysfs.")
  predict("And its state?", function() return dev.kobj.state end,
          "Deleted from sysfs but not released: someone still holds a reference.",
          { choices = "state" })
  show_tree()
end

do
  step("The driver's remove() forgets usb_put_dev(); the bus goes away")
  dev.driver_data = nil            -- the driver forgets the device, not the reference
  kset_unregister(usb)
  subsystem_unregister(bus)
  predict("How many objects are still not released?", function() return #leaks() end,
          "The device holds its kset and its parent, so 'usb' and 'bus' cannot go either.")
  show_leaks()
end

do
  step("Reading the log of the device")
  -- The log has every reference taken or dropped, with its line; keep the device's.
  for _, ev in ipairs(log()) do
    local counts = ev.kind == "init" or ev.kind == "get" or ev.kind == "put"
    if ev.id == dev.kobj.id and counts then
      print(string.format("  %s:%d  %-18s %-7s %d -> %d", ev.file, ev.line, ev.op, ev.kind,
                          ev.before, ev.after))
    end
  end
  print("  three references taken (init, add, get), two dropped (both by the unregister)")
end

do
  step("The missing put: the whole chain is released, child first")
  kobject_put(dev.kobj)
  assert(dev.freed)
  show_log(7)
  show_leaks()
  assert(#leaks() == 0)
end
