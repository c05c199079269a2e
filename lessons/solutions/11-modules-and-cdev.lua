-- Lesson 11 solution: two counts for one object, cdev_get() and cdev_put().
--
-- A character device as in fs/char_dev.c. A cdev embeds a kobject, which keeps its memory
-- alive, and points at its owner module, which keeps its code (open, read, ...) loaded.
-- cdev_get() takes a module reference and then a kobject reference, and hands back both
-- or neither: the fix gives the module reference back when kobject_get() fails, as the
-- kernel's cdev_get() does.

local ENXIO = 6 -- "No such device or address"; not among the sandbox's constants

-- The last reference to a cdev is gone: in C, kfree(container_of(kobj, struct cdev, kobj)).
local function cdev_release(kobj)
  container_of(kobj).freed = true
end

local cdev_ktype = new_ktype{ name = "cdev", release = cdev_release }

-- cdev_alloc(owner, name): a cdev owned by the module @owner, with one reference: the
-- driver's, which cdev_del() drops. Returns the cdev, or nil and a negative errno.
function cdev_alloc(owner, name)
  local p = { owner = owner }
  local kobj = new_kobject(p)
  kobject_init(kobj)
  kobj.ktype = cdev_ktype
  local err = kobject_set_name(kobj, "%s", name)
  if err ~= 0 then
    kobject_put(kobj)
    return nil, err
  end
  return p
end

-- cdev_del(p): the driver is done with its cdev. Openers may still hold references.
function cdev_del(p)
  kobject_put(p.kobj)
end

-- cdev_get(p): references to the cdev and to its owner, for one opener. Returns the
-- kobject, or nil; on nil the caller holds nothing.
function cdev_get(p)
  local owner = p.owner
  if owner and not try_module_get(owner) then
    return nil
  end
  local kobj = kobject_get(p.kobj)
  if not kobj and owner then
    module_put(owner) -- the cdev is on its way out: undo the module reference
  end
  return kobj
end

-- cdev_put(p): gives back what cdev_get() took.
function cdev_put(p)
  local owner = p.owner -- read it first: the put may free p
  kobject_put(p.kobj)
  if owner then
    module_put(owner)
  end
end

-- chrdev_open(p): what open("/dev/...") does with the cdev it found.
-- Returns a file, or nil and -ENXIO.
function chrdev_open(p)
  if not cdev_get(p) then
    return nil, -ENXIO
  end
  return { cdev = p }
end

-- chrdev_release(file): the last close of the file.
function chrdev_release(file)
  cdev_put(file.cdev)
end
