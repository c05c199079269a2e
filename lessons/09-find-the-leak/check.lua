-- Checks for lesson 9: every reference to a device has an owner, and each owner drops
-- exactly its own. The checks read the event log (expect.takes, expect.drops), so a put
-- added in the wrong place fails even when the final counts come out at zero.

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

-- The references still outstanding on obj, as the core's leak report words them. (The
-- report pairs each put with the reference it gives back, an unregister's put with the
-- creator's; leaks() does not do that yet, so it can blame kobject_init for a lost get.)
local function outstanding(obj)
  local ok, name = pcall(function() return obj.name end)
  local lines, inside = {}, false
  for line in leak_report():gmatch("[^\n]+") do
    if line:match("^  %S") then
      inside = ok and line:sub(3, #name + 4) == "'" .. name .. "'"
    elseif inside then
      lines[#lines + 1] = line:sub(3)
    end
  end
  return #lines > 0 and "\nstill held:\n" .. table.concat(lines, "\n") or ""
end

-- released(prefix, obj): obj's count must have reached zero.
local function released(prefix, obj)
  if obj.state ~= "released" then
    fail("%s'%s' is not released (refcount %d)%s", prefix, obj.name, obj.refcount,
         outstanding(obj))
  end
end

-- no_leaks(): every object released; the message is the core's leak report.
local function no_leaks()
  if #leaks() > 0 then
    fail("%s", (leak_report():gsub("\n+$", "")))
  end
end

-- within(prefix, obj, fn, ...): runs an expectation about @obj; its failure message gets
-- @prefix in front and the references still held on @obj after it.
local function within(prefix, obj, fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return end
  if getmetatable(err) ~= Failure then
    fail("%s%s", prefix, tostring(err))
  end
  err.message = prefix .. err.message .. outstanding(obj)
  error(err, 0)
end

-- expect.drops and expect.takes name the object in their messages; a handle to a released
-- object has no name any more, so they get a stand-in that keeps the name and the id.
local function about(obj)
  if obj.state == "released" then
    for _, o in ipairs(objects()) do
      if o.id == obj.id then fail("'%s' is already released", o.name) end
    end
  end
  return { id = obj.id, name = obj.name }
end

local function drops(prefix, obj, n, fn, holder)
  within(prefix, obj, expect.drops, about(obj), n, fn, holder)
end

local function takes(prefix, obj, n, fn)
  within(prefix, obj, expect.takes, about(obj), n, fn)
end

local BUS = "the bus (kobject_init's and kobject_add's in device_add(); device_del() drops them)"
local DRIVER = "the driver 'skel' (probe() took it; only remove() may drop it)"

check("bus_init() registers /sys/bus/usb", function()
  local err = call("bus_init()", bus_init)
  if err ~= 0 then fail("bus_init() returned %s", tostring(err)) end
  expect.in_sysfs("/sys/bus/usb")
end)

-- Scenario 1: bind, unbind, unplug.
local first
check("device_add('1-1') gives the bus its two references", function()
  first = call("device_add('1-1')", device_add, "1-1")
  expect.in_sysfs("/sys/bus/usb/1-1")
  expect.refcount(first.kobj, 2)
end)

check("probe() takes one reference to the device, for the driver", function()
  takes("probe(): ", first.kobj, 1, function()
    local err = call("probe()", probe, first)
    if err ~= 0 then fail("probe() returned %s", tostring(err)) end
  end)
end)

check("remove() drops the reference probe() took", function()
  drops("remove(): ", first.kobj, 1, function()
    call("remove()", remove, first)
  end, BUS)
end)

check("device_del() drops the bus's two references, and then nothing holds the device", function()
  drops("device_del(): ", first.kobj, 2, function()
    call("device_del()", device_del, first)
  end, DRIVER)
  expect.not_in_sysfs("/sys/bus/usb/1-1")
  released("after probe(), remove() and device_del(), nobody should hold '1-1', but ",
           first.kobj)
end)

-- Scenario 2: the device is unplugged while the driver still has it (a program has it
-- open, say); the driver lets go later.
local second
check("unplugged while still bound: device_del() drops only the bus's references", function()
  second = call("device_add('1-2')", device_add, "1-2")
  local err = call("probe()", probe, second)
  if err ~= 0 then fail("probe() returned %s", tostring(err)) end
  drops("device_del(): ", second.kobj, 2, function()
    call("device_del()", device_del, second)
  end, "the driver 'skel' (still bound: probe() took it and remove() has not run yet)")
  expect.not_in_sysfs("/sys/bus/usb/1-2")
  expect.not_released(second.kobj, "the driver 'skel' is still bound and holds the " ..
                      "reference probe() took; device_del() must leave it alone")
end)

check("then remove() lets go, and the unplugged device is released", function()
  if second.kobj.state == "released" then
    fail("'1-2' was already released by device_del() while the driver still held it; " ..
         "remove() would now use freed memory. device_del() must drop only the bus's " ..
         "two references")
  end
  drops("remove(): ", second.kobj, 1, function()
    call("remove()", remove, second)
  end, BUS)
  released("once the driver let go, nobody should hold '1-2', but ", second.kobj)
end)

check("bus_exit() leaves nothing behind", function()
  call("bus_exit()", bus_exit)
  expect.not_in_sysfs("/sys/bus/usb")
  expect.no_diagnostics("double-put")
  no_leaks()
end)
