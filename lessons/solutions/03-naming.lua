-- Lesson 3 exercise: naming a kobject, and checking that it worked (solution)
--
-- A serial driver makes one kobject per port and shows it in sysfs as /sys/ttyS<n>:
--   make_port(index)   initialises the port's kobject, names it "ttyS<index>" and adds
--                      it to sysfs; returns the port, or nil and a negative error, in
--                      which case nothing is left behind
--   remove_port(port)  takes it out of sysfs and drops the creator's reference
--
-- The fix: kobject_set_name() allocates memory for the name, so it can fail (-ENOMEM).
-- make_port() ignored its result and went on to add a kobject with no name. It now
-- checks the result, drops its reference (the release method frees the port) and
-- returns the error it got.

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
  local err = kobject_set_name(port.kobj, "ttyS%d", index)
  if err ~= 0 then
    kobject_put(port.kobj)
    return nil, err
  end
  err = kobject_add(port.kobj)
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
