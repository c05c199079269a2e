-- Checks for lesson 12: the events user space hears, as `udevadm monitor --env` would
-- show them: an "add" and a "remove" for each device on a bus, and nothing for anything
-- else below /sys/devices.

-- callbacks(what, fn, ...): calls the student's @fn. Returns a failure message if a
-- hotplug operation raised an error meanwhile (the sandbox records that as a
-- callback-error diagnostic) or nil, then @fn's results.
local function callbacks(what, fn, ...)
  local results = table.pack(diagnostics_during(expect.call, what, fn, ...))
  local err
  for _, d in ipairs(results[1]) do
    if d.tag == "callback-error" and not err then
      err = string.format("during %s, a hotplug operation failed: %s", what,
                          d.message:match("^[^\n]*"))
    end
  end
  return err, table.unpack(results, 2, results.n)
end

local function no_error(err)
  expect.that(not err, "%s", err)
end

local function events_for(devpath)
  local found = {}
  for _, ev in ipairs(hotplug_events()) do
    if ev.devpath == devpath then found[#found + 1] = ev.action end
  end
  return found
end

local PCI = { name = "pci" }
local ROOT = "/devices/pci0000:00"
local SATA = ROOT .. "/0000:00:1f.2"
local root, sata, stats

check("devices_init() registers /sys/devices", function()
  local err = expect.call("devices_init()", devices_init)
  expect.that(err == 0, "devices_init() returned %s", tostring(err))
  expect.in_sysfs("/sys/devices")
end)

check("a host bridge, on no bus, is registered without an event", function()
  local err
  err, root = callbacks("device_register('pci0000:00')", device_register, "pci0000:00")
  expect.that(root, "device_register('pci0000:00') returned nil")
  no_error(err)
  local got = events_for(ROOT)
  expect.that(#got == 0, "user space heard '%s %s', but pci0000:00 is on no bus: no " ..
              "driver is loaded for it and udev has nothing to do with it", got[1], ROOT)
end)

check("a PCI device sends an 'add' event", function()
  local err
  err, sata = callbacks("device_register('0000:00:1f.2')", device_register,
                       "0000:00:1f.2", root, PCI, "8086:2922")
  expect.that(sata, "device_register('0000:00:1f.2') returned nil")
  no_error(err)
  advise("The device is in sysfs (" .. tostring(sata.kobj.path) .. "), but user space " ..
         "was never told: udev would not load its driver. The kset's hotplug_ops decide " ..
         "which events are sent, and say nothing when they refuse one.",
         expect.hotplug, { action = "add", devpath = SATA })
end)

check("the event names the bus and carries the bus's variables", function()
  advise("Expected SUBSYSTEM=pci (from name()) and PCI_SLOT_NAME=0000:00:1f.2 and " ..
         "PCI_ID=8086:2922 (from hotplug()).",
         expect.hotplug, { action = "add", devpath = SATA,
                           env = { SUBSYSTEM = "pci", ACTION = "add", DEVPATH = SATA,
                                   PCI_SLOT_NAME = "0000:00:1f.2", PCI_ID = "8086:2922" } })
end)

check("an object below a device that is not a device sends nothing", function()
  local plain = new_ktype{ name = "statistics", release = function() end }
  stats = {}
  local kobj = new_kobject(stats)
  kobject_init(kobj)
  kobject_set_name(kobj, "statistics")
  kobj.ktype = plain
  kobj.parent = sata.kobj
  local err, status = callbacks("kobject_add(statistics)",
                                function() return kobject_add(kobj) end)
  expect.that(status == 0, "could not add %s/statistics", SATA)
  no_error(err)
  local got = events_for(SATA .. "/statistics")
  expect.that(#got == 0, "user space heard '%s %s/statistics': that directory is not a " ..
              "device, and udev would look for a driver for it", got[1], SATA)
end)

check("unregistering sends a 'remove' for the PCI device, and nothing else", function()
  local errs = {
    callbacks("kobject_unregister(statistics)",
              function() return kobject_unregister(stats.kobj) end),
    callbacks("device_unregister(0000:00:1f.2)", device_unregister, sata),
    callbacks("device_unregister(pci0000:00)", device_unregister, root),
  }
  no_error(errs[1] or errs[2] or errs[3])
  advise("Without it, udev never learns that 0000:00:1f.2 is gone.",
         expect.hotplug, { action = "remove", devpath = SATA,
                           env = { SUBSYSTEM = "pci", ACTION = "remove" } })
  for _, path in ipairs{ ROOT, SATA .. "/statistics" } do
    local got = events_for(path)
    expect.that(#got == 0, "user space heard '%s %s'", got[#got], path)
  end
end)

check("devices_exit() leaves nothing behind", function()
  expect.call("devices_exit()", devices_exit)
  expect.no_leaks()
end)
