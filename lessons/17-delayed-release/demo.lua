-- Lesson 17 demo: CONFIG_DEBUG_KOBJECT_RELEASE, the release that comes later.
--
-- Shows: with the option on, the last kobject_put() of a today's object only queues its
-- cleanup, 1 to 4 seconds ahead; until then the object has a count of 0, is still in
-- sysfs and still holds its name; a get in that window is reported, a
-- kobject_get_unless_zero() quietly fails; kobject_del() before the put takes the object
-- out of sysfs at once, whenever the release comes.
-- Mirrors: lib/kobject.c (kobject_release, kobject_delayed_cleanup, kobject_cleanup) and
-- lib/Kconfig.debug (DEBUG_KOBJECT_RELEASE); dmesg lines as the kernel prints them.
-- Watch for: the "(delayed N)" line at the put, the object's state in the window, and
-- the dmesg lines when advance() reaches the deadline.

local port_ktype = new_ktype{
  name = "port",
  release = function(kobj) print("  port_release('" .. kobj.name .. "')") end,
}

local ports
local function port_add(name)
  local port = {}
  new_kobject(port)
  port.kobj.kset = ports
  local err = kobject_init_and_add(port.kobj, port_ktype, nil, "%s", name)
  if err ~= 0 then
    kobject_put(port.kobj)
    return nil, err
  end
  kobject_uevent(port.kobj, KOBJ_ADD)
  return port
end

local function show_dmesg(n)
  print((dmesg(n):gsub("%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x", "%%p")))
end

do
  step("The kernel is built with DEBUG_KOBJECT and DEBUG_KOBJECT_RELEASE")
  debug_kobject(true)
  debug_kobject_release(true, 2 * HZ)     -- the kernel picks 1 to 4 s; here, 2 s each
  ports = assert(kset_create_and_add("ports", nil, kernel_kobj))
  assert(port_add("ttyX0"))
  show_tree("/sys/kernel/ports")
end

local port
do
  step("The last kobject_put() of ttyX0")
  port = ports.list[1]
  kobject_put(port)
  show_dmesg(1)
  predict("What is ttyX0's state now?", function() return port.state end,
          "Count 0, release queued. Its ktype's release has not run.", { choices = "state" })
  predict("Is /sys/kernel/ports/ttyX0 still there?",
          function() return ls("/sys/kernel/ports/ttyX0") and "yes" or "no" end,
          "The auto cleanup that removes it is part of the delayed release.",
          { choices = "yes/no" })
end

do
  step("Code that assumed the put freed it: the same name again, at once")
  local again, err = port_add("ttyX0")
  print("port_add('ttyX0') -> " .. tostring(again) .. ", " .. tostring(err))
  print(diagnostics()[1].message)
end

do
  step("Code that looks the object up in the window")
  print("kobject_get_unless_zero(ttyX0) -> " .. tostring(kobject_get_unless_zero(port)) ..
        "   (quietly: the count is 0)")
  print("pending releases: " .. pending_releases())
end

do
  step("The clock moves on: advance(HZ), then advance(HZ)")
  predict("How many releases does advance(HZ) run (one second of the two)?",
          function() return advance(HZ) end,
          "None is due yet: the deadlines are 2 seconds after each put.")
  predict("And the next advance(HZ)?", function() return advance(HZ) end,
          "Both ttyX0 and the object whose add failed reach their deadline now.")
  show_dmesg(9)
end

do
  step("Two stages: kobject_del() now, kobject_put() whenever")
  local p = assert(port_add("ttyX1"))
  kobject_del(p.kobj)
  predict("After kobject_del, is ttyX1 still in sysfs?",
          function() return ls("/sys/kernel/ports/ttyX1") and "yes" or "no" end,
          "kobject_del() removes the directory and sends \"remove\" at once; the " ..
          "count is untouched.", { choices = "yes/no" })
  kobject_put(p.kobj)
  local again = assert(port_add("ttyX1"))
  print("port_add('ttyX1') right after -> " .. tostring(again.kobj))
  kobject_put(again.kobj)
end

do
  step("Tear down, and wait for every release")
  kset_unregister(ports)
  while pending_releases() > 0 do
    advance(HZ)
  end
  show_dmesg(6)
  show_leaks()
  assert(#leaks() == 0)
end
