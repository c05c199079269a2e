-- Lesson 17 solution: delayed release.
--
-- A hotplug slot driver, small: each slot is an object in the kset /sys/kernel/slots,
-- made with today's calls and announced with an "add" uevent. When the card in a slot is
-- swapped, slot_replace() destroys the slot's object and makes a new one with the same
-- name, so user space sees a "remove" and then an "add" for it.
--
-- The fix: slot_destroy() removes the slot in two stages, as device_unregister() does:
-- kobject_del() takes it out of sysfs now (the "remove" uevent goes with it, and the
-- name is free for the next slot), and kobject_put() drops our reference, whose release
-- may come at once or, with CONFIG_DEBUG_KOBJECT_RELEASE, seconds later. Nothing after
-- the put relies on the release having run.

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

-- slot_destroy(slot): the slot is gone for good: out of sysfs now, freed whenever its
-- last reference goes.
function slot_destroy(slot)
  slot.power = "off"
  kobject_del(slot.kobj)      -- out of sysfs, with the "remove" uevent: the name is free
  kobject_put(slot.kobj)      -- our reference; the release may come later
end

-- slot_replace(slot): the card was swapped. Returns the new slot, with the old one's
-- name, or nil and a negative errno.
function slot_replace(slot)
  local name = kobject_name(slot.kobj)
  slot_destroy(slot)
  return slot_create(name)
end
