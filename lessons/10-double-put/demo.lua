-- Lesson 10 demo: a double put, and what a handle to a released object is worth.
--
-- Mirrors drivers/usb/usb-skeleton.c again: the driver takes one reference in probe and
-- must give back exactly one. Here its remove path gives back two. Nothing is visibly
-- wrong at that moment; the damage shows when the bus drops its own references: the
-- device is freed one put early, and the last put lands on freed memory. The kernel
-- reports that as "refcount_t: underflow; use-after-free."
--
-- Watch for: which call actually releases the device (not the one with the bug); the
-- diagnostic naming both the extra put and where the object was released; kobject_get()
-- returning nil afterwards; the stale handle raising an error when used.

local function release(kobj)
  container_of(kobj).freed = true
end

local usb_device_ktype = new_ktype{ name = "usb_device", release = release }
local bus = decl_subsys("bus", nil, nil)
local usb = new_kset{ name = "usb", ktype = usb_device_ktype, subsys = bus }
local dev = { name = "1-1" }

do
  step("A device on /sys/bus/usb, and a driver bound to it")
  assert(subsystem_register(bus) == 0)
  assert(kset_register(usb) == 0)
  local kobj = new_kobject(dev)
  kobject_init(kobj)
  assert(kobject_set_name(kobj, "%s", dev.name) == 0)
  kobj.kset = usb
  assert(kobject_add(kobj) == 0)
  local driver_refs = references_during(kobj, function()
    dev.udev = assert(kobject_get(kobj), "the device is already on its way out")
  end)
  predict("How many references does the device have?",
          function() return dev.kobj.refcount end,
          "kobject_init() gave one, kobject_add() took one, probe's kobject_get() one.")
  predict("Who owns most of them?",
          function()
            return dev.kobj.refcount - driver_refs > driver_refs and "bus" or "driver"
          end,
          "The bus owns 2 (kobject_init's and kobject_add's), the driver 1 (probe's get).",
          { choices = { "bus", "driver" } })
  show_tree()
end

do
  step("The driver's remove path puts the device twice")
  kobject_put(dev.kobj)   -- remove() "drops the device"
  kobject_put(dev.udev)   -- and skel_delete() drops the reference probe() took
  predict("What is the refcount now?", function() return dev.kobj.refcount end,
          "Still above zero, so nothing looks wrong. But the bus believes it owns 2.")
  predict("How many diagnostics has the sandbox recorded so far?",
          function() return #diagnostics() end,
          "None: a put that drops someone else's reference looks like any other put.")
end

do
  step("The device is unplugged: kobject_unregister() = kobject_del() + kobject_put()")
  kobject_unregister(dev.kobj)
  predict("Which half of kobject_unregister() released the device?",
          function()
            -- The put just before the release: the del's (the sysfs registration, held by
            -- the object itself) or the unregister's own.
            local last_put
            for _, ev in ipairs(log()) do
              if ev.id == dev.kobj.id and ev.kind == "put" then last_put = ev end
              if ev.id == dev.kobj.id and ev.kind == "release" then
                return last_put.holder_id == dev.kobj.id and "del" or "put"
              end
            end
          end,
          "kobject_del() drops the sysfs reference, the last one left; the put that follows " ..
          "finds the count at zero.", { choices = { "del", "put" } })
  show_log(6)
  show_diagnostics()
end

do
  step("What is left in your hands: a stale handle")
  predict("What does kobject_get(dev.kobj) return now?",
          function() return tostring(kobject_get(dev.kobj)) end,
          "kobject_get() refuses an object whose count reached zero, and says so.")
  predict("What is dev.kobj.state?", function() return dev.kobj.state end,
          "The count reached zero and the release method ran: every handle is stale.",
          { choices = "state" })
  local ok, err = pcall(function() return dev.kobj.name end)
  assert(not ok)
  print("reading dev.kobj.name raises: " .. tostring(err))
  print("in C this read would return whatever now occupies the freed memory")
end

do
  step("Tear down the bus: nothing leaks, but the device was freed one put early")
  kset_unregister(usb)
  subsystem_unregister(bus)
  show_leaks()
  assert(#leaks() == 0)
  print("diagnostics: " .. #diagnostics())
end
