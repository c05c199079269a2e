-- Checks for lesson 19: sensor_find() gives the caller a reference of its own, and it
-- stays right when sensor_remove() drops the last reference at the same time, under
-- every schedule of the two threads (explore), not only the one they happen to get.

local ready = false

check("sensor_find() returns the sensor with a reference of the caller's own", function()
  expect.that(expect.call("sensors_init()", sensors_init) == 0, "sensors_init() failed")
  local sensor = expect.call("sensor_add('temp0')", sensor_add, "temp0")
  expect.that(sensor, "sensor_add('temp0') failed")
  local kobj = expect.call("sensor_find('temp0')", sensor_find, "temp0")
  expect.that(kobj == sensor.kobj, "sensor_find('temp0') returned %s", tostring(kobj))
  expect.refcount(sensor.kobj, 2)
  expect.that(expect.call("sensor_find('none')", sensor_find, "none") == nil,
              "sensor_find('none') found something")
  kobject_put(kobj)
  expect.call("sensor_remove()", sensor_remove, sensor)
  expect.released(sensor.kobj)
  expect.call("sensors_exit()", sensors_exit)
  expect.no_diagnostics()
  expect.no_leaks()
  ready = true
end)

check("sensor_find() against sensor_remove(), under every schedule", function()
  expect.that(ready, "skipped: sensor_find() does not work in one thread yet")
  local found, unlocked = 0, nil
  -- kobject_get_unless_zero() is only safe under the lock that keeps the object listed:
  -- after the unlock, the object may already be freed memory.
  local get_unless_zero = kobject_get_unless_zero
  kobject_get_unless_zero = function(kobj)
    if current_thread() ~= 0 and not lockdep_is_held(sensors) then
      unlocked = true
    end
    return get_unless_zero(kobj)
  end
  local ok, r = pcall(explore, {
    setup = function()
      assert(sensors_init() == 0)
      return assert(sensor_add("temp0"))
    end,
    function()
      local kobj = sensor_find("temp0")
      if kobj then
        found = found + 1
        kobject_put(kobj)
      end
    end,
    function(sensor) sensor_remove(sensor) end,
    teardown = function() sensors_exit() end,
  })
  kobject_get_unless_zero = get_unless_zero
  expect.that(ok, "%s", tostring(r))
  advise("(At the prompt, :lesson 19 then replay(race().schedule) runs it again, and " ..
         ":log shows it.)", expect.every_schedule, r, "sensor_find() and sensor_remove()")
  expect.that(not unlocked, "sensor_find() called kobject_get_unless_zero() after " ..
              "unlocking: by then the sensor may be freed, and reading its count is a " ..
              "use after free. Take the reference before spin_unlock().")
  expect.that(found > 0, "sensor_find() never found temp0, in %d schedules",
              r.schedules)
end)
