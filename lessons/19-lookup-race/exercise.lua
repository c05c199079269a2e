-- Lesson 19 exercise: a lookup against the last put.
--
-- A bus of sensors, each an object in the kset /sys/kernel/sensors. The bus holds one
-- reference to each sensor (its creator's); sensor_remove() drops it. Code elsewhere
-- finds a sensor by name with sensor_find(), which must return it with a reference of
-- the caller's own (the caller puts it when done), or nil if there is none.
--
-- Alone, everything works. But sensor_find() and sensor_remove() can run at the same
-- time on two CPUs, and under one order of their steps sensor_find() takes a reference
-- on a sensor that is being freed: "refcount_t: addition on 0; use-after-free." The
-- checks run them as two simulated threads under every order that matters.
--
--   kobj lesson check 19    runs check.lua against this file
--   kobj lesson hint 19     one hint at a time
--
-- At the prompt (:lesson 19), race() explores sensor_find() against sensor_remove();
-- replay(race().schedule) runs the failing order again, and :log shows each thread's
-- steps ([thread 1], [thread 2]).

-- The kset of all sensors, and their ktype (static in C). Each run of the checks starts
-- in a fresh world, so sensors_init() makes them.
sensors = nil
local sensor_ktype

-- sensors_init(): /sys/kernel/sensors. Returns 0 or -ENOMEM.
function sensors_init()
  sensor_ktype = new_ktype{
    name = "sensor",
    release = function(kobj) container_of(kobj).freed = true end,
  }
  sensors = kset_create_and_add("sensors", nil, kernel_kobj)
  return sensors and 0 or -ENOMEM
end

-- sensors_exit(): every sensor must be removed first.
function sensors_exit()
  kset_unregister(sensors)
  sensors = nil
end

-- sensor_add(name): a sensor in /sys/kernel/sensors; the bus holds its reference.
-- Returns the sensor, or nil and a negative errno.
function sensor_add(name)
  local sensor = { reading = 0 }
  new_kobject(sensor)
  sensor.kobj.kset = sensors
  local err = kobject_init_and_add(sensor.kobj, sensor_ktype, nil, "%s", name)
  if err ~= 0 then
    kobject_put(sensor.kobj)
    return nil, err
  end
  return sensor
end

-- sensor_remove(sensor): the bus lets go of the sensor. Its last put takes it out of
-- sysfs and off the kset's list, then frees it.
function sensor_remove(sensor)
  kobject_put(sensor.kobj)
end

-- sensor_find(name): the sensor's kobject with a reference for the caller, or nil.
function sensor_find(name)
  spin_lock(sensors)                 -- the kset's list_lock guards its list
  local found
  for _, kobj in ipairs(sensors.list) do
    if kobj.name == name then
      found = kobj
      break
    end
  end
  spin_unlock(sensors)
  if found then
    return kobject_get(found)
  end
  return nil
end

-- race(): sensor_find("temp0") against sensor_remove() under every schedule.
function race()
  return explore{
    setup = function()
      assert(sensors_init() == 0)
      return assert(sensor_add("temp0"))
    end,
    function()
      local kobj = sensor_find("temp0")
      if kobj then kobject_put(kobj) end
    end,
    function(sensor) sensor_remove(sensor) end,
    teardown = function() sensors_exit() end,
  }
end
