-- Checks for lesson 8: directories appear and disappear with kobject_add() and
-- kobject_del(), names are unique within a directory, and a refused object is put.

-- lesson.lua offers no way to fail with a message of our own: borrow the type of the
-- failures its expectations raise, so check() reports ours the same way.
local Failure = getmetatable(select(2, pcall(expect.state, { name = "", state = "" }, "?")))

local function fail(fmt, ...)
  error(setmetatable({ message = string.format(fmt, ...) }, Failure), 0)
end

-- call(what, fn, ...): the student's function; an error it raises becomes a failure.
local function call(what, fn, ...)
  local results = table.pack(pcall(fn, ...))
  if not results[1] then
    fail("%s raised an error: %s", what, tostring(results[2]))
  end
  return table.unpack(results, 2, results.n)
end

-- The ids of the objects initialised while fn ran, and fn's results.
local function created_during(fn)
  local first = #log() + 1
  local results = table.pack(fn())
  local ids, events = {}, log()
  for i = first, #events do
    if events[i].kind == "init" then ids[#ids + 1] = events[i].id end
  end
  return ids, table.unpack(results, 1, results.n)
end

local function record(id)
  for _, o in ipairs(objects()) do
    if o.id == id then return o end
  end
end

local function outstanding(id)
  for _, l in ipairs(leaks()) do
    if l.id == id then
      local lines = {}
      for _, ref in ipairs(l.refs) do lines[#lines + 1] = "  " .. ref.text end
      return table.concat(lines, "\n")
    end
  end
  return ""
end

local DIR = "/sys/class/leds"
local CAPS = DIR .. "/input3::capslock"
local first

check("leds_init() registers /sys/class/leds", function()
  local err = call("leds_init()", leds_init)
  if err ~= 0 then fail("leds_init() returned %s", tostring(err)) end
  expect.in_sysfs(DIR)
end)

check("led_register() makes a directory holding the ktype's attribute files", function()
  first = call("led_register('input3::capslock', 1)", led_register, "input3::capslock", 1)
  if not first then fail("led_register('input3::capslock', 1) returned nil") end
  expect.in_sysfs(CAPS)
  local files = table.concat(ls(CAPS) or {}, " ")
  if files ~= "brightness max_brightness" then
    fail("%s holds '%s'; expected the ktype's default_attrs: brightness max_brightness",
         CAPS, files)
  end
  if cat(CAPS .. "/max_brightness") ~= "1\n" then
    fail("cat %s/max_brightness gives %q; expected \"1\\n\"", CAPS,
         tostring(cat(CAPS .. "/max_brightness")))
  end
  expect.refcount(first.kobj, 2)
end)

check("writing brightness reaches the ktype's store()", function()
  local n = echo(CAPS .. "/brightness", "1")
  if n ~= 1 or cat(CAPS .. "/brightness") ~= "1\n" then
    fail("echo 1 > %s/brightness returned %s and brightness now reads %q", CAPS,
         tostring(n), tostring(cat(CAPS .. "/brightness")))
  end
end)

local dup_ids
check("a second LED with the same name is refused with -EEXIST", function()
  local led, err
  dup_ids, led, err = created_during(function()
    return call("led_register('input3::capslock', 1)", led_register, "input3::capslock", 1)
  end)
  if led ~= nil or err ~= -EEXIST then
    fail("led_register() of a name already in %s returned %s, %s; expected nil, -EEXIST " ..
         "(%d)", DIR, tostring(led), tostring(err), -EEXIST)
  end
  expect.diagnostic("duplicate-name")
end)

check("the refused LED is put, and its release() runs", function()
  if not dup_ids or #dup_ids == 0 then
    fail("led_register() of the duplicate did not initialise a kobject at all")
  end
  for _, id in ipairs(dup_ids) do
    local o = record(id)
    if o and o.state ~= "released" then
      local why = ""
      for _, d in ipairs(diagnostics()) do
        if d.tag == "duplicate-name" and d.id == id then why = "\n" .. d.explanation end
      end
      fail("kobject_add() refused the second '%s' (the duplicate-name diagnostic), and " ..
           "led_register() returned without dropping its reference: that kobject still " ..
           "has refcount %d and will never be released.\n%s%s",
           o.name, o.refcount, outstanding(id), why)
    end
  end
end)

check("the first LED is untouched by the refused one", function()
  expect.in_sysfs(CAPS)
  expect.refcount(first.kobj, 2)
  if cat(CAPS .. "/brightness") ~= "1\n" then
    fail("%s/brightness reads %q; expected \"1\\n\"", CAPS, tostring(cat(CAPS .. "/brightness")))
  end
end)

check("led_unregister() removes the directory and releases the LED", function()
  call("led_unregister()", led_unregister, first)
  expect.not_in_sysfs(CAPS)
  expect.released(first.kobj)
  if not first.freed then fail("the LED's release() did not run") end
end)

check("leds_exit() leaves nothing behind", function()
  call("leds_exit()", leds_exit)
  expect.not_in_sysfs(DIR)
  expect.no_leaks()
end)
