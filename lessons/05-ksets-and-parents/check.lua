-- Lesson 5 checks: disks land in the block kset's directory, each queue in its disk's,
-- and the parent and kset references come and go with the objects. One scenario in one
-- world (the exercise's ktypes and subsystem live in it, so no reset()).

-- The message of the last diagnostic, to explain a failure.
local function last_diagnostic()
  local all = diagnostics()
  return #all > 0 and all[#all].message or "no diagnostic"
end

local PARENTS = "A kobject's directory is made inside its parent's directory. A disk sets " ..
  "no parent, so kobject_add() makes the block kset's kobject its parent: /sys/block/sda. " ..
  "The queue must be in its own disk's directory."

local sda, sdb, block

check("block_init() registers /sys/block", function()
  local err = block_init()
  expect.that(err == 0, "block_init() returned %s", tostring(err))
  expect.in_sysfs("/sys/block")
end)

check("make_disk('sda') puts the disk in /sys/block and its queue in /sys/block/sda",
      function()
  local err
  sda, err = make_disk("sda")
  expect.that(sda, "make_disk('sda') failed with %s: %s", tostring(err), last_diagnostic())
  block = sda.kobj.kset
  expect.that(block and block.name == "block", "'sda' is not a member of the block kset")
  advise(PARENTS, expect.tree, "/sys/block", [[
/sys/block  [subsystem, refcount 4]
└── sda  [refcount 3, disk_type]
    └── queue  [refcount 2, queue_type]
]])
  expect.that(sda.queue.kobj.path == "/sys/block/sda/queue",
              "the queue of 'sda' is at %s", sda.queue.kobj.path)
end)

check("make_disk('sdb') gets its own directory and its own queue", function()
  local err
  sdb, err = make_disk("sdb")
  expect.that(sdb, "make_disk('sdb') failed with %s: %s\nTwo queues can both be named " ..
              "'queue' only if they are in different directories.", tostring(err),
              last_diagnostic())
  advise(PARENTS, expect.tree, "/sys/block", [[
/sys/block  [subsystem, refcount 6]
├── sda  [refcount 3, disk_type]
│   └── queue  [refcount 2, queue_type]
└── sdb  [refcount 3, disk_type]
    └── queue  [refcount 2, queue_type]
]])
end)

check("deleting 'sdb' gives its kset back two references and leaves 'sda' alone",
      function()
  expect.that(sdb, "skipped: 'sdb' could not be made")
  -- A disk holds two references to the kset's kobject: as its parent and as its kset.
  -- Its release drops them; 'sda' is not touched.
  expect.drops(block.kobj, 2, function() delete_disk(sdb) end, "'sda'")
  expect.released(sdb.kobj)
  expect.released(sdb.queue.kobj)
  expect.refcount(sda.kobj, 3)
  expect.not_in_sysfs("/sys/block/sdb")
end)

check("deleting 'sda' empties /sys/block", function()
  delete_disk(sda)
  expect.released(sda.queue.kobj)
  expect.released(sda.kobj)
  expect.tree("/sys/block", "/sys/block  [subsystem, refcount 2]")
end)

check("block_exit() leaves nothing behind, and sysfs reported nothing", function()
  block_exit()
  expect.no_diagnostics()
  expect.no_leaks()
end)
