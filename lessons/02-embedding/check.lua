-- Lesson 2 checks: each release cleans up the structure its own kobject is embedded in.
-- One scenario in one world (the exercise's ktypes live in it, so no reset()).

-- The net number of references fn dropped from each object of @objs (a list), read
-- from the event log: { [obj] = dropped - taken }.
local function drops_during(objs, fn)
  local net, by_id = {}, {}
  for _, obj in ipairs(objs) do net[obj] = 0; by_id[obj.id] = obj end
  for _, ev in ipairs((events_during(fn))) do
    local obj = by_id[ev.id]
    if obj and ev.kind == "put" then net[obj] = net[obj] + 1 end
    if obj and (ev.kind == "get" or ev.kind == "init") then net[obj] = net[obj] - 1 end
  end
  return net
end

local sda, sdb, sda_queue, sdb_queue

check("make_disk() embeds a kobject in the disk and one in its queue", function()
  local err
  sda, err = make_disk("sda")
  expect.that(sda, "make_disk('sda') failed with %s", tostring(err))
  sdb, err = make_disk("sdb")
  expect.that(sdb, "make_disk('sdb') failed with %s", tostring(err))
  sda_queue, sdb_queue = sda.queue, sdb.queue
  expect.that(container_of(sda.kobj) == sda and container_of(sdb.kobj) == sdb,
              "container_of(disk.kobj) should give the disk back: make the kobject with " ..
              "new_kobject(disk)")
  expect.that(container_of(sda_queue.kobj) == sda_queue,
              "container_of(queue.kobj) should give the queue back")
  expect.refcount(sda.kobj, 1)
  expect.refcount(sda_queue.kobj, 1)
  expect.refcount(sdb_queue.kobj, 1)
  expect.that(get_ktype(sda.kobj) == get_ktype(sdb.kobj),
              "every disk should have the same ktype, as a C driver has one static " ..
              "struct kobj_type for all its objects; its release method tells the " ..
              "objects apart with container_of()")
end)

check("destroying 'sdb' cleans up 'sdb' and nothing else", function()
  local net = drops_during({ sda_queue.kobj, sdb_queue.kobj }, function()
    destroy_disk(sdb)
  end)
  expect.released(sdb.kobj)
  expect.that(net[sda_queue.kobj] == 0,
              "the release of 'sdb' dropped %d reference(s) to 'sda-queue', the queue of " ..
              "'sda', which is still alive and still uses it. A release method must clean " ..
              "up the disk its kobject is embedded in, and only that one.",
              net[sda_queue.kobj])
  expect.that(net[sdb_queue.kobj] == 1,
              "the release of 'sdb' should drop the disk's one reference to 'sdb-queue'; " ..
              "it dropped %d", net[sdb_queue.kobj])
  expect.that(sdb.freed, "the release of 'sdb' did not mark 'sdb' freed (sdb.freed)")
  expect.that(not sda.freed, "the release of 'sdb' marked 'sda' freed, and 'sda' is alive")
  expect.released(sdb_queue.kobj)
  expect.not_released(sda_queue.kobj, "'sda' still uses it")
end)

check("destroying 'sda' cleans up 'sda' and its queue", function()
  local before = #diagnostics()
  local net = drops_during({ sda_queue.kobj }, function() destroy_disk(sda) end)
  expect.released(sda.kobj)
  for i = before + 1, #diagnostics() do
    local d = diagnostics()[i]
    expect.that(d.tag ~= "double-put",
                "the release of 'sda' put '%s', which was already released: %s\n" ..
                "Some release method dropped a reference that belonged to another disk.",
                d.object, d.message)
  end
  expect.that(sda.freed, "the release of 'sda' did not mark 'sda' freed (sda.freed)")
  expect.that(net[sda_queue.kobj] == 1,
              "the release of 'sda' should drop the disk's one reference to 'sda-queue'; " ..
              "it dropped %d", net[sda_queue.kobj])
  expect.released(sda_queue.kobj)
end)

check("nothing leaks", function()
  expect.no_leaks()
end)

check("the sandbox reported no misuse", function()
  expect.no_diagnostics()
end)
