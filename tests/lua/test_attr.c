/*
 * Today's attributes from Lua: kobj_attribute show/store read and written through cat
 * and echo (errors such as -EINVAL reaching the caller), modes and the kernel's
 * VERIFY_OCTAL_PERMISSIONS, attribute groups with is_visible and default_groups,
 * kobj_sysfs_ops, sysfs_create_file/group and their removals, and links.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "core/model/kobject.h"
#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

/* samples/kobject/kobject-example.c, in Lua. */
static const char *const kobject_example =
	"values = { foo = 0, baz = 0, bar = 0 }\n"
	"local function show(kobj, attr) return string.format('%d\\n', values[attr.name]) end\n"
	"local function store(kobj, attr, buf)\n"
	"  local v = tonumber(buf)\n"
	"  if not v or v ~= math.floor(v) then return -EINVAL end\n"
	"  values[attr.name] = v\n"
	"  return #buf\n"
	"end\n"
	"foo_attribute = new_kobj_attribute{ name = 'foo', mode = '0664', show = show, store = store }\n"
	"baz_attribute = new_kobj_attribute{ name = 'baz', mode = '0664', show = show, store = store }\n"
	"bar_attribute = new_kobj_attribute{ name = 'bar', mode = '0664', show = show, store = store }\n"
	"attr_group = new_attribute_group{ attrs = { foo_attribute, baz_attribute, bar_attribute } }\n"
	"example_kobj = kobject_create_and_add('kobject_example', kernel_kobj)\n"
	"retval = sysfs_create_group(example_kobj, attr_group)\n";

static void test_kobject_example_reads_and_writes_through_cat_and_echo(void **state)
{
	lua_State *L = *state;
	kt_run(L, kobject_example);
	assert_int_equal(kt_int(L, "return retval"), 0);
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/kernel/kobject_example'), ',')"),
			    "bar,baz,foo");
	assert_string_equal(kt_str(L, "return cat('/sys/kernel/kobject_example/foo')"), "0\n");
	assert_int_equal(kt_int(L, "return echo('/sys/kernel/kobject_example/foo', '42')"), 2);
	assert_string_equal(kt_str(L, "return cat('/sys/kernel/kobject_example/foo')"), "42\n");
	/* The store's -EINVAL reaches the writer as a failure, message and code. */
	assert_string_equal(kt_str(L, "local v, err, code = echo('/sys/kernel/kobject_example/"
				      "foo', 'abc') return tostring(v) .. '|' .. err .. '|' .. code"),
			    "nil|echo: /sys/kernel/kobject_example/foo: Invalid argument|-22");
	assert_string_equal(kt_str(L, "return cat('/sys/kernel/kobject_example/foo')"), "42\n");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	kt_run(L, "kobject_put(example_kobj)");
	assert_string_equal(kt_str(L, "return select(2, cat('/sys/kernel/kobject_example/foo'))"),
			    "cat: /sys/kernel/kobject_example/foo: No such file or directory");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_show_errors_and_missing_methods(void **state)
{
	lua_State *L = *state;
	kt_run(L, "d = kobject_create_and_add('d', nil)\n"
		  "busy = new_kobj_attribute{ name = 'busy', show = function() return -EBUSY end }\n"
		  "boom = new_kobj_attribute{ name = 'boom', show = function() error('no') end,\n"
		  "  store = function() return 'lots' end }\n"
		  "wo = new_kobj_attribute{ name = 'wo', store = function() end }\n"
		  "big = new_kobj_attribute{ name = 'big', show = function()\n"
		  "  return string.rep('x', 5000) end }\n"
		  "for _, a in ipairs{ busy, boom, wo, big } do assert(sysfs_create_file(d, a) == 0) end");
	assert_string_equal(kt_str(L, "local v, err, code = cat('/sys/d/busy')\n"
				      "return err .. '|' .. code"),
			    "cat: /sys/d/busy: Device or resource busy|-16");
	assert_string_equal(kt_str(L, "return select(3, cat('/sys/d/boom'))"), "-5");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"): show() of kobj_attribute 'boom' raised a Lua error: lesson.lua:3: no");
	assert_string_equal(kt_str(L, "return select(2, echo('/sys/d/boom', 'v'))"),
			    "echo: /sys/d/boom: Input/output error");
	assert_contains(kt_str(L, "return diagnostics()[2].message"),
			"store() must return a count or a negative errno (an integer), got string");
	/* A write-only file cannot be read (its mode says so); store returning nothing
	 * takes it all. */
	assert_string_equal(kt_str(L, "return select(3, cat('/sys/d/wo'))"), "-13");
	assert_int_equal(kt_int(L, "return echo('/sys/d/wo', 'abc')"), 3);
	/* A show of a page or more is the bad count sysfs reports, cut to 4095 bytes. */
	assert_int_equal(kt_int(L, "return #cat('/sys/d/big')"), 4095);
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"fill_read_buffer:");
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"returned bad count");
	kt_run(L, "kobject_put(d)");
}

