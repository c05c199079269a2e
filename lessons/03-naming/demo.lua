-- Lesson 3 demo: naming a kobject
--
-- Shows: kobject_set_name() takes a printf-style format; the name becomes the sysfs
-- directory when kobject_add() runs; a '/' in a name becomes '!', because a directory
-- name cannot hold one; and kobject_set_name() can fail, so careful code tests what it
-- returns and unwinds when it fails.
-- Mirrors: lib/kobject.c (kobject_set_name) and drivers that name objects from a
-- format, like the serial core's "ttyS%d" and the block layer's "cciss/c0d0".
-- Watch for: "failed (-12)" in the log, and how the failed object is put, not added.

local my_type = new_ktype{
  name = "my_type",
  release = function(kobj) container_of(kobj).freed = true end,
}

-- A structure with a kobject of our type, initialised: count 1, no name yet.
local function new_object()
  local obj = {}
  new_kobject(obj)
  obj.kobj.ktype = my_type
  kobject_init(obj.kobj)
  return obj
end

local ttyS0 = new_object()
local cciss = new_object()

step("Names come from a format, like printk's")
do
  assert(kobject_set_name(ttyS0.kobj, "ttyS%d", 0) == 0)
  -- The block driver cciss names its disks "cciss/c0d0"; sysfs shows "cciss!c0d0".
  assert(kobject_set_name(cciss.kobj, "cciss/c%dd%d", 0, 0) == 0)
  print("kobject_name: " .. kobject_name(ttyS0.kobj) .. ", " .. kobject_name(cciss.kobj))
  -- Named, but not in sysfs: only kobject_add() makes the directory.
  print("/sys/ttyS0 exists: " .. tostring(ls("/sys/ttyS0") ~= nil))
end

step("kobject_add: the name becomes a directory")
do
  assert(kobject_add(ttyS0.kobj) == 0)
  assert(kobject_add(cciss.kobj) == 0)
  show_tree()
end

step("kobject_set_name can fail")
do
  -- It allocates memory for the name, and allocations fail under memory pressure.
  -- fail_alloc(1) makes the next simulated allocation fail.
  local port = new_object()
  fail_alloc(1)
  local err = kobject_set_name(port.kobj, "ttyS%d", 1)
  print("kobject_set_name returned " .. err .. " (-ENOMEM is " .. -ENOMEM .. ")")
  if err ~= 0 then
    -- The careful reaction: do not add a nameless object. After kobject_init() the only
    -- way to free it is to drop the reference, so the release method does the freeing.
    kobject_put(port.kobj)
  end
  print("the port was freed by its release method: " .. tostring(port.freed))
  show_log(4)
end

step("Tear down in reverse order")
do
  kobject_del(cciss.kobj)
  kobject_put(cciss.kobj)
  kobject_del(ttyS0.kobj)
  kobject_put(ttyS0.kobj)
  show_tree()
  show_leaks()
end
