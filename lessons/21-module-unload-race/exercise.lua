-- Lesson 21 exercise: try_module_get() against unload.
--
-- A registry of sound codecs, each an object in the kset /sys/kernel/codecs, owned by
-- the module that registered it: the module's exit function unregisters its codec.
-- codec_get(name) finds a codec for a user and pins its module with try_module_get(),
-- so that the module (and with it the codec, which lives as long as the module) cannot
-- go while the user holds it; codec_put() lets go.
--
-- Alone, everything works. But rmmod may run on another CPU while codec_get() runs, and
-- under one order of their steps codec_get() pins a module that is already unloaded:
-- "BUG: unable to handle page fault in try_module_get". The checks run a user and rmmod
-- as two simulated threads under every order that matters.
--
--   kobj lesson check 21    runs check.lua against this file
--   kobj lesson hint 21     one hint at a time
--
-- At the prompt (:lesson 21), race() explores codec_get() against the module's unload;
-- replay(race().schedule) runs the failing order again, and :log shows each thread.

-- The kset of all codecs, and their ktype (static in C). Each run of the checks starts
-- in a fresh world, so codecs_init() makes them.
codecs = nil
local codec_ktype

-- codecs_init(): /sys/kernel/codecs. Returns 0 or -ENOMEM.
function codecs_init()
  codec_ktype = new_ktype{ name = "codec", release = function() end }
  codecs = kset_create_and_add("codecs", nil, kernel_kobj)
  return codecs and 0 or -ENOMEM
end

-- codecs_exit(): every codec's module must be unloaded first.
function codecs_exit()
  kset_unregister(codecs)
  codecs = nil
end

-- codec_register(name, owner): a codec in /sys/kernel/codecs, owned by the module
-- @owner, whose exit function must unregister it (kobject_put(codec.kobj)).
-- Returns the codec, or nil and a negative errno.
function codec_register(name, owner)
  local codec = { owner = owner }
  new_kobject(codec)
  codec.kobj.kset = codecs
  local err = kobject_init_and_add(codec.kobj, codec_ktype, nil, "%s", name)
  if err ~= 0 then
    kobject_put(codec.kobj)
    return nil, err
  end
  return codec
end

-- snd_hda_load(): insmod of the module snd_hda, which registers the codec "hda" and
-- unregisters it in its exit function. Returns the module and the codec.
function snd_hda_load()
  local codec
  local mod = module_load("snd_hda", function() kobject_put(codec.kobj) end)
  codec = assert(codec_register("hda", mod))
  return mod, codec
end

-- codec_get(name): the codec, its module pinned for the caller, or nil if there is none
-- (or its module is going away).
function codec_get(name)
  spin_lock(codecs)                  -- the kset's list_lock guards its list
  local found
  for _, kobj in ipairs(codecs.list) do
    if kobj.name == name then
      found = container_of(kobj)
      break
    end
  end
  spin_unlock(codecs)
  if found and try_module_get(found.owner) then
    return found
  end
  return nil
end

-- codec_put(codec): the user is done with the codec.
function codec_put(codec)
  module_put(codec.owner)
end

-- race(): codec_get("hda") against rmmod snd_hda, under every schedule.
function race()
  return explore{
    setup = function()
      assert(codecs_init() == 0)
      return snd_hda_load()
    end,
    function()
      local codec = codec_get("hda")
      if codec then codec_put(codec) end
    end,
    function(mod) module_unload(mod) end,
    teardown = function(mod)
      if mod.state == "live" then module_unload(mod) end
      codecs_exit()
    end,
    allow = { "module-in-use" },     -- rmmod refused while a user holds the module
  }
end
