-- Lesson 14 solution: the kobject example, today.
--
-- The kernel's samples/kobject/kobject-example.c in Lua: a module that makes
-- /sys/kernel/kobject_example with three files, foo, baz and bar, each holding an
-- integer that can be read and written. Only the module's boilerplate differs:
-- module_init() and module_exit() become example_init() and example_exit(), which the
-- checks call where insmod and rmmod would, and the C file's static example_kobj is a
-- global the checks can read.
--
-- The fix: store() parsed like sscanf(), took what it could and always reported
-- success. Now it parses like kstrtoint(buf, 10, &n): the whole text must be a decimal
-- integer (one trailing newline allowed) that fits an int, or store() returns -EINVAL
-- (-ERANGE when it is too big) and the old value stays.

-- The three variables behind the files (static int foo, baz, bar; in C).
local values = { foo = 0, baz = 0, bar = 0 }

-- show(): the file's text. In C: return sysfs_emit(buf, "%d\n", foo);
local function number_show(kobj, attr)
  return string.format("%d\n", values[attr.name])
end

-- kstrtoint(text, 10): the integer, or nil and a negative errno. An optional sign,
-- decimal digits, at most one newline after them, and nothing else.
local function kstrtoint(text)
  local digits = text:match("^([+-]?%d+)\n?$")
  if not digits then
    return nil, -EINVAL
  end
  local n = math.tointeger(tonumber(digits))
  if not n or n < -2147483648 or n > 2147483647 then
    return nil, -ERANGE
  end
  return n
end

-- store(): what was written. Returns how many bytes were used, or a negative errno
-- that the writer gets back from write(2).
local function number_store(kobj, attr, value)
  local n, err = kstrtoint(value)
  if not n then
    return err -- the writer sees the error, and the old value stays
  end
  values[attr.name] = n
  return #value
end

-- __ATTR(foo, 0664, ...): the group may write too; sysfs refuses world-writable modes.
local foo_attribute = new_kobj_attribute{ name = "foo", mode = "0664",
                                          show = number_show, store = number_store }
local baz_attribute = new_kobj_attribute{ name = "baz", mode = "0664",
                                          show = number_show, store = number_store }
local bar_attribute = new_kobj_attribute{ name = "bar", mode = "0664",
                                          show = number_show, store = number_store }

-- An unnamed group: its files go in the object's own directory.
local attr_group = new_attribute_group{
  attrs = { foo_attribute, baz_attribute, bar_attribute },
}

-- The module's one kobject (static struct kobject *example_kobj; in C).
example_kobj = nil

-- example_init(): module_init. Returns 0 or a negative errno.
function example_init()
  example_kobj = kobject_create_and_add("kobject_example", kernel_kobj)
  if not example_kobj then
    return -ENOMEM
  end
  local retval = sysfs_create_group(example_kobj, attr_group)
  if retval ~= 0 then
    kobject_put(example_kobj)
    example_kobj = nil
  end
  return retval
end

-- example_exit(): module_exit. The one reference kobject_create_and_add() gave us:
-- the directory and its files go with it.
function example_exit()
  kobject_put(example_kobj)
end
