-- is_visible() deleting its object in the middle of sysfs_create_group().
-- expect: status 0
-- expect: -2
-- expect: deleted
local k = kobject_create_and_add("k")
local grp = new_attribute_group{ name = "g",
  attrs = { new_kobj_attribute{ name = "a", mode = "0444", show = function() return "a" end },
            new_kobj_attribute{ name = "b", mode = "0444", show = function() return "b" end } },
  is_visible = function(kobj, attr, i) kobject_del(kobj) return 292 end }
print(sysfs_create_group(k, grp))
print(k.state)
kobject_put(k)
