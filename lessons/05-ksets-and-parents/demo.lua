-- Lesson 5 demo: ksets and parents
--
-- Shows: a kset is a directory-level container with a kobject of its own; a member
-- added with no parent goes into the kset's directory, because kobject_add() makes the
-- kset's kobject its parent; a parent can also be set explicitly, to any kobject; and
-- every member holds references to its parent and its kset until it is released.
-- Mirrors: lib/kobject.c (kobject_add, where the parent defaults to the kset, and the
-- kset_* functions), and the layout of /sys/bus/pci/drivers and /sys/module/*/parameters.
-- Watch for: the kset's refcount going up by two per member, and not going down at
-- kobject_del() but at the member's release.

local driver_type = new_ktype{
  name = "driver_type",
  release = function(kobj) container_of(kobj).freed = true end,
}

-- A driver structure with an embedded kobject, initialised and named.
local function new_driver(name)
  local drv = {}
  new_kobject(drv)
  drv.kobj.ktype = driver_type
  kobject_init(drv.kobj)
  assert(kobject_set_name(drv.kobj, "%s", name) == 0)
  return drv
end

local pci_subsys = decl_subsys("pci", nil, nil)  -- every kset needs a subsystem (lesson 7)
local drivers = new_kset{ name = "drivers", subsys = pci_subsys }
local e1000 = new_driver("e1000")
local tg3 = new_driver("tg3")
local params = new_driver("parameters")

step("A subsystem, and a kset inside it")
do
  assert(subsystem_register(pci_subsys) == 0)
  assert(kset_register(drivers) == 0)
end
predict("What is the refcount of the kset 'drivers' after kset_register?",
        function() return drivers.refcount end,
        "Like kobject_register: its creator's reference and its sysfs directory's.")
show_tree("/sys/pci")

step("e1000 joins the kset, with no parent of its own")
do
  e1000.kobj.kset = drivers
  assert(kobject_add(e1000.kobj) == 0)
end
predict("Where is e1000 in sysfs? (a path)", function() return e1000.kobj.path end,
        "With no parent set, kobject_add() made the kset's kobject the parent.")
predict("What is the refcount of 'drivers' now?", function() return drivers.refcount end,
        "e1000 holds two: one as its parent, one as its kset.")
show_log(4)

step("tg3 joins as well")
do
  tg3.kobj.kset = drivers
  assert(kobject_add(tg3.kobj) == 0)
  -- kset_find_obj() walks the kset's list; in 2.6.0 it takes no reference.
  print("kset_find_obj(drivers, 'tg3'): " .. tostring(kset_find_obj(drivers, "tg3")))
end
predict("And the refcount of 'drivers'?", function() return drivers.refcount end,
        "Two more: tg3, like e1000, holds it as its parent and as its kset.")

step("A child with an explicit parent and no kset")
do
  -- Like /sys/module/e1000/parameters: the parent does not have to be a kset.
  params.kobj.parent = e1000.kobj
  assert(kobject_add(params.kobj) == 0)
end
predict("What is e1000's refcount now?", function() return e1000.kobj.refcount end,
        "Its creator's, its sysfs directory's, and its child's.")
show_tree("/sys/pci")

step("kobject_del of tg3")
do
  kobject_del(tg3.kobj)
end
predict("tg3 is out of sysfs. What is the refcount of 'drivers'?",
        function() return drivers.refcount end,
        "Still 6: tg3 keeps its parent and its kset until it is released, not until " ..
        "it leaves sysfs.")

step("The last put of tg3")
do
  kobject_put(tg3.kobj)
  print("drivers.refcount = " .. drivers.refcount)
  show_log(4)
end

step("Tear down in reverse order: child, member, kset, subsystem")
do
  kobject_unregister(params.kobj)
  kobject_unregister(e1000.kobj)
  kset_unregister(drivers)
  subsystem_unregister(pci_subsys)
  show_leaks()
end
