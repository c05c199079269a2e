/*
 * Bad input gets a clear Lua error naming what was wrong, and nothing a script does
 * crashes the process: every function and field is called with every kind of value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static void test_arguments_are_named_in_errors(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); ks = new_kset('s'); kt = new_ktype()");
	assert_string_equal(kt_error(L, "kobject_init(5)"),
			    "lesson.lua:1: bad argument #1 to 'kobject_init' (kobject expected, "
			    "got number)");
	assert_contains(kt_error(L, "kobject_add({})"),
			"bad argument #1 to 'kobject_add' (kobject expected, got table)");
	assert_contains(kt_error(L, "kobject_put(kt)"),
			"bad argument #1 to 'kobject_put' (kobject expected, got kobj_type)");
	assert_contains(kt_error(L, "new_kobject(5)"),
			"bad argument #1 to 'new_kobject' (table expected, got number)");
	assert_contains(kt_error(L, "new_kobject({}, {})"),
			"bad argument #2 to 'new_kobject' (string expected, got table)");
	assert_contains(kt_error(L, "kset_find_obj(ks)"),
			"bad argument #2 to 'kset_find_obj' (string expected, got no value)");
	assert_contains(kt_error(L, "module_load()"), "bad argument #1 to 'module_load'");
	assert_contains(kt_error(L, "k.add()"), "bad argument #1 to 'add' (kobject expected, "
						"got no value)");
	assert_contains(kt_error(L, "local add = k.add; add(ks)"), "kobject expected, got kset");
	assert_contains(kt_error(L, "k.ktype = ks"), "kobj_type expected, got kset");
}

static const char *const fuzz =
	"local kt = new_ktype{ release = function() end, sysfs_ops = {\n"
	"  show = function() return 'x' end, store = function() return 1 end },\n"
	"  default_attrs = { 'a' } }\n"
	"local live = new_kobject(); live.ktype = kt; live:set_name('live'); live:register()\n"
	"local stale = new_kobject(); stale.ktype = kt; stale:init(); stale:put()\n"
	"local bus = decl_subsys('bus', kt, { filter = function() return true end })\n"
	"bus:register()\n"
	"local ks = new_kset{ name = 'ks', subsys = bus }\n"
	"local m = module_load('m')\n"
	"local attr = new_kobj_attribute{ name = 'fa', show = function() return 'x' end,\n"
	"  store = function() return -22 end }\n"
	"local grp = new_attribute_group{ name = 'fg', attrs = { attr },\n"
	"  is_visible = function() return true end }\n"
	"local env\n"
	"local dks = kset_create_and_add('dks', { uevent = function(k, e) env = e end }, nil)\n"
	"local dyn = kobject_create_and_add('dyn', kernel_kobj)\n"
	"local member = new_kobject(); member.kset = dks\n"
	"kobject_init_and_add(member, kt, nil, 'member'); kobject_uevent(member, KOBJ_ADD)\n"
	"local sdyn = kobject_create_and_add('sdyn', nil); kobject_put(sdyn)\n"
	"local ref = new_kref()\n"
	"local handles = { live, stale, bus, bus.kset, ks, kt, m, ks.kobj, attr, grp, dks, dyn,\n"
	"  sdyn, member, ref, env, kobj_sysfs_ops }\n"
	"local values = { n = 14, nil, 0, -1, 2^40, 0.5, '', '/sys/live/a', '%s%d%n', {},\n"
	"  true, print, coroutine.create(print), io.stdout, live, stale, bus, bus.kset, ks,\n"
	"  kt, m, ks.kobj, attr, grp, dks, dyn, sdyn, member, ref, env, kobj_sysfs_ops,\n"
	"  kernel_kobj, 'add', { attr }, { grp }, { 'A=b' }, '0644' }\n"
	"local skip = { reset = true, explore = true, replay = true } -- a world each run\n"
	"local names = {}\n"
	"for name in pairs(kobject) do names[#names + 1] = name end\n"
	"table.sort(names)\n"
	"local calls, failures = 0, 0\n"
	"for _, name in ipairs(names) do\n"
	"  local f = kobject[name]\n"
	"  if type(f) == 'function' and not skip[name] then\n"
	"    for i = 1, #values + 1 do\n"
	"      for j = 1, #values + 1, 3 do\n"
	"        local ok = pcall(f, values[i], values[j], values[i])\n"
	"        calls = calls + 1\n"
	"        if not ok then failures = failures + 1 end\n"
	"        fail_alloc(0)\n"
	"      end\n"
	"    end\n"
	"  end\n"
	"end\n"
	"local keys = { 'name', 'refcount', 'parent', 'kset', 'ktype', 'state', 'path', 'id',\n"
	"  'kobj', 'subsys', 'list', 'hotplug_ops', 'release', 'sysfs_ops', 'default_attrs',\n"
	"  'get', 'put', 'nope', 1, true, 'uevent_ops', 'default_groups', 'mode', 'show',\n"
	"  'store', 'attrs', 'is_visible', 'add', 'init', 'ACTION' }\n"
	"for _, h in ipairs(handles) do\n"
	"  for _, key in ipairs(keys) do\n"
	"    pcall(function() return h[key] end)\n"
	"    for i = 1, #values + 1 do pcall(function() h[key] = values[i] end) end\n"
	"    pcall(tostring, h)\n"
	"    pcall(function() return #h end)\n"
	"    pcall(function() return h:get() end)\n"
	"  end\n"
	"end\n"
	"for _, path in ipairs{ '/sys/dks/member', '/sys/kernel/dyn', '/sys/live/a' } do\n"
	"  for _, name in ipairs(ls(path) or {}) do\n"
	"    pcall(cat, path .. '/' .. name); pcall(echo, path .. '/' .. name, '1')\n"
	"  end\n"
	"end\n"
	"advance(1000); collectgarbage()\n"
	"return calls\n";

static void test_nothing_crashes_on_any_value(void **state)
{
	lua_State *L = *state;
	assert_true(kt_int(L, fuzz) > 1000);
	/* The world is still consistent and usable afterwards. */
	kt_run(L, "collectgarbage()\n"
		  "local t = tree(); local l = leaks(); local d = diagnostics()\n"
		  "assert(type(t) == 'string' and #d > 0)\n"
		  "local k = new_kobject(); k:set_name('after'); k:init(); k:put()");
	kt_run(L, "reset(); assert(#objects() == 0)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_arguments_are_named_in_errors, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_nothing_crashes_on_any_value, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
