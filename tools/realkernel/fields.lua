-- The fields of one module run, from what rkguest (in the kernel) or host.c (in the
-- sandbox) printed. Both sides go through the same rules, so a difference left is a
-- difference in behaviour, not in presentation.
--
--   module   insmod's and rmmod's results (init's and the syscall's return value)
--   dmesg    the kernel log below debug level: the module's pr_*() lines and the
--            kernel's warnings, with WARN()'s register dump and backtrace, dump_stack()
--            output, taint and module-signature lines removed
--   refs     the module's "kref ..." lines: refcounts it printed with kref_read()
--   debug    pr_debug lines: lib/kobject.c's and lib/kobject_uevent.c's (dynamic debug
--            in the kernel, KOBJ_DEBUG_KOBJECT in the sandbox) and the module's own
--   sysfs    what the module added under /sys and /sys/kernel, with modes and values
--   user     the user-space steps (writes and reads) and their results
--   after    what is still there after rmmod (names and modes)
--   uevents  the uevents, one a line, SEQNUM values masked
-- The kernel's own objects for the module (/sys/module/NAME, its holders and notes, and
-- their uevents) are left out: the sandbox has no module loader.

local M = {}

M.ORDER = { "module", "dmesg", "refs", "debug", "sysfs", "user", "after", "uevents" }

-- %p as the kernel prints it (hashed, raw or "(____ptrval____)") and as the sandbox
-- does: "ptr".
local function mask_pointers(s)
  return (s:gsub("____ptrval____", "ptr"):gsub("%f[%x]%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%f[^%x]", "ptr"))
end

-- Lines about the module loader, and the boot's own late lines, which come when they
-- come (the TSC's calibration, the clock source switch, the random pool).
local NOISE = {
  "loading out%-of%-tree module taints kernel%.$",
  "module verification failed: signature and/or required key missing",
  "^Modules linked in:",
  "^tsc: ",
  "^clocksource: ",
  "^random: ",
}

local function is_noise(text)
  for _, p in ipairs(NOISE) do
    if text:find(p) then return true end
  end
  return false
end

-- The kernel objects of the module loader for module @name, by address: the module's
-- kobject, and everything added under it ("holders", "notes", ...).
local function loader_objects(kmsg, name)
  local own = {}
  for _, m in ipairs(kmsg) do
    local obj, ptr, parent = m.text:match("^kobject: '([^']*)' %((%S+)%): kobject_add_internal: parent: '([^']*)'")
    if obj and (parent == name or (obj == name and parent == "module")) then
      own[ptr] = true
    end
  end
  return own
end

-- Whether a debug line is about the loader's objects. "free name" lines carry no
-- pointer: they are the loader's when its object named so was just released (@freeing).
local function about_loader(text, own, name, freeing)
  local obj, ptr = text:match("^kobject: '([^']*)' %((%S+)%)")
  ptr = ptr or text:match("^kobject: %((%S+)%)")
  if ptr and own[ptr] then
    if obj and text:find(": calling ktype release$") then freeing[obj] = true end
    return true
  end
  local freed = text:match("^kobject: '([^']*)': free name$")
  if freed and freeing[freed] then
    freeing[freed] = nil
    return true
  end
  return text:find("path = '/module/" .. name .. "'", 1, true) ~= nil
end

-- Drops WARN() and dump_stack() output around the messages: from "WARNING: CPU:" to
-- "---[ end trace", and from "CPU: N PID:" to "</TASK>".
local function strip_reports(kmsg)
  local out, skip = {}, nil
  for _, m in ipairs(kmsg) do
    local t = m.text
    if skip then
      if t:find(skip) then skip = nil end
    elseif t:find("^WARNING: CPU: %d+ PID: %d+") then
      skip = "^%-%-%-%[ end trace"
    elseif t:find("^CPU: %d+ PID: %d+ Comm:") then
      skip = "^%s*</TASK>"
    elseif t ~= "------------[ cut here ]------------" and not is_noise(t) then
      out[#out + 1] = m
    end
  end
  return out
end

local function unescape(s)
  return (s:gsub("\\(x%x%x)", function(h) return string.char(tonumber(h:sub(2), 16)) end)
           :gsub("\\\\", "\\"))
end

local function kmsg_fields(f, kmsg, name)
  local own, freeing = loader_objects(kmsg, name), {}
  for _, m in ipairs(strip_reports(kmsg)) do
    local text = m.text
    if m.level == 7 then
      if not about_loader(text, own, name, freeing) then
        f.debug[#f.debug + 1] = mask_pointers(text)
      end
    elseif text:find("^kref ") then
      f.refs[#f.refs + 1] = text
    else
      f.dmesg[#f.dmesg + 1] = mask_pointers(text)
    end
  end
end

local function uevent_line(line, name)
  if line:find("DEVPATH=/module/" .. name, 1, true) then return nil end
  return (line:gsub("SEQNUM=%d+", "SEQNUM=#"):gsub("\t", " "))
end

--- parse(raw, name): the fields of the run of module @name in @raw.
function M.parse(raw, name)
  local f, kmsg, section = {}, {}, nil
  for _, k in ipairs(M.ORDER) do f[k] = {} end
  for line in raw:gmatch("[^\n]*") do
    local head, rest = line:match("^@@ (%S+) ?(.*)$")
    if head == "insmod" or head == "rmmod" then
      f.module[#f.module + 1] = head .. " " .. rest
    elseif head then
      section = head
    elseif line == "" then
      -- gmatch's empty matches between lines
    elseif section == "kmsg" then
      local level, text = line:match("^(%d) (.*)$")
      kmsg[#kmsg + 1] = { level = tonumber(level), text = unescape(text or line) }
    elseif section == "uevents" then
      f.uevents[#f.uevents + 1] = uevent_line(line, name)
    elseif f[section] then
      f[section][#f[section] + 1] = line
    end
  end
  kmsg_fields(f, kmsg, name)
  return f
end

--- format(f): the fields as text, "== field" then its lines.
function M.format(f)
  local out = {}
  for _, k in ipairs(M.ORDER) do
    out[#out + 1] = "== " .. k
    for _, line in ipairs(f[k]) do out[#out + 1] = line end
  end
  return table.concat(out, "\n") .. "\n"
end

--- read(text): the fields from format()'s text.
function M.read(text)
  local f, cur = {}, nil
  for _, k in ipairs(M.ORDER) do f[k] = {} end
  for line in text:gmatch("([^\n]*)\n") do
    local k = line:match("^== (%S+)$")
    if k then cur = f[k] elseif cur then cur[#cur + 1] = line end
  end
  return f
end

return M
