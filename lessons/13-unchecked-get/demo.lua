-- Lesson 13 demo: kobject_get() can fail, and its result must be tested.
--
-- Mirrors the pattern of fs/char_dev.c's chrdev_open(): a pointer kept without a
-- reference (inode->i_cdev there, a plain variable here) is turned into a reference with
-- kobject_get() when it is needed. If the object's count has already reached zero, the
-- article's kobject_get() returns NULL; modern kernels spell that
-- kobject_get_unless_zero().
--
-- Watch for: kobject_get() returning the same object while it lives and nil once it is
-- released; what using that nil does; what using the old pointer does.

local function release(kobj)
  container_of(kobj).freed = true
end

local port_ktype = new_ktype{ name = "tty_port", release = release }
local class = decl_subsys("class", nil, nil)
local tty = new_kset{ name = "tty", ktype = port_ktype, subsys = class }
local port = { name = "ttyS0" }
local cached -- a pointer to the port, holding no reference

do
  step("A port in /sys/class/tty, and a pointer to it that holds no reference")
  assert(subsystem_register(class) == 0)
  assert(kset_register(tty) == 0)
  local kobj = new_kobject(port)
  kobject_init(kobj)
  assert(kobject_set_name(kobj, "%s", port.name) == 0)
  kobj.kset = tty
  assert(kobject_add(kobj) == 0)
  cached = port
  show_tree("/sys/class/tty")
end

do
  step("While the port lives, kobject_get() turns the pointer into a reference")
  local kobj = kobject_get(cached.kobj)
  predict("Is kobj the port's kobject?", function() return kobj == port.kobj end,
          "The port is registered and alive: kobject_get() returns the kobject it was given.",
          { choices = { "true", "false" } })
  predict("And the port's refcount?", function() return port.kobj.refcount end,
          "2 for the registration, 1 for us. Give it back when done:")
  kobject_put(kobj)
end

do
  step("The port is unregistered: its count reaches zero; the pointer stays")
  kobject_unregister(port.kobj)
  assert(port.freed)
  local kobj = kobject_get(cached.kobj)
  predict("What did kobject_get() return this time?", function() return tostring(kobj) end,
          "The object is being destroyed (here: already released); the get is refused.")
  show_diagnostics()
end

do
  step("Not testing it: using nil")
  local ok, err = pcall(function()
    local kobj = kobject_get(cached.kobj)
    return container_of(kobj).name
  end)
  assert(not ok)
  print("container_of(nil) raises: " .. tostring(err))
  print("in C, container_of(NULL, ...) is NULL minus an offset: reading through it is an oops")
end

do
  step("Not testing it: using the old pointer instead")
  local ok, err = pcall(function() return cached.kobj.name end)
  assert(not ok)
  print("reading cached.kobj.name raises: " .. tostring(err))
  print("in C this reads freed memory: no crash, perhaps, but a use after free")
end

do
  step("Testing it: the caller fails cleanly")
  local kobj = kobject_get(cached.kobj)
  if not kobj then
    print("kobject_get() returned nil: open() returns -ENXIO and touches nothing")
  end
  cached = nil
  kset_unregister(tty)
  subsystem_unregister(class)
  show_leaks()
  assert(#leaks() == 0)
end
