-- Checks for lesson 15: example_init() builds /sys/kernel/kset_example with three
-- foo_objs and their files, announced by "add" uevents; each object's files are its
-- own; create_foo_obj() for a name already taken (and for an allocation that fails)
-- returns nil and leaves nothing alive; destroy_foo_obj() drops one reference and the
-- object goes with a "remove" uevent; example_exit() leaves nothing behind.

-- The checks create a duplicate and make allocations fail on purpose.
accept_diagnostics("duplicate-name", "add-failed", "set-name-failed")

local DIR = "/sys/kernel/kset_example"

-- The records (from objects()) of the objects initialised while fn(...) ran, then
-- what fn returned.
local function made_during(fn, ...)
  local results = table.pack(events_during(fn, ...))
  local ids, made = {}, {}
  for _, ev in ipairs(results[1]) do
    if ev.kind == "init" then ids[ev.id] = true end
  end
  for _, o in ipairs(objects()) do
    if ids[o.id] then made[#made + 1] = o end
  end
  return made, table.unpack(results, 2, results.n)
end

-- Fails unless every object in @made is released; @what names the failed call.
local function expect_all_released(made, what)
  for _, o in ipairs(made) do
    local name = o.name ~= "" and "'" .. o.name .. "'"
                 or "nameless (its name could not be allocated)"
    expect.that(o.state == "released",
                "%s failed, yet the object it initialised, %s, is still alive " ..
                "(refcount %d, %s).\nkobject_init_and_add() initialises the object " ..
                "before it tries the add, so after a failed add the object still has " ..
                "the count of 1 that kobject_init() gave it, and that reference is the " ..
                "caller's: only kobject_put() drops it and lets foo_release() free the " ..
                "object. Nothing else will ever free it.\nstill held:\n%s",
                what, name, o.refcount, o.state, held(o))
  end
end

-- The kset's member called @name, or nil.
local function member(name)
  for _, k in ipairs(example_kset and example_kset.list or {}) do
    if k.name == name then return k end
  end
end

local loaded = false

check("example_init() makes /sys/kernel/kset_example with foo, bar and baz", function()
  local err = expect.call("example_init()", example_init)
  expect.that(err == 0, "example_init() returned %s", tostring(err))
  expect.that(example_kset ~= nil, "example_init() left example_kset nil")
  loaded = true
  local names = ls(DIR)
  expect.that(names and table.concat(names, " ") == "bar baz foo",
              "%s holds %s; expected bar baz foo", DIR,
              names and table.concat(names, " ") or "nothing (it does not exist)")
  for _, name in ipairs{ "foo", "bar", "baz" } do
    local files = ls(DIR .. "/" .. name)
    expect.that(files and table.concat(files, " ") == "bar baz foo",
                "%s/%s holds %s; expected the files bar baz foo of foo_ktype's " ..
                "default_groups", DIR, name, files and table.concat(files, " ") or "nothing")
    advise("kobject_init_and_add() leaves one reference, the creator's; today's add " ..
           "takes none for the object itself.", expect.refcount, member(name), 1)
  end
  advise("A kset holds its own reference, and each member one as its parent and one " ..
         "as its kset.", expect.refcount, example_kset, 7)
end)

check("each object was announced with an \"add\" uevent", function()
  expect.that(loaded, "skipped: the module is not loaded")
  for _, name in ipairs{ "foo", "bar", "baz" } do
    local ev = expect.hotplug{ action = "add", devpath = "/kernel/kset_example/" .. name }
    expect.that(ev.env.SEQNUM ~= nil, "the add event of %s has no SEQNUM", name)
    expect.that(ev.env.SUBSYSTEM == "kset_example", "the add event of %s has " ..
                "SUBSYSTEM=%s; the kset names it", name, tostring(ev.env.SUBSYSTEM))
  end
end)

check("each object's files hold its own values", function()
  expect.that(loaded, "skipped: the module is not loaded")
  expect.that(cat(DIR .. "/foo/foo") == "0\n", "foo/foo does not read 0")
  expect.that(echo(DIR .. "/foo/foo", "42") == 2, "echo 42 > foo/foo failed")
  expect.that(echo(DIR .. "/bar/baz", "7\n") == 2, "echo 7 > bar/baz failed")
  expect.that(cat(DIR .. "/foo/foo") == "42\n", "foo/foo does not read 42 after the write")
  expect.that(cat(DIR .. "/bar/baz") == "7\n", "bar/baz does not read 7 after the write")
  expect.that(cat(DIR .. "/bar/foo") == "0\n" and cat(DIR .. "/baz/baz") == "0\n",
              "a write to one object changed another's file")
  local n, _, code = echo(DIR .. "/baz/bar", "junk")
  expect.that(n == nil and code == -EINVAL, "echo junk > baz/bar returned %s, %s",
              tostring(n), tostring(code))
end)

local extra
check("create_foo_obj('qux') adds one more, and destroy_foo_obj() takes it away", function()
  expect.that(loaded, "skipped: the module is not loaded")
  local err
  extra, err = expect.call("create_foo_obj('qux')", create_foo_obj, "qux")
  expect.that(extra, "create_foo_obj('qux') failed with %s", tostring(err))
  expect.in_sysfs(DIR .. "/qux/foo")
  expect.hotplug{ action = "add", devpath = "/kernel/kset_example/qux" }
  expect.drops(extra.kobj, 1, function()
    expect.call("destroy_foo_obj()", destroy_foo_obj, extra)
  end, { by = "destroy_foo_obj()" })
  expect.released(extra.kobj, { prefix = "after destroy_foo_obj(), " })
  expect.that(extra.freed, "foo_release() did not run for 'qux'")
  expect.not_in_sysfs(DIR .. "/qux")
  expect.hotplug{ action = "remove", devpath = "/kernel/kset_example/qux" }
end)

check("create_foo_obj('foo') again fails, and leaves nothing alive", function()
  expect.that(loaded, "skipped: the module is not loaded")
  local before = example_kset.refcount
  local events = #hotplug_events()
  local made, obj, err = made_during(expect.call, "create_foo_obj('foo')", create_foo_obj,
                                     "foo")
  expect.that(obj == nil, "create_foo_obj('foo') succeeded, yet 'foo' exists already")
  expect.that(err == -EEXIST, "create_foo_obj('foo') returned nil, %s; expected the " ..
              "error of kobject_init_and_add(), -EEXIST", tostring(err))
  expect.that(#hotplug_events() == events, "the failed create_foo_obj() sent a uevent " ..
              "for an object that never was in sysfs")
  expect_all_released(made, "create_foo_obj('foo')")
  expect.that(example_kset.refcount == before, "the kset's refcount went from %d to %d",
              before, example_kset.refcount)
end)

check("create_foo_obj() fails cleanly when an allocation fails", function()
  expect.that(loaded, "skipped: the module is not loaded")
  fail_alloc(1)
  local made, obj, err = made_during(expect.call, "create_foo_obj('quux')",
                                     create_foo_obj, "quux")
  fail_alloc(0)
  expect.that(obj == nil, "create_foo_obj('quux') succeeded though its first " ..
              "allocation failed")
  expect.that(err == -ENOMEM, "create_foo_obj('quux') returned nil, %s; expected -ENOMEM",
              tostring(err))
  expect_all_released(made, "create_foo_obj('quux') (out of memory)")
end)

check("example_exit() destroys the objects, then the kset, and nothing is left", function()
  expect.that(loaded, "skipped: the module is not loaded")
  local kset = example_kset
  local foo = member("foo")
  expect.call("example_exit()", example_exit)
  expect.not_in_sysfs(DIR)
  expect.hotplug{ action = "remove", devpath = "/kernel/kset_example/foo" }
  expect.released(foo)
  expect.released(kset)
  expect.no_leaks{ report = true }
end)

check("example_init() unwinds when any of its allocations fails", function()
  local made
  for n = 1, 40 do
    local err
    fail_alloc(n)
    made, err = made_during(expect.call, "example_init()", example_init)
    fail_alloc(0)
    if err == 0 then
      expect.call("example_exit()", example_exit)
      expect.no_leaks{ report = true }
      return
    end
    expect.that(err and err < 0, "example_init() returned %s with allocation %d " ..
                "failing", tostring(err), n)
    expect.not_in_sysfs(DIR)
    expect_all_released(made, string.format("example_init() (allocation %d failing)", n))
  end
  expect.fail("example_init() never succeeded")
end)
