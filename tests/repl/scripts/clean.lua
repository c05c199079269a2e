-- A correct lifetime (init, name, add, del, put): no diagnostics, no leaks.
local ktype = new_ktype{ name = "clean_ktype", release = function(kobj) end }
local k = new_kobject()
k.ktype = ktype
kobject_init(k)
assert(kobject_set_name(k, "clean") == 0)
assert(kobject_add(k) == 0)
print("refcount", k.refcount)
kobject_del(k)
kobject_put(k)
print("clean done")