static void test_modes_follow_verify_octal_permissions(void **state)
{
	lua_State *L = *state;
	assert_int_equal(kt_int(L, "return new_kobj_attribute{ name = 'a', mode = '0644' }.mode"),
			 0644);
	assert_int_equal(kt_int(L, "return new_kobj_attribute{ name = 'a', mode = 420 }.mode"),
			 0644);
	assert_int_equal(kt_int(L, "return new_kobj_attribute{ name = 'a', mode = '0o440' }.mode"),
			 0440);
	/* Without a mode: as __ATTR_RW, __ATTR_RO and __ATTR_WO. */
	assert_int_equal(kt_int(L, "return new_kobj_attribute{ name = 'a', show = print,\n"
				   "  store = print }.mode"), 0644);
	assert_int_equal(kt_int(L, "return new_kobj_attribute{ name = 'a', show = print }.mode"),
			 0444);
	assert_int_equal(kt_int(L, "return new_kobj_attribute{ name = 'a', store = print }.mode"),
			 0200);
	assert_string_equal(kt_error(L, "new_kobj_attribute{ name = 'foo', mode = '0666' }"),
			    "lesson.lua:1: new_kobj_attribute: mode 0666 of 'foo': sysfs attributes "
			    "cannot be world-writable (VERIFY_OCTAL_PERMISSIONS: the kernel refuses "
			    "it at build time)");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'foo', mode = '0044' }"),
			"mode 0044 of 'foo': USER_READABLE >= GROUP_READABLE >= OTHER_READABLE");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'foo', mode = '0460' }"),
			"USER_WRITABLE >= GROUP_WRITABLE");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'foo', mode = '01644' }"),
			"mode 01644 of 'foo': sysfs modes are at most 0777");
	/* A decimal number that reads as octal gets a hint. */
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'foo', mode = 644 }"),
			"mode 01204 of 'foo': sysfs modes are at most 0777 (VERIFY_OCTAL_PERMISSIONS: "
			"the kernel refuses it at build time); Lua has no octal literals: 644 is "
			"decimal, write \"0644\"");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'foo', mode = '0948' }"),
			"new_kobj_attribute: the mode of 'foo' must be an integer or an octal string "
			"such as \"0644\", got 0948");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'a/b' }"),
			"new_kobj_attribute: 'a/b' is not a valid file name");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'a', shwo = print }"),
			"new_kobj_attribute: unknown field 'shwo' (fields: name, mode, show, store)");
	assert_contains(kt_error(L, "new_kobj_attribute{ name = 'a', show = 1 }"),
			"new_kobj_attribute: show must be a function, got number");
	assert_contains(kt_error(L, "new_kobj_attribute()"),
			"bad argument #1 to 'new_kobj_attribute' (table expected, got no value)");
}

