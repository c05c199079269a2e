-- Lesson 19 solution: a lookup against the last put.
--
-- A bus of sensors, each an object in the kset /sys/kernel/sensors. The bus holds one
-- reference to each sensor (its creator's); sensor_remove() drops it. Code elsewhere
-- finds a sensor by name with sensor_find(), which must return it with a reference of
-- the caller's own (the caller puts it when done), or nil if there is none.
--
-- The fix: sensor_find() takes its reference while it still holds the list's lock, and
-- with kobject_get_unless_zero(). The lock keeps the sensor on the list, so its memory
-- cannot be freed meanwhile: sensor_remove()'s release must take the same lock to unlink
-- it. But its last put may already have brought the count to 0; kobject_get_unless_zero()
-- then refuses, and sensor_find() treats the dying sensor as gone. This is how
-- kset_find_obj() has worked since 2013.
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
  -- under the lock, and never on a count of 0: a sensor whose last put runs elsewhere
  local kobj = found and kobject_get_unless_zero(found)
  spin_unlock(sensors)
  return kobj
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
