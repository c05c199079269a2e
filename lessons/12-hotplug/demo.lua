-- Lesson 12 demo: hotplug events, as `udevadm monitor --env` shows them.
--
-- Mirrors drivers/base/core.c in 2.6.0: the subsystem "devices" is declared with
-- decl_subsys(devices, &ktype_device, &device_hotplug_ops). Whenever an object in its
-- kset (or below one of its objects) is added or deleted, the kset's hotplug_ops decide
-- whether user space hears of it (filter), under which subsystem (name), and with which
-- extra variables (hotplug). udev loads drivers from these events.
--
-- Watch for: filter() being asked about every object, not only devices; a device on no
-- bus staying silent; SEQNUM counting only the events that were sent; the environment a
-- remove event carries.

local function release(kobj)
  container_of(kobj).freed = true
end

local device_ktype = new_ktype{ name = "device", release = release }
local plain_ktype = new_ktype{ name = "plain", release = release }

local ops = {
  filter = function(kset, kobj)
    local send = get_ktype(kobj) == device_ktype and container_of(kobj).bus ~= nil
    print(string.format("  filter(%s, %s) -> %s", kset.name, kobject_name(kobj), send))
    return send
  end,
  name = function(kset, kobj)
    return container_of(kobj).bus
  end,
  hotplug = function(kset, kobj, env)
    env.PCI_SLOT_NAME = kobject_name(kobj)
    env.PCI_ID = container_of(kobj).id
    return 0
  end,
}

local devices = decl_subsys("devices", device_ktype, ops)
local bridge = {}
local usb = { bus = "pci", id = "8086:293a" }
local sata = { bus = "pci", id = "8086:2922" }
local stats = {}

-- add(): an object below @parent (or at the top of /sys/devices).
local function add(container, name, parent, ktype)
  local kobj = new_kobject(container)
  kobject_init(kobj)
  assert(kobject_set_name(kobj, "%s", name) == 0)
  if ktype then kobj.ktype = ktype else kobj.kset = devices.kset end
  if parent then kobj.parent = parent.kobj end
  assert(kobject_add(kobj) == 0)
end

do
  step("/sys/devices, and a host bridge that sits on no bus")
  assert(subsystem_register(devices) == 0)
  add(bridge, "pci0000:00")
  predict("How many events has user space heard so far?",
          function() return #hotplug_events() end,
          "Registering the subsystem itself is not an event: its kset is in no kset. " ..
          "The bridge was filtered out: it is on no bus.")
end

do
  step("Two PCI devices below the bridge")
  add(usb, "0000:00:1a.0", bridge)
  add(sata, "0000:00:1f.2", bridge)
  print(hotplug_text())
  predict("What is the SEQNUM of the event for 0000:00:1f.2?",
          function() return hotplug_events()[2].env.SEQNUM end,
          "Sequence numbers start at 0 and count events sent, not objects added.")
end

do
  step("An object below a device that is not a device")
  add(stats, "statistics", sata, plain_ktype)
  predict("Does user space hear about it?",
          function() return #hotplug_events() > 2 and "yes" or "no" end,
          "It has no kset, so the nearest kset above it decides; its type is not device.",
          { choices = "yes/no" })
  show_tree("/sys/devices")
end

do
  step("Unplugging: the same operations decide the remove events")
  kobject_unregister(stats.kobj)
  kobject_unregister(sata.kobj)
  local events = hotplug_events()
  print(hotplug_text():match("KERNEL%[" .. events[#events].seqnum .. "%].*"))
end

do
  step("Tear down in reverse order")
  kobject_unregister(usb.kobj)
  kobject_unregister(bridge.kobj)
  subsystem_unregister(devices)
  for _, ev in ipairs(hotplug_events()) do
    print(string.format("  %-6s %s", ev.action, ev.devpath))
  end
  show_leaks()
  assert(#leaks() == 0)
end
