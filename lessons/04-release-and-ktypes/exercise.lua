-- Lesson 4 exercise: release methods live in the ktype
--
-- A temperature-sensor driver. Each sensor embeds a kobject, shows up as
-- /sys/<name>, and owns a buffer of samples (sensor.samples) that must be freed
-- exactly once, when the sensor's memory goes away:
--   make_sensor(name)      creates and registers the sensor (count 2: the creator's
--                          reference and sysfs'); returns it, or nil and an error
--   record(sensor, value)  stores a sample
--   latest(sensor)         the last sample
--   remove_sensor(sensor)  what the driver does when the hardware goes away: takes the
--                          sensor out of sysfs and drops the creator's reference
--
-- Your task: `kobj lesson check 4` lets a reader (think of a program that keeps the
-- sensor's sysfs file open) hold a reference while the sensor is removed. The samples
-- vanish under the reader's feet, and when the reader finally lets go, the sandbox
-- complains about the last put. Make the sensor's memory live exactly as long as its
-- references.

local sensor_type = new_ktype{
  name = "sensor_type",
}

function make_sensor(name)
  local sensor = { samples = {} }
  sensor.kobj = new_kobject(sensor)
  sensor.kobj.ktype = sensor_type
  kobject_init(sensor.kobj)
  local err = kobject_set_name(sensor.kobj, "%s", name)
  if err == 0 then
    err = kobject_add(sensor.kobj)
  end
  if err ~= 0 then
    kobject_put(sensor.kobj)
    return nil, err
  end
  return sensor
end

function record(sensor, value)
  sensor.samples[#sensor.samples + 1] = value
end

function latest(sensor)
  return sensor.samples[#sensor.samples]
end

function remove_sensor(sensor)
  kobject_del(sensor.kobj)
  kobject_put(sensor.kobj)
  sensor.samples = nil                 -- free the sample buffer
end
