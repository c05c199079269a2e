-- Lesson 7 demo: subsystems
--
-- Shows: decl_subsys() declares a subsystem (a kset plus an rwsem), subsystem_register()
-- makes its directory at the top of /sys; several ksets can belong to one subsystem
-- (kset.subsys), and a kset with no parent goes in its subsystem's directory; the
-- subsystem is counted like any kobject (subsys_get, subsys_put).
-- Mirrors: include/linux/kobject.h and lib/kobject.c in 2.6.0 (struct subsystem,
-- decl_subsys, subsystem_register, kset_add), and drivers/input/input.c, whose layer
-- keeps two lists: input devices and input handlers.
-- Watch for: where each kset lands, and the subsystem's refcount as ksets and users
-- come and go.

local object_type = new_ktype{
  name = "input_type",
  release = function(kobj) container_of(kobj).freed = true end,
}

-- A structure with a kobject of @kset named @name, registered.
local function register_in(kset, name)
  local obj = {}
  new_kobject(obj)
  obj.kobj.ktype = object_type
  obj.kobj.kset = kset
  kobject_init(obj.kobj)
  assert(kobject_set_name(obj.kobj, "%s", name) == 0)
  assert(kobject_add(obj.kobj) == 0)
  return obj
end

local input_subsys = decl_subsys("input", nil, nil)  -- struct subsystem input_subsys
local devices = new_kset{ name = "devices", subsys = input_subsys }
local handlers = new_kset{ name = "handlers", subsys = input_subsys }
local event0, evdev

step("decl_subsys declares, subsystem_register registers")
do
  print("before registering: /sys/input exists: " .. tostring(ls("/sys/input") ~= nil))
  assert(subsystem_register(input_subsys) == 0)
  show_tree("/sys/input")
end

step("Two ksets in one subsystem")
do
  -- Neither kset has a parent: kset_add() puts each in its subsystem's directory.
  assert(kset_register(devices) == 0)
  assert(kset_register(handlers) == 0)
end
predict("Where is the kset 'handlers' in sysfs? (a path)",
        function() return handlers.kobj.path end,
        "Its subsys is input_subsys, and it has no parent of its own.")
predict("What is the refcount of the subsystem 'input' now?",
        function() return input_subsys.kset.refcount end,
        "Its creator's, its directory's, and one per kset it is the parent of.")

step("Members of the ksets")
do
  event0 = register_in(devices, "event0")
  evdev = register_in(handlers, "evdev")
  -- kobject_add() changed each kset's list under input_subsys's rwsem (down_write);
  -- kset_find_obj() reads it under the same rwsem (down_read). One rwsem guards the
  -- lists of every kset in the subsystem: that is why every kset needs a subsystem.
  print("kset_find_obj(handlers, 'evdev'): " .. tostring(kset_find_obj(handlers, "evdev")))
  show_tree("/sys/input")
end

step("A user of the subsystem takes a reference")
do
  local s = subsys_get(input_subsys)
  assert(s == input_subsys, "subsys_get failed")
end
predict("And now?", function() return input_subsys.kset.refcount end,
        "subsys_get() took one more for its user, who must give it back with subsys_put().")
do
  subsys_put(input_subsys)
  show_log(2)
end

step("Tear down in reverse order: members, ksets, subsystem")
do
  kobject_unregister(evdev.kobj)
  kobject_unregister(event0.kobj)
  kset_unregister(handlers)
  kset_unregister(devices)
  subsystem_unregister(input_subsys)
  show_log(6)
  show_leaks()
end
