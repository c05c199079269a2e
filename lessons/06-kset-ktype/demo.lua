-- Lesson 6 demo: whose ktype? The kset's
--
-- Shows: a kset can name the ktype of its members; a member of such a kset gets the
-- kset's type, and its own kobj.ktype is ignored; get_ktype() says which type applies,
-- and that type's release is the one that runs.
-- Mirrors: include/linux/kobject.h in 2.6.0 (get_ktype: "if (k->kset && k->kset->ktype)
-- return k->kset->ktype"), and drivers/block/genhd.c, where decl_subsys(block,
-- &ktype_block, ...) gives every disk its type.
-- Watch for: the tree naming the type each object really has, and which release runs.

local released_by = {}

local function ktype_named(name)
  return new_ktype{
    name = name,
    release = function(kobj) released_by[#released_by + 1] = name end,
  }
end

local ktype_block = ktype_named("ktype_block")
local my_ktype = ktype_named("my_ktype")

local block_subsys = decl_subsys("block", ktype_block, nil)  -- its kset's ktype is set
local misc_subsys = decl_subsys("misc", nil, nil)             -- no ktype for members

-- A structure with a kobject that carries its own ktype, initialised and named.
local function new_object(name)
  local obj = {}
  new_kobject(obj)
  obj.kobj.ktype = my_ktype
  kobject_init(obj.kobj)
  assert(kobject_set_name(obj.kobj, "%s", name) == 0)
  return obj
end

local rtc = new_object("rtc")
local sda = new_object("sda")

step("Two subsystems: block names a ktype for its members, misc does not")
do
  assert(subsystem_register(block_subsys) == 0)
  assert(subsystem_register(misc_subsys) == 0)
  print("block's kset ktype: " .. tostring(block_subsys.kset.ktype and
                                           block_subsys.kset.ktype.name))
  print("misc's kset ktype:  " .. tostring(misc_subsys.kset.ktype and
                                           misc_subsys.kset.ktype.name))
end

step("rtc joins misc, sda joins block; both set kobj.ktype = my_ktype")
do
  rtc.kobj.kset = misc_subsys.kset
  sda.kobj.kset = block_subsys.kset
  assert(kobject_add(rtc.kobj) == 0)
  assert(kobject_add(sda.kobj) == 0)
end
predict("Which ktype does the kobject core use for sda?",
        function() return get_ktype(sda.kobj).name end,
        "Its kset has a ktype, and a kset's ktype wins over the object's own.",
        { choices = { "ktype_block", "my_ktype" } })
predict("And for rtc?", function() return get_ktype(rtc.kobj).name end,
        "misc's kset names no ktype, so rtc's own is used.",
        { choices = { "ktype_block", "my_ktype" } })
print("sda.kobj.ktype is still " .. sda.kobj.ktype.name .. ": set, but not used")
show_tree("/sys/block")
show_tree("/sys/misc")

step("Unregister sda")
do
  kobject_unregister(sda.kobj)
end
predict("Whose release method ran for sda?",
        function() return released_by[1] end,
        "The release of the type get_ktype() returns: a release method put only in " ..
        "sda.kobj.ktype would never run.", { choices = { "ktype_block", "my_ktype" } })

step("Unregister rtc")
do
  kobject_unregister(rtc.kobj)
  print("releases that ran, in order: " .. table.concat(released_by, ", "))
end

step("Tear down the subsystems")
do
  subsystem_unregister(misc_subsys)
  subsystem_unregister(block_subsys)
  show_leaks()
end
