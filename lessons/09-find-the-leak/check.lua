-- Checks for lesson 9: every reference to a device has an owner, and each owner drops
-- exactly its own. The checks read the event log (expect.takes, expect.drops), so a put
-- added in the wrong place fails even when the final counts come out at zero.

local BUS = "the bus (kobject_init's and kobject_add's in device_add(); device_del() drops them)"
local DRIVER = "the driver 'skel' (probe() took it; only remove() may drop it)"

check("bus_init() registers /sys/bus/usb", function()
  local err = expect.call("bus_init()", bus_init)
  expect.that(err == 0, "bus_init() returned %s", tostring(err))
  expect.in_sysfs("/sys/bus/usb")
end)

-- Scenario 1: bind, unbind, unplug.
local first
check("device_add('1-1') gives the bus its two references", function()
  first = expect.call("device_add('1-1')", device_add, "1-1")
  expect.in_sysfs("/sys/bus/usb/1-1")
  expect.refcount(first.kobj, 2)
end)

check("probe() takes one reference to the device, for the driver", function()
  expect.takes(first.kobj, 1, function()
    local err = expect.call("probe()", probe, first)
    expect.that(err == 0, "probe() returned %s", tostring(err))
  end, { by = "probe()" })
end)

check("remove() drops the reference probe() took", function()
  expect.drops(first.kobj, 1, function()
    expect.call("remove()", remove, first)
  end, { by = "remove()", holder = BUS })
end)

check("device_del() drops the bus's two references, and then nothing holds the device", function()
  expect.drops(first.kobj, 2, function()
    expect.call("device_del()", device_del, first)
  end, { by = "device_del()", holder = DRIVER })
  expect.not_in_sysfs("/sys/bus/usb/1-1")
  expect.released(first.kobj, { prefix = "after probe(), remove() and device_del(), " ..
                                         "nobody should hold '1-1', but " })
end)

-- Scenario 2: the device is unplugged while the driver still has it (a program has it
-- open, say); the driver lets go later.
local second
check("unplugged while still bound: device_del() drops only the bus's references", function()
  second = expect.call("device_add('1-2')", device_add, "1-2")
  local err = expect.call("probe()", probe, second)
  expect.that(err == 0, "probe() returned %s", tostring(err))
  expect.drops(second.kobj, 2, function()
    expect.call("device_del()", device_del, second)
  end, { by = "device_del()", holder = "the driver 'skel' (still bound: probe() took it " ..
                                       "and remove() has not run yet)" })
  expect.not_in_sysfs("/sys/bus/usb/1-2")
  expect.not_released(second.kobj, "the driver 'skel' is still bound and holds the " ..
                      "reference probe() took; device_del() must leave it alone")
end)

check("then remove() lets go, and the unplugged device is released", function()
  expect.that(second.kobj.state ~= "released",
              "'1-2' was already released by device_del() while the driver still held it; " ..
              "remove() would now use freed memory. device_del() must drop only the bus's " ..
              "two references")
  expect.drops(second.kobj, 1, function()
    expect.call("remove()", remove, second)
  end, { by = "remove()", holder = BUS })
  expect.released(second.kobj, { prefix = "once the driver let go, nobody should hold " ..
                                          "'1-2', but " })
end)

check("bus_exit() leaves nothing behind", function()
  expect.call("bus_exit()", bus_exit)
  expect.not_in_sysfs("/sys/bus/usb")
  expect.no_diagnostics("double-put")
  expect.no_leaks{ report = true }
end)
