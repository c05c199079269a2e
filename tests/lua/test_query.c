/* The lesson queries: log, diagnostics, leaks, objects, the sysfs views and reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const scene =
	"kt = new_ktype{ release = function() end }\n"
	"bus = decl_subsys('bus', kt)\n"
	"subsystem_register(bus)\n"
	"k = new_kobject(); kobject_set_name(k, 'k'); k.kset = bus.kset\n"
	"kobject_register(k)\n"
	"kobject_get(k)\n";

static void test_log_lists_events_with_counts_and_origins(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	assert_string_equal(kt_str(L, "local t = {} for _, e in ipairs(log()) do t[#t + 1] = "
				      "e.seq .. ':' .. e.kind .. ':' .. e.op .. ':' .. e.object .. ':' .. "
				      "e.before .. '>' .. e.after .. ':' .. (e.holder or '-') .. '@' .. e.line "
				      "end return table.concat(t, ' ')"),
			    "1:init:subsystem_register:bus:0>1:-@3 "
			    "2:get:subsystem_register:bus:1>2:bus@3 "
			    "3:add:subsystem_register:bus:2>2:-@3 "
			    "4:init:kobject_register:k:0>1:-@5 "
			    "5:get:kobject_register:k:1>2:k@5 "
			    "6:get:kobject_register:bus:2>3:k@5 "
			    "7:get:kobject_register:bus:3>4:k@5 "
			    "8:add:kobject_register:k:2>2:-@5 "
			    "9:get:kobject_get:k:2>3:-@6");
	assert_int_equal(kt_int(L, "return #log(2)"), 2);
	assert_int_equal(kt_int(L, "return log(2)[1].seq"), 8);
	assert_int_equal(kt_int(L, "return #log(100)"), 9);
	assert_string_equal(kt_str(L, "return log()[1].file"), "lesson.lua");
	assert_int_equal(kt_int(L, "return log()[6].holder_id * 10 + log()[6].id"), 21);
	assert_contains(kt_str(L, "return log_text(1)"), "lesson.lua:6");
	assert_contains(kt_str(L, "return log_text()"), "kobject_register");
	assert_contains(kt_error(L, "log(-1)"), "bad argument #1 to 'log' (a count of events");
}

static void test_log_marks_diagnostics_and_hotplug(void **state)
{
	lua_State *L = *state;
	kt_run(L, "bus = decl_subsys('bus', nil, {})\n"
		  "bus:register()\n"
		  "k = new_kobject(); k:set_name('x'); k.kset = bus.kset; k:register()\n"
		  "k:register()\n");
	assert_string_equal(kt_str(L, "for _, e in ipairs(log()) do if e.kind == 'hotplug' then "
				      "return e.op .. ' ' .. e.action .. ' ' .. e.devpath end end"),
			    "kobject_register add /bus/x");
	assert_string_equal(kt_str(L, "for _, e in ipairs(log()) do if e.kind == 'diag' then "
				      "return e.tag end end"),
			    "init-twice");
}

static void test_diagnostics_carry_message_explanation_and_origin(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); k:set_name('k'); k:init()\n"
		  "k:init()\n");
	assert_string_equal(kt_str(L, "local d = diagnostics()[1] return d.tag .. '|' .. "
				      "d.object .. '|' .. d.id .. '|' .. d.file .. ':' .. d.line"),
			    "init-twice|k|1|lesson.lua:2");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"tried to init an initialized object");
	assert_contains(kt_str(L, "return diagnostics()[1].explanation"),
			"was already initialised at lesson.lua:1");
	assert_int_equal(kt_int(L, "return diagnostics()[1].seq"), 2);
	assert_contains(kt_str(L, "return diag_text()"), "tried to init an initialized object");
}

static void test_leaks_explain_each_outstanding_reference(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	assert_string_equal(kt_str(L, "local t = {} for _, l in ipairs(leaks()) do "
				      "t[#t + 1] = l.kind .. ' ' .. l.name .. ' ' .. l.refcount .. ' ' .. "
				      "#l.refs end return table.concat(t, ', ')"),
			    "subsystem bus 4 4, kobject k 3 3");
	assert_string_equal(kt_str(L, "local t = {} for _, r in ipairs(leaks()[2].refs) do "
				      "t[#t + 1] = r.text end return table.concat(t, '\\n')"),
			    "the creator's, taken at lesson.lua:5 by kobject_register, never put\n"
			    "its sysfs registration, taken at lesson.lua:5 by kobject_register "
			    "(kobject_del() drops it), never deleted\n"
			    "get, taken at lesson.lua:6 by kobject_get, never put");
	assert_string_equal(kt_str(L, "return leaks()[1].refs[3].text"),
			    "parent of 'k', taken at lesson.lua:5 by kobject_register, held by 'k', "
			    "which is not released either");
	assert_string_equal(kt_str(L, "local r = leaks()[1].refs[3] return r.holder .. r.holder_id "
				      ".. r.op .. r.line"), "k2kobject_register5");
	kt_run(L, "kobject_put(k); kobject_unregister(k); subsystem_unregister(bus)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
	assert_contains(kt_str(L, "return leak_report()"), "No leaks");
}

static void test_leaks_pair_puts_as_the_leak_report_does(void **state)
{
	lua_State *L = *state;
	kt_run(L, "local t = new_ktype{name='t', release=function() end}\n"
		  "k = new_kobject({}); kobject_init(k); kobject_set_name(k, 'x'); k.ktype = t\n"
		  "kobject_add(k); kobject_get(k); kobject_unregister(k)\n");
	/* the unregister gave back the creator's reference: the get is the one left */
	assert_string_equal(kt_str(L, "return leaks()[1].refs[1].text"),
			    "get, taken at lesson.lua:3 by kobject_get, never put");
	assert_int_equal(kt_int(L, "return #leaks()[1].refs"), 1);
	assert_contains(kt_str(L, "return leak_report()"),
			"get, taken at lesson.lua:3 by kobject_get, never put");
}

