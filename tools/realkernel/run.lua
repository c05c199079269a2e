-- Runs module files in a real Linux kernel under QEMU and in the sandbox.
--
-- lua5.4 run.lua RUNFILES WORKDIR FILE.c...
--
-- For each FILE.c: a sandbox program (the file, host.c and the core, compiled with the
-- flags in sandbox_cc.txt) and a kernel module (a wrapper that #includes the file, built
-- by Kbuild against /usr/src/linux-headers-*). All modules go into one initramfs with
-- busybox and rkguest (guest.c); one boot loads them in turn. Writes, per module NAME:
--   WORKDIR/NAME.kernel and WORKDIR/NAME.sandbox   the fields (fields.lua)
--   WORKDIR/NAME.kernel.raw and NAME.sandbox.raw   what rkguest and host.c printed
-- WORKDIR/console.log, the guest's serial console, and WORKDIR/cases.txt, the names. Each module's user-space steps
-- are the file's "//! write /sys/PATH TEXT" and "//! read /sys/PATH" lines.
-- Exits 0 when every module ran on both sides (whatever they did), 3 when something the
-- runner needs is missing, 1 on a build or boot failure; the reason goes to stderr.

local runfiles, work = arg[1], arg[2]
local files = table.move(arg, 3, #arg, 1, {})
local here = runfiles .. "/kobject_sandbox/tools/realkernel/"
package.path = here .. "?.lua;" .. package.path
local fields = require("fields")

local QEMU_SECONDS = 150
local QEMU = os.getenv("REALKERNEL_QEMU") or "qemu-system-x86_64"

local function die(status, fmt, ...)
  io.stderr:write("realkernel: ", string.format(fmt, ...), "\n")
  os.exit(status)
end

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- Runs a shell command; on failure dies with @what and the command's output.
local function sh(what, cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  if not p:close() then
    die(1, "%s failed:\n%s", what, out)
  end
  return out
end

local function first_match(pattern)
  local p = io.popen("ls -d " .. pattern .. " 2>/dev/null | sort -V | tail -1")
  local found = p:read("l")
  p:close()
  return found
end

local function have(cmd)
  return os.execute("command -v " .. cmd .. " >/dev/null 2>&1")
end

-- The kernel, its Kbuild tree and the tools; a clear word for each one missing.
local function find_tools()
  local t = {
    kernel = first_match("/boot/vmlinuz-6.1.0-*-amd64"),
    headers = first_match("/usr/src/linux-headers-6.1.0-*-amd64"),
    busybox = first_match("/bin/busybox"),
  }
  local missing = {}
  if not have(QEMU) then missing[#missing + 1] = "qemu-system-x86" end
  if not t.kernel then missing[#missing + 1] = "linux-image-amd64" end
  if not t.headers then missing[#missing + 1] = "linux-headers-amd64" end
  if not t.busybox then missing[#missing + 1] = "busybox-static" end
  if not have("cpio") then missing[#missing + 1] = "cpio" end
  if #missing > 0 then
    die(3, "the real kernel needs the Debian packages %s; install them with " ..
        "'tools/setup --tests' (or apt-get install %s)", table.concat(missing, ", "),
        table.concat(missing, " "))
  end
  return t
end

-- ======================================================================= the cases

-- A module's name: rk_ and the file's base name in [a-z0-9_].
local function case_name(file)
  local base = file:match("([^/]+)%.c$") or die(2, "'%s' is not a .c file", file)
  return "rk_" .. base:lower():gsub("[^a-z0-9_]", "_")
end

-- The file's "//! write PATH TEXT" and "//! read PATH" lines, as argument lists.
local function steps_of(file)
  local steps = {}
  local n = 0
  for line in io.lines(file) do
    n = n + 1
    local step = line:match("^%s*//!%s*(.-)%s*$")
    if step then
      local path, text = step:match("^write%s+(/sys/%S+)%s+(.+)$")
      if path then
        table.move({ "write", path, text }, 1, 3, #steps + 1, steps)
      elseif step:match("^read%s+/sys/%S+$") then
        table.move({ "read", step:match("(/sys/%S+)") }, 1, 2, #steps + 1, steps)
      else
        die(2, "%s:%d: a step is '//! write /sys/PATH TEXT' or '//! read /sys/PATH', " ..
            "not '//! %s'", file, n, step)
      end
    end
  end
  return steps
end

local function load_cases()
  local cases, seen = {}, {}
  for _, file in ipairs(files) do
    local f = io.open(file) or die(2, "cannot read '%s'", file)
    f:close()
    local abs = sh("realpath", "realpath " .. quote(file)):gsub("\n$", "")
    local c = { file = abs, name = case_name(file), steps = steps_of(file) }
    if seen[c.name] then die(2, "two files make the module %s", c.name) end
    seen[c.name] = true
    cases[#cases + 1] = c
  end
  return cases
end

-- The name, then @module if given, then the steps: the arguments of rkguest and host.c.
local function args_of(c, module)
  local a = { quote(c.name), module }
  for _, s in ipairs(c.steps) do a[#a + 1] = quote(s) end
  return table.concat(a, " ")
end

-- ===================================================================== the sandbox

local function sandbox_flags()
  local rf = runfiles .. "/kobject_sandbox/"
  local cflags, libs, ldflags = {}, {}, {}
  for line in io.lines(here .. "sandbox_cc.txt") do
    local kind, value = line:match("^(%S+) (.*)$")
    if kind == "cflag" then cflags[#cflags + 1] = quote(value)
    elseif kind == "include" then cflags[#cflags + 1] = "-I" .. quote(rf .. value)
    elseif kind == "archive" then libs[#libs + 1] = quote(rf .. value)
    elseif kind == "linkflag" then ldflags[#ldflags + 1] = quote(value) end
  end
  return table.concat(cflags, " "), table.concat(libs, " ") .. " " .. table.concat(ldflags, " ")
end

local function run_sandbox(cases)
  local cflags, libs = sandbox_flags()
  for _, c in ipairs(cases) do
    local exe = work .. "/sandbox/" .. c.name
    sh("compiling " .. c.file .. " for the sandbox",
       string.format("cc -std=gnu11 -g -DKBUILD_MODNAME='\"%s\"' %s -o %s %s %s", c.name,
                     cflags, quote(exe), quote(c.file), libs))
    -- The module's own leaks are what the comparison looks at, not a failure here.
    local out = sh("running " .. c.name .. " in the sandbox",
                   "ASAN_OPTIONS=detect_leaks=0 " .. quote(exe) .. " " .. args_of(c))
    c.sandbox_raw = out
  end
end

-- ====================================================================== the kernel

local function build_modules(cases, tools)
  local dir = work .. "/modules"
  local objs = {}
  for _, c in ipairs(cases) do
    local w = io.open(dir .. "/" .. c.name .. ".c", "w")
    w:write("/* The module wrapper: the file as written. */\n#include \"", c.file, "\"\n")
    w:close()
    objs[#objs + 1] = c.name .. ".o"
  end
  local mk = io.open(dir .. "/Makefile", "w")
  mk:write("obj-m := ", table.concat(objs, " "), "\n")
  mk:close()
  sh("building the modules against " .. tools.headers,
     string.format("make -s -j2 -C %s M=%s modules", quote(tools.headers), quote(dir)))
end

local function init_script(cases)
  local lines = {
    "#!/bin/sh",
    "mount -t proc proc /proc",
    "mount -t sysfs sysfs /sys",
    "mount -t devtmpfs dev /dev",
    "mount -t debugfs debugfs /sys/kernel/debug",
    "echo 'file lib/kobject.c +p' > /sys/kernel/debug/dynamic_debug/control",
    "echo 'file lib/kobject_uevent.c +p' > /sys/kernel/debug/dynamic_debug/control",
  }
  for _, c in ipairs(cases) do
    -- Each module sees the refcount_t warnings that WARN_ONCE printed for another.
    lines[#lines + 1] = "echo 1 > /sys/kernel/debug/clear_warn_once"
    lines[#lines + 1] = "/rkguest run " .. args_of(c, "/" .. c.name .. ".ko")
  end
  lines[#lines + 1] = "echo '@@ done'"
  lines[#lines + 1] = "poweroff -f"
  return table.concat(lines, "\n") .. "\n"
end

local function build_initramfs(cases, tools)
  local root = work .. "/initramfs"
  sh("making the initramfs", table.concat({
    "mkdir -p " .. quote(root) .. "/bin " .. quote(root) .. "/proc " .. quote(root) ..
      "/sys " .. quote(root) .. "/dev",
    "cp " .. quote(tools.busybox) .. " " .. quote(root) .. "/bin/busybox",
    "for a in sh mount echo poweroff; do ln -sf busybox " .. quote(root) .. "/bin/$a; done",
    "gcc -static -O2 -o " .. quote(root) .. "/rkguest " .. quote(here .. "guest.c"),
    "cp " .. quote(work) .. "/modules/*.ko " .. quote(root) .. "/",
  }, " && "))
  local init = io.open(root .. "/init", "w")
  init:write(init_script(cases))
  init:close()
  sh("packing the initramfs", "chmod +x " .. quote(root) .. "/init && cd " .. quote(root) ..
     " && find . | cpio -o -H newc --quiet | gzip -1 > ../initrd.gz")
end

local function boot(tools)
  local log = work .. "/console.log"
  local cmd = string.format(
    "timeout %d %s -m 512 -smp 1 -kernel %s -initrd %s " ..
    "-append 'console=ttyS0 loglevel=1 panic=-1 no_hash_pointers' -nographic -no-reboot " ..
    "</dev/null >%s 2>&1", QEMU_SECONDS, QEMU, quote(tools.kernel), quote(work .. "/initrd.gz"),
    quote(log))
  local ok, _, code = os.execute(cmd)
  local f = io.open(log)
  local text = f and f:read("a") or ""
  if f then f:close() end
  text = text:gsub("\r", "")
  if not ok and code == 124 then
    die(1, "the guest did not power off within %d s; its console is in %s", QEMU_SECONDS, log)
  end
  return text
end

-- Splits the console into each case's lines from "@@ case" to "@@ end".
local function kernel_sections(console, cases)
  for _, c in ipairs(cases) do
    local from = console:find("@@ case " .. c.name .. "\n", 1, true)
    local to = from and console:find("@@ end\n", from, true)
    if not to then
      local tail = console:sub(from or -3000)
      die(1, "the kernel did not finish %s (%s); the console from there:\n%s", c.name,
          c.file, tail)
    end
    c.kernel_raw = console:sub(from, to + 6)
  end
end

-- ========================================================================= results

local function save(path, text)
  local f = io.open(path, "w") or die(1, "cannot write %s", path)
  f:write(text)
  f:close()
end

local function main()
  if #files == 0 then die(2, "usage: realkernel [--out DIR] FILE.c...") end
  local tools = find_tools()
  local cases = load_cases()
  sh("making " .. work, "mkdir -p " .. quote(work) .. "/sandbox " .. quote(work) .. "/modules")
  run_sandbox(cases)
  build_modules(cases, tools)
  build_initramfs(cases, tools)
  kernel_sections(boot(tools), cases)
  local names = {}
  for _, c in ipairs(cases) do
    names[#names + 1] = c.name
    local base = work .. "/" .. c.name
    save(base .. ".kernel.raw", c.kernel_raw)
    save(base .. ".sandbox.raw", c.sandbox_raw)
    save(base .. ".kernel", fields.format(fields.parse(c.kernel_raw, c.name)))
    save(base .. ".sandbox", fields.format(fields.parse(c.sandbox_raw, c.name)))
  end
  save(work .. "/cases.txt", table.concat(names, "\n") .. "\n")
end

main()
