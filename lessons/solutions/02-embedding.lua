-- Lesson 2 exercise: embedding and container_of (solution)
--
-- A block driver. Each disk is a table that embeds a kobject (disk.kobj) and owns a
-- request queue, a second table with a kobject of its own (disk.queue.kobj). The disk
-- holds one reference to its queue: the queue's first reference, handed over when the
-- disk is made and dropped by the disk's release method, the way disk_release() in
-- block/genhd.c drops the disk's reference to its request_queue.
--   make_disk(name)      a disk 'name' with a queue 'name-queue'; returns the disk, or
--                        nil and a negative error
--   destroy_disk(disk)   drops the creator's reference to the disk; the release
--                        method frees the disk and puts its queue
--
-- The fix: the release method reached its disk through the upvalue 'disk' of the
-- make_disk() call that created disk_type, so every release cleaned up the first disk.
-- A release method gets only the kobject; container_of(kobj) is the disk it belongs
-- to. With that, nothing ties the type to one call, so it is made once, at the top.

-- The queue's type: its release frees the queue's request list.
local queue_type = new_ktype{
  name = "queue_type",
  release = function(kobj)
    local q = container_of(kobj)
    q.requests = nil
  end,
}

-- A request queue with its first reference, which the caller owns.
local function alloc_queue(name)
  local q = { requests = {} }
  q.kobj = new_kobject(q)
  q.kobj.ktype = queue_type
  kobject_init(q.kobj)
  local err = kobject_set_name(q.kobj, "%s-queue", name)
  if err ~= 0 then
    kobject_put(q.kobj)
    return nil, err
  end
  return q
end

-- The disk's type, one for every disk like a C driver's static struct kobj_type. The
-- release method gets only the kobject; container_of() gives the disk around it.
local disk_type = new_ktype{
  name = "disk_type",
  release = function(kobj)
    local disk = container_of(kobj)
    kobject_put(disk.queue.kobj)        -- the disk's reference to its queue
    disk.freed = true
  end,
}

function make_disk(name)
  local disk = { capacity = 0 }
  local err
  disk.queue, err = alloc_queue(name)
  if not disk.queue then
    return nil, err
  end
  disk.kobj = new_kobject(disk)
  disk.kobj.ktype = disk_type
  kobject_init(disk.kobj)
  err = kobject_set_name(disk.kobj, "%s", name)
  if err ~= 0 then
    kobject_put(disk.kobj)              -- the release puts the queue too
    return nil, err
  end
  return disk
end

function destroy_disk(disk)
  kobject_put(disk.kobj)
end
