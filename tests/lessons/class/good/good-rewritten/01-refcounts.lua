-- Lesson 1 written another way: the functions in another order, other local names,
-- early returns, and the failed open's put before the error is chosen.

function destroy_device(d)
  kobject_put(d.kobj)
end

function close_device(d)
  d.users = d.users - 1
  kobject_put(d.kobj)
end

function open_device(d)
  local ref = kobject_get(d.kobj)
  if ref == nil then
    return nil, -ENOENT
  end
  local busy = d.resetting
  if busy then
    kobject_put(ref)
  end
  if busy then
    return nil, -EBUSY
  end
  d.users = d.users + 1
  return d
end

local kind = new_ktype{
  name = "netdev_type",
  release = function(k)
    local owner = container_of(k)
    owner.freed, owner.rx_ring = true, nil
  end,
}

function make_device(label)
  local d = { rx_ring = { size = 256 }, users = 0, resetting = false }
  local k = new_kobject(d)
  k.ktype = kind
  d.kobj = k
  kobject_init(k)
  local rc = kobject_set_name(k, "%s", label)
  if rc == 0 then
    return d
  end
  kobject_put(k)
  return nil, rc
end
