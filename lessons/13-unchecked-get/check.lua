-- Checks for lesson 13: a lookup may find an object whose count already reached zero;
-- kobject_get() then returns nil, and the caller must fail cleanly instead of using it.

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

local ENXIO = 6

-- The get-released diagnostics recorded since the nth, as the kernel words them.
local function refused_since(n)
  local diags = diagnostics()
  for i = n + 1, #diags do
    if diags[i].tag == "get-released" then
      return string.format("%s at %s:%d", diags[i].message, diags[i].file or "?",
                           diags[i].line or 0)
    end
  end
end

-- open_fails(name, why): port_open(@name) must fail with nil, -ENXIO, and raise no error.
local function open_fails(name, why)
  local seen = #diagnostics()
  local ok, port, err = pcall(port_open, name)
  local refused = refused_since(seen)
  if not ok then
    fail("port_open('%s') raised an error: %s\n%s%s", name, tostring(port), why,
         refused and "\nkobject_get() said: " .. refused or "")
  end
  if port ~= nil then
    fail("port_open('%s') returned a port%s. %s", name,
         refused and " although kobject_get() refused it (" .. refused .. ")" or "", why)
  end
  if err ~= -ENXIO then
    fail("port_open('%s') returned nil, %s; expected nil, -ENXIO (%d)", name,
         tostring(err), -ENXIO)
  end
end

local ttyS0, ttyS1, file

check("ports_init() and port_register() make /sys/class/tty/ttyS0 and ttyS1", function()
  local err = call("ports_init()", ports_init)
  if err ~= 0 then fail("ports_init() returned %s", tostring(err)) end
  ttyS0 = call("port_register('ttyS0')", port_register, "ttyS0")
  ttyS1 = call("port_register('ttyS1')", port_register, "ttyS1")
  if not (ttyS0 and ttyS1) then fail("port_register() returned nil") end
  expect.in_sysfs("/sys/class/tty/ttyS0")
  expect.in_sysfs("/sys/class/tty/ttyS1")
end)

check("port_open() of a live port takes one reference, for the open file", function()
  expect.takes(ttyS0.kobj, 1, function()
    file = call("port_open('ttyS0')", port_open, "ttyS0")
  end)
  if file ~= ttyS0 then fail("port_open('ttyS0') did not return the port ttyS0") end
  if ttyS0.users ~= 1 then fail("ttyS0.users is %s; expected 1", tostring(ttyS0.users)) end
end)

check("port_close() gives it back", function()
  expect.drops(ttyS0.kobj, 1, function() call("port_close()", port_close, file) end,
               "the driver (port_register()'s two)")
end)

check("port_open() of a port that is being destroyed fails with -ENXIO", function()
  call("port_unregister(ttyS1)", port_unregister, ttyS1)
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
  call("flush_work()", flush_work)
  open_fails("ttyS1", "After flush_work(), port_lookup() does not find ttyS1 at all " ..
             "and returns nil.")
end)

check("ttyS0 is unaffected, and nothing is left at the end", function()
  call("port_unregister(ttyS0)", port_unregister, ttyS0)
  call("flush_work()", flush_work)
  call("ports_exit()", ports_exit)
  expect.no_diagnostics("double-put")
  expect.no_leaks()
end)
