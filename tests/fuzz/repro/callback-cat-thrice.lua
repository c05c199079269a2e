-- A show() that reads its own file three times: work that grows exponentially.
-- expect: status 1
-- expect: instruction budget exhausted
local k = kobject_create_and_add("x", kernel_kobj())
sysfs_create_file(k, new_kobj_attribute{ name = "a", mode = "0444", show = function()
  cat("/sys/kernel/x/a") cat("/sys/kernel/x/a") cat("/sys/kernel/x/a") return "" end })
cat("/sys/kernel/x/a")
print("escaped")
