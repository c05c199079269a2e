-- Lesson 7 checks: every kset of a bus belongs to the bus's subsystem, and so sits in its
-- directory and is guarded by its rwsem. One scenario in one world (the exercise's
-- ktypes and "bus" subsystem live in it, so no reset()).

local pci, e1000, nic

check("buses_init() registers /sys/bus", function()
  local err = buses_init()
  expect.that(err == 0, "buses_init() returned %s", tostring(err))
  expect.in_sysfs("/sys/bus")
end)

check("bus_register('pci') makes /sys/bus/pci with its devices and drivers", function()
  local err
  pci, err = bus_register("pci")
  expect.that(pci, "bus_register('pci') failed with %s", tostring(err))
  advise("A kset with no parent of its own goes in its subsystem's directory. Which " ..
         "subsystem does each kset of the bus belong to?",
         expect.tree, "/sys/bus", [[
/sys/bus  [subsystem, refcount 4]
└── pci  [subsystem, refcount 4]
    ├── devices  [kset, refcount 2]
    └── drivers  [kset, refcount 2]
]])
  expect.not_in_sysfs("/sys/drivers")
end)

check("both ksets of the bus belong to its subsystem", function()
  for _, kset in ipairs({ pci.devices, pci.drivers }) do
    expect.that(kset.subsys ~= nil,
                "the kset '%s' belongs to no subsystem: the article's rule is that every " ..
                "kset must belong to one, whose rwsem serialises access to its list",
                kset.name)
    expect.that(kset.subsys == pci.subsys,
                "the kset '%s' belongs to the subsystem '%s'; it should belong to the " ..
                "bus's own, 'pci'", kset.name, kset.subsys.kset.name)
  end
end)

check("driver_register() adds e1000 under the subsystem's lock", function()
  local err
  local diags = diagnostics_during(function() e1000, err = driver_register(pci, "e1000") end)
  for _, d in ipairs(diags) do
    expect.that(d.tag ~= "no-subsystem",
                "adding e1000 oopsed:\n%s\n%s", d.message, d.explanation)
  end
  expect.that(e1000, "driver_register(pci, 'e1000') failed with %s", tostring(err))
  expect.that(e1000.kobj.path == "/sys/bus/pci/drivers/e1000",
              "e1000 is at %s; expected /sys/bus/pci/drivers/e1000", e1000.kobj.path)
  expect.that(get_ktype(e1000.kobj).name == "driver_ktype",
              "e1000 has the type %s; the drivers kset should give it driver_ktype",
              get_ktype(e1000.kobj).name)
end)

check("device_register() adds a device next to it", function()
  local err
  nic, err = device_register(pci, "0000:00:19.0")
  expect.that(nic, "device_register(pci, '0000:00:19.0') failed with %s", tostring(err))
  expect.tree("/sys/bus/pci", [[
/sys/bus/pci  [subsystem, refcount 4]
├── devices  [kset, refcount 4]
│   └── 0000:00:19.0  [refcount 2, device_ktype]
└── drivers  [kset, refcount 4]
    └── e1000  [refcount 2, driver_ktype]
]])
end)

check("tearing down in reverse order releases everything", function()
  expect.drops(nic.kobj, 2, function() device_unregister(nic) end)
  expect.drops(e1000.kobj, 2, function() driver_unregister(e1000) end)
  bus_unregister(pci)
  buses_exit()
  expect.released(nic.kobj)
  expect.released(e1000.kobj)
  expect.not_in_sysfs("/sys/bus")
  expect.no_leaks()
end)

check("the sandbox reported nothing", function()
  expect.no_diagnostics()
end)
