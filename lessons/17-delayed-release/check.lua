-- Checks for lesson 17: slots come and go without DEBUG_KOBJECT_RELEASE and with it. A
-- destroyed slot must leave sysfs at once (its name free for the next slot), though its
-- release may come seconds later; the functions must not wait for the clock; and when
-- the delayed releases have run, nothing is left.

local DIR = "/sys/kernel/slots"

-- call(what, fn, ...): runs the student's fn, which must not move the virtual clock or
-- change the debug options.
local function call(what, fn, ...)
  local before, delayed = jiffies(), debug_kobject_release()
  local results = table.pack(expect.call(what, fn, ...))
  expect.that(debug_kobject_release() == delayed, "%s turned DEBUG_KOBJECT_RELEASE %s: " ..
              "it is how the kernel was built, not something a driver can choose; the " ..
              "code must be right either way", what, delayed and "off" or "on")
  expect.that(jiffies() == before, "%s moved the clock from %d to %d jiffies (advance()): " ..
              "a driver cannot make time pass to have a release run, and with " ..
              "DEBUG_KOBJECT_RELEASE it cannot know how long to wait (1 to 4 seconds, " ..
              "and longer for a parent). Make the code right whenever the release comes.",
              what, before, jiffies())
  return table.unpack(results, 1, results.n)
end

-- The kernel log's lines about @name, as dmesg prints them.
local function dmesg_of(name)
  local lines = {}
  local all = dmesg()
  for line in all:gmatch("[^\n]+") do
    if line:find("'" .. name .. "'", 1, true) then lines[#lines + 1] = "  " .. line end
  end
  return #lines > 0 and "\ndmesg:\n" .. table.concat(lines, "\n") or ""
end

-- The newest diagnostic's message, first line.
local function last_diagnostic()
  local all = diagnostics()
  return #all > 0 and all[#all].message:match("[^\n]*") or "no diagnostic"
end

-- create(name): slot_create(name), which must succeed.
local function create(name)
  local slot, err = call("slot_create('" .. name .. "')", slot_create, name)
  expect.that(slot, "slot_create('%s') failed with %s: %s", name, tostring(err),
              last_diagnostic())
  return slot
end

local ready = false

check("slots_init() makes /sys/kernel/slots", function()
  local err = call("slots_init()", slots_init)
  expect.that(err == 0, "slots_init() returned %s", tostring(err))
  expect.in_sysfs(DIR)
  ready = true
end)

check("without DEBUG_KOBJECT_RELEASE, slot_replace() works", function()
  expect.that(ready, "skipped: no /sys/kernel/slots")
  local old = create("slot0")
  local new, err = call("slot_replace()", slot_replace, old)
  expect.that(new, "slot_replace() failed with %s: %s", tostring(err), last_diagnostic())
  expect.released(old.kobj, { prefix = "with releases at once, " })
  expect.in_sysfs(DIR .. "/slot0")
  call("slot_destroy()", slot_destroy, new)
  expect.released(new.kobj, { prefix = "with releases at once, " })
end)

-- From here on, every last put of a today's object only queues its release.
debug_kobject_release(true)

local slot1
check("with DEBUG_KOBJECT_RELEASE, slot_destroy() takes the slot out of sysfs at once",
      function()
  expect.that(ready, "skipped: no /sys/kernel/slots")
  slot1 = create("slot1")
  local path = DIR .. "/slot1"
  expect.drops(slot1.kobj, 1, function()
    call("slot_destroy()", slot_destroy, slot1)
  end, { held = true, prefix = "slot_destroy(): " })
  expect.that(not (ls(path) or cat(path)),
              "%s is still there after slot_destroy() (the slot is %s). Its last put " ..
              "only queued the release, and the release's auto cleanup is what would " ..
              "take the slot out of sysfs, 1 to 4 seconds from now. Until then the name " ..
              "is taken, and user space has not heard \"remove\".%s",
              path, slot1.kobj.state, dmesg_of("slot1"))
  expect.hotplug{ action = "remove", devpath = "/kernel/slots/slot1" }
end)

local again
check("a new slot1 can be created right after slot_destroy()", function()
  expect.that(slot1, "skipped: no slot1")
  local err
  again, err = call("slot_create('slot1')", slot_create, "slot1")
  expect.that(again, "slot_create('slot1') failed with %s (%s), right after the old " ..
              "slot1 was destroyed: the old one is %s, and its directory is still in " ..
              "sysfs until its delayed release runs.%s", tostring(err), last_diagnostic(),
              slot1.kobj.state, dmesg_of("slot1"))
end)

local replaced, previous
check("slot_replace() gives a new slot with the same name at once", function()
  expect.that(ready, "skipped: no /sys/kernel/slots")
  previous = again or create("slot2")
  local name = previous.kobj.name
  local err
  replaced, err = call("slot_replace()", slot_replace, previous)
  expect.that(replaced, "slot_replace() of %s failed with %s (%s): the old %s is %s, and " ..
              "its name is still taken.%s", name, tostring(err), last_diagnostic(), name,
              previous.kobj.state, dmesg_of(name))
  expect.that(replaced ~= previous, "slot_replace() returned the old slot")
  expect.refcount(replaced.kobj, 1)
  expect.in_sysfs(DIR .. "/" .. name)
end)

check("the delayed releases run later, and only the live slot remains", function()
  expect.that(replaced, "skipped: slot_replace() failed")
  advance(4 * HZ)
  expect.released(slot1.kobj, { prefix = "4 seconds after slot_destroy(), " })
  expect.released(previous.kobj, { prefix = "4 seconds after slot_replace(), " })
  expect.that(slot1.freed and previous.freed, "slot_release() did not run for the old slots")
  expect.state(replaced.kobj, "in sysfs")
  expect.refcount(replaced.kobj, 1)
end)

check("slots_exit() after the last slot_destroy() leaves nothing behind", function()
  expect.that(ready, "skipped: no /sys/kernel/slots")
  if replaced and replaced.kobj.state == "in sysfs" then
    call("slot_destroy()", slot_destroy, replaced)
  end
  call("slots_exit()", slots_exit)
  expect.not_in_sysfs(DIR)
  -- A parent's release is queued when its last child's runs: a second at a time.
  for _ = 1, 16 do
    if pending_releases() == 0 then break end
    advance(HZ)
  end
  expect.no_diagnostics()
  expect.no_leaks{ report = true }
end)
