-- Checks for lesson 8: directories appear and disappear with kobject_add() and
-- kobject_del(), names are unique within a directory, and a refused object is put.

-- The checks register a name twice on purpose.
accept_diagnostics("duplicate-name")

local function record(id)
  for _, o in ipairs(objects()) do
    if o.id == id then return o end
  end
end

local DIR = "/sys/class/leds"
local CAPS = DIR .. "/input3::capslock"
local first

check("leds_init() registers /sys/class/leds", function()
  local err = expect.call("leds_init()", leds_init)
  expect.that(err == 0, "leds_init() returned %s", tostring(err))
  expect.in_sysfs(DIR)
end)

check("led_register() makes a directory holding the ktype's attribute files", function()
  first = expect.call("led_register('input3::capslock', 1)", led_register,
                      "input3::capslock", 1)
  expect.that(first, "led_register('input3::capslock', 1) returned nil")
  expect.in_sysfs(CAPS)
  local files = table.concat(ls(CAPS) or {}, " ")
  expect.that(files == "brightness max_brightness",
              "%s holds '%s'; expected the ktype's default_attrs: brightness max_brightness",
              CAPS, files)
  expect.that(cat(CAPS .. "/max_brightness") == "1\n",
              "cat %s/max_brightness gives %q; expected \"1\\n\"", CAPS,
              tostring(cat(CAPS .. "/max_brightness")))
  expect.refcount(first.kobj, 2)
end)

check("writing brightness reaches the ktype's store()", function()
  local n = echo(CAPS .. "/brightness", "1")
  expect.that(n == 1 and cat(CAPS .. "/brightness") == "1\n",
              "echo 1 > %s/brightness returned %s and brightness now reads %q", CAPS,
              tostring(n), tostring(cat(CAPS .. "/brightness")))
end)

local dup_ids   -- the objects led_register() initialised for the refused duplicate
check("a second LED with the same name is refused with -EEXIST", function()
  local events, led, err = events_during(expect.call, "led_register('input3::capslock', 1)",
                                         led_register, "input3::capslock", 1)
  dup_ids = {}
  for _, ev in ipairs(events) do
    if ev.kind == "init" then dup_ids[#dup_ids + 1] = ev.id end
  end
  expect.that(led == nil and err == -EEXIST,
              "led_register() of a name already in %s returned %s, %s; expected nil, " ..
              "-EEXIST (%d)", DIR, tostring(led), tostring(err), -EEXIST)
  expect.diagnostic("duplicate-name")
end)

check("the refused LED is put, and its release() runs", function()
  expect.that(dup_ids and #dup_ids > 0,
              "led_register() of the duplicate did not initialise a kobject at all")
  for _, id in ipairs(dup_ids) do
    local o = record(id)
    if o and o.state ~= "released" then
      local why = ""
      for _, d in ipairs(diagnostics()) do
        if d.tag == "duplicate-name" and d.id == id then why = "\n" .. d.explanation end
      end
      expect.fail("kobject_add() refused the second '%s' (the duplicate-name diagnostic), " ..
                  "and led_register() returned without dropping its reference: that " ..
                  "kobject still has refcount %d and will never be released.\n%s%s",
                  o.name, o.refcount, held(o), why)
    end
  end
end)

check("the first LED is untouched by the refused one", function()
  expect.in_sysfs(CAPS)
  expect.refcount(first.kobj, 2)
  expect.that(cat(CAPS .. "/brightness") == "1\n",
              "%s/brightness reads %q; expected \"1\\n\"", CAPS,
              tostring(cat(CAPS .. "/brightness")))
end)

check("led_unregister() removes the directory and releases the LED", function()
  expect.call("led_unregister()", led_unregister, first)
  expect.not_in_sysfs(CAPS)
  expect.released(first.kobj)
  expect.that(first.freed, "the LED's release() did not run")
end)

check("leds_exit() leaves nothing behind", function()
  expect.call("leds_exit()", leds_exit)
  expect.not_in_sysfs(DIR)
  expect.no_leaks()
end)
