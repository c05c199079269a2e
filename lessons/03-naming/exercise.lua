-- Lesson 3 exercise: naming a kobject, and checking that it worked
--
-- A serial driver makes one kobject per port and shows it in sysfs as /sys/ttyS<n>:
--   make_port(index)   initialises the port's kobject, names it "ttyS<index>" and adds
--                      it to sysfs; returns the port, or nil and a negative error, in
--                      which case nothing is left behind
--   remove_port(port)  takes it out of sysfs and drops the creator's reference
--
-- Your task: `kobj lesson check 3` makes an allocation fail inside make_port(), the way
-- a kernel under memory pressure would. make_port() then adds a kobject with no name to
-- sysfs, which the sandbox reports, and returns an error that does not say what really
-- went wrong. Make make_port() react to that failure the way a careful driver does.

local port_type = new_ktype{
  name = "serial_port_type",
  release = function(kobj)
    local port = container_of(kobj)
    port.freed = true
  end,
}

function make_port(index)
  local port = { index = index, baud = 9600 }
  port.kobj = new_kobject(port)
  port.kobj.ktype = port_type
  kobject_init(port.kobj)
  kobject_set_name(port.kobj, "ttyS%d", index)
  local err = kobject_add(port.kobj)
  if err ~= 0 then
    kobject_put(port.kobj)
    return nil, err
  end
  return port
end

function remove_port(port)
  kobject_del(port.kobj)
  kobject_put(port.kobj)
end
