-- Lesson 1 as a small class with metatables, a finalizer that only counts, and a
-- to-be-closed guard that drops the reference of a refused open.
local Device = {}
Device.__index = Device
local collected = 0

local kind = new_ktype{ name = "netdev_type", release = function(k)
  local dev = container_of(k)
  dev.rx_ring = nil
  dev.freed = true
end }

local function guard(kobj)
  return setmetatable({ kobj = kobj, armed = true }, {
    __close = function(g) if g.armed then kobject_put(g.kobj) end end,
  })
end

function Device.new(name)
  local dev = setmetatable({ users = 0, resetting = false, rx_ring = {} }, Device)
  dev.kobj = new_kobject(dev)
  dev.kobj.ktype = kind
  kobject_init(dev.kobj)
  local err = kobject_set_name(dev.kobj, "%s", name)
  if err ~= 0 then
    kobject_put(dev.kobj)
    return nil, err
  end
  setmetatable({}, { __gc = function() collected = collected + 1 end })
  return dev
end

function Device:open()
  if not kobject_get(self.kobj) then return nil, -ENOENT end
  local g <close> = guard(self.kobj)
  if self.resetting then return nil, -EBUSY end
  g.armed = false
  self.users = self.users + 1
  return self
end

function Device:close()
  self.users = self.users - 1
  kobject_put(self.kobj)
end

make_device = Device.new
open_device = function(dev) return dev:open() end
close_device = function(dev) dev:close() end
destroy_device = function(dev) kobject_put(dev.kobj) end
