-- Checks for lesson 11: a cdev reference is a module reference plus a kobject reference,
-- taken together and given back together, including when the kobject is already gone.

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

-- The module references nobody gave back, as the leak report words them.
local function module_refs(m)
  local lines = {}
  for _, l in ipairs(leaks()) do
    if l.kind == "module" and l.name == m.name then
      for _, ref in ipairs(l.refs) do lines[#lines + 1] = "  " .. ref.text end
    end
  end
  return table.concat(lines, "\n")
end

-- The module and kobject references @fn took (positive) or dropped (negative).
local function counts_during(p, m, fn)
  local module_before = module_refcount(m)
  local kobj_taken, kobj_dropped = references_during(p.kobj, fn)
  return module_refcount(m) - module_before, kobj_taken - kobj_dropped
end

local snd, pcm, file

check("cdev_alloc() makes a cdev with one reference, the driver's", function()
  snd = module_load("snd_pcm")
  pcm = call("cdev_alloc()", cdev_alloc, snd, "pcmC0D0p")
  if not pcm then fail("cdev_alloc(snd_pcm, 'pcmC0D0p') returned nil") end
  expect.refcount(pcm.kobj, 1)
end)

check("an open takes one module reference and one kobject reference", function()
  local mod, kobj = counts_during(pcm, snd, function()
    file = call("chrdev_open()", chrdev_open, pcm)
  end)
  if not file then fail("chrdev_open() of a live cdev returned nil") end
  if mod ~= 1 or kobj ~= 1 then
    fail("chrdev_open() changed the module count by %+d and the kobject count by %+d; " ..
         "cdev_get() must take one of each", mod, kobj)
  end
end)

check("the last close gives both back", function()
  local mod, kobj = counts_during(pcm, snd, function()
    call("chrdev_release()", chrdev_release, file)
  end)
  if mod ~= -1 or kobj ~= -1 then
    fail("chrdev_release() changed the module count by %+d and the kobject count by %+d; " ..
         "cdev_put() must drop one of each", mod, kobj)
  end
  expect.not_released(pcm.kobj, "the driver has not called cdev_del() yet")
end)

check("an open after the cdev's last reference is gone fails, and holds nothing", function()
  call("cdev_del()", cdev_del, pcm)
  expect.released(pcm.kobj)
  local late, err
  local mod, kobj = counts_during(pcm, snd, function()
    late, err = call("chrdev_open()", chrdev_open, pcm)
  end)
  if late ~= nil then
    fail("chrdev_open() of a released cdev returned a file; cdev_get() must return nil " ..
         "when kobject_get() does")
  end
  if mod ~= 0 then
    fail("chrdev_open() of a released cdev failed, as it should (nil, %s), but left " ..
         "'snd_pcm' with %+d " ..
         "module reference(s). try_module_get() succeeded, then kobject_get() returned " ..
         "nil, and cdev_get() returned nil without module_put(): nobody will ever give " ..
         "that reference back, so the module can never be unloaded.\nstill held:\n%s",
         tostring(err), mod, module_refs(snd))
  end
  if kobj ~= 0 then
    fail("chrdev_open() of a released cdev changed its kobject count by %+d", kobj)
  end
end)

check("the module unloads once nobody uses it", function()
  local err = module_unload(snd)
  if err ~= 0 then
    local why = ""
    for _, d in ipairs(diagnostics()) do
      if d.tag == "module-in-use" then why = "\n" .. d.message .. "\n" .. d.explanation end
    end
    fail("module_unload('snd_pcm') returned %d (-EBUSY is %d): every file is closed and " ..
         "the cdev is gone, so a reference that was never given back holds it:\n%s%s",
         err, -EBUSY, module_refs(snd), why)
  end
end)

check("nothing leaks", function()
  expect.no_leaks()
  expect.no_diagnostics("module-in-use")
  expect.no_diagnostics("double-put")
end)
