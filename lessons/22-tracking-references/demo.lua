-- Lesson 22 demo: whose references are these?
--
-- Shows: a device held by its creator, a route and a socket, each reference with its
-- holder and line (held); a socket that puts its reference twice while the route keeps
-- the count up, which the count cannot show and the reference handle catches.
-- Mirrors: lib/ref_tracker.c, net/core/dev.c (netdev_hold, netdev_put).
-- Watch for: the count after the second put; the two lines the diagnostic names.

local netdev_type = new_ktype{ name = "netdev_type", release = function() end }
local eth0 = {}
local route, sock

do
  step("A device, a route and a socket")
  new_kobject(eth0)
  assert(kobject_init_and_add(eth0.kobj, netdev_type, nil, "eth0") == 0)
  route = kobject_get(eth0.kobj)   -- a reference handle: the route's reference
  sock = kobject_get(eth0.kobj)    -- and the socket's
  predict("The refcount of 'eth0'?", function() return eth0.kobj.refcount end,
          "The creator's, the route's and the socket's.")
  print("held(eth0):")
  print(held(eth0.kobj))
  predict("Is the socket's handle the same object as eth0?",
          function() return sock == eth0.kobj and "yes" or "no" end,
          "Yes: a reference handle is the object; it also remembers its reference.",
          { choices = "yes/no" })
end

do
  step("The socket puts its reference on an error path, and again when it is closed")
  kobject_put(sock)     -- the error path
  kobject_put(sock)     -- sock_release()
  predict("The refcount of 'eth0' now?", function() return eth0.kobj.refcount end,
          "2: the second put was caught and ignored. A kernel would be at 1, with " ..
          "nothing printed: the route would hold the device without a reference.")
  predict("Which diagnostic did the second put give?",
          function() local d = diagnostics() return d[#d].tag end,
          "The reference handle knew its reference was already given back.")
  show_diagnostics()
  print("held(eth0):")
  print(held(eth0.kobj))
end

do
  step("The route and the creator let go")
  kobject_put(route)
  kobject_del(eth0.kobj)
  kobject_put(eth0.kobj)
  predict("What is the state of 'eth0'?", function() return eth0.kobj.state end,
          "Released: every holder gave back its own reference, once.",
          { choices = "state" })
  show_log(4)
end
