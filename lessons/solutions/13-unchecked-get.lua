-- Lesson 13 solution: "This return value must always be tested."
--
-- Serial ports in /sys/class/tty, and a table that finds a port by name for open(). The
-- table holds no reference, and a released port leaves it only when flush_work() runs,
-- so a lookup can find a port that is being destroyed; kobject_get() then returns nil.
-- The fix: port_open() tests what port_lookup() returned before using it.

local ENXIO = 6 -- "No such device or address"; not among the sandbox's constants

local ports = {} -- name -> port; no references held
local work = {}  -- functions queued by port_release(), run by flush_work()

-- The last reference to a port is gone: free it now, unhash it later.
local function port_release(kobj)
  local port = container_of(kobj)
  port.freed = true
  work[#work + 1] = function()
    ports[port.name] = nil
  end
end

local port_ktype = new_ktype{ name = "tty_port", release = port_release }
local class_subsys = decl_subsys("class", nil, nil)
local tty_class = new_kset{ name = "tty", ktype = port_ktype, subsys = class_subsys }

-- ports_init(): /sys/class/tty. Returns 0 or a negative errno.
function ports_init()
  local err = subsystem_register(class_subsys)
  if err ~= 0 then
    return err
  end
  err = kset_register(tty_class)
  if err ~= 0 then
    subsystem_unregister(class_subsys)
  end
  return err
end

function ports_exit()
  kset_unregister(tty_class)
  subsystem_unregister(class_subsys)
end

-- flush_work(): runs the work that port_release() queued.
function flush_work()
  local queued = work
  work = {}
  for _, fn in ipairs(queued) do
    fn()
  end
end

-- port_register(name): /sys/class/tty/<name>, findable by port_lookup().
-- Returns the port, or nil and a negative errno.
function port_register(name)
  local port = { name = name, users = 0 }
  local kobj = new_kobject(port)
  kobject_init(kobj)
  local err = kobject_set_name(kobj, "%s", name)
  if err == 0 then
    kobj.kset = tty_class
    err = kobject_add(kobj)
  end
  if err ~= 0 then
    kobject_put(kobj)
    return nil, err
  end
  ports[name] = port
  return port
end

-- port_unregister(port): the driver's references go; open files keep theirs.
function port_unregister(port)
  kobject_unregister(port.kobj)
end

-- port_lookup(name): a new reference to the port called @name, or nil if there is no
-- such port or it is being destroyed.
function port_lookup(name)
  local port = ports[name]
  if not port then
    return nil
  end
  return kobject_get(port.kobj)
end

-- port_open(name): open("/dev/<name>"). Returns the port, with a reference for the open
-- file, or nil and -ENXIO.
function port_open(name)
  local kobj = port_lookup(name)
  if not kobj then
    return nil, -ENXIO -- no such port, or it is on its way out
  end
  local port = container_of(kobj)
  port.users = port.users + 1
  return port
end

-- port_close(port): the last close of the file.
function port_close(port)
  port.users = port.users - 1
  kobject_put(port.kobj)
end
