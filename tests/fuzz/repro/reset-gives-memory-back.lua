-- Objects kept by their handles, then reset, again and again: each reset gives back what
-- the core allocated for them (96 MB in all), so the 64 MiB cap is never reached.
-- expect: status 0
-- expect: done	true
local names = {}
for i = 1, 100 do names[i] = string.rep("x", 16000) .. i end
keep = {}
for i = 1, 6000 do
  keep[#keep + 1] = kobject_create_and_add(names[i % 100 + 1])
  if i % 100 == 0 then reset() keep = {} end
end
print("done", kobject_put(kobject_create_and_add("last")) == nil)
