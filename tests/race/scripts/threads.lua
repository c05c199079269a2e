-- Two simulated threads: one takes a reference, the other drops the last one.
local kt = new_ktype{ release = function() print("released by thread " .. current_thread()) end }
local k = new_kobject()
kobject_init(k, kt)
kobject_set_name(k, "thing")
spawn(function()
  local got = kobject_get(k)
  if got then kobject_put(got) end
end)
spawn(function() kobject_put(k) end)
local r = run_threads()
print("schedule " .. r.schedule)
