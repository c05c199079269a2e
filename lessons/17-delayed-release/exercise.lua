-- Lesson 17 exercise: delayed release.
--
-- A hotplug slot driver, small: each slot is an object in the kset /sys/kernel/slots,
-- made with today's calls and announced with an "add" uevent. When the card in a slot is
-- swapped, slot_replace() destroys the slot's object and makes a new one with the same
-- name, so user space sees a "remove" and then an "add" for it.
--
-- Everything works, until the kernel is built with CONFIG_DEBUG_KOBJECT_RELEASE (the
-- checks turn it on with debug_kobject_release(true)): then slot_replace() fails with
-- -EEXIST ("sysfs: cannot create duplicate filename"), and a destroyed slot stays in
-- /sys/kernel/slots for seconds. The code assumes something about kobject_put() that
-- the kernel never promised.
--
--   kobj lesson check 17    runs check.lua against this file
--   kobj lesson hint 17     one hint at a time

-- The last reference to a slot is gone: in C, kfree(to_slot(kobj)).
local function slot_release(kobj)
  container_of(kobj).freed = true
end

local slot_ktype = new_ktype{ name = "slot", release = slot_release }

-- The kset of all slots (static struct kset *slots_kset; in C).
slots_kset = nil

-- slots_init(): /sys/kernel/slots. Returns 0 or -ENOMEM.
function slots_init()
  slots_kset = kset_create_and_add("slots", nil, kernel_kobj)
  return slots_kset and 0 or -ENOMEM
end

-- slots_exit(): every slot must be destroyed first.
function slots_exit()
  kset_unregister(slots_kset)
  slots_kset = nil
end

-- slot_create(name): a slot in /sys/kernel/slots, announced to user space.
-- Returns the slot, or nil and a negative errno.
function slot_create(name)
  local slot = { power = "on" }
  new_kobject(slot)
  slot.kobj.kset = slots_kset
  local err = kobject_init_and_add(slot.kobj, slot_ktype, nil, "%s", name)
  if err ~= 0 then
    kobject_put(slot.kobj)
    return nil, err
  end
  kobject_uevent(slot.kobj, KOBJ_ADD)
  return slot
end

-- slot_destroy(slot): the slot is gone for good. Its last put takes it out of sysfs
-- (with the "remove" uevent) and frees it.
function slot_destroy(slot)
  slot.power = "off"
  kobject_put(slot.kobj)
end

-- slot_replace(slot): the card was swapped. Returns the new slot, with the old one's
-- name, or nil and a negative errno.
function slot_replace(slot)
  local name = kobject_name(slot.kobj)
  slot_destroy(slot)
  return slot_create(name)
end
