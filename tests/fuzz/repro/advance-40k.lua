-- 40k releases delayed by DEBUG_KOBJECT_RELEASE, then one advance() that runs them all
-- (quadratic once: each release looked at every Lua object).
-- expect: status 0
-- expect: ran 40000
debug_kobject_release(true, 2)
for i = 1, 40000 do kobject_put(kobject_create_and_add("k" .. i)) end
print("ran " .. advance(10))
