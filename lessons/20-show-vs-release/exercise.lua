-- Lesson 20 exercise: a sysfs read against the teardown.
--
-- A battery driver. battery_probe() allocates a calibration table (an object of its own,
-- with a count and a release) and makes /sys/kernel/battery with a file, capacity,
-- whose show() reads the raw level through the table. battery_remove() undoes it all.
--
-- Alone, everything works. But user space may read capacity at any moment, on another
-- CPU, while battery_remove() runs; under one order of their steps show() reads the
-- calibration table after it was freed. The checks run a reader and battery_remove() as
-- two simulated threads under every order that matters.
--
--   kobj lesson check 20    runs check.lua against this file
--   kobj lesson hint 20     one hint at a time
--
-- At the prompt (:lesson 20), race() explores a read against battery_remove();
-- replay(race().schedule) runs the failing order again, and :log shows each thread.

-- battery_probe(raw): the battery, reporting the level @raw corrected by the table.
-- Returns { kobj = the battery's kobject, calib = the table's } or nil and an errno.
function battery_probe(raw)
  local calib_ktype = new_ktype{
    name = "calib",
    release = function(kobj) container_of(kobj).freed = true end,
  }
  local calib = { offset = 3 }
  new_kobject(calib)
  kobject_init(calib.kobj, calib_ktype)
  kobject_set_name(calib.kobj, "calib")

  local bat = { raw = raw, calib = calib.kobj }
  bat.kobj = kobject_create_and_add("battery", kernel_kobj)
  if not bat.kobj then
    kobject_put(calib.kobj)
    return nil, -ENOMEM
  end
  local capacity = new_kobj_attribute{
    name = "capacity",
    show = function(kobj, attr)
      return string.format("%d\n", bat.raw + container_of(bat.calib).offset)
    end,
  }
  local err = sysfs_create_file(bat.kobj, capacity)
  if err ~= 0 then
    kobject_put(bat.kobj)
    kobject_put(calib.kobj)
    return nil, err
  end
  return bat
end

-- battery_remove(bat): the battery is gone. Everything battery_probe() made goes.
function battery_remove(bat)
  kobject_put(bat.calib)   -- the calibration table
  kobject_put(bat.kobj)    -- /sys/kernel/battery and its file
end

-- race(): a read of capacity against battery_remove(), under every schedule.
function race()
  return explore(function() return assert(battery_probe(84)) end,
                 function() cat("/sys/kernel/battery/capacity") end,
                 function(bat) battery_remove(bat) end)
end
