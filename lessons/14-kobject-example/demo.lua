-- Lesson 14 demo: samples/kobject/kobject-example.c, today's API in Lua.
--
-- Shows: kobject_create_and_add() makes a directory in /sys/kernel with one reference,
-- the caller's; kobj_attributes give each file its own show() and store(); an attribute
-- group adds them all at once; a read goes to show(), a write to store(), and a
-- negative errno from store() reaches the writer; module exit is one kobject_put().
-- Mirrors: samples/kobject/kobject-example.c, with lib/kobject.c (kobject_create_and_add,
-- dynamic_kobj_ktype, kobj_sysfs_ops) and fs/sysfs/group.c (sysfs_create_group).
-- Watch for: the refcounts (today's add takes no reference of its own), the files
-- appearing with the group, and what echo() returns for a number and for junk.

-- The values behind the files, and one show()/store() pair for all of them: the
-- attribute passed in says which file is meant.
local values = { foo = 0, baz = 0, bar = 0 }

local function number_show(kobj, attr)
  return string.format("%d\n", values[attr.name])
end

local function number_store(kobj, attr, value)
  local n = math.tointeger(tonumber(value:match("^([+-]?%d+)\n?$")))
  if not n then
    return -EINVAL
  end
  values[attr.name] = n
  return #value
end

local attrs = {}
for _, name in ipairs{ "foo", "baz", "bar" } do
  attrs[#attrs + 1] = new_kobj_attribute{ name = name, mode = "0664",
                                          show = number_show, store = number_store }
end
local group = new_attribute_group{ attrs = attrs }

local example_kobj

do
  step("module_init: kobject_create_and_add(\"kobject_example\", kernel_kobj)")
  example_kobj = assert(kobject_create_and_add("kobject_example", kernel_kobj))
  print(example_kobj)
  predict("What is the refcount of kobject_example?",
          function() return example_kobj.refcount end,
          "kobject_init gave the caller 1; today's kobject_add takes no reference of its own.")
  predict("And the refcount of /sys/kernel?", function() return kernel_kobj().refcount end,
          "The world's own reference, and one held by its new child, its parent reference.")
end

do
  step("sysfs_create_group: three files at once, in the object's own directory")
  assert(sysfs_create_group(example_kobj, group) == 0)
  show_tree("/sys/kernel")
  print("ls /sys/kernel/kobject_example: " ..
        table.concat(ls("/sys/kernel/kobject_example"), " "))
end

do
  step("cat and echo: a read calls show(), a write calls store()")
  local dir = "/sys/kernel/kobject_example/"
  print("cat foo   -> " .. cat(dir .. "foo"):gsub("\n", "\\n"))
  predict("echo 42 > foo: what does echo() return? (store() returns #value)",
          function() return echo(dir .. "foo", "42\n") end,
          "The bytes store() used: \"42\\n\" is three. write(2) returns the same.")
  print("cat foo   -> " .. cat(dir .. "foo"):gsub("\n", "\\n"))
  print("cat bar   -> " .. cat(dir .. "bar"):gsub("\n", "\\n") .. "   (a file of its own)")
end

do
  step("A write that store() refuses")
  local dir = "/sys/kernel/kobject_example/"
  local n, msg, code = echo(dir .. "foo", "forty-two")
  print(string.format("echo forty-two > foo -> %s, %q, %s", tostring(n), msg, tostring(code)))
  print("cat foo   -> " .. cat(dir .. "foo"):gsub("\n", "\\n") .. "   (unchanged)")
  print("A shell would print: echo: write error: Invalid argument")
end

do
  step("module_exit: kobject_put(example_kobj)")
  kobject_put(example_kobj)
  show_log(6)
  predict("Is /sys/kernel/kobject_example still there?",
          function() return ls("/sys/kernel/kobject_example") and "yes" or "no" end,
          "The last put of an object still in sysfs removes it first (auto cleanup), " ..
          "files and all, then frees it.", { choices = "yes/no" })
  show_tree("/sys/kernel")
  show_leaks()
  assert(#leaks() == 0)
end
