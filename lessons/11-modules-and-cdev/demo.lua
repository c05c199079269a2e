-- Lesson 11 demo: a module reference and a kobject reference, taken together.
--
-- Mirrors fs/char_dev.c: cdev_get() calls try_module_get() on the cdev's owner, then
-- kobject_get() on the cdev, and gives the module back if the kobject is already gone;
-- cdev_put() drops both. Here the two functions are written out in Lua and used the way
-- chrdev_open() and the last close of a file use them.
--
-- Watch for: the two counts moving together; module_unload() refused while a file is
-- open; an open that arrives after the cdev's last reference ("refcount_t: addition on 0;
-- use-after-free.", the warning syzbot hit in 2019) failing without keeping anything.

local function release(kobj)
  container_of(kobj).freed = true
end

local cdev_ktype = new_ktype{ name = "cdev", release = release }

local function cdev_get(p)
  local owner = p.owner
  if owner and not try_module_get(owner) then
    return nil
  end
  local kobj = kobject_get(p.kobj)
  if not kobj and owner then
    module_put(owner)
  end
  return kobj
end

local function cdev_put(p)
  local owner = p.owner
  kobject_put(p.kobj)
  if owner then
    module_put(owner)
  end
end

-- The diagnostics recorded since the nth, as diag_text() words them.
local function show_diagnostics_since(n)
  for i, d in ipairs(diagnostics()) do
    if i > n then print(d.message .. "\n  -> " .. d.explanation) end
  end
end

local snd = module_load("snd_pcm")
local pcm = { owner = snd }

do
  step("The driver in module snd_pcm sets up its cdev")
  local kobj = new_kobject(pcm)
  kobject_init(kobj)
  kobj.ktype = cdev_ktype
  assert(kobject_set_name(kobj, "pcmC0D0p") == 0)
  print(string.format("module %s: %d users; cdev %s: refcount %d", snd.name,
                      module_refcount(snd), kobj.name, kobj.refcount))
end

do
  step("A program opens /dev/snd/pcmC0D0p: cdev_get()")
  assert(cdev_get(pcm))
  predict("How many users does the module snd_pcm have now?",
          function() return module_refcount(snd) end,
          "try_module_get() took one: the code of open(), read() and release() must stay.")
  predict("And what is the cdev's refcount?", function() return pcm.kobj.refcount end,
          "kobject_get() took one: the cdev's memory must stay.")
end

do
  step("rmmod snd_pcm while the file is open")
  predict("What does module_unload() return (0, -EBUSY, ...)?",
          function()
            local err = module_unload(snd)
            return err == -EBUSY and "-EBUSY" or tostring(err)
          end,
          "The open file holds a module reference: unloading would pull the code from under it.")
  show_diagnostics()
end

do
  step("The file is closed: cdev_put() drops both")
  cdev_put(pcm)
  print(string.format("module: %d users; cdev: refcount %d", module_refcount(snd),
                      pcm.kobj.refcount))
end

do
  step("The driver drops its cdev, and a late open still finds it (the 2019 race)")
  local seen = #diagnostics()
  kobject_put(pcm.kobj)
  assert(pcm.freed)
  local kobj = cdev_get(pcm)
  predict("What did cdev_get() return?", function() return tostring(kobj) end,
          "kobject_get() refused an object whose count had reached zero.")
  predict("How many users does snd_pcm have after the failed open?",
          function() return module_refcount(snd) end,
          "cdev_get() gave back the module reference it had taken: both or neither.")
  show_diagnostics_since(seen)
end

do
  step("Now the module can go")
  assert(module_unload(snd) == 0)
  print("module " .. snd.name .. ": " .. snd.state)
  show_leaks()
  assert(#leaks() == 0)
end
