-- A million new_kobject() calls: memory the core allocates.
-- expect: status 1
-- expect: instruction budget exhausted
for i = 1, 1e6 do new_kobject() end
print("escaped")
