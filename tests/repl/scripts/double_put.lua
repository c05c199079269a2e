-- One put too many: the kernel's refcount underflow.
local k = new_kobject()
k.ktype = new_ktype{ release = function(kobj) end }
kobject_set_name(k, "twice")
kobject_init(k)
kobject_put(k)
kobject_put(k)
print("double put done")
