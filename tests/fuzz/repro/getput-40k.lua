-- 40k get/put pairs, then the end-of-run leak report (quadratic once).
-- expect: status 0
-- expect: 2001
local k = kobject_create_and_add("k")
for i = 1, 40000 do kobject_put(kobject_get(k)) end
for i = 1, 2000 do kobject_get(k) end
print(k.refcount)
