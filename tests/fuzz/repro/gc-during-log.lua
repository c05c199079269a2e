-- A finalizer that makes events while log() builds its table.
-- expect: status 0
-- expect: log survived
for i = 1, 200 do
  setmetatable({}, { __gc = function() kobject_put(kobject_create_and_add("g" .. i)) end })
end
for _ = 1, 20 do
  local t = log()
  assert(#t > 0)
end
print("log survived", #log() > 0)