static void test_attribute_and_group_handles(void **state)
{
	lua_State *L = *state;
	kt_run(L, "a = new_kobj_attribute{ name = 'a', mode = '0640', show = print }\n"
		  "b = new_kobj_attribute{ name = 'b' }\n"
		  "g = new_attribute_group{ name = 'grp', attrs = { a, b } }");
	assert_string_equal(kt_str(L, "return tostring(a)"), "kobj_attribute 'a' 0640 (show)");
	assert_string_equal(kt_str(L, "return tostring(b)"), "kobj_attribute 'b' 0444 (no methods)");
	assert_string_equal(kt_str(L, "return tostring(g)"), "attribute_group 'grp' (2 attributes)");
	assert_true(kt_bool(L, "return a.name == 'a' and a.show == print and a.store == nil and "
			       "g.name == 'grp' and g.attrs[1] == a and g.attrs[2] == b and "
			       "g.is_visible == nil"));
	kt_run(L, "b.store = function() return 1 end");
	assert_string_equal(kt_str(L, "return tostring(b)"), "kobj_attribute 'b' 0444 (store)");
	assert_contains(kt_error(L, "a.mode = 1"), "kobj_attribute field mode cannot be assigned "
						   "(assignable: show, store)");
	assert_contains(kt_error(L, "return a.nope"), "kobj_attribute has no field 'nope'");
	assert_contains(kt_error(L, "g.name = 'x'"), "attribute_group field name cannot be "
						     "assigned (assignable: is_visible)");
	assert_contains(kt_error(L, "new_attribute_group{ attrs = { 'a' } }"),
			"new_attribute_group: attrs[1] must be a kobj_attribute (new_kobj_attribute), "
			"got string");
	assert_string_equal(kt_str(L, "return tostring(new_attribute_group{})"),
			    "attribute_group (0 attributes, attrs not set)");
	kt_run(L, "reset()");
	assert_contains(kt_error(L, "return a.name"), "belongs to a world that was reset");
}

static void test_groups_named_and_hidden(void **state)
{
	lua_State *L = *state;
	kt_run(L, "d = kobject_create_and_add('d', nil)\n"
		  "a = new_kobj_attribute{ name = 'a', show = function() return 'A' end }\n"
		  "b = new_kobj_attribute{ name = 'b', show = function() return 'B' end }\n"
		  "c = new_kobj_attribute{ name = 'c', show = function() return 'C' end }\n"
		  "seen = {}\n"
		  "g = new_attribute_group{ name = 'stats', attrs = { a, b, c },\n"
		  "  is_visible = function(kobj, attr, i)\n"
		  "    seen[#seen + 1] = kobj.name .. ':' .. attr.name .. ':' .. i\n"
		  "    if attr == b then return 0 end\n"
		  "    if attr == c then return '0400' end\n"
		  "    return true\n"
		  "  end }");
	assert_int_equal(kt_int(L, "return sysfs_create_group(d, g)"), 0);
	assert_string_equal(kt_str(L, "return table.concat(seen, ',')"), "d:a:1,d:b:2,d:c:3");
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/d/stats'), ',')"), "a,c");
	assert_string_equal(kt_str(L, "return cat('/sys/d/stats/c')"), "C");
	/* Twice: the named group's directory is there already. */
	assert_int_equal(kt_int(L, "return sysfs_create_group(d, g)"), -17);
	kt_run(L, "sysfs_remove_group(d, g)");
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/d'), ',')"), "");
	kt_run(L, "sysfs_remove_group(d, g)");
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"sysfs group 'stats' not found for kobject 'd'");
	/* A failing is_visible hides the file; a mode outside 0664 is warned. */
	kt_run(L, "g.is_visible = function(kobj, attr) if attr == a then error('bad') end\n"
		  "  return '0755' end");
	assert_int_equal(kt_int(L, "return sysfs_create_group(d, g)"), 0);
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/d/stats'), ',')"), "b,c");
	assert_true(kt_bool(L, "local n = 0 for _, x in ipairs(diagnostics()) do\n"
			       "  if x.tag == 'callback-error' then n = n + 1 end end return n == 1"));
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"Attribute c: Invalid permissions 0755");
	/* attrs not set: refused with the kernel's warning. */
	assert_int_equal(kt_int(L, "return sysfs_create_group(d, new_attribute_group{ name = 'e' })"),
			 -22);
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"sysfs: (bin_)attrs not set by subsystem for group: d/e");
	/* Several at once. */
	kt_run(L, "g1 = new_attribute_group{ attrs = { a } }\n"
		  "g2 = new_attribute_group{ name = 'more', attrs = { b } }");
	assert_int_equal(kt_int(L, "return sysfs_create_groups(d, { g1, g2 })"), 0);
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/d'), ',')"), "a,more,stats");
	kt_run(L, "sysfs_remove_groups(d, { g1, g2 })");
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/d'), ',')"), "stats");
	assert_int_equal(kt_int(L, "return sysfs_create_groups(d, nil)"), 0);
	assert_contains(kt_error(L, "sysfs_create_groups(d, { a })"),
			"sysfs_create_groups: groups[1] must be an attribute_group, got kobj_attribute");
	kt_run(L, "kobject_put(d)");
}

