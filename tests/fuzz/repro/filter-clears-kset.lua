-- A uevent filter that takes the object out of its kset (k.kset = nil) mid-event.
-- expect: status 0
-- expect: raised a Lua error
-- expect: kobject_del() it before changing its kset
local set = kset_create_and_add("set", { filter = function(k) k.kset = nil return true end,
                                         uevent = function(k, env) return 0 end })
local k = new_kobject()
k.kset = set
kobject_init(k, new_ktype{ release = function() end })
kobject_add(k, nil, "member")
print(kobject_uevent(k, KOBJ_CHANGE))
kobject_put(k)
kset_unregister(set)
