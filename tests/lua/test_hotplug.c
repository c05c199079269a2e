/* hotplug_ops written in Lua: filter, name, hotplug, their failures, and the events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const prelude =
	"kt = new_ktype{ release = function() end }\n"
	"calls = {}\n"
	"ops = {\n"
	"  filter = function(kset, kobj) calls[#calls + 1] = 'filter ' .. kset.name .. ' ' .. kobj.name\n"
	"    return kobj.name ~= 'quiet' end,\n"
	"  name = function(kset, kobj) return 'usb' end,\n"
	"  hotplug = function(kset, kobj, env) env.PRODUCT = 'dead/beef'; env.ZED = 1\n"
	"    env[#env + 1] = 'FIRST=yes'; return 0 end,\n"
	"}\n"
	"bus = decl_subsys('bus', kt, ops)\n"
	"assert(subsystem_register(bus) == 0)\n"
	"function dev(name) local k = new_kobject(); kobject_set_name(k, name); k.kset = bus.kset\n"
	"  assert(kobject_register(k) == 0); return k end\n";

static void test_add_and_remove_send_events_built_by_lua(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = dev('mouse')\n"
		  "kobject_unregister(k)\n");
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 2);
	assert_string_equal(kt_str(L, "local e = hotplug_events()[1] return e.seqnum .. ' ' .. "
				      "e.action .. ' ' .. e.devpath .. ' ' .. e.subsystem"),
			    "0 add /bus/mouse usb");
	assert_string_equal(kt_str(L, "return table.concat(hotplug_events()[1].envp, ' ')"),
			    "HOME=/ PATH=/sbin:/bin:/usr/sbin:/usr/bin ACTION=add SEQNUM=0 "
			    "DEVPATH=/bus/mouse SUBSYSTEM=usb FIRST=yes PRODUCT=dead/beef ZED=1");
	assert_string_equal(kt_str(L, "return hotplug_events()[2].env.ACTION .. ' ' .. "
				      "hotplug_events()[2].env.PRODUCT"), "remove dead/beef");
	assert_string_equal(kt_str(L, "local e = hotplug_events()[2] return e.object .. ' ' .. "
				      "e.file .. ':' .. e.line"), "mouse lesson.lua:2");
	assert_string_equal(kt_str(L, "return calls[1]"), "filter bus mouse");
	assert_contains(kt_str(L, "return hotplug_text()"), "KERNEL[0] add    /bus/mouse (usb)");
}

static void test_filter_suppresses_events(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "q = dev('quiet'); q:unregister()");
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 0);
	assert_int_equal(kt_int(L, "return #calls"), 2);
}

static void test_hotplug_ops_can_change_and_go(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ops.name = nil; ops.hotplug = function() return -1 end\n"
		  "a = dev('a')\n"                       /* cancelled */
		  "ops.hotplug = nil\n"
		  "b = dev('b')\n"                       /* named after the kset */
		  "bus.hotplug_ops = nil\n"
		  "c = dev('c')\n");                     /* no ops: no event */
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 1);
	assert_string_equal(kt_str(L, "return hotplug_events()[1].subsystem .. ' ' .. "
				      "hotplug_events()[1].seqnum"), "bus 1");
	assert_true(kt_bool(L, "return bus.hotplug_ops == nil"));
	kt_run(L, "bus.hotplug_ops = { name = function() return 'back' end }\n"
		  "d = dev('d')");
	assert_string_equal(kt_str(L, "return hotplug_events()[2].subsystem"), "back");
}

static void test_failing_callbacks_are_reported(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ops.filter = function() error('filter broke') end\n"
		  "a = dev('a')\n"
		  "ops.filter = nil; ops.name = function() return {} end\n"
		  "b = dev('b')\n"
		  "ops.name = nil; ops.hotplug = function(kset, kobj, env) env.BAD = true end\n"
		  "c = dev('c')\n"
		  "ops.hotplug = function(kset, kobj, env) for i = 1, 40 do env['V' .. i] = i end end\n"
		  "d = dev('d')\n");
	assert_string_equal(kt_str(L, "local t = {} for _, e in ipairs(hotplug_events()) do "
				      "t[#t + 1] = e.devpath .. '=' .. e.subsystem end "
				      "return table.concat(t, ' ')"),
			    "/bus/b=bus");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 4);
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"kset 'bus': hotplug_ops.filter() for 'a' raised a Lua error: "
			"lesson.lua:1: filter broke");
	/* Noted where the call that sent the event was made: kobject_register in dev(). */
	assert_int_equal(kt_int(L, "return diagnostics()[1].line"), 13);
	assert_contains(kt_str(L, "return diagnostics()[2].message"),
			"name() must return a string or nil, got table");
	assert_contains(kt_str(L, "return diagnostics()[3].message"),
			"env.BAD must be a string or a number, got boolean");
	assert_contains(kt_str(L, "return diagnostics()[4].message"),
			"the variables do not fit in the 25 slots");
}

static void test_hotplug_ops_are_validated(void **state)
{
	lua_State *L = *state;
	assert_contains(kt_error(L, "decl_subsys('x', nil, { filtr = print })"),
			"hotplug_ops: unknown field 'filtr' (fields: filter, name, hotplug)");
	assert_contains(kt_error(L, "decl_subsys('x', nil, { name = 'usb' })"),
			"hotplug_ops.name must be a function, got string");
	assert_contains(kt_error(L, "decl_subsys('x', nil, 5)"),
			"bad argument #3 to 'decl_subsys' (table expected, got number)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_and_remove_send_events_built_by_lua, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_filter_suppresses_events, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_hotplug_ops_can_change_and_go, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_failing_callbacks_are_reported, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_hotplug_ops_are_validated, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
