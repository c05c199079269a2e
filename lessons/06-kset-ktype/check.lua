-- Lesson 6 checks: the release that runs for a port is its kset's type's, and it must
-- give back the port's firmware reference. One scenario in one world (the exercise's
-- ktypes and subsystem live in it, so no reset()).

local WHOSE = "The release that ran for the port is the one of get_ktype(port.kobj), the " ..
  "type the kobject core really uses; compare it with port.kobj.ktype."

local ttyS0, ttyS1, fw

check("serial_init() registers /sys/serial with its firmware and its ports kset",
      function()
  local err = serial_init()
  expect.that(err == 0, "serial_init() returned %s", tostring(err))
  expect.in_sysfs("/sys/serial/firmware")
  expect.in_sysfs("/sys/serial/ports")
end)

check("each make_port() takes one firmware reference", function()
  local err
  ttyS0, err = make_port(0)
  expect.that(ttyS0, "make_port(0) failed with %s", tostring(err))
  fw = ttyS0.firmware
  expect.that(fw and fw.kobj, "ttyS0.firmware is not the firmware")
  expect.takes(fw.kobj, 1, function()
    ttyS1, err = make_port(1)
    expect.that(ttyS1, "make_port(1) failed with %s", tostring(err))
  end)
  expect.tree("/sys/serial/ports", [[
/sys/serial/ports  [kset, refcount 6]
├── ttyS0  [refcount 2, serial_port_ktype]
└── ttyS1  [refcount 2, serial_port_ktype]
]])
end)

check("removing ttyS1 frees it and gives back its firmware reference", function()
  advise(WHOSE, expect.drops, fw.kobj, 1, function() remove_port(ttyS1) end,
         "ttyS0 and the driver, which still use the firmware")
  expect.released(ttyS1.kobj)
  expect.that(ttyS1.freed and ttyS1.regs == nil,
              "ttyS1 was released but not freed: its registers are still mapped")
  expect.not_released(fw.kobj, "ttyS0 still runs it")
end)

check("ttyS0, held by a reader across remove_port(), gives its firmware back at its last put",
      function()
  local reader = kobject_get(ttyS0.kobj)   -- say, a program with a file of ttyS0 open
  expect.that(reader, "kobject_get() on ttyS0 failed")
  expect.drops(fw.kobj, 0, function() remove_port(ttyS0) end,
               "ttyS0 (a reader still holds it, and until its memory goes the port " ..
               "may use the firmware)")
  expect.not_released(ttyS0.kobj, "the reader still holds it")
  advise(WHOSE, expect.drops, fw.kobj, 1, function() kobject_put(reader) end,
         "the driver, which drops it in serial_exit()")
  expect.released(ttyS0.kobj)
  expect.that(ttyS0.freed and ttyS0.regs == nil,
              "ttyS0 was released but not freed: its registers are still mapped")
end)

check("serial_exit() releases the firmware, the kset and the subsystem", function()
  serial_exit()
  advise("The ports' firmware references were never given back, so the firmware " ..
         "outlives the driver, and keeps the subsystem alive as its parent and kset.",
         expect.released, fw.kobj)
  expect.not_in_sysfs("/sys/serial")
end)

check("nothing leaks, and the sandbox reported nothing", function()
  expect.no_leaks()
  expect.no_diagnostics()
end)
