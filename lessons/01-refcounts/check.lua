-- Lesson 1 checks: who takes and who drops each reference to a device.
-- One scenario in one world (the exercise's ktype lives in it, so no reset()); each
-- block uses its own device.

-- open_device() of a released device: kobject_get() says no, as the kernel does.
accept_diagnostics("get-released")

check("make_device() leaves one reference, the creator's", function()
  local dev = make_device("eth0")
  expect.that(dev, "make_device('eth0') returned nil")
  expect.state(dev.kobj, "initialized")
  advise("kobject_init() sets the count to 1; make_device() should take nothing more.",
         expect.refcount, dev.kobj, 1)
  destroy_device(dev)
  advise("destroy_device() drops the creator's reference, the only one left.",
         expect.released, dev.kobj)
end)

check("open_device() takes one reference and close_device() drops it", function()
  local dev = make_device("eth1")
  advise("open_device() must take exactly one reference, for the opener.",
         expect.takes, dev.kobj, 1, function()
           local opened, err = open_device(dev)
           expect.that(opened == dev, "open_device() refused a device that is not " ..
                       "being reset (it returned %s, %s)", tostring(opened), tostring(err))
         end)
  expect.drops(dev.kobj, 1, function() close_device(dev) end,
               "the creator (make_device), which destroy_device() drops later")
  destroy_device(dev)
  expect.released(dev.kobj)
end)

check("an open refused during a reset keeps no reference", function()
  local dev = make_device("eth2")
  dev.resetting = true
  local opened, err
  local taken, dropped = references_during(dev.kobj, function()
    opened, err = open_device(dev)
  end)
  dev.resetting = false
  destroy_device(dev)
  expect.that(opened == nil and err == -EBUSY,
              "open_device() during a reset should return nil, -EBUSY; it returned %s, %s",
              tostring(opened), tostring(err))
  expect.that(taken == dropped,
              "open_device() refused the open (-EBUSY) but kept the reference it took " ..
              "(%d taken, %d dropped). Nobody closes an open that failed, so that " ..
              "reference can never be dropped: every way out of a function that took a " ..
              "reference must drop it, the error paths too.", taken, dropped)
  expect.released(dev.kobj)
end)

check("a device opened by someone outlives destroy_device() until the close", function()
  local dev = make_device("eth3")
  expect.that(open_device(dev) == dev, "open_device() refused 'eth3'")
  expect.drops(dev.kobj, 1, function() destroy_device(dev) end,
               "the opener, who has not closed the device yet")
  expect.not_released(dev.kobj, "the opener still holds a reference")
  expect.that(dev.rx_ring ~= nil, "the device's buffers were freed while it is still open")
  close_device(dev)
  advise("The opener's close was the last reference: the release method should run now.",
         expect.released, dev.kobj)
  expect.that(dev.freed and dev.rx_ring == nil,
              "'eth3' was released but its release method did not free the device")
end)

check("an open of a device already released takes nothing and drops nothing", function()
  local dev = make_device("eth4")
  destroy_device(dev)
  local opened, err
  local diags = diagnostics_during(function() opened, err = open_device(dev) end)
  expect.that(opened == nil and err == -ENOENT, "open_device() of a released device " ..
              "should return nil, -ENOENT; it returned %s, %s", tostring(opened), tostring(err))
  for _, d in ipairs(diags) do
    expect.that(d.tag == "get-released", "open_device() of a released device: %s " ..
                "(%s:%d)\nkobject_get() failed, so the open took no reference: there " ..
                "is nothing to put on that path.", d.message, d.file or "?", d.line or 0)
  end
end)

check("every device is released in the end", function()
  expect.no_leaks()
end)
