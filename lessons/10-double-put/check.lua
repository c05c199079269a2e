-- Checks for lesson 10: each owner drops exactly the references it took, no more. The
-- checks read the event log (expect.takes, expect.drops), so removing the wrong put fails
-- even when one scenario happens to come out even.

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

-- drops(prefix, obj, n, fn, holder): fn must drop exactly n references to obj. A put on
-- an object already released is not counted by expect.drops (the sandbox ignores it and
-- records a double-put diagnostic), so those are looked for first and reported as such.
local function drops(prefix, obj, n, fn, holder)
  local stand_in = about(obj)
  local name, before = stand_in.name, obj.refcount
  local first = #diagnostics() + 1
  local ok, err = pcall(expect.drops, stand_in, n, fn, holder)
  local diags = diagnostics()
  for i = first, #diags do
    local d = diags[i]
    if d.tag == "double-put" and d.id == obj.id then
      local who = prefix:match("^(.-): ") or "it"
      local why = before >= n
        and string.format("'%s' had refcount %d when %s started; %s owns %d of those, " ..
                          "yet it put '%s' more often than that", name, before, who, who, n, name)
        or string.format("when %s started, '%s' had refcount %d, fewer than the %d it owns: " ..
                         "an earlier put dropped a reference that was not its own",
                         who, name, before, n)
      fail("%sa put on '%s' came after '%s' was released (%s at %s:%d): %s",
           prefix, name, name, d.message, d.file or "?", d.line or 0, why)
    end
  end
  if not ok then
    within(prefix, obj, error, err, 0)
  end
end

local function takes(prefix, obj, n, fn)
  within(prefix, obj, expect.takes, about(obj), n, fn)
end

local BUS = "the bus (device_add() took them; device_del() drops them)"
local DRIVER = "the driver 'skel' (probe() took it; remove() drops it)"

-- The double puts so far, as the kernel words them, with their lines.
local function double_puts()
  local lines = {}
  for _, d in ipairs(diagnostics()) do
    if d.tag == "double-put" then
      lines[#lines + 1] = string.format("%s at %s:%d\n%s", d.message, d.file or "?",
                                        d.line or 0, d.explanation)
    end
  end
  return lines
end

check("bus_init() registers /sys/bus/usb", function()
  local err = call("bus_init()", bus_init)
  if err ~= 0 then fail("bus_init() returned %s", tostring(err)) end
  expect.in_sysfs("/sys/bus/usb")
end)

-- Scenario 1: bind, unbind, unplug.
local first
check("probe() takes one reference to the device, for the driver", function()
  first = call("device_add('1-1')", device_add, "1-1")
  expect.refcount(first.kobj, 2)
  takes("probe(): ", first.kobj, 1, function()
    local err = call("probe()", probe, first)
    if err ~= 0 then fail("probe() returned %s", tostring(err)) end
  end)
end)

check("remove() drops only the reference probe() took; the bus keeps its two", function()
  drops("remove(): ", first.kobj, 1, function()
    call("remove()", remove, first)
  end, BUS)
  expect.not_released(first.kobj, "the bus still has it registered in /sys/bus/usb and " ..
                      "owns two references; remove() dropped one of them")
  expect.in_sysfs("/sys/bus/usb/1-1")
end)

check("device_del() drops the bus's two references and releases the device", function()
  if first.kobj.state == "released" then
    fail("'1-1' was already released before device_del(): its last put will be one " ..
         "too many (a double put)")
  end
  drops("device_del(): ", first.kobj, 2, function()
    call("device_del()", device_del, first)
  end, DRIVER)
  released("after remove() and device_del(), ", first.kobj)
end)

-- Scenario 2: a device no driver ever binds.
check("a device no driver binds: device_del() alone releases it", function()
  local lone = call("device_add('1-2')", device_add, "1-2")
  drops("device_del(): ", lone.kobj, 2, function()
    call("device_del()", device_del, lone)
  end, "nobody else: no driver was bound to '1-2'")
  released("with no driver ever bound, device_del() must release '1-2', but ", lone.kobj)
end)

-- Scenario 3: unplugged while the driver still has the device; the driver lets go later.
local third
check("unplugged while still bound: device_del() leaves the driver's reference", function()
  third = call("device_add('1-3')", device_add, "1-3")
  local err = call("probe()", probe, third)
  if err ~= 0 then fail("probe() returned %s", tostring(err)) end
  drops("device_del(): ", third.kobj, 2, function()
    call("device_del()", device_del, third)
  end, "the driver 'skel' (still bound: probe() took it and remove() has not run yet)")
  expect.not_released(third.kobj, "the driver 'skel' still holds the reference probe() took")
end)

check("then remove() drops the last reference, exactly once", function()
  if third.kobj.state == "released" then
    fail("'1-3' was released by device_del() while the driver still held it")
  end
  drops("remove(): ", third.kobj, 1, function()
    call("remove()", remove, third)
  end, "the bus (device_add() took two, and device_del() must drop both itself)")
  released("", third.kobj)
end)

check("no reference was dropped twice", function()
  local lines = double_puts()
  if #lines > 0 then
    fail("%d put(s) landed on an object that was already released:\n%s", #lines,
         table.concat(lines, "\n"))
  end
end)

check("bus_exit() leaves nothing behind", function()
  call("bus_exit()", bus_exit)
  expect.not_in_sysfs("/sys/bus/usb")
  no_leaks()
end)
