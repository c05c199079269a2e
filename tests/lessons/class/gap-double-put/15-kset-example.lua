-- Lesson 15 with a put too many on the error path.
-- Lesson 15 solution: the kset example, today.
--
-- The kernel's samples/kobject/kset-example.c in Lua: a kset, /sys/kernel/kset_example,
-- holding three objects of a type of its own, struct foo_obj, each with the files foo,
-- baz and bar. Each object embeds its kobject and is freed by the ktype's release; each
-- is announced to user space with an "add" uevent. module_init() and module_exit()
-- become example_init() and example_exit(); the C file's static example_kset is a
-- global the checks can read.
--
-- The fix: kobject_init_and_add() initialises the object before it tries the add, so
-- even when the add fails the object has a count of 1, its name, and a release to run.
-- create_foo_obj() drops that reference with kobject_put() on the error path, and
-- foo_release() frees the object as it does on any other last put.

-- ============================================================= struct foo_obj

-- struct foo_obj { struct kobject kobj; int foo, baz, bar; }: a table with a kobject.
local function to_foo_obj(kobj)
  return container_of(kobj)
end

-- The release: the last reference is gone. In C: kfree(to_foo_obj(kobj)).
local function foo_release(kobj)
  local foo = to_foo_obj(kobj)
  foo.freed = true
end

-- One show() and one store() for the three files: attr.name says which field.
local function field_show(kobj, attr)
  return string.format("%d\n", to_foo_obj(kobj)[attr.name])
end

local function field_store(kobj, attr, value)
  local n = math.tointeger(tonumber(value:match("^([+-]?%d+)\n?$")))
  if not n then
    return -EINVAL
  end
  to_foo_obj(kobj)[attr.name] = n
  return #value
end

local function field(name)
  return new_kobj_attribute{ name = name, mode = "0664", show = field_show,
                             store = field_store }
end

-- ATTRIBUTE_GROUPS(foo_default): the files every foo_obj gets when it is added.
local foo_default_group = new_attribute_group{ attrs = { field("foo"), field("baz"),
                                                         field("bar") } }

local foo_ktype = new_ktype{
  name = "foo_obj",
  sysfs_ops = kobj_sysfs_ops,
  release = foo_release,
  default_groups = { foo_default_group },
}

-- ============================================================= the module

example_kset = nil
local foo_obj, bar_obj, baz_obj

-- create_foo_obj(name): a new foo_obj in the kset, announced with an "add" uevent.
-- Returns it, or nil and a negative errno.
function create_foo_obj(name)
  local foo = { foo = 0, baz = 0, bar = 0 }
  new_kobject(foo)                        -- foo.kobj, in zeroed memory (kzalloc)
  foo.kobj.kset = example_kset            -- before the add: it puts us in the kset
  local retval = kobject_init_and_add(foo.kobj, foo_ktype, nil, "%s", name)
  if retval ~= 0 then
    kobject_put(foo.kobj)                 -- initialised even so: the put frees it
    kobject_put(foo.kobj)                 -- wrong: one put too many
    return nil, retval
  end
  kobject_uevent(foo.kobj, KOBJ_ADD)      -- tell user space it is there
  return foo
end

-- destroy_foo_obj(foo): drops our reference; the release frees it.
function destroy_foo_obj(foo)
  kobject_put(foo.kobj)
end

-- example_init(): module_init. Returns 0 or a negative errno, and on failure leaves
-- nothing behind.
function example_init()
  example_kset = kset_create_and_add("kset_example", nil, kernel_kobj)
  if not example_kset then
    return -ENOMEM
  end
  foo_obj = create_foo_obj("foo")
  if not foo_obj then
    goto foo_error
  end
  bar_obj = create_foo_obj("bar")
  if not bar_obj then
    goto bar_error
  end
  baz_obj = create_foo_obj("baz")
  if not baz_obj then
    goto baz_error
  end
  do return 0 end

::baz_error::
  destroy_foo_obj(bar_obj)
::bar_error::
  destroy_foo_obj(foo_obj)
::foo_error::
  kset_unregister(example_kset)
  example_kset = nil
  return -EINVAL
end

-- example_exit(): module_exit, in the reverse order of example_init().
function example_exit()
  destroy_foo_obj(baz_obj)
  destroy_foo_obj(bar_obj)
  destroy_foo_obj(foo_obj)
  kset_unregister(example_kset)
  example_kset = nil
end
