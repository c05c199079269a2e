-- Takes the creator's reference and never drops it: one leaked object.
local k = new_kobject()
k.ktype = new_ktype{ release = function(kobj) end }
kobject_set_name(k, "leaky")
kobject_init(k)
print("leak done")
