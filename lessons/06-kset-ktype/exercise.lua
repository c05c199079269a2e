-- Lesson 6 exercise: whose ktype? The kset's
--
-- A serial driver. It keeps its ports in a kset, /sys/serial/ports, and the kset gives
-- its members their type, serial_port_ktype, whose release frees a port, the way the
-- driver core's ksets give every device its type. Later the driver learnt to load
-- firmware: one image, /sys/serial/firmware, that every port runs and holds a
-- reference to, from make_port() until the port's memory is freed. The code that drops
-- that reference went into a second type, port_fw_ktype, set in each port's kobject.
--   serial_init()       registers the subsystem and the kset, and loads the firmware
--   make_port(n)        /sys/serial/ports/ttyS<n>; returns the port, or nil and an error
--   remove_port(port)   unregisters the port; its memory goes at its last put
--   serial_exit()       drops the driver's firmware reference, the kset and the subsystem
--
-- Your task: `kobj lesson check 6` makes two ports and removes them. Each port is
-- released and freed, but the firmware never gets its references back: after
-- serial_exit() the firmware is still there, and so is the subsystem it keeps alive.

local serial_subsys = decl_subsys("serial", nil, nil)
local ports, firmware

-- What every port needs when its memory goes: the registers unmapped, the port freed.
local serial_port_ktype = new_ktype{
  name = "serial_port_ktype",
  release = function(kobj)
    local port = container_of(kobj)
    port.regs = nil
    port.freed = true
  end,
}

-- Ports run the firmware: their memory must not go without dropping that reference.
local port_fw_ktype = new_ktype{
  name = "port_fw_ktype",
  release = function(kobj)
    local port = container_of(kobj)
    kobject_put(port.firmware.kobj)
    port.firmware = nil
  end,
}

local firmware_ktype = new_ktype{
  name = "firmware_ktype",
  release = function(kobj) container_of(kobj).image = nil end,
}

function serial_init()
  local err = subsystem_register(serial_subsys)
  if err ~= 0 then
    return err
  end
  ports = new_kset{ name = "ports", subsys = serial_subsys, ktype = serial_port_ktype }
  err = kset_register(ports)
  if err ~= 0 then
    subsystem_unregister(serial_subsys)
    return err
  end
  firmware = { image = "serial-fw-1.2.bin" }
  firmware.kobj = new_kobject(firmware)
  firmware.kobj.ktype = firmware_ktype
  kobject_init(firmware.kobj)
  err = kobject_set_name(firmware.kobj, "firmware")
  if err == 0 then
    firmware.kobj.kset = serial_subsys.kset
    err = kobject_add(firmware.kobj)
  end
  if err ~= 0 then
    kobject_put(firmware.kobj)
    kset_unregister(ports)
    subsystem_unregister(serial_subsys)
    return err
  end
  return 0
end

function serial_exit()
  kobject_unregister(firmware.kobj)
  kset_unregister(ports)
  subsystem_unregister(serial_subsys)
end

function make_port(n)
  if not kobject_get(firmware.kobj) then -- the port will run the firmware
    return nil, -ENOENT
  end
  local port = { line = n, regs = { base = 0x3f8 + 0x100 * n }, firmware = firmware }
  port.kobj = new_kobject(port)
  port.kobj.ktype = port_fw_ktype
  port.kobj.kset = ports
  kobject_init(port.kobj)
  local err = kobject_set_name(port.kobj, "ttyS%d", n)
  if err == 0 then
    err = kobject_add(port.kobj)
  end
  if err ~= 0 then
    kobject_put(port.kobj)               -- the release drops the firmware too
    return nil, err
  end
  return port
end

function remove_port(port)
  kobject_unregister(port.kobj)
end
