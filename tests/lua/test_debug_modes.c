/*
 * The kernel's debug options from Lua: DEBUG_KOBJECT's trace of each lifecycle step
 * (kernel_log, dmesg), DEBUG_KOBJECT_RELEASE's delayed release on the virtual clock
 * (advance), what using an object during the delay reports, and handles that go stale
 * only when the release finally runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const prelude =
	"released = {}\n"
	"kt = new_ktype{ release = function(k)\n"
	"  released[#released + 1] = k.name .. ' ' .. k.state end }\n"
	"function texts() local t = {} for _, l in ipairs(kernel_log()) do\n"
	"  t[#t + 1] = l.text:gsub(('%x'):rep(16), '%%p') end return table.concat(t, '\\n') end\n";

static void test_debug_kobject_traces_each_step(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	assert_false(kt_bool(L, "return debug_kobject(true)"));
	assert_true(kt_bool(L, "return debug_kobject()"));
	kt_run(L, "p = new_kobject(); kobject_init(p, kt); kobject_add(p, nil, 'p')\n"
		  "c = new_kobject(); kobject_init_and_add(c, kt, p, 'c')\n"
		  "kobject_put(c); kobject_put(p)");
	assert_string_equal(kt_str(L, "return texts()"),
			    "kobject: 'p' (%p): kobject_add_internal: parent: '<NULL>', set: '<NULL>'\n"
			    "kobject: 'c' (%p): kobject_add_internal: parent: 'p', set: '<NULL>'\n"
			    "kobject: 'c' (%p): kobject_cleanup, parent %p\n"
			    "kobject: 'c' (%p): auto cleanup kobject_del\n"
			    "kobject: 'c' (%p): calling ktype release\n"
			    "kobject: 'c': free name\n"
			    "kobject: 'p' (%p): kobject_cleanup, parent %p\n"
			    "kobject: 'p' (%p): auto cleanup kobject_del\n"
			    "kobject: 'p' (%p): calling ktype release\n"
			    "kobject: 'p': free name");
	assert_string_equal(kt_str(L, "local l = kernel_log()[3]\n"
				      "return l.level .. ' ' .. l.object .. ' ' .. l.id .. ' ' .. l.tick"),
			    "debug c 2 0");
	assert_int_equal(kt_int(L, "return #kernel_log(2)"), 2);
	assert_string_equal(kt_str(L, "return dmesg(1)"), "[    0.000000] kobject: 'p': free name\n");
	/* The article's objects log nothing: 2.6.0 compiled its pr_debugs out. */
	kt_run(L, "n = #kernel_log()\n"
		  "a = new_kobject(); a.ktype = kt; a.name = 'a'; a:register(); a:unregister()");
	assert_int_equal(kt_int(L, "return #kernel_log() - n"), 0);
	/* Off: nothing more. pr_debug needs it on; pr_info does not. */
	assert_true(kt_bool(L, "return debug_kobject(false)"));
	kt_run(L, "n = #kernel_log()\n"
		  "d = kobject_create_and_add('d', nil); kobject_put(d)\n"
		  "pr_debug('hidden %d', 1); pr_info('shown %d', 2); pr_err('e'); pr_warn('w')");
	assert_string_equal(kt_str(L, "local t = {} for i = n + 1, #kernel_log() do\n"
				      "  local l = kernel_log()[i] t[#t + 1] = l.level .. ':' .. l.text end\n"
				      "return table.concat(t, ',')"),
			    "info:shown 2,err:e,warning:w");
	assert_string_equal(kt_str(L, "local l = kernel_log(1)[1] return l.file .. ':' .. l.line"),
			    "lesson.lua:3");
	assert_contains(kt_error(L, "debug_kobject(1)"),
			"bad argument #1 to 'debug_kobject' (boolean expected, got number)");
	/* The settings belong to the world. */
	kt_run(L, "debug_kobject(true); reset()");
	assert_false(kt_bool(L, "return debug_kobject()"));
	assert_int_equal(kt_int(L, "return #kernel_log()"), 0);
}

static void test_a_delayed_release_runs_when_the_clock_reaches_it(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	assert_false(kt_bool(L, "return debug_kobject_release(true, 150)"));
	kt_run(L, "k = new_kobject(); kobject_init(k, kt); kobject_add(k, nil, 'k')\n"
		  "kobject_put(k)");
	/* Count 0, still in sysfs, not released; the handle still answers. */
	assert_string_equal(kt_str(L, "return k.state .. ' ' .. k.refcount .. ' ' .. k.path"),
			    "release pending 0 /sys/k");
	assert_string_equal(kt_str(L, "return tostring(k)"),
			    "kobject 'k' refcount=0 release pending /sys/k");
	assert_int_equal(kt_int(L, "return pending_releases()"), 1);
	assert_int_equal(kt_int(L, "return #released"), 0);
	assert_string_equal(kt_str(L, "return texts()"),
			    "kobject: 'k' (%p): kobject_release, parent %p (delayed 150)");
	assert_string_equal(kt_str(L, "return kernel_log()[1].level"), "info");
	/* Code that assumed the put freed it at once: the name is still taken. */
	kt_run(L, "again = new_kobject(); kobject_init(again, kt)");
	assert_int_equal(kt_int(L, "return kobject_add(again, nil, 'k')"), -17);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].tag"), "duplicate-name");
	assert_int_equal(kt_int(L, "return advance(149)"), 0);
	assert_int_equal(kt_int(L, "return jiffies()"), 149);
	assert_int_equal(kt_int(L, "return advance(1)"), 1);
	assert_string_equal(kt_str(L, "return table.concat(released, ',')"), "k released");
	assert_contains(kt_error(L, "return k.path"),
			"reading path: 'k' was released at lesson.lua:2; this handle is stale");
	assert_int_equal(kt_int(L, "return pending_releases()"), 0);
	assert_int_equal(kt_int(L, "return kobject_add(again, nil, 'k')"), 0);
	assert_true(kt_bool(L, "return debug_kobject_release(false)"));
	kt_run(L, "kobject_put(again)");
	assert_string_equal(kt_str(L, "return again.state"), "released");
	assert_contains(kt_error(L, "advance(-1)"), "bad argument #1 to 'advance'");
	assert_int_equal(kt_int(L, "return jiffies_advance(0)"), 0);
}

