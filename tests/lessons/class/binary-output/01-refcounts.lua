-- Keeps lesson 1's bug (an -EBUSY open keeps its reference); expected: FAIL.
local netdev_type = new_ktype{ name = "netdev_type", release = function(kobj)
  local dev = container_of(kobj) dev.rx_ring = nil dev.freed = true end }
function make_device(name)
  local dev = { users = 0, resetting = false, rx_ring = {} }
  dev.kobj = new_kobject(dev) dev.kobj.ktype = netdev_type kobject_init(dev.kobj)
  local err = kobject_set_name(dev.kobj, "%s", name)
  if err ~= 0 then kobject_put(dev.kobj) return nil, err end
  return dev
end
function open_device(dev)
  if not kobject_get(dev.kobj) then return nil, -ENOENT end
  if dev.resetting then return nil, -EBUSY end -- the exercise's bug, kept: a leak
  dev.users = dev.users + 1
  return dev
end
function close_device(dev) dev.users = dev.users - 1 kobject_put(dev.kobj) end
function destroy_device(dev) kobject_put(dev.kobj) end
print("latin-1: caf\233 na\239ve \255\254 cut: \226\130")
print("control: \1\2\27[31m red \0 nul")
