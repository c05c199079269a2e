-- Lesson 5 exercise: ksets, parents and where things appear in sysfs
--
-- The block layer of 2.6.0, small. Every disk is a member of the kset of the "block"
-- subsystem (a subsystem is a kset with a lock; lesson 7 is about them), so it appears
-- as /sys/block/<disk>. Every disk also has a request queue whose kobject is named
-- "queue" and lives in the disk's directory, /sys/block/<disk>/queue, as in the real
-- /sys/block/sda/queue.
--   block_init()        registers the block subsystem: /sys/block
--   make_disk(name)     makes a disk and its queue; returns the disk, or nil and an error
--   delete_disk(disk)   takes both out of sysfs and drops the creator's references
--   block_exit()        unregisters the subsystem
--
-- Your task: `kobj lesson check 5` compares the sysfs tree with the one above. The
-- queue of the first disk shows up in the wrong directory, and the second disk cannot
-- be added at all: sysfs refuses a duplicate name.

local disk_type = new_ktype{
  name = "disk_type",
  release = function(kobj) container_of(kobj).freed = true end,
}

local queue_type = new_ktype{
  name = "queue_type",
  release = function(kobj) container_of(kobj).requests = nil end,
}

local block_subsys = decl_subsys("block", nil, nil)

function block_init()
  return subsystem_register(block_subsys)
end

function block_exit()
  subsystem_unregister(block_subsys)
end

-- The disk's request queue, in the disk's directory.
local function add_queue(disk)
  local q = { requests = {} }
  q.kobj = new_kobject(q)
  q.kobj.ktype = queue_type
  kobject_init(q.kobj)
  local err = kobject_set_name(q.kobj, "queue")
  if err == 0 then
    q.kobj.parent = disk.kobj.parent
    err = kobject_add(q.kobj)
  end
  if err ~= 0 then
    kobject_put(q.kobj)
    return nil, err
  end
  return q
end

function make_disk(name)
  local disk = {}
  disk.kobj = new_kobject(disk)
  disk.kobj.ktype = disk_type
  kobject_init(disk.kobj)
  local err = kobject_set_name(disk.kobj, "%s", name)
  if err == 0 then
    disk.kobj.kset = block_subsys.kset     -- no parent: kobject_add() uses the kset's
    err = kobject_add(disk.kobj)
  end
  if err ~= 0 then
    kobject_put(disk.kobj)
    return nil, err
  end
  disk.queue, err = add_queue(disk)
  if not disk.queue then
    kobject_del(disk.kobj)
    kobject_put(disk.kobj)
    return nil, err
  end
  return disk
end

function delete_disk(disk)
  kobject_del(disk.queue.kobj)
  kobject_put(disk.queue.kobj)
  kobject_del(disk.kobj)
  kobject_put(disk.kobj)
end
