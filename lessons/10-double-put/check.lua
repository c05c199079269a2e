-- Checks for lesson 10: each owner drops exactly the references it took, no more. The
-- checks read the event log (expect.takes, expect.drops), so removing the wrong put fails
-- even when one scenario happens to come out even.

-- drops(who, obj, n, fn, holder): expect.drops by @who. A put on an object already
-- released is not counted by expect.drops (the sandbox ignores it and records a
-- double-put diagnostic), so those are looked for first and reported as such.
local function drops(who, obj, n, fn, holder)
  local before = obj.state ~= "released" and obj.refcount
  local diags, ok, err = diagnostics_during(pcall, expect.drops, obj, n, fn,
                                            { by = who, holder = holder })
  for _, d in ipairs(before and diags or {}) do
    if d.tag == "double-put" and d.id == obj.id then
      local name = d.object
      local why = before >= n
        and string.format("'%s' had refcount %d when %s started; %s owns %d of those, " ..
                          "yet it put '%s' more often than that", name, before, who, who, n, name)
        or string.format("when %s started, '%s' had refcount %d, fewer than the %d it owns: " ..
                         "an earlier put dropped a reference that was not its own",
                         who, name, before, n)
      expect.fail("%s: a put on '%s' came after '%s' was released (%s at %s:%d): %s",
                  who, name, name, d.message, d.file or "?", d.line or 0, why)
    end
  end
  if not ok then error(err, 0) end
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
  local err = expect.call("bus_init()", bus_init)
  expect.that(err == 0, "bus_init() returned %s", tostring(err))
  expect.in_sysfs("/sys/bus/usb")
end)

-- Scenario 1: bind, unbind, unplug.
local first
check("probe() takes one reference to the device, for the driver", function()
  first = expect.call("device_add('1-1')", device_add, "1-1")
  expect.refcount(first.kobj, 2)
  expect.takes(first.kobj, 1, function()
    local err = expect.call("probe()", probe, first)
    expect.that(err == 0, "probe() returned %s", tostring(err))
  end, { by = "probe()" })
end)

check("remove() drops only the reference probe() took; the bus keeps its two", function()
  drops("remove()", first.kobj, 1, function()
    expect.call("remove()", remove, first)
  end, BUS)
  expect.not_released(first.kobj, "the bus still has it registered in /sys/bus/usb and " ..
                      "owns two references; remove() dropped one of them")
  expect.in_sysfs("/sys/bus/usb/1-1")
end)

check("device_del() drops the bus's two references and releases the device", function()
  expect.that(first.kobj.state ~= "released",
              "'1-1' was already released before device_del(): its last put will be one " ..
              "too many (a double put)")
  drops("device_del()", first.kobj, 2, function()
    expect.call("device_del()", device_del, first)
  end, DRIVER)
  expect.released(first.kobj, { prefix = "after remove() and device_del(), " })
end)

-- Scenario 2: a device no driver ever binds.
check("a device no driver binds: device_del() alone releases it", function()
  local lone = expect.call("device_add('1-2')", device_add, "1-2")
  drops("device_del()", lone.kobj, 2, function()
    expect.call("device_del()", device_del, lone)
  end, "nobody else: no driver was bound to '1-2'")
  expect.released(lone.kobj, { prefix = "with no driver ever bound, device_del() must " ..
                                        "release '1-2', but " })
end)

-- Scenario 3: unplugged while the driver still has the device; the driver lets go later.
local third
check("unplugged while still bound: device_del() leaves the driver's reference", function()
  third = expect.call("device_add('1-3')", device_add, "1-3")
  local err = expect.call("probe()", probe, third)
  expect.that(err == 0, "probe() returned %s", tostring(err))
  drops("device_del()", third.kobj, 2, function()
    expect.call("device_del()", device_del, third)
  end, "the driver 'skel' (still bound: probe() took it and remove() has not run yet)")
  expect.not_released(third.kobj, "the driver 'skel' still holds the reference probe() took")
end)

check("then remove() drops the last reference, exactly once", function()
  expect.that(third.kobj.state ~= "released",
              "'1-3' was released by device_del() while the driver still held it")
  drops("remove()", third.kobj, 1, function()
    expect.call("remove()", remove, third)
  end, "the bus (device_add() took two, and device_del() must drop both itself)")
  expect.released(third.kobj)
end)

check("no reference was dropped twice", function()
  local lines = double_puts()
  expect.that(#lines == 0, "%d put(s) landed on an object that was already released:\n%s",
              #lines, table.concat(lines, "\n"))
end)

check("bus_exit() leaves nothing behind", function()
  expect.call("bus_exit()", bus_exit)
  expect.not_in_sysfs("/sys/bus/usb")
  expect.no_leaks{ report = true }
end)
