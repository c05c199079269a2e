-- Lesson 1 exercise: reference counts and release (solution)
--
-- A small network driver keeps one kobject in each device's structure, and lets the
-- kobject count the users of the device:
--   make_device(name)    creates a device; kobject_init() gives it count 1, the
--                        creator's reference
--   open_device(dev)     what open() on the device does: takes a reference for the
--                        opener; refuses with -ENOENT once the device is gone and with
--                        -EBUSY while it is being reset (dev.resetting)
--   close_device(dev)    drops the opener's reference
--   destroy_device(dev)  drops the creator's reference; the release method frees the
--                        device when the last reference goes, which may be later
--
-- The fix: the -EBUSY path of open_device() took a reference with kobject_get() and
-- returned without dropping it. A failed open is never closed, so it must put the
-- reference itself before it returns.

-- The type of our devices. Its release method runs when the count reaches zero
-- (lesson 4 is about ktypes); it finds the device around the kobject and frees it.
local netdev_type = new_ktype{
  name = "netdev_type",
  release = function(kobj)
    local dev = container_of(kobj)
    dev.rx_ring = nil          -- what kfree() of the device's buffers would do
    dev.freed = true
  end,
}

function make_device(name)
  local dev = { users = 0, resetting = false, rx_ring = {} }
  dev.kobj = new_kobject(dev)
  dev.kobj.ktype = netdev_type
  kobject_init(dev.kobj)
  local err = kobject_set_name(dev.kobj, "%s", name)
  if err ~= 0 then
    kobject_put(dev.kobj)
    return nil, err
  end
  return dev
end

function open_device(dev)
  if not kobject_get(dev.kobj) then
    return nil, -ENOENT        -- already on its way out: kobject_get() said no
  end
  if dev.resetting then
    kobject_put(dev.kobj)      -- the open failed: give back the reference it took
    return nil, -EBUSY
  end
  dev.users = dev.users + 1
  return dev
end

function close_device(dev)
  dev.users = dev.users - 1
  kobject_put(dev.kobj)
end

function destroy_device(dev)
  kobject_put(dev.kobj)
end
