-- Lesson 20 demo: a sysfs read against the teardown, as two simulated threads.
--
-- Shows: a read of a file and the removal of its object on two threads; kernfs making
-- the removal wait for a show() in progress; a teardown that frees the data show() reads
-- before the directory goes, and explore() finding the read that falls in between.
-- Mirrors: fs/kernfs (active references: kernfs_drain), a driver's remove().
-- Watch for: the removal waiting, and the order of the two puts.

local loud = true -- show() says when it runs (not while exploring)

-- A fan: /sys/kernel/fan/speed reads the speed through a table of its own (an object).
local function fan_probe()
  local table_ktype = new_ktype{ name = "table", release = function() end }
  local t = { scale = 10 }
  new_kobject(t)
  kobject_init(t.kobj, table_ktype)
  kobject_set_name(t.kobj, "speed_table")
  local fan = { rpm = 120, table = t.kobj }
  fan.kobj = assert(kobject_create_and_add("fan", kernel_kobj))
  assert(sysfs_create_file(fan.kobj, new_kobj_attribute{
    name = "speed",
    show = function()
      if loud then print("  show() runs in thread " .. current_thread()) end
      -- a kernel call inside show(): another thread may run here
      pr_debug("fan: speed read")
      return string.format("%d\n", fan.rpm * container_of(fan.table).scale)
    end,
  }) == 0)
  return fan
end

local function reader()
  local speed, err = cat("/sys/kernel/fan/speed")
  if loud then print("  the reader got " .. tostring(speed and speed:gsub("\n", "") or err)) end
end

-- The teardown as it should be: the file first, then what show() reads.
local function remove_in_order(fan)
  kobject_put(fan.kobj)
  kobject_put(fan.table)
end

-- The teardown that frees the table first.
local function remove_table_first(fan)
  kobject_put(fan.table)
  kobject_put(fan.kobj)
end

do
  step("A reader and the removal, by the rule: the read runs first")
  local fan = fan_probe()
  spawn(reader)
  spawn(remove_in_order, fan)
  run_threads()
  show_threads()
end

do
  step("Schedule 112: the reader stops inside show(), at its kernel call; the removal runs")
  reset()
  local fan = fan_probe()
  spawn(reader)
  spawn(remove_in_order, fan)
  predict("Thread 2's last put of the fan must remove /sys/kernel/fan. Can it, while " ..
          "thread 1 is inside show()?",
          function()
            run_threads("112")
            for _, ev in ipairs(log()) do
              if ev.thread == 2 and ev.what == "wait" then return "no" end
            end
            return "yes"
          end,
          "No: kernfs holds an active reference on the file while show() runs, and the " ..
          "removal waits for it (\"waits for a lock\" below). Thread 1 finishes its " ..
          "read; only then does the directory go, and the table after it.",
          { choices = "yes/no" })
  show_threads()
end

loud = false

do
  step("explore(): the table freed first")
  local r = explore(fan_probe, reader, remove_table_first)
  print("ok = " .. tostring(r.ok) .. " after " .. r.schedules .. " schedules; failing " ..
        "schedule " .. tostring(r.schedule))
  print((r.failure:gsub("\nstack traceback:.*", "")))
  show_threads()
end

do
  step("explore(): the file first, then the table")
  local r = explore(fan_probe, reader, remove_in_order)
  print("ok = " .. tostring(r.ok) .. " after " .. r.schedules .. " schedules (every " ..
        "interleaving: " .. r.naive .. ")")
  show_leaks()
end
