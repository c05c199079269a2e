/*
 * Simulated threads from Lua: explore() finds the lookup race and replay() repeats it,
 * the fixed lookup passes every schedule in fewer runs than naive enumeration, callbacks
 * run on the thread that caused them, run_threads() follows a schedule, locks of a
 * program's own deadlock, and every misuse is refused with a message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

/* A kset with a member, and the two lookups: one takes its reference after unlocking,
 * the other under the lock with kobject_get_unless_zero. */
static const char scene[] =
	"function setup()\n"
	"  local kt = new_ktype{ release = function(k) released_by = current_thread() end }\n"
	"  local kset = kset_create_and_add('things', nil, kernel_kobj)\n"
	"  local t = new_kobject()\n"
	"  t.kset = kset\n"
	"  kobject_init_and_add(t, kt, nil, 'thing')\n"
	"  return kset, t\n"
	"end\n"
	"local function find(kset, name)\n"
	"  for _, k in ipairs(kset.list) do if k.name == name then return k end end\n"
	"end\n"
	"function late_get(kset)\n"
	"  spin_lock(kset)\n"
	"  local found = find(kset, 'thing')\n"
	"  spin_unlock(kset)\n"
	"  local k = found and kobject_get(found)\n"
	"  if k then kobject_put(k) end\n"
	"end\n"
	"function get_under_lock(kset)\n"
	"  spin_lock(kset)\n"
	"  local found = find(kset, 'thing')\n"
	"  local k = found and kobject_get_unless_zero(found)\n"
	"  spin_unlock(kset)\n"
	"  if k then kobject_put(k) end\n"
	"end\n"
	"function last_put(kset, t) kobject_put(t) end\n"
	"function teardown(kset) kset_unregister(kset) end\n";

static void test_explore_finds_and_replays_the_race(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	kt_run(L, "r = explore{ setup = setup, late_get, last_put, teardown = teardown }");
	assert_false(kt_bool(L, "return r.ok"));
	assert_contains(kt_str(L, "return r.failure"),
			"[get-released] refcount_t: addition on 0; use-after-free.\n"
			"  -> lesson.lua:16: kobject_get() at lesson.lua:16 asked for a reference "
			"to 'thing'");
	assert_string_equal(kt_str(L, "return r.schedule"), "11112");
	assert_true(kt_int(L, "return r.schedules") < 10);
	assert_true(kt_int(L, "return r.naive") > 100);
	/* the failing run is the world explore() leaves; replay() makes it again */
	assert_int_equal(kt_int(L, "return #diagnostics()"), 1);
	kt_run(L, "again = replay(r.schedule)");
	assert_false(kt_bool(L, "return again.ok"));
	assert_true(kt_bool(L, "return again.failure == r.failure"));
	assert_string_equal(kt_str(L, "return again.schedule"), "11112");
	assert_int_equal(kt_int(L, "return released_by"), 2);
	/* the log has each thread's events */
	assert_true(kt_bool(L, "local seen = {}\n"
			       "for _, e in ipairs(log()) do\n"
			       "  if e.kind == 'sched' then seen[e.thread] = true end\n"
			       "end\n"
			       "return seen[1] and seen[2]"));
	/* by the rule, thread 1 runs to its end first, and nothing goes wrong */
	assert_true(kt_bool(L, "return replay('1').ok"));
}

static void test_the_fixed_lookup_passes_every_schedule(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	kt_run(L, "r = explore{ setup = setup, get_under_lock, last_put, teardown = teardown }\n"
		  "n = explore{ setup = setup, get_under_lock, last_put, teardown = teardown,\n"
		  "             reduce = false }");
	assert_true(kt_bool(L, "return r.ok and r.complete and r.schedule == nil"));
	assert_true(kt_bool(L, "return n.ok and n.complete"));
	assert_true(kt_bool(L, "return r.schedules < n.schedules"));
	assert_true(kt_bool(L, "return r.schedules * 5 < n.schedules"));
}

