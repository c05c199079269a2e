-- Checks for lesson 11: a cdev reference is a module reference plus a kobject reference,
-- taken together and given back together, including when the kobject is already gone.

-- The checks call cdev_get() on a released object on purpose.
accept_diagnostics("get-released")

-- The module and kobject references @fn took (positive) or dropped (negative).
local function counts_during(p, m, fn)
  local module_before = module_refcount(m)
  local kobj_taken, kobj_dropped = references_during(p.kobj, fn)
  return module_refcount(m) - module_before, kobj_taken - kobj_dropped
end

local snd, pcm, file

check("cdev_alloc() makes a cdev with one reference, the driver's", function()
  snd = module_load("snd_pcm")
  pcm = expect.call("cdev_alloc()", cdev_alloc, snd, "pcmC0D0p")
  expect.that(pcm, "cdev_alloc(snd_pcm, 'pcmC0D0p') returned nil")
  expect.refcount(pcm.kobj, 1)
end)

check("an open takes one module reference and one kobject reference", function()
  local mod, kobj = counts_during(pcm, snd, function()
    file = expect.call("chrdev_open()", chrdev_open, pcm)
  end)
  expect.that(file, "chrdev_open() of a live cdev returned nil")
  expect.that(mod == 1 and kobj == 1, "chrdev_open() changed the module count by %+d and " ..
              "the kobject count by %+d; cdev_get() must take one of each", mod, kobj)
end)

check("the last close gives both back", function()
  local mod, kobj = counts_during(pcm, snd, function()
    expect.call("chrdev_release()", chrdev_release, file)
  end)
  expect.that(mod == -1 and kobj == -1, "chrdev_release() changed the module count by %+d " ..
              "and the kobject count by %+d; cdev_put() must drop one of each", mod, kobj)
  expect.not_released(pcm.kobj, "the driver has not called cdev_del() yet")
end)

check("an open after the cdev's last reference is gone fails, and holds nothing", function()
  expect.call("cdev_del()", cdev_del, pcm)
  expect.released(pcm.kobj)
  local late, err
  local mod, kobj = counts_during(pcm, snd, function()
    late, err = expect.call("chrdev_open()", chrdev_open, pcm)
  end)
  expect.that(late == nil, "chrdev_open() of a released cdev returned a file; cdev_get() " ..
              "must return nil when kobject_get() does")
  expect.that(mod == 0, "chrdev_open() of a released cdev failed, as it should (nil, %s), " ..
              "but left 'snd_pcm' with %+d module reference(s). try_module_get() " ..
              "succeeded, then kobject_get() returned nil, and cdev_get() returned nil " ..
              "without module_put(): nobody will ever give that reference back, so the " ..
              "module can never be unloaded.\nstill held:\n%s",
              tostring(err), mod, held(snd))
  expect.that(kobj == 0, "chrdev_open() of a released cdev changed its kobject count by %+d",
              kobj)
end)

check("the module unloads once nobody uses it", function()
  local err = module_unload(snd)
  if err ~= 0 then
    local why = ""
    for _, d in ipairs(diagnostics()) do
      if d.tag == "module-in-use" then why = "\n" .. d.message .. "\n" .. d.explanation end
    end
    expect.fail("module_unload('snd_pcm') returned %d (-EBUSY is %d): every file is " ..
                "closed and the cdev is gone, so a reference that was never given back " ..
                "holds it:\n%s%s", err, -EBUSY, held(snd), why)
  end
end)

check("nothing leaks", function()
  expect.no_leaks()
  expect.no_diagnostics("module-in-use")
  expect.no_diagnostics("double-put")
end)
