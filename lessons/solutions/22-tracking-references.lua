-- Lesson 22 exercise: tracking references (solution)
--
-- A network device, and a small socket layer on top of it:
--   netdev_register(name)    makes a device: kobject_init_and_add() gives it the
--                            creator's reference
--   netdev_unregister(dev)   the device goes down and out of sysfs; the creator's
--                            reference is dropped, and the device lives on while others
--                            hold it
--   route_add(dev)           a route holds the device; route_del(route) lets it go
--   sock_bind(dev)           a socket holds the device; sock_release(sock) lets it go
--   sock_sendmsg(sock, msg)  sends on the device; -ENODEV once it is down
--
-- Every holder keeps its reference in the reference handle kobject_get() returned, and
-- gives it back through that handle.
--
-- The fix: sock_sendmsg() on a device that is down put the socket's reference, and
-- sock_release() put it again through the same handle. A failed send leaves the socket
-- as it was; its reference goes back once, in sock_release().

local netdev_type = new_ktype{
  name = "netdev_type",
  release = function(kobj)
    container_of(kobj).freed = true   -- what free_netdev() would do
  end,
}

function netdev_register(name)
  local dev = { up = true, sent = 0, freed = false }
  new_kobject(dev)
  local err = kobject_init_and_add(dev.kobj, netdev_type, nil, "%s", name)
  if err ~= 0 then
    kobject_put(dev.kobj)
    return nil, err
  end
  return dev
end

function netdev_unregister(dev)
  dev.up = false
  kobject_del(dev.kobj)
  kobject_put(dev.kobj)        -- the creator's reference
end

function route_add(dev)
  return { dev = dev, ref = kobject_get(dev.kobj) }
end

function route_del(route)
  kobject_put(route.ref)
  route.ref = nil
end

function sock_bind(dev)
  local ref = kobject_get(dev.kobj)
  if not ref then
    return nil, -ENODEV
  end
  return { dev = dev, ref = ref }
end

function sock_sendmsg(sock, msg)
  if not sock.dev.up then
    return -ENODEV
  end
  sock.dev.sent = sock.dev.sent + #msg
  return #msg
end

function sock_release(sock)
  kobject_put(sock.ref)
  sock.ref = nil
end
