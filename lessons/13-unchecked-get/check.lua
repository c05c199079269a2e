-- Checks for lesson 13: a lookup may find an object whose count already reached zero;
-- kobject_get() then returns nil, and the caller must fail cleanly instead of using it.

-- The checks get a released object on purpose.
accept_diagnostics("get-released")

local ENXIO = 6

-- The first get-released diagnostic among @diags, as the kernel words it.
local function first_refusal(diags)
  for _, d in ipairs(diags) do
    if d.tag == "get-released" then
      return string.format("%s at %s:%d", d.message, d.file or "?", d.line or 0)
    end
  end
end

-- open_fails(name, why): port_open(@name) must fail with nil, -ENXIO, and raise no error.
local function open_fails(name, why)
  local diags, ok, port, err = diagnostics_during(pcall, port_open, name)
  local refused = first_refusal(diags)
  expect.that(ok, "port_open('%s') raised an error: %s\n%s%s", name, tostring(port), why,
              refused and "\nkobject_get() said: " .. refused or "")
  expect.that(port == nil, "port_open('%s') returned a port%s. %s", name,
              refused and " although kobject_get() refused it (" .. refused .. ")" or "", why)
  expect.that(err == -ENXIO, "port_open('%s') returned nil, %s; expected nil, -ENXIO (%d)",
              name, tostring(err), -ENXIO)
end

local ttyS0, ttyS1, file

check("ports_init() and port_register() make /sys/class/tty/ttyS0 and ttyS1", function()
  local err = expect.call("ports_init()", ports_init)
  expect.that(err == 0, "ports_init() returned %s", tostring(err))
  ttyS0 = expect.call("port_register('ttyS0')", port_register, "ttyS0")
  ttyS1 = expect.call("port_register('ttyS1')", port_register, "ttyS1")
  expect.that(ttyS0 and ttyS1, "port_register() returned nil")
  expect.in_sysfs("/sys/class/tty/ttyS0")
  expect.in_sysfs("/sys/class/tty/ttyS1")
end)

check("port_open() of a live port takes one reference, for the open file", function()
  expect.takes(ttyS0.kobj, 1, function()
    file = expect.call("port_open('ttyS0')", port_open, "ttyS0")
  end)
  expect.that(file == ttyS0, "port_open('ttyS0') did not return the port ttyS0")
  expect.that(ttyS0.users == 1, "ttyS0.users is %s; expected 1", tostring(ttyS0.users))
end)

check("port_close() gives it back", function()
  expect.drops(ttyS0.kobj, 1, function() expect.call("port_close()", port_close, file) end,
               "the driver (port_register()'s two)")
end)

check("port_open() of a port that is being destroyed fails with -ENXIO", function()
  expect.call("port_unregister(ttyS1)", port_unregister, ttyS1)
  expect.released(ttyS1.kobj)
  open_fails("ttyS1",
             "ttyS1 is still in the lookup table (flush_work() has not run), but its count " ..
             "reached zero, so kobject_get() returned nil. That result must be tested: " ..
             "using nil is, in the kernel, a NULL pointer dereference (an oops); using the " ..
             "port anyway is a use after free.")
end)

check("port_open() of a port nobody registered fails with -ENXIO", function()
  open_fails("ttyS7", "port_lookup() returned nil: there is no such port.")
end)

check("once the work has run, ttyS1 is gone from the table", function()
  expect.call("flush_work()", flush_work)
  open_fails("ttyS1", "After flush_work(), port_lookup() does not find ttyS1 at all " ..
             "and returns nil.")
end)

check("ttyS0 is unaffected, and nothing is left at the end", function()
  expect.call("port_unregister(ttyS0)", port_unregister, ttyS0)
  expect.call("flush_work()", flush_work)
  expect.call("ports_exit()", ports_exit)
  expect.no_diagnostics("double-put")
  expect.no_leaks()
end)
