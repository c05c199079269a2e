-- Lesson 8 demo: what kobject_add() and kobject_del() do to /sys, and why names collide.
--
-- Mirrors drivers/leds/led-class.c (a class of devices, one directory per LED, attribute
-- files from the type) and, for the failure, lib/kobject.c's kobject_add(): a name that
-- already exists in the parent directory is refused with -EEXIST.
--
-- Watch for: the directory appearing under the parent's; the attribute files coming from
-- the ktype's default_attrs and reading through its show(); the same name being fine in
-- two different directories and refused in one; a refused object still having its count
-- of 1; kobject_del() removing the directory while the object lives on.

local function release(kobj)
  container_of(kobj).freed = true
end

local led_ktype = new_ktype{
  name = "led",
  release = release,
  sysfs_ops = {
    show = function(kobj, attr) return string.format("%d\n", container_of(kobj)[attr]) end,
    store = function(kobj, attr, value)
      if attr ~= "brightness" or not tonumber(value) then return -EINVAL end
      container_of(kobj).brightness = tonumber(value)
      return #value
    end,
  },
  default_attrs = { "brightness", { name = "max_brightness", mode = "0444" } },
}
local plain_ktype = new_ktype{ name = "plain", release = release }

local class = decl_subsys("class", nil, nil)
local leds = new_kset{ name = "leds", ktype = led_ktype, subsys = class }
local caps = { brightness = 0, max_brightness = 1 }
local wifi = { brightness = 0, max_brightness = 255 }
local trig_caps, trig_wifi = {}, {}

-- led(): a kobject in the kset 'leds' (its ktype comes from the kset).
local function led(container, name)
  local kobj = new_kobject(container)
  kobject_init(kobj)
  assert(kobject_set_name(kobj, "%s", name) == 0)
  kobj.kset = leds
  return kobject_add(kobj)
end

-- child(): a kobject whose directory goes under @parent's.
local function child(container, name, parent)
  local kobj = new_kobject(container)
  kobject_init(kobj)
  assert(kobject_set_name(kobj, "%s", name) == 0)
  kobj.ktype = plain_ktype
  kobj.parent = parent
  return kobject_add(kobj)
end

do
  step("kobject_add() makes a directory under its parent's: /sys/class/leds/<name>")
  assert(subsystem_register(class) == 0)
  assert(kset_register(leds) == 0)
  assert(led(caps, "input3::capslock") == 0)
  assert(led(wifi, "phy0-led") == 0)
  show_tree()
  print("ls " .. caps.kobj.path .. ": " .. table.concat(ls(caps.kobj.path), " "))
end

do
  step("Attribute files come from the ktype; reading one calls its show()")
  predict("What does cat print for input3::capslock/max_brightness?",
          function() return (cat(caps.kobj.path .. "/max_brightness"):gsub("\n$", "")) end,
          "show() formatted the LED's max_brightness field; the file holds no data of its own.")
  assert(echo(caps.kobj.path .. "/brightness", "1") == 1)
  print("after echo 1 > brightness, cat brightness: " ..
        cat(caps.kobj.path .. "/brightness"):gsub("\n$", ""))
end

do
  step("Names are unique per directory, not across /sys")
  assert(child(trig_caps, "trigger", caps.kobj) == 0)
  assert(child(trig_wifi, "trigger", wifi.kobj) == 0)
  show_tree("/sys/class/leds")
  local again = { brightness = 0, max_brightness = 1 }
  predict("A second 'input3::capslock' in leds: what does kobject_add() return " ..
          "(0, -ENOENT, -EEXIST, ...)?",
          function()
            local err = led(again, "input3::capslock")
            return err == -EEXIST and "-EEXIST" or tostring(err)
          end,
          "The directory /sys/class/leds already has that entry.")
  show_diagnostics()
  predict("The add failed. What is the refused kobject's refcount?",
          function() return again.kobj.refcount end,
          "kobject_init()'s reference is still there, and still its creator's to drop.")
  kobject_put(again.kobj)
  assert(again.freed and again.kobj.state == "released")
  print("after kobject_put(): " .. again.kobj.state)
end

do
  step("kobject_del() removes the directory; the object lives until its last put")
  kobject_del(trig_wifi.kobj)
  predict("Is phy0-led/trigger still in sysfs?",
          function() return ls(wifi.kobj.path .. "/trigger") and "yes" or "no" end,
          "kobject_del() removed its directory at once, whatever its count.",
          { choices = "yes/no" })
  predict("And what is its state?", function() return trig_wifi.kobj.state end,
          "Out of sysfs, still counted: the creator's reference from kobject_init() remains.",
          { choices = "state" })
  kobject_put(trig_wifi.kobj)
end

do
  step("Tear down in reverse order of creation")
  kobject_unregister(trig_caps.kobj)
  kobject_unregister(wifi.kobj)
  kobject_unregister(caps.kobj)
  kset_unregister(leds)
  subsystem_unregister(class)
  show_tree()
  show_leaks()
  assert(#leaks() == 0)
end