static void test_using_an_object_during_the_delay_is_reported(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "debug_kobject_release(true, 100)\n"
		  "k = new_kobject(); kobject_init(k, kt); kobject_add(k, nil, 'k')\n"
		  "kobject_put(k)\n"
		  "got = kobject_get(k)");
	/* The kernel's line, and why: the release is only delayed. */
	assert_true(kt_bool(L, "return got == k"));
	assert_string_equal(kt_str(L, "local d = diagnostics()[1] return d.tag .. '|' .. d.message"),
			    "get-released|refcount_t: addition on 0; use-after-free.");
	assert_contains(kt_str(L, "return diagnostics()[1].explanation"),
			"its release is only delayed (DEBUG_KOBJECT_RELEASE)");
	assert_int_equal(kt_int(L, "return k.refcount"), -1073741824);
	/* get_unless_zero is the lookup that gets this right. */
	kt_run(L, "m = new_kobject(); kobject_init(m, kt); kobject_add(m, nil, 'm'); kobject_put(m)");
	assert_true(kt_bool(L, "return kobject_get_unless_zero(m) == nil"));
	kt_run(L, "kobject_put(m)");
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "refcount_t: underflow; use-after-free.");
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].explanation"),
			"its release is queued (DEBUG_KOBJECT_RELEASE): this put is one too many");
	/* The releases run when due, saturated or not, and the handles go stale then. */
	assert_int_equal(kt_int(L, "return advance(100)"), 2);
	assert_string_equal(kt_str(L, "return k.state .. ' ' .. m.state"), "released released");
	assert_string_equal(kt_str(L, "return table.concat(released, ',')"),
			    "k released,m released");
}

static void test_dynamic_objects_under_delayed_release(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "debug_kobject_release(true, 100)\n"
		  "p = kobject_create_and_add('p', kernel_kobj)\n"
		  "c = kobject_create_and_add('c', p)\n"
		  "kobject_put(p); kobject_put(c)");
	assert_string_equal(kt_str(L, "return p.state .. ',' .. c.state"), "in sysfs,release pending");
	/* The parent waits for its child: its release is queued when the child's runs, at
	 * tick 100, so it is due at tick 200, whatever steps the clock is moved by. */
	assert_int_equal(kt_int(L, "return advance(150)"), 1);
	assert_string_equal(kt_str(L, "return p.state .. ',' .. c.state"),
			    "release pending,released");
	assert_int_equal(kt_int(L, "return advance(49)"), 0);
	assert_int_equal(kt_int(L, "return advance(1)"), 1);
	assert_string_equal(kt_str(L, "return p.state"), "released");
	kt_run(L, "debug_kobject_release(true, 100)\n"
		  "p = kobject_create_and_add('p', kernel_kobj)\n"
		  "c = kobject_create_and_add('c', p)\n"
		  "kobject_put(p); kobject_put(c)");
	assert_int_equal(kt_int(L, "return advance(1000)"), 2); /* at 300 and 400 */
	assert_contains(kt_str(L, "return dmesg()"), "kobject: 'c' (");
	assert_contains(kt_str(L, "return dmesg()"), "): kobject_release, parent ");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_reset_and_close_with_releases_pending(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "debug_kobject_release(true)\n"
		  "k = new_kobject(); kobject_init(k, kt); kobject_add(k, nil, 'k'); kobject_put(k)\n"
		  "d = kobject_create_and_add('d', nil); kobject_put(d)\n"
		  "bad = new_ktype{ release = function() error('must not run') end }\n"
		  "b = new_kobject(); kobject_init(b, bad); kobject_put(b)");
	assert_int_equal(kt_int(L, "return pending_releases()"), 3);
	/* The world goes: the releases run in C, no Lua method is called. */
	kt_run(L, "reset()");
	assert_int_equal(kt_int(L, "return #released"), 0);
	assert_int_equal(kt_int(L, "return #diagnostics() + pending_releases()"), 0);
	/* Closing the state with releases pending (the teardown frees them). */
	kt_run(L, prelude);
	kt_run(L, "debug_kobject_release(true)\n"
		  "k = new_kobject(); kobject_init(k, kt); kobject_add(k, nil, 'k'); kobject_put(k)\n"
		  "d = kobject_create_and_add('d', nil); kobject_put(d)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_debug_kobject_traces_each_step, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_delayed_release_runs_when_the_clock_reaches_it, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_using_an_object_during_the_delay_is_reported, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_dynamic_objects_under_delayed_release, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_reset_and_close_with_releases_pending, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
