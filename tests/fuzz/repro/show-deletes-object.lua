-- A ktype's show() that deletes its own object, read twice.
-- expect: status 0
-- expect: gone
-- expect: No such file or directory
local kt = new_ktype{ release = function(k) end,
  sysfs_ops = { show = function(k, attr) kobject_del(k) return "gone\n" end },
  default_attrs = { "state" } }
local k = new_kobject()
kobject_init(k, kt)
kobject_add(k, nil, "victim")
print(cat("/sys/victim/state"))
print(cat("/sys/victim/state"))
kobject_put(k)
