-- Lesson 15 demo: samples/kobject/kset-example.c, today's API in Lua.
--
-- Shows: kset_create_and_add() makes a kset in /sys/kernel; a type of our own embeds a
-- kobject, frees its container in release, and brings its files along in
-- default_groups; kobject_init_and_add() puts an object in the kset, and only
-- kobject_uevent() tells user space; an add that fails still leaves an initialised
-- object with one reference; the last put of an object in sysfs removes it and sends
-- "remove"; kset_unregister() comes last.
-- Mirrors: samples/kobject/kset-example.c, lib/kobject.c (kset_create_and_add,
-- kobject_init_and_add, kobject_cleanup) and lib/kobject_uevent.c.
-- Watch for: the kset's count (two references per member), the files appearing without
-- a sysfs_create_group() call, SEQNUM counting from 1, and the failed object's count.

-- struct foo_obj: a table with a kobject inside; its release is the ktype's.
local function foo_release(kobj)
  print("  foo_release('" .. kobj.name .. "'): kfree(to_foo_obj(kobj))")
  container_of(kobj).freed = true
end

local function field_show(kobj, attr)
  return string.format("%d\n", container_of(kobj)[attr.name])
end

local function field_store(kobj, attr, value)
  local n = math.tointeger(tonumber(value:match("^([+-]?%d+)\n?$")))
  if not n then return -EINVAL end
  container_of(kobj)[attr.name] = n
  return #value
end

local attrs = {}
for _, name in ipairs{ "foo", "baz", "bar" } do
  attrs[#attrs + 1] = new_kobj_attribute{ name = name, mode = "0664", show = field_show,
                                          store = field_store }
end

local foo_ktype = new_ktype{
  name = "foo_obj",
  sysfs_ops = kobj_sysfs_ops,
  release = foo_release,
  default_groups = { new_attribute_group{ attrs = attrs } },
}

local example_kset
local foo = { foo = 0, baz = 0, bar = 0 }

do
  step("kset_create_and_add(\"kset_example\", NULL, kernel_kobj)")
  example_kset = assert(kset_create_and_add("kset_example", nil, kernel_kobj))
  print(example_kset)
end

do
  step("A foo_obj joins the kset: kobject_init_and_add(&foo->kobj, &foo_ktype, NULL, \"foo\")")
  new_kobject(foo)
  foo.kobj.kset = example_kset                 -- before the add, as in C
  assert(kobject_init_and_add(foo.kobj, foo_ktype, nil, "%s", "foo") == 0)
  predict("What is the kset's refcount now?", function() return example_kset.refcount end,
          "Its own, plus two from foo: one as foo's kset, one as foo's parent (no parent " ..
          "was given, so the add made the kset's kobject the parent).")
  show_tree("/sys/kernel")
  print("The files came with the type's default_groups: nobody called sysfs_create_group().")
end

do
  step("kobject_uevent(&foo->kobj, KOBJ_ADD)")
  predict("How many uevents has user space seen so far?",
          function() return #hotplug_events() end,
          "Today's add sends none: the creator says when the object is ready.")
  kobject_uevent(foo.kobj, KOBJ_ADD)
  print(hotplug_text())
end

do
  step("Each object has its own values")
  echo("/sys/kernel/kset_example/foo/baz", "5")
  print("cat foo/baz -> " .. cat("/sys/kernel/kset_example/foo/baz"):gsub("\n", "\\n"))
  print("foo.baz in Lua = " .. foo.baz .. "   (container_of(kobj) found it)")
end

do
  step("An add that fails: a second object named \"foo\"")
  local dup = { foo = 0, baz = 0, bar = 0 }
  new_kobject(dup)
  dup.kobj.kset = example_kset
  print("kobject_init_and_add -> " .. kobject_init_and_add(dup.kobj, foo_ktype, nil, "foo"))
  print(dup.kobj)
  predict("What is the failed object's refcount?", function() return dup.kobj.refcount end,
          "kobject_init() ran before the add failed: the object is initialised, named, " ..
          "and holds no kset or parent reference any more. Its one reference is the caller's.")
  kobject_put(dup.kobj)
  print("after kobject_put: " .. tostring(dup.kobj) .. ", freed = " .. tostring(dup.freed))
end

do
  step("module_exit: destroy_foo_obj (kobject_put), then kset_unregister")
  kobject_put(foo.kobj)
  local events = hotplug_events()
  print(string.format("the last put sent: %s %s (SEQNUM=%s)", events[#events].action,
                      events[#events].devpath, events[#events].env.SEQNUM))
  kset_unregister(example_kset)
  show_log(9)
  show_leaks()
  assert(#leaks() == 0)
end
