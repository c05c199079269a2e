-- Checks for lesson 12: the events user space hears, as `udevadm monitor --env` would
-- show them: an "add" and a "remove" for each device on a bus, and nothing for anything
-- else below /sys/devices.

-- lesson.lua offers no way to fail with a message of our own: borrow the type of the
-- failures its expectations raise, so check() reports ours the same way.
local Failure = getmetatable(select(2, pcall(expect.state, { name = "", state = "" }, "?")))

local function fail(fmt, ...)
  error(setmetatable({ message = string.format(fmt, ...) }, Failure), 0)
end

-- call(what, fn, ...): the student's function; an error it raises becomes a failure.
local function call(what, fn, ...)
  local results = table.pack(pcall(fn, ...))
  if not results[1] then
    fail("%s raised an error: %s", what, tostring(results[2]))
  end
  return table.unpack(results, 2, results.n)
end

-- callbacks(what, fn, ...): calls the student's @fn. Returns a failure message if a
-- hotplug operation raised an error meanwhile (the sandbox records that as a
-- callback-error diagnostic) or nil, then @fn's results.
local function callbacks(what, fn, ...)
  local first = #diagnostics() + 1
  local results = table.pack(call(what, fn, ...))
  local diags, err = diagnostics(), nil
  for i = first, #diags do
    if diags[i].tag == "callback-error" and not err then
      err = string.format("during %s, a hotplug operation failed: %s", what,
                          diags[i].message:match("^[^\n]*"))
    end
  end
  return err, table.unpack(results, 1, results.n)
end

local function no_error(err)
  if err then fail("%s", err) end
end

local function events_for(devpath)
  local found = {}
  for _, ev in ipairs(hotplug_events()) do
    if ev.devpath == devpath then found[#found + 1] = ev.action end
  end
  return found
end

-- expect.hotplug, with what the missing event means for user space.
local function heard(action, devpath, env, meaning)
  local ok, err = pcall(expect.hotplug, { action = action, devpath = devpath, env = env })
  if not ok then
    if getmetatable(err) ~= Failure then error(err, 0) end
    err.message = err.message .. "\n" .. meaning
    error(err, 0)
  end
end

local PCI = { name = "pci" }
local ROOT = "/devices/pci0000:00"
local SATA = ROOT .. "/0000:00:1f.2"
local root, sata, stats

check("devices_init() registers /sys/devices", function()
  local err = call("devices_init()", devices_init)
  if err ~= 0 then fail("devices_init() returned %s", tostring(err)) end
  expect.in_sysfs("/sys/devices")
end)

check("a host bridge, on no bus, is registered without an event", function()
  local err
  err, root = callbacks("device_register('pci0000:00')", device_register, "pci0000:00")
  if not root then fail("device_register('pci0000:00') returned nil") end
  no_error(err)
  local got = events_for(ROOT)
  if #got > 0 then
    fail("user space heard '%s %s', but pci0000:00 is on no bus: no driver is loaded " ..
         "for it and udev has nothing to do with it", got[1], ROOT)
  end
end)

check("a PCI device sends an 'add' event", function()
  local err
  err, sata = callbacks("device_register('0000:00:1f.2')", device_register,
                       "0000:00:1f.2", root, PCI, "8086:2922")
  if not sata then fail("device_register('0000:00:1f.2') returned nil") end
  no_error(err)
  heard("add", SATA, nil, "The device is in sysfs (" .. tostring(sata.kobj.path) .. "), " ..
        "but user space was never told: udev would not load its driver. The kset's " ..
        "hotplug_ops decide which events are sent, and say nothing when they refuse one.")
end)

check("the event names the bus and carries the bus's variables", function()
  heard("add", SATA, { SUBSYSTEM = "pci", ACTION = "add", DEVPATH = SATA,
                       PCI_SLOT_NAME = "0000:00:1f.2", PCI_ID = "8086:2922" },
        "Expected SUBSYSTEM=pci (from name()) and PCI_SLOT_NAME=0000:00:1f.2 and " ..
        "PCI_ID=8086:2922 (from hotplug()).")
end)

check("an object below a device that is not a device sends nothing", function()
  local plain = new_ktype{ name = "statistics", release = function() end }
  stats = {}
  local kobj = new_kobject(stats)
  kobject_init(kobj)
  kobject_set_name(kobj, "statistics")
  kobj.ktype = plain
  kobj.parent = sata.kobj
  local err, status = callbacks("kobject_add(statistics)", kobject_add, kobj)
  if status ~= 0 then fail("could not add %s/statistics", SATA) end
  no_error(err)
  local got = events_for(SATA .. "/statistics")
  if #got > 0 then
    fail("user space heard '%s %s/statistics': that directory is not a device, and " ..
         "udev would look for a driver for it", got[1], SATA)
  end
end)

check("unregistering sends a 'remove' for the PCI device, and nothing else", function()
  local errs = {
    callbacks("kobject_unregister(statistics)", kobject_unregister, stats.kobj),
    callbacks("device_unregister(0000:00:1f.2)", device_unregister, sata),
    callbacks("device_unregister(pci0000:00)", device_unregister, root),
  }
  no_error(errs[1] or errs[2] or errs[3])
  heard("remove", SATA, { SUBSYSTEM = "pci", ACTION = "remove" },
        "Without it, udev never learns that 0000:00:1f.2 is gone.")
  for _, path in ipairs{ ROOT, SATA .. "/statistics" } do
    local got = events_for(path)
    if #got > 0 then fail("user space heard '%s %s'", got[#got], path) end
  end
end)

check("devices_exit() leaves nothing behind", function()
  call("devices_exit()", devices_exit)
  expect.no_leaks()
end)
