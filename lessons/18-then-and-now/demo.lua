-- Lesson 18 demo: the article's API and today's, side by side.
--
-- Shows: the same small tree built twice, once with 2.6.0's calls (decl_subsys,
-- kobject_init + kobject_add, hotplug_ops, kobject_del + kobject_put) in /sys/then, and
-- once with today's (kset_create_and_add, kobject_init_and_add, uevent_ops,
-- kobject_uevent, kobject_del + kobject_put) in /sys/now; what each era counts, which
-- ktype answers, when user space hears of an object, and when the parent and kset get
-- their references back.
-- Mirrors: lib/kobject.c as of 2.6.0 and as of 6.x; lib/kobject_uevent.c.
-- Watch for: refcount 2 against 1 after the add; the kset's count at kobject_del();
-- SEQNUM 0 and SEQNUM 1.

local function release_by(type_name)
  return function(kobj)
    print("  " .. type_name .. ".release('" .. kobj.name .. "' of /sys/" ..
          kobj.kset.name .. ")")
  end
end

local set_type = new_ktype{ name = "set_type", release = release_by("set_type") } -- kset's
local own_type = new_ktype{ name = "own_type", release = release_by("own_type") } -- own

local hotplug_ops = {                      -- 2.6.0: struct kset_hotplug_ops
  hotplug = function(kset, kobj, env) env.WIDGET = kobject_name(kobj); return 0 end,
}
local uevent_ops = {                       -- today: struct kset_uevent_ops, no kset argument
  uevent = function(kobj, env) return env:add("WIDGET=%s", kobject_name(kobj)) end,
}

local then_subsys, now_kset
local old = {}                             -- a widget of 2003
local new = {}                             -- a widget of today

do
  step("A kset in each era")
  then_subsys = decl_subsys("then", set_type, hotplug_ops)
  assert(subsystem_register(then_subsys) == 0)
  now_kset = assert(kset_create_and_add("now", uevent_ops, nil))
  predict("The refcount of 'then' (2.6.0's subsystem_register)?",
          function() return then_subsys.refcount end,
          "The creator's, and one its add took for the sysfs directory.")
  predict("The refcount of 'now' (today's kset_create_and_add)?",
          function() return now_kset.refcount end,
          "The creator's only: today's add takes none for the object itself.")
end

do
  step("A widget, the 2003 way: kobject_init, kobject_set_name, kset, kobject_add")
  new_kobject(old)
  old.kobj.ktype = own_type
  kobject_init(old.kobj)
  assert(kobject_set_name(old.kobj, "w0") == 0)
  old.kobj.kset = then_subsys.kset
  assert(kobject_add(old.kobj) == 0)
  predict("The old widget's refcount?", function() return old.kobj.refcount end,
          "The creator's, and one the add took for the sysfs directory.")
  predict("How many events has user space heard?", function() return #hotplug_events() end,
          "2.6.0's kobject_add() sent \"add\" itself.")
end

do
  step("A widget, today's way: kobject_init_and_add, then kobject_uevent")
  new_kobject(new)
  new.kobj.kset = now_kset
  assert(kobject_init_and_add(new.kobj, own_type, nil, "w0") == 0)
  predict("The new widget's refcount?", function() return new.kobj.refcount end,
          "The creator's only: today's add takes a reference on the parent and the " ..
          "kset, none on the object.")
  predict("How many events now, before kobject_uevent?",
          function() return #hotplug_events() end,
          "Today's add is silent: the creator sends \"add\" when the object is ready.")
  kobject_uevent(new.kobj, KOBJ_ADD)
  for _, ev in ipairs(hotplug_events()) do
    print(string.format("  %-4s %-8s SEQNUM=%s WIDGET=%s", ev.action, ev.devpath,
                        ev.env.SEQNUM, ev.env.WIDGET))
  end
  show_tree()
end

do
  step("Whose ktype?")
  print("  old widget: get_ktype -> " .. get_ktype(old.kobj).name ..
        "   (2.6.0: a kset's ktype wins over the object's own)")
  print("  new widget: get_ktype -> " .. get_ktype(new.kobj).name ..
        "   (today: the object's own; a kset has no say)")
end

do
  step("kobject_del in each era")
  kobject_del(old.kobj)
  kobject_del(new.kobj)
  predict("The old widget's refcount after kobject_del?",
          function() return old.kobj.refcount end,
          "2.6.0's del dropped the reference its add took for the directory.")
  predict("The new widget's refcount after kobject_del?",
          function() return new.kobj.refcount end,
          "Unchanged: today's add took none for the object, so its del has none to drop.")
  predict("The refcount of 'then' now? (it was 4)", function() return then_subsys.refcount end,
          "2.6.0 keeps a member's parent and kset references until the member's release.")
  predict("And of 'now'? (it was 3)", function() return now_kset.refcount end,
          "Today's del gives the parent and kset references back at once.")
end

do
  step("The last put in each era")
  kobject_put(old.kobj)
  kobject_put(new.kobj)
  show_log(9)
end

do
  step("Tear down")
  subsystem_unregister(then_subsys)
  kset_unregister(now_kset)
  show_leaks()
  assert(#leaks() == 0)
end
