-- Lesson 4 checks: the sensor's memory lives exactly as long as its references, and the
-- release method of its ktype frees it. One scenario in one world (the exercise's ktype
-- lives in it, so no reset()).

local temp0, reader

check("make_sensor() registers the sensor in sysfs", function()
  local err
  temp0, err = make_sensor("temp0")
  expect.that(temp0, "make_sensor('temp0') failed with %s", tostring(err))
  expect.in_sysfs("/sys/temp0")
  expect.refcount(temp0.kobj, 2)
  record(temp0, 21)
  record(temp0, 22)
  expect.that(latest(temp0) == 22, "latest() returned %s after recording 21 and 22",
              tostring(latest(temp0)))
end)

check("while a reader holds a reference, remove_sensor() frees nothing", function()
  reader = kobject_get(temp0.kobj)   -- a program with /sys/temp0 open, say
  expect.that(reader, "kobject_get() on 'temp0' failed")
  expect.drops(temp0.kobj, 2, function() remove_sensor(temp0) end,
               "the reader, which has not let go yet")
  expect.not_in_sysfs("/sys/temp0")
  expect.not_released(temp0.kobj, "the reader still holds a reference")
  expect.that(temp0.samples ~= nil,
              "remove_sensor() freed the samples while a reader still holds a reference " ..
              "to 'temp0'. The reader may still look at them; in the kernel this is a " ..
              "use-after-free. remove_sensor() cannot know whether its put is the last one.")
  expect.that(latest(temp0) == 22, "the reader no longer sees the last sample")
end)

check("the reader's put is the last, and the release method frees the samples",
      function()
  local diags = diagnostics_during(function() kobject_put(reader) end)
  for _, d in ipairs(diags) do
    expect.that(d.tag ~= "no-release",
                "the last put of 'temp0' found no release method:\n%s\nThe kobject " ..
                "core calls the release method of the object's ktype when the count " ..
                "reaches zero; without one, nothing frees the sensor.", d.message)
  end
  expect.released(temp0.kobj)
  expect.that(temp0.samples == nil,
              "'temp0' was released but its samples were not freed: freeing them is the " ..
              "release method's job")
end)

check("a sensor nobody else holds is freed by remove_sensor()", function()
  local temp1, err = make_sensor("temp1")
  expect.that(temp1, "make_sensor('temp1') failed with %s", tostring(err))
  record(temp1, 30)
  expect.drops(temp1.kobj, 2, function() remove_sensor(temp1) end)
  expect.released(temp1.kobj)
  expect.that(temp1.samples == nil, "'temp1' was released but its samples were not freed")
end)

check("every sensor had a release method and nothing leaks", function()
  expect.no_diagnostics()
  expect.no_leaks()
end)
