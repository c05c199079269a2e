-- dot() of 64k objects (quadratic once).
-- expect: status 1
-- expect: memory limit reached
local set = kset_create_and_add("many")
for i = 1, 65536 do kobject_create_and_add("o" .. i, set.kobj) end
print(#dot())