static void test_a_preemption_bound_limits_the_search(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	assert_true(kt_bool(L, "return explore{ setup = setup, late_get, last_put,\n"
			       "  teardown = teardown, preemptions = 0 }.ok"));
	assert_false(kt_bool(L, "return explore{ setup = setup, late_get, last_put,\n"
				"  teardown = teardown, preemptions = 1 }.ok"));
}

static void test_failures_other_than_diagnostics(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	/* a thread's error, with the line */
	assert_contains(kt_str(L, "return explore(setup, function() error('boom') end).failure"),
			"thread 1 raised an error: lesson.lua:1: boom");
	/* objects left behind, unless leaks = false */
	assert_contains(kt_str(L, "return explore(setup, last_put).failure"),
			"never released: 'things' (refcount 1)");
	assert_true(kt_bool(L, "return explore{ setup = setup, last_put, leaks = false }.ok"));
	/* check() returning false, or a message */
	assert_string_equal(kt_str(L, "return explore{ setup = setup, last_put, teardown = "
				      "teardown, check = function() return false end }.failure"),
			    "check() returned false");
	assert_string_equal(kt_str(L, "return explore{ setup = setup, last_put, teardown = "
				      "teardown, check = function() return false, 'x' end "
				      "}.failure"),
			    "check() failed: x");
	/* allowed diagnostics */
	assert_true(kt_bool(L, "return explore{ setup = setup, teardown = teardown,\n"
			       "  function(kset, t) kobject_put(t); kobject_put(t) end,\n"
			       "  allow = { 'double-put' } }.ok"));
}

static void test_all_collects_every_failure(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	kt_run(L, "r = explore{ setup = setup, late_get, last_put, teardown = teardown,\n"
		  "             all = true }");
	assert_true(kt_bool(L, "return r.complete and #r.failures >= 1 and r.failing >= 1"));
	assert_contains(kt_str(L, "return r.failures[1]"), "[get-released]");
}

static void test_spawn_and_run_threads_follow_a_schedule(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	kt_run(L, "kset, t = setup()\n"
		  "order = {}\n"
		  "local function note(n) order[#order + 1] = n end\n"
		  "spawn(function(n) note(n); kobject_get(t); note(n); kobject_put(t) end, 1)\n"
		  "assert(spawn(function() note(2); kobject_get(t); note(2); kobject_put(t) end) == 2)\n"
		  "r = run_threads('12')");
	/* thread 1 to its first call, then thread 2 to its end, then thread 1 */
	assert_string_equal(kt_str(L, "return table.concat(order)"), "1221");
	assert_true(kt_bool(L, "return r.ok and r.schedule == '12' and r.steps > 4"));
	/* the world stays: the threads' references are back */
	assert_int_equal(kt_int(L, "return t.refcount"), 1);
	assert_contains(kt_error(L, "run_threads()"), "run_threads: no thread to run");
	assert_contains(kt_error(L, "spawn(function() error('late') end); run_threads()"),
			"run_threads: thread 1 raised an error: lesson.lua:1: late");
	/* kobj --schedule: what run_threads follows by default */
	assert_null(kobj_lua_set_schedule(L, "21"));
	kt_run(L, "order = {}\n"
		  "spawn(function() order[#order + 1] = 1 end)\n"
		  "spawn(function() order[#order + 1] = 2 end)\n"
		  "run_threads()");
	assert_string_equal(kt_str(L, "return table.concat(order)"), "21");
	assert_non_null(kobj_lua_set_schedule(L, "1x"));
	assert_null(kobj_lua_set_schedule(L, NULL));
}

static void test_a_thread_that_loops_until_another_acts(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	kt_run(L, "kset, t = setup()\n"
		  "local flag = false\n"
		  "spawn(function() while not flag do kobject_put(kobject_get(t)) end end)\n"
		  "spawn(function() flag = true end)\n"
		  "r = run_threads()");
	/* by the rule thread 1 would spin forever; after a while it lets thread 2 run */
	assert_true(kt_bool(L, "return r.ok and r.steps > 1000 and r.steps < 1100"));
	assert_true(kt_bool(L, "return #r.schedule > 1000"));
	assert_contains(kt_str(L, "return explore{ setup = function() local k, t = setup() return k, t, {} end,\n"
				  "  function(kset, t, flag)\n"
				  "    while not flag.up do kobject_put(kobject_get(t)) end\n"
				  "  end, function(kset, t, flag) flag.up = true end,\n"
				  "  teardown = teardown }.failure"),
			"the run took more than 10000 steps: a thread that loops until another "
			"one acts?");
}

