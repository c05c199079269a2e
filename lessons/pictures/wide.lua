-- A kset as wide as a real subsystem's: 200 serial ports, one of them put twice. The
-- picture folds the members between the first and the last three into one box that
-- counts them, and keeps the one a diagnostic names.
--   kobj run --write-dir lessons/pictures lessons/pictures/wide.lua wide.svg
local port = new_ktype{ name = "uart_port", release = function(kobj) end }
local tty = decl_subsys("tty", port)
subsystem_register(tty)
local serial = new_kset{ name = "serial", subsys = tty, ktype = port }
kset_register(serial)

local ports = {}
for i = 0, 199 do
  local k = new_kobject({})
  kobject_set_name(k, "ttyS%d", i)
  k.kset = serial
  assert(kobject_register(k) == 0)
  ports[i] = k
end
kobject_unregister(ports[57])
kobject_put(ports[57])             -- one put too many: ttyS57 stays in the picture

if arg and arg[1] then assert(dot(arg[1])) end
