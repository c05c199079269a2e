-- Lesson 21 demo: try_module_get() against unload, as two simulated threads.
--
-- Shows: a user that finds a module's object and pins the module, and rmmod, on two
-- threads; the schedule where the module is freed between the lookup and the pin;
-- explore() finding it; the pin under the lock, where the user either pins the module
-- (and rmmod is refused) or finds it going.
-- Mirrors: kernel/module (try_module_get, delete_module), fs/filesystems.c get_fs_type().
-- Watch for: the module going, its exit function taking the list's lock, and what
-- try_module_get() finds.

local function setup()
  local ktype = new_ktype{ name = "fs", release = function() end }
  local filesystems = assert(kset_create_and_add("filesystems", nil, kernel_kobj))
  local fs
  local mod = module_load("ext9", function() kobject_put(fs.kobj) end)
  fs = { owner = mod }
  new_kobject(fs)
  fs.kobj.kset = filesystems
  assert(kobject_init_and_add(fs.kobj, ktype, nil, "ext9") == 0)
  return filesystems, mod
end

local function find(filesystems, name)
  for _, kobj in ipairs(filesystems.list) do
    if kobj.name == name then return container_of(kobj) end
  end
end

-- The lookup, then the pin after the unlock.
local function get_fs_late(filesystems)
  spin_lock(filesystems)
  local fs = find(filesystems, "ext9")
  spin_unlock(filesystems)
  return fs and try_module_get(fs.owner) and fs
end

-- get_fs_type()'s way: the pin under the lock.
local function get_fs_type(filesystems)
  spin_lock(filesystems)
  local fs = find(filesystems, "ext9")
  if fs and not try_module_get(fs.owner) then fs = nil end
  spin_unlock(filesystems)
  return fs
end

local loud = false -- the user says what it got

local function user(get)
  return function(filesystems)
    local fs = get(filesystems)
    if loud then print("  the user got " .. (fs and "ext9, pinned" or "nothing")) end
    if fs then module_put(fs.owner) end
  end
end

local function rmmod(_, mod)
  module_unload(mod)
end

local function teardown(filesystems, mod)
  if mod.state == "live" then module_unload(mod) end
  kset_unregister(filesystems)
end

do
  step("A user and rmmod, by the rule: the user pins ext9 and lets go, then rmmod")
  local filesystems, mod = setup()
  spawn(user(get_fs_late), filesystems)
  spawn(rmmod, filesystems, mod)
  run_threads()
  show_threads()
  print("ext9 is " .. mod.state)
  kset_unregister(filesystems)
end

do
  step("Schedule 11112: the user has unlocked and is at try_module_get(); rmmod runs")
  reset()
  local filesystems, mod = setup()
  spawn(user(get_fs_late), filesystems)
  spawn(rmmod, filesystems, mod)
  predict("What state is ext9 in when the user's try_module_get() comes?",
          function()
            run_threads("11112")
            return mod.state
          end,
          "Unloaded: rmmod found no user, marked the module going, ran its exit " ..
          "function (which took the list's lock, free since the user's unlock, and " ..
          "unregistered ext9) and freed the module. try_module_get() reads freed memory.",
          { choices = { "live", "going", "unloaded" } })
  show_threads()
  show_diagnostics()
  kset_unregister(filesystems)
end

do
  step("explore(): the pin after the unlock")
  local r = explore{ setup = setup, user(get_fs_late), rmmod, teardown = teardown,
                     allow = { "module-in-use" } }
  print("ok = " .. tostring(r.ok) .. " after " .. r.schedules .. " schedules; failing " ..
        "schedule " .. tostring(r.schedule))
end

do
  step("explore(): the pin under the lock, as get_fs_type() does it")
  local r = explore{ setup = setup, user(get_fs_type), rmmod, teardown = teardown,
                     allow = { "module-in-use" }, all = true }
  print("ok = " .. tostring(r.ok) .. " after " .. r.schedules .. " schedules (every " ..
        "interleaving: " .. r.naive .. ")")
  step("Schedule 112: rmmod's exit function waits for the lock; the user finds ext9 going")
  loud = true
  replay("112", { setup = setup, user(get_fs_type), rmmod, teardown = teardown })
  show_threads()
  show_diagnostics()
end
