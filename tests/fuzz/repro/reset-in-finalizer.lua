-- reset() from a finalizer while log(), objects(), kernel_log() and leaks() run.
-- expect: status 0
-- expect: No leaks
for i = 1, 50 do kobject_create_and_add("r" .. i) end
local errors = {}
for i = 1, 200 do
  setmetatable({}, { __gc = function() local ok, e = pcall(reset) if not ok then errors[#errors + 1] = e end end })
end
for _ = 1, 10 do log() objects() kernel_log() leaks() end
collectgarbage()
print(#errors > 0 and errors[1] or "no reset refused")
