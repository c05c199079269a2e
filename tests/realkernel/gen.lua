-- Writes modules that each run a generated sequence of kobject operations, restricted
-- to what a real kernel survives: the objects are static, so a put too many or a get
-- after the release finds a count (refcount_t warns and saturates) rather than freed
-- memory; nothing is deleted twice or while it has children in sysfs, and no put
-- takes a reference that a child still holds.
--
-- lua5.4 gen.lua COUNT OUTDIR    writes OUTDIR/gen01.c ... (the same files every time)

local count, outdir = tonumber(arg[1]), arg[2]
local OBJECTS = 3

-- A small LCG, so the sequences do not depend on the Lua version's math.random.
local state
local function rand(n)
  state = (state * 1103515245 + 12345) % 2147483648
  return state // 65536 % n + 1
end

local function pick(list)
  return list[rand(#list)]
end

-- ========================================================================= the model

local function new_model(tag)
  local m = { tag = tag, objs = {}, dirs = {} }
  for i = 1, OBJECTS do
    m.objs[i] = { i = i, name = string.format("%s_%s", tag, string.char(96 + i)),
                  inited = false, count = 0, sysfs = false, parent = nil, file = false }
  end
  return m
end

-- References that others hold on @o: one per child still in sysfs (today's del and
-- release give them back).
local function held_by_children(m, o)
  local n = 0
  for _, c in ipairs(m.objs) do
    if c.parent == o.i and c.sysfs then n = n + 1 end
  end
  return n
end

local release

-- @o leaves sysfs (kobject_del, or the last put's auto cleanup): today's kobject gives
-- its parent's reference back then.
local function leave_sysfs(m, o)
  m.dirs[o.dir] = nil
  o.sysfs, o.file = false, false
  local p = o.parent and m.objs[o.parent]
  if p and not p.saturated then
    p.count = p.count - 1
    if p.count == 0 then release(m, p) end
  end
end

function release(m, o)
  if o.sysfs then leave_sysfs(m, o) end
  o.released = true
end

-- ======================================================================== operations

local function dir_of(m, o, parent)
  if parent == "kernel" then return "/kernel/" .. o.name end
  if parent == "set" then return "/kernel/" .. m.tag .. "_set/" .. o.name end
  if parent == "top" then return "/" .. o.name end
  return m.objs[parent].dir .. "/" .. o.name
end

local function parent_expr(parent)
  if parent == "kernel" then return "kernel_kobj" end
  if parent == "set" or parent == "top" then return "NULL" end
  return string.format("&objs[%d]", parent - 1)
end

local function op_add(m, o)
  local parents = { "kernel", "set", "top" }
  for _, p in ipairs(m.objs) do
    if p ~= o and p.sysfs then parents[#parents + 1] = p.i end
  end
  local parent = pick(parents)
  -- Now and then the name of another object, to meet -EEXIST.
  local other = m.objs[rand(OBJECTS)]
  local name = rand(4) == 1 and other.inited and other.name or o.name
  o.inited, o.count = true, 1
  local dir = dir_of(m, { name = name }, parent)
  local lines = {}
  if parent == "set" then lines[1] = string.format("\tobjs[%d].kset = set;", o.i - 1) end
  lines[#lines + 1] = string.format("\tpr_info(\"add %s as %s: %%d\\n\", " ..
    "kobject_init_and_add(&objs[%d], &obj_ktype, %s, \"%s\"));", o.name, name, o.i - 1,
    parent_expr(parent), name)
  if not m.dirs[dir] then
    m.dirs[dir], o.sysfs, o.dir, o.parent = true, true, dir, tonumber(parent)
    local p = o.parent and m.objs[o.parent]
    if p and not p.saturated then p.count = p.count + 1 end
  end
  return table.concat(lines, "\n")
end

local function report(o)
  return string.format("\tpr_info(\"kref %s %%u\\n\", kref_read(&objs[%d].kref));", o.name,
                       o.i - 1)
end

local function op_get(m, o)
  if o.released then o.saturated = true elseif not o.saturated then o.count = o.count + 1 end
  return string.format("\tkobject_get(&objs[%d]);\n%s", o.i - 1, report(o))
end

local function op_put(m, o)
  if o.released then
    o.saturated = true
  elseif not o.saturated then
    o.count = o.count - 1
    if o.count == 0 then release(m, o) end
  end
  return string.format("\tkobject_put(&objs[%d]);\n%s", o.i - 1, report(o))
end

local function op_del(m, o)
  leave_sysfs(m, o)
  return string.format("\tkobject_del(&objs[%d]);", o.i - 1)
end

local function op_uevent(m, o)
  return string.format("\tpr_info(\"uevent %s: %%d\\n\", kobject_uevent(&objs[%d], %s));",
                       o.name, o.i - 1, pick{ "KOBJ_ADD", "KOBJ_CHANGE", "KOBJ_ONLINE" })
end

local function op_file(m, o)
  o.file = true
  return string.format("\tpr_info(\"file %s: %%d\\n\", " ..
                       "sysfs_create_file(&objs[%d], &value_attr.attr));", o.name, o.i - 1)
end

-- The operations allowed on @o now, by name.
local function allowed(m, o)
  local ops = {}
  if not o.inited then return { op_add } end
  local spare = o.count - held_by_children(m, o)
  ops[#ops + 1] = op_get
  if (o.released or o.saturated or spare > 0) and held_by_children(m, o) == 0 then
    ops[#ops + 1] = op_put
  end
  if o.sysfs and not o.released and held_by_children(m, o) == 0 then ops[#ops + 1] = op_del end
  if o.sysfs and not o.released then
    ops[#ops + 1] = op_uevent
    ops[#ops + 1] = op_file
  end
  return ops
end

-- Module exit: each object's references given back, children before parents.
local function cleanup(m)
  local lines, progress = {}, true
  while progress do
    progress = false
    for _, o in ipairs(m.objs) do
      if o.inited and not o.released and not o.saturated and held_by_children(m, o) == 0 then
        for _ = 1, o.count do lines[#lines + 1] = string.format("\tkobject_put(&objs[%d]);", o.i - 1) end
        release(m, o)
        progress = true
      end
    end
  end
  return table.concat(lines, "\n")
end

-- ========================================================================= the file

local TEMPLATE = [[
/*
 * Generated by tests/realkernel/gen.lua: sequence %d of kobject operations that a real
 * kernel survives. The objects are static, so a put too many or a get after the
 * release meets a count of 0 (refcount_t warns and saturates), never freed memory.
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/module.h>
#include <linux/init.h>

static struct kobject objs[%d];
static struct kset *set;

static void obj_release(struct kobject *kobj)
{
	pr_info("release %%s\n", kobject_name(kobj));
}

static ssize_t value_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%%d\n", (int)(kobj - objs));
}

static struct kobj_attribute value_attr = __ATTR(value, 0444, value_show, NULL);

static const struct kobj_type obj_ktype = {
	.release = obj_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static int __init gen_init(void)
{
	set = kset_create_and_add("%s_set", NULL, kernel_kobj);
	if (!set)
		return -ENOMEM;
%s
	return 0;
}

static void __exit gen_exit(void)
{
%s
	kset_unregister(set);
}

module_init(gen_init);
module_exit(gen_exit);
MODULE_LICENSE("GPL");
]]

local function sequence(n)
  state = n * 7919
  local tag = string.format("g%02d", n)
  local m = new_model(tag)
  local steps = {}
  for _ = 1, 6 + rand(8) do
    local o = m.objs[rand(OBJECTS)]
    steps[#steps + 1] = pick(allowed(m, o))(m, o)
  end
  local exit = rand(4) > 1 and cleanup(m) or "\t/* the references left are leaked */"
  return string.format(TEMPLATE, n, OBJECTS, tag, table.concat(steps, "\n"), exit)
end

for n = 1, count do
  local f = assert(io.open(string.format("%s/gen%02d.c", outdir, n), "w"))
  f:write(sequence(n))
  f:close()
end
