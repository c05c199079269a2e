-- Checks for lesson 20: the battery driver probes and removes cleanly, its teardown
-- takes the file away before what show() reads, and a read of capacity against
-- battery_remove() is right under every schedule of the two threads (explore).

local FILE = "/sys/kernel/battery/capacity"
local ready = false

-- The position in the log of the first event of @kind about @name, or nil.
local function first(kind, name)
  for i, ev in ipairs(log()) do
    if ev.kind == kind and ev.object == name then return i end
  end
end

check("battery_probe() makes capacity, and battery_remove() undoes everything", function()
  local bat = expect.call("battery_probe(84)", battery_probe, 84)
  expect.that(bat, "battery_probe(84) failed")
  expect.that(cat(FILE) == "87\n", "%s reads %q; expected \"87\\n\" (84 + 3)", FILE,
              tostring(cat(FILE)))
  expect.call("battery_remove()", battery_remove, bat)
  expect.not_in_sysfs("/sys/kernel/battery")
  expect.released(bat.kobj)
  expect.released(bat.calib)
  expect.no_diagnostics()
  expect.no_leaks()
  ready = true
end)

check("battery_remove() takes the file away before it frees what show() reads", function()
  expect.that(ready, "skipped: battery_probe() or battery_remove() fails in one thread")
  local gone, freed = first("del", "battery"), first("release", "calib")
  expect.that(gone and freed and gone < freed, "battery_remove() released the " ..
              "calibration table before it removed /sys/kernel/battery: until the " ..
              "directory goes, a read may run show(), which reads the table")
end)

check("a read of capacity against battery_remove(), under every schedule", function()
  expect.that(ready, "skipped: battery_probe() or battery_remove() fails in one thread")
  local read = 0
  local ok, r = pcall(explore,
                      function() return assert(battery_probe(84)) end,
                      function()
                        if cat(FILE) == "87\n" then read = read + 1 end
                      end,
                      function(bat) battery_remove(bat) end)
  expect.that(ok, "%s", tostring(r))
  advise("(At the prompt, :lesson 20 then replay(race().schedule) runs it again, and " ..
         ":log shows it.)", expect.every_schedule, r, "a reader and battery_remove()")
  expect.that(read > 0, "the reader never read 87 from %s, in %d schedules", FILE,
              r.schedules)
end)
