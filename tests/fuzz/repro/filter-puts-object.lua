-- A uevent filter that puts the object the event is about, freeing it.
-- expect: status 0
-- expect: -2
-- expect: released
local set = kset_create_and_add("set", { filter = function(k) kobject_put(k) return true end })
local k = new_kobject()
k.kset = set
kobject_init_and_add(k, new_ktype{ release = function() end }, nil, "member")
print(kobject_uevent(k, KOBJ_CHANGE))
print(k.state)
kset_unregister(set)
