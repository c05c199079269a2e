-- Lesson 8 exercise: names in sysfs.
--
-- An LED class like drivers/leds/led-class.c: /sys/class/leds holds one directory per
-- LED, named after it ("input3::capslock"), with two attribute files from the ktype:
-- brightness (read-write) and max_brightness (read-only).
--
-- led_register() is meant to hand its kobject back when kobject_add() refuses it, for
-- instance because an LED of that name is already there. It does not: every refused LED
-- stays allocated forever. The checks register a duplicate on purpose; make the refused
-- LED go away cleanly, and leave the first one untouched.
--
--   kobj lesson check 8    runs check.lua against this file
--   kobj lesson hint 8     one hint at a time

-- The last reference to an LED is gone: in C, kfree(to_led(kobj)).
local function led_release(kobj)
  container_of(kobj).freed = true
end

-- The ktype's sysfs_ops: one show and one store for every attribute file.
local led_sysfs_ops = {
  show = function(kobj, attr)
    return string.format("%d\n", container_of(kobj)[attr])
  end,
  store = function(kobj, attr, value)
    local led = container_of(kobj)
    local n = tonumber(value)
    if attr ~= "brightness" then
      return -EIO
    end
    if not n or n < 0 or n > led.max_brightness then
      return -EINVAL
    end
    led.brightness = math.floor(n)
    return #value
  end,
}

local led_ktype = new_ktype{
  name = "led",
  release = led_release,
  sysfs_ops = led_sysfs_ops,
  default_attrs = { "brightness", { name = "max_brightness", mode = "0444" } },
}

local class_subsys = decl_subsys("class", nil, nil)
local leds = new_kset{ name = "leds", ktype = led_ktype, subsys = class_subsys }

-- leds_init(): /sys/class and /sys/class/leds. Returns 0 or a negative errno.
function leds_init()
  local err = subsystem_register(class_subsys)
  if err ~= 0 then
    return err
  end
  err = kset_register(leds)
  if err ~= 0 then
    subsystem_unregister(class_subsys)
  end
  return err
end

function leds_exit()
  kset_unregister(leds)
  subsystem_unregister(class_subsys)
end

-- led_register(name, max_brightness): /sys/class/leds/<name>, off.
-- Returns the LED, or nil and a negative errno (then nothing of it is left).
function led_register(name, max_brightness)
  local led = { brightness = 0, max_brightness = max_brightness }
  local kobj = new_kobject(led)
  kobject_init(kobj)
  local err = kobject_set_name(kobj, "%s", name)
  if err == 0 then
    kobj.kset = leds
    err = kobject_add(kobj)
  end
  if err ~= 0 then
    return nil, err
  end
  return led
end

-- led_unregister(led): the directory goes, and the creator's reference with it.
function led_unregister(led)
  kobject_unregister(led.kobj)
end