static void test_locks_of_their_own_deadlock(void **state)
{
	lua_State *L = *state;
	kt_run(L, "r = explore(function() return new_spinlock(), new_spinlock() end,\n"
		  "  function(a, b) spin_lock(a); spin_lock(b); spin_unlock(b); spin_unlock(a) end,\n"
		  "  function(a, b) spin_lock(b); spin_lock(a); spin_unlock(a); spin_unlock(b) end)");
	assert_contains(kt_str(L, "return r.failure"),
			"[deadlock] INFO: task thread");
	assert_contains(kt_str(L, "return r.failure"), "spin_lock() at lesson.lua:");
	assert_string_equal(kt_str(L, "return tostring(new_spinlock())"), "spinlock (free)");
	kt_run(L, "reset()\n"
		  "s = decl_subsys('bus', new_ktype{ release = function() end })\n"
		  "subsystem_register(s)\n"
		  "assert(down_read(s) == 0)\n"
		  "assert(down_read(s) == -EDEADLK) -- lockdep: already held\n"
		  "up_read(s)\n"
		  "subsystem_unregister(s)");
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "recursive-lock");
}

static void test_misuse_is_refused(void **state)
{
	lua_State *L = *state;
	kt_run(L, scene);
	assert_contains(kt_error(L, "explore(setup)"),
			"explore: give 1 to 8 thread functions, not 0");
	assert_contains(kt_error(L, "explore(setup, 42)"),
			"explore: thread 1 must be a function, not a number");
	assert_contains(kt_error(L, "explore{ setup = setup, last_put, speed = 2 }"),
			"explore: unknown option 'speed'");
	assert_contains(kt_error(L, "explore{ last_put, preemptions = -1 }"),
			"explore: preemptions must be an integer of 0 or more");
	assert_contains(kt_str(L, "return explore(setup, function() explore(setup, last_put) "
				  "end).failure"),
			"explore: threads are running already");
	assert_contains(kt_error(L, "replay('12', setup, last_put)"),
			"replay: schedule '12' names a thread that does not exist (this program "
			"has 1 thread)");
	assert_contains(kt_error(L, "spin_lock(42)"),
			"spin_lock: give a kset (its list_lock) or a lock from new_spinlock(), "
			"not a number");
	assert_contains(kt_error(L, "down_write({})"), "down_write: give a subsystem");
	assert_contains(kt_error(L, "spawn('f')"), "spawn: give the thread's function");
	assert_contains(kt_error(L, "kt = new_ktype{}\n"
				    "explore(function() local k = new_kobject(); "
				    "kobject_init(k, kt) end, last_put)"),
			"make what the threads use, ktypes included, in setup()");
}

static void test_replay_needs_a_program(void **state)
{
	lua_State *L = *state;
	assert_contains(kt_error(L, "replay('1')"), "replay: nothing to replay");
	kt_run(L, scene);
	kt_run(L, "r = replay('2', { setup = setup, late_get, last_put, teardown = teardown })");
	assert_true(kt_bool(L, "return r.ok"));
	assert_contains(kt_str(L, "return replay('1111111111111111', { setup = setup, late_get,\n"
				  "  last_put, teardown = teardown }).error"),
			"schedule '1111111111111111', step 7: thread 1 has finished; the run went "
			"on by the rule");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_explore_finds_and_replays_the_race, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_the_fixed_lookup_passes_every_schedule, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_preemption_bound_limits_the_search, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_failures_other_than_diagnostics, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_all_collects_every_failure, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_spawn_and_run_threads_follow_a_schedule, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_thread_that_loops_until_another_acts, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_locks_of_their_own_deadlock, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_misuse_is_refused, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_replay_needs_a_program, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
