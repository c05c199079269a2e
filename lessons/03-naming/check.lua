-- Lesson 3 checks: make_port() names its kobject, and copes when naming fails.
-- One scenario in one world (the exercise's ktype lives in it, so no reset()).
-- fail_alloc(n) makes the nth simulated kernel allocation from now fail:
-- kobject_set_name() allocates once for the name, kobject_add() once for the directory.

-- The checks make an add fail on purpose.
accept_diagnostics("add-failed")

-- The objects that the events initialised and that are still not released.
local function left_behind(events)
  local made, names = {}, {}
  for _, ev in ipairs(events) do
    if ev.kind == "init" then made[ev.id] = true end
  end
  for _, l in ipairs(leaks()) do
    if made[l.id] then names[#names + 1] = "'" .. l.name .. "'" end
  end
  return names
end

local ttyS0, ttyS1

check("make_port(0) names the port ttyS0 and adds it to sysfs", function()
  local err
  ttyS0, err = make_port(0)
  expect.that(ttyS0, "make_port(0) failed with %s", tostring(err))
  expect.that(ttyS0.kobj.name == "ttyS0", "the port is named '%s'; expected 'ttyS0'",
              ttyS0.kobj.name)
  expect.in_sysfs("/sys/ttyS0")
  expect.refcount(ttyS0.kobj, 2)     -- the creator's and sysfs'
end)

check("a failed kobject_set_name() makes make_port() return -ENOMEM, adding nothing",
      function()
  fail_alloc(1)                      -- the name's allocation fails
  local diags, events, port, err = diagnostics_during(events_during, make_port, 1)
  for _, d in ipairs(diags) do
    expect.that(d.tag ~= "empty-name",
                "make_port() went on to kobject_add() although kobject_set_name() had " ..
                "failed, so it tried to register a kobject with no name:\n%s\n" ..
                "kobject_set_name() returns 0 or a negative error; look at what it returns.",
                d.message)
  end
  for _, ev in ipairs(events) do
    expect.that(ev.kind ~= "add", "make_port() added '%s' to sysfs although its name " ..
                "could not be set", ev.object or "?")
  end
  expect.that(port == nil, "make_port() returned a port although its name could not be set")
  expect.that(err == -ENOMEM,
              "make_port() returned %s; the caller should get the error that really " ..
              "happened, kobject_set_name()'s -ENOMEM (%d)", tostring(err), -ENOMEM)
  local left = left_behind(events)
  expect.that(#left == 0, "make_port() failed but left %s behind: after kobject_init() " ..
              "the only way to free the object is to drop its reference with kobject_put()",
              table.concat(left, ", "))
  expect.not_in_sysfs("/sys/ttyS1")
end)

check("a failed kobject_add() makes make_port() return its error, leaving nothing",
      function()
  fail_alloc(2)                      -- the name succeeds, the sysfs directory fails
  local events, port, err = events_during(make_port, 1)
  expect.that(port == nil and err == -ENOMEM,
              "make_port() should return nil, -ENOMEM when kobject_add() fails; it " ..
              "returned %s, %s", tostring(port), tostring(err))
  local left = left_behind(events)
  expect.that(#left == 0, "make_port() failed but left %s behind", table.concat(left, ", "))
end)

check("after a failure, the same name can be used again", function()
  local err
  ttyS1, err = make_port(1)
  expect.that(ttyS1, "make_port(1) failed with %s", tostring(err))
  expect.in_sysfs("/sys/ttyS1")
  expect.tree("/sys/ttyS1", "/sys/ttyS1  [refcount 2, serial_port_type]")
end)

check("removing the ports releases them", function()
  expect.drops(ttyS1.kobj, 2, function() remove_port(ttyS1) end, "nobody")
  expect.drops(ttyS0.kobj, 2, function() remove_port(ttyS0) end, "nobody")
  expect.released(ttyS1.kobj)
  expect.released(ttyS0.kobj)
  expect.not_in_sysfs("/sys/ttyS0")
  expect.no_leaks()
  expect.no_diagnostics("empty-name")
end)
