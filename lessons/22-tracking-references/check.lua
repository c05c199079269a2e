-- Lesson 22 checks: each holder of a device gives back its own reference, once.
-- One scenario in one world (the exercise's ktype lives in it); each block uses its own
-- device.

-- The line of each reference still held on @dev, by kind: "get@12 get@40".
local function holders(dev)
  local t = {}
  for _, ref in ipairs(held(dev.kobj)) do t[#t + 1] = ref.kind .. "@" .. ref.line end
  return table.concat(t, " ")
end

check("sock_bind() takes one reference and sock_release() gives back that one", function()
  local dev = netdev_register("eth0")
  local route = route_add(dev)
  local sock
  expect.takes(dev.kobj, 1, function() sock = sock_bind(dev) end)
  expect.that(sock, "sock_bind() refused a device that is up")
  local before = holders(dev)
  expect.drops(dev.kobj, 1, function() sock_release(sock) end,
               "the creator and the route")
  local after = holders(dev)
  expect.that(#after < #before and before:find(after, 1, true),
              "sock_release() gave back a reference other than the socket's: held " ..
              "before: %s; after: %s", before, after)
  route_del(route)
  netdev_unregister(dev)
  expect.released(dev.kobj)
end)

check("a send on a device that is down fails, and takes or drops nothing", function()
  local dev = netdev_register("eth1")
  local route = route_add(dev)
  local sock = sock_bind(dev)
  netdev_unregister(dev)
  local sent
  local taken, dropped = references_during(dev.kobj, function()
    sent = sock_sendmsg(sock, "hello")
  end)
  expect.that(sent == -ENODEV, "sock_sendmsg() on a device that is down should " ..
              "return -ENODEV; it returned %s", tostring(sent))
  expect.that(taken == 0 and dropped == 0,
              "sock_sendmsg() took %d and dropped %d reference(s). The socket is still " ..
              "bound: its owner will call sock_release(), which gives its reference " ..
              "back. A failed send leaves it where it is.\nstill held:\n%s",
              taken, dropped, held(dev.kobj))
  sock_release(sock)
  route_del(route)
  expect.released(dev.kobj)
end)

check("each reference goes back once, through its own handle", function()
  local dev = netdev_register("eth2")
  local route = route_add(dev)
  local sock = sock_bind(dev)
  netdev_unregister(dev)
  local diags = diagnostics_during(function()
    sock_sendmsg(sock, "hello")
    sock_release(sock)
  end)
  for _, d in ipairs(diags) do
    expect.fail("%s\n%s\nThe count never showed it: the route still holds the device.",
                d.message, d.explanation)
  end
  expect.that(holders(dev) == "get@" .. held(dev.kobj)[1].line and
              held(dev.kobj)[1].func == "route_add",
              "after the socket is released only the route should hold 'eth2'; held:\n%s",
              held(dev.kobj))
  route_del(route)
  expect.released(dev.kobj)
end)

check("a device is released when its last holder lets go", function()
  local dev = netdev_register("eth3")
  local route = route_add(dev)
  local sock = sock_bind(dev)
  netdev_unregister(dev)
  route_del(route)
  expect.not_released(dev.kobj, "the socket still holds it")
  sock_release(sock)
  expect.released(dev.kobj)
  expect.that(dev.freed, "'eth3' was released but its release method did not run")
end)

check("every device is released in the end", function()
  expect.no_leaks()
end)
