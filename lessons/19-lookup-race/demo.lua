-- Lesson 19 demo: a lookup against the last put, as two simulated threads.
--
-- Shows: two threads run by the rule, then under the schedule that puts the last put
-- between the lookup's unlock and its get; explore() finding that schedule among all of
-- them; the lookup fixed as kset_find_obj() is today, passing every schedule.
-- Mirrors: lib/kobject.c, kset_find_obj() before and after the 2013 fix.
-- Watch for: which thread each step belongs to, the count when thread 1's get comes,
-- and how few of the possible interleavings explore() needs to run.

local loud = true -- the release says when it runs (not while exploring)

local function setup()
  local ktype = new_ktype{
    name = "device",
    release = function(kobj)
      if loud then print("  release('" .. kobj.name .. "') in thread " .. current_thread()) end
    end,
  }
  local devices = assert(kset_create_and_add("devices", nil, kernel_kobj))
  local dev = new_kobject()
  dev.kset = devices
  assert(kobject_init_and_add(dev, ktype, nil, "eth0") == 0)
  return devices, dev
end

-- The member named @name, the list's lock held.
local function member(devices, name)
  for _, kobj in ipairs(devices.list) do
    if kobj.name == name then return kobj end
  end
end

-- kset_find_obj() before 2013: the reference is taken after the unlock.
local function find_then_get(devices, name)
  spin_lock(devices)
  local found = member(devices, name)
  spin_unlock(devices)
  return found and kobject_get(found)
end

-- kset_find_obj() since: under the lock, and never on a count of 0.
local function find_under_lock(devices, name)
  spin_lock(devices)
  local found = member(devices, name)
  local kobj = found and kobject_get_unless_zero(found)
  spin_unlock(devices)
  return kobj
end

-- Thread bodies: a user looks eth0 up and lets go of it; the owner drops the last put.
local function user(find)
  return function(devices)
    local kobj = find(devices, "eth0")
    if loud then print("  the lookup found " .. (kobj and "eth0" or "nothing")) end
    if kobj then kobject_put(kobj) end
  end
end

local function owner(devices, dev)
  kobject_put(dev)
end

do
  step("Two threads by the rule: the user's lookup runs to its end, then the last put")
  local devices, dev = setup()
  spawn(user(find_then_get), devices)
  spawn(owner, devices, dev)
  local r = run_threads()
  show_threads()
  print("schedule " .. r.schedule .. ", " .. r.steps .. " steps, " .. #diagnostics() ..
        " diagnostics")
  kset_unregister(devices)
end

do
  step("The same threads under schedule 11112: four steps of thread 1, then thread 2")
  reset()
  local devices, dev = setup()
  spawn(user(find_then_get), devices)
  spawn(owner, devices, dev)
  predict("Thread 1 stops at the start of kobject_get(), after its unlock; thread 2 " ..
          "drops the last reference. What state is eth0 in when thread 1's get comes?",
          function()
            run_threads("11112")
            return dev.state
          end,
          "The last put ran in full, the release too: eth0 left the list (under the " ..
          "lock, after thread 1's unlock) and was freed. The get comes too late.",
          { choices = "state" })
  show_threads()
  show_diagnostics()
  kset_unregister(devices)
end

loud = false

do
  step("explore(): every schedule that matters, each in a fresh world")
  local program = { setup = setup, user(find_then_get), owner,
                    teardown = function(devices) kset_unregister(devices) end }
  local r = explore(program)
  predict("How many schedules does explore() run before one fails?",
          function() return r.schedules end,
          string.format("%d. The first is the rule's. Only steps that use something in " ..
                        "common are tried the other way round (here eth0 and the list's " ..
                        "lock), and the failing order comes at once. Every interleaving " ..
                        "of these steps would be %d schedules.", r.schedules, r.naive))
  print("failing schedule: " .. r.schedule)
  print(r.failure)
end

do
  step("The fix: kobject_get_unless_zero() under the lock")
  local r = explore{ setup = setup, user(find_under_lock), owner,
                     teardown = function(devices) kset_unregister(devices) end }
  local naive = explore{ setup = setup, user(find_under_lock), owner, reduce = false,
                         teardown = function(devices) kset_unregister(devices) end }
  print(string.format("ok = %s after %d schedules (every interleaving: %d schedules, " ..
                      "ok = %s)", tostring(r.ok), r.schedules, naive.schedules,
                      tostring(naive.ok)))
  step("Schedule 112: the fixed lookup finds eth0 at count 0, its release waiting for the lock")
  loud = true
  replay("112", { setup = setup, user(find_under_lock), owner,
                  teardown = function(devices) kset_unregister(devices) end })
  show_threads()
  show_leaks()
end