static void test_files_need_a_directory_and_sysfs_ops(void **state)
{
	lua_State *L = *state;
	kt_run(L, "a = new_kobj_attribute{ name = 'a', show = function() return 'x' end }\n"
		  "kt = new_ktype{ release = function() end }\n"
		  "k = new_kobject()\n"
		  "kobject_init(k, kt)");
	/* Not in sysfs: the kernel's WARN, -EINVAL. */
	assert_int_equal(kt_int(L, "return sysfs_create_file(k, a)"), -22);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "WARNING: CPU: 0 PID: 1 at fs/sysfs/file.c sysfs_create_file_ns");
	assert_int_equal(kt_int(L, "return sysfs_create_file(nil, a)"), -22);
	/* In sysfs, but the ktype has no sysfs_ops. */
	kt_run(L, "kobject_add(k, nil, 'k')");
	assert_int_equal(kt_int(L, "return sysfs_create_file(k, a)"), -22);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "missing sysfs attribute operations for kobject: k");
	kt_run(L, "d = kobject_create_and_add('d', nil)");
	assert_int_equal(kt_int(L, "return sysfs_create_file(d, a)"), 0);
	assert_int_equal(kt_int(L, "return sysfs_create_file(d, a)"), -17);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "sysfs: cannot create duplicate filename '/d/a'");
	kt_run(L, "sysfs_remove_file(d, a); sysfs_remove_file(d, a)");
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/d'), ',')"), "");
	assert_contains(kt_error(L, "sysfs_create_file(d, kt)"),
			"bad argument #2 to 'sysfs_create_file' (kobj_attribute expected, got "
			"kobj_type)");
	kt_run(L, "kobject_put(k); kobject_put(d)");
}

/* samples/kobject/kset-example.c's foo_obj: a ktype with kobj_sysfs_ops and
 * default_groups, and a release that sees its container. */
