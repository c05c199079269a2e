-- Lesson 4 demo: release methods and ktypes
--
-- Shows: struct kobj_type and its three fields (release, sysfs_ops, default_attrs);
-- the release method runs at the last put, whoever makes it, so the structure must stay
-- valid until then; and what the kernel says about a ktype with no release method.
-- Mirrors: include/linux/kobject.h (struct kobj_type), lib/kobject.c (kobject_cleanup,
-- which calls t->release or complains) and samples/kobject/kset-example.c (foo_ktype).
-- Watch for: kobject_unregister() dropping two references but not the last one, and the
-- release event appearing at the reader's put instead.

local O644 = tonumber("644", 8) -- Lua has no octal literals: 0644 would be decimal

-- The type of a sensor: how it dies, and how it looks in sysfs.
local sensor_type = new_ktype{
  name = "sensor_type",
  release = function(kobj)
    local sensor = container_of(kobj)
    sensor.samples = nil       -- free what the sensor owns, then the sensor itself
  end,
  sysfs_ops = {
    show = function(kobj, attr)
      local sensor = container_of(kobj)
      if attr == "value" then return string.format("%d\n", sensor.samples[#sensor.samples]) end
      return string.format("%d\n", sensor.interval)
    end,
    store = function(kobj, attr, value)
      container_of(kobj).interval = tonumber(value) or 0
      return #value
    end,
  },
  default_attrs = { "value", { name = "interval", mode = O644 } },
}

local temp0 = { samples = { 21, 22 }, interval = 1000 }

step("A ktype with a release method and two attributes")
do
  new_kobject(temp0)
  temp0.kobj.ktype = sensor_type
  assert(kobject_set_name(temp0.kobj, "temp0") == 0)
  assert(kobject_register(temp0.kobj) == 0)   -- kobject_init + kobject_add
  show_tree()
  print("cat /sys/temp0/value: " .. (cat("/sys/temp0/value"):gsub("\n$", "")))
  echo("/sys/temp0/interval", "500")
  print("after echo 500 > /sys/temp0/interval: interval = " .. temp0.interval)
end

local reader

step("A reader takes a reference, then the driver unregisters the sensor")
do
  -- User space can keep a sysfs file open as long as it likes; here a reader takes a
  -- reference the same way.
  reader = kobject_get(temp0.kobj)
  kobject_unregister(temp0.kobj)              -- kobject_del + kobject_put
end
predict("What is temp0's refcount after kobject_unregister?",
        function() return temp0.kobj.refcount end,
        "Unregister dropped sysfs' reference and the creator's; the reader's is left.")
print("gone from sysfs: " .. tostring(ls("/sys/temp0") == nil) ..
      "; samples still there: " .. tostring(temp0.samples ~= nil))

step("The reader lets go: the last put runs the release method")
do
  kobject_put(reader)
  print("samples after release: " .. tostring(temp0.samples))
  show_log(6)
end

step("A ktype without a release method")
do
  -- What the article forbids: nothing would ever free this structure. The kernel
  -- complains at the last put, in kobject_cleanup().
  local no_release_type = new_ktype{ name = "broken_type" }
  local broken = {}
  new_kobject(broken)
  broken.kobj.ktype = no_release_type
  kobject_init(broken.kobj)
  assert(kobject_set_name(broken.kobj, "broken0") == 0)
  kobject_put(broken.kobj)
  show_diagnostics()
end

step("Nothing is left behind")
show_leaks()