static void test_module_users_are_leaks_too(void **state)
{
	lua_State *L = *state;
	kt_run(L, "m = module_load('m')\n"
		  "try_module_get(m)\n");
	assert_string_equal(kt_str(L, "local l = leaks()[1] return l.kind .. ' ' .. l.name .. ' ' .. "
				      "l.refs[1].text"),
			    "module m module user, taken at lesson.lua:2 by try_module_get, never put");
}

static void test_objects_lists_every_record(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	kt_run(L, "j = new_kobject(); j:set_name('j'); j:init(); j:put()");
	assert_string_equal(kt_str(L, "local t = {} for _, o in ipairs(objects()) do "
				      "t[#t + 1] = o.id .. o.kind .. o.name .. o.state .. o.refcount .. "
				      "(o.parent or '-') .. (o.kset or '-') end return table.concat(t, ' ')"),
			    "1subsystembusin sysfs4-- 2kobjectkin sysfs311 3kobjectjreleased0--");
	assert_true(kt_bool(L, "local o = objects()[3] return o.no_release and "
			       "o.release_line == 1 and o.line == 1"));
}

static void test_sysfs_views(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	assert_string_equal(kt_str(L, "return table.concat(ls(), ',') .. ' ' .. "
				      "table.concat(ls('/sys/bus'), ',')"), "bus k");
	assert_int_equal(kt_int(L, "return #ls('/sys/bus/k')"), 0);
	assert_string_equal(kt_str(L, "return select(2, ls('/sys/nope'))"),
			    "ls: /sys/nope: No such file or directory");
	assert_string_equal(kt_str(L, "return tree()"),
			    "/sys\n"
			    "└── bus  [subsystem, refcount 4]\n"
			    "    └── k  [refcount 3]\n");
	assert_string_equal(kt_str(L, "return tree('/sys/bus/k')"), "/sys/bus/k  [refcount 3]\n");
	assert_string_equal(kt_str(L, "return select(3, tree('/sys/x'))"), "-2");
	assert_contains(kt_error(L, "cat()"), "bad argument #1 to 'cat' (string expected, got no "
					      "value)");
	assert_contains(kt_error(L, "echo('/sys/bus')"), "bad argument #2 to 'echo'");
}

static void test_fail_alloc_injects_a_failure(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); k:init()\n"
		  "fail_alloc(1)\n"
		  "r = kobject_set_name(k, 'a-name-long-enough-to-allocate')\n");
	assert_int_equal(kt_int(L, "return r"), -12);
	assert_contains(kt_error(L, "fail_alloc(-1)"), "bad argument #1 to 'fail_alloc'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_log_lists_events_with_counts_and_origins, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_log_marks_diagnostics_and_hotplug, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_diagnostics_carry_message_explanation_and_origin, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_leaks_explain_each_outstanding_reference, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_leaks_pair_puts_as_the_leak_report_does, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_module_users_are_leaks_too, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_objects_lists_every_record, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_sysfs_views, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fail_alloc_injects_a_failure, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