static void test_default_groups_with_kobj_sysfs_ops(void **state)
{
	lua_State *L = *state;
	kt_run(L, "local function show(kobj, attr)\n"
		  "  return string.format('%d\\n', container_of(kobj, 'struct foo_obj', 'kobj')[attr.name])\n"
		  "end\n"
		  "local function store(kobj, attr, buf)\n"
		  "  local v = math.tointeger(tonumber(buf))\n"
		  "  if not v then return -EINVAL end\n"
		  "  container_of(kobj)[attr.name] = v\n"
		  "  return #buf\n"
		  "end\n"
		  "foo = new_kobj_attribute{ name = 'foo', mode = '0664', show = show, store = store }\n"
		  "bar = new_kobj_attribute{ name = 'bar', mode = '0664', show = show, store = store }\n"
		  "freed = {}\n"
		  "foo_ktype = new_ktype{ sysfs_ops = kobj_sysfs_ops,\n"
		  "  release = function(kobj) freed[#freed + 1] = container_of(kobj).foo end,\n"
		  "  default_groups = { new_attribute_group{ attrs = { foo, bar } } },\n"
		  "  default_attrs = { 'plain' } }\n"
		  "kset = kset_create_and_add('kset_example', nil, kernel_kobj)\n"
		  "obj = { foo = 0, bar = 0 }; new_kobject(obj)\n"
		  "obj.kobj.kset = kset\n"
		  "assert(kobject_init_and_add(obj.kobj, foo_ktype, nil, '%s', 'foo') == 0)");
	assert_string_equal(kt_str(L, "return tostring(foo_ktype)"),
			    "kobj_type (release: yes, sysfs_ops: kobj_sysfs_ops, 1 default "
			    "attribute, 1 default group)");
	assert_true(kt_bool(L, "return foo_ktype.sysfs_ops == kobj_sysfs_ops and "
			       "foo_ktype.default_groups[1].attrs[2] == bar"));
	assert_string_equal(kt_str(L, "return tostring(kobj_sysfs_ops)"),
			    "kobj_sysfs_ops (show and store of each file's kobj_attribute)");
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/kernel/kset_example/foo'), ',')"),
			    "bar,foo,plain");
	assert_int_equal(kt_int(L, "return echo('/sys/kernel/kset_example/foo/bar', '17')"), 2);
	assert_string_equal(kt_str(L, "return cat('/sys/kernel/kset_example/foo/bar')"), "17\n");
	assert_string_equal(kt_str(L, "return select(2, echo('/sys/kernel/kset_example/foo/bar', "
				      "'1.5'))"),
			    "echo: /sys/kernel/kset_example/foo/bar: Invalid argument");
	/* A plain default attribute has no kobj_attribute callbacks: -EIO. */
	assert_string_equal(kt_str(L, "return select(3, cat('/sys/kernel/kset_example/foo/plain'))"),
			    "-5");
	kt_run(L, "obj.foo = 3; kobject_put(obj.kobj); kset_unregister(kset)");
	assert_string_equal(kt_str(L, "return table.concat(freed, ',')"), "3");
	assert_contains(kt_error(L, "new_ktype{ default_groups = { foo } }"),
			"new_ktype: default_groups[1] must be an attribute_group "
			"(new_attribute_group), got kobj_attribute");
	assert_contains(kt_error(L, "new_ktype{ sysfs_ops = 5 }"),
			"new_ktype: sysfs_ops must be a table {show=, store=} or kobj_sysfs_ops, "
			"got number");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_links(void **state)
{
	lua_State *L = *state;
	kt_run(L, "a = kobject_create_and_add('a', nil)\n"
		  "b = kobject_create_and_add('b', a)\n"
		  "c = kobject_create_and_add('c', nil)");
	assert_int_equal(kt_int(L, "return sysfs_create_link(c, b, 'to_b')"), 0);
	assert_int_equal(kt_int(L, "return sysfs_create_link(nil, b, 'top')"), 0);
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/c'), ',')"), "to_b");
	assert_contains(kt_str(L, "return tree()"), "to_b -> /sys/a/b");
	assert_contains(kt_str(L, "return tree()"), "top -> /sys/a/b");
	assert_string_equal(kt_str(L, "return readlink('/sys/c/to_b')"), "/sys/a/b");
	assert_string_equal(kt_str(L, "return readlink('top')"), "/sys/a/b");
	assert_string_equal(kt_str(L, "return select(2, readlink('/sys/c'))"),
			    "readlink: /sys/c: Invalid argument");
	/* Lookups go through the link. */
	kt_run(L, "x = new_kobj_attribute{ name = 'x', show = function() return 'via' end }\n"
		  "sysfs_create_file(b, x)");
	assert_string_equal(kt_str(L, "return cat('/sys/c/to_b/x')"), "via");
	/* Errors, as the kernel gives them. */
	assert_int_equal(kt_int(L, "return sysfs_create_link(c, b, 'to_b')"), -17);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "sysfs: cannot create duplicate filename '/c/to_b'");
	kt_run(L, "u = new_kobject()");
	assert_int_equal(kt_int(L, "return sysfs_create_link(c, u, 'x')"), -2);
	assert_int_equal(kt_int(L, "return sysfs_create_link(c, b, 'a/b')"), -22);
	/* The target goes: the link stays and leads nowhere. */
	kt_run(L, "kobject_del(b)");
	assert_contains(kt_str(L, "return tree('/sys/c')"), "to_b -> /sys/a/b (gone)");
	kt_run(L, "sysfs_remove_link(c, 'to_b'); sysfs_remove_link(nil, 'top')");
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/c'), ',')"), "");
	assert_string_equal(kt_str(L, "return select(2, readlink('/sys/c/to_b'))"),
			    "readlink: /sys/c/to_b: No such file or directory");
	kt_run(L, "kobject_put(b); kobject_put(a); kobject_put(c)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

/* Called straight from C, the attribute and uevent callbacks leave the main thread's
 * stack as they found it, whether they succeed or fail. */
static void test_callbacks_called_from_c_keep_the_stack_balanced(void **state)
{
	lua_State *L = *state;
	struct kobj_world *w = kobj_lua_world(L);
	char buf[64];

	kt_run(L, "ok = new_kobj_attribute{ name = 'ok', show = function() return 'fine' end,\n"
		  "  store = function() return -EINVAL end }\n"
		  "bad = new_kobj_attribute{ name = 'bad', show = function() error('x') end,\n"
		  "  store = function() error('y') end }\n"
		  "g = new_attribute_group{ name = 'g', attrs = { ok, bad },\n"
		  "  is_visible = function(k, a) if a == bad then error('z') end return true end }\n"
		  "bus = kset_create_and_add('bus', { uevent = function(k, env)\n"
		  "  env.A = 1 if k.name == 'bad' then error('w') end end }, nil)\n"
		  "dev = new_kobject(); dev.kset = bus\n"
		  "kobject_init_and_add(dev, new_ktype{ release = function() end,\n"
		  "  sysfs_ops = kobj_sysfs_ops }, nil, 'dev')\n"
		  "sysfs_create_file(dev, ok); sysfs_create_file(dev, bad)");
	lua_pushliteral(L, "sentinel");
	assert_int_equal(sysfs_read(w, "/sys/bus/dev/ok", buf, sizeof(buf)), 4);
	assert_string_equal(buf, "fine");
	assert_int_equal(sysfs_write(w, "/sys/bus/dev/ok", "v", 1), -EINVAL);
	assert_int_equal(sysfs_read(w, "/sys/bus/dev/bad", buf, sizeof(buf)), -EIO);
	assert_int_equal(sysfs_write(w, "/sys/bus/dev/bad", "v", 1), -EIO);
	struct kobject *kobj = sysfs_dirent_kobj(sysfs_lookup(w, "/sys/bus/dev"));
	assert_non_null(kobj);
	assert_int_equal((kobject_uevent)(kobj, KOBJ_ADD), 0);
	/* The rename is done; its "move" event fails in uevent(), which the rename ignores. */
	assert_int_equal((kobject_rename)(kobj, "bad"), 0);
	assert_int_equal(lua_gettop(L), 1);
	assert_string_equal(lua_tostring(L, 1), "sentinel");
	lua_pop(L, 1);
	kt_run(L, "sysfs_create_group(dev, g)");
	lua_pushliteral(L, "sentinel");
	assert_int_equal((sysfs_create_group)(kobj, NULL), -EINVAL);
	assert_int_equal(lua_gettop(L), 1);
	lua_pop(L, 1);
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/bus/bad/g'), ',')"), "ok");
	assert_int_equal(kt_int(L, "local n = 0 for _, d in ipairs(diagnostics()) do\n"
				   "  if d.tag == 'callback-error' then n = n + 1 end end return n"), 4);
	kt_run(L, "kobject_put(dev); kset_unregister(bus)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kobject_example_reads_and_writes_through_cat_and_echo, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_show_errors_and_missing_methods, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_modes_follow_verify_octal_permissions, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_attribute_and_group_handles, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_groups_named_and_hidden, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_files_need_a_directory_and_sysfs_ops, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_default_groups_with_kobj_sysfs_ops, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_links, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_callbacks_called_from_c_keep_the_stack_balanced, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
