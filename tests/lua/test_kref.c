/*
 * struct kref from Lua: kref_init/get/put/read/get_unless_zero (functions and methods),
 * the release function called once under pcall, and refcount_t's saturation: the
 * kernel's "addition on 0" and "underflow" lines recorded as diagnostics, a saturated
 * count that stays saturated and never releases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static void test_a_kref_counts_and_releases_once(void **state)
{
	lua_State *L = *state;
	kt_run(L, "r = new_kref()\n"
		  "assert(kref_read(r) == 0 and r.refcount == 0)\n"
		  "kref_init(r); kref_get(r); r:get()\n"
		  "calls = {}\n"
		  "function release(k) calls[#calls + 1] = k.refcount; assert(k == r) end");
	assert_int_equal(kt_int(L, "return r:read()"), 3);
	assert_string_equal(kt_str(L, "return tostring(r)"), "kref refcount=3");
	assert_int_equal(kt_int(L, "return kref_put(r, release)"), 0);
	assert_int_equal(kt_int(L, "return r:put(release)"), 0);
	assert_int_equal(kt_int(L, "return kref_put(r, release)"), 1);
	assert_string_equal(kt_str(L, "return table.concat(calls, ',')"), "0");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	/* At 0, get_unless_zero fails quietly. */
	assert_false(kt_bool(L, "return kref_get_unless_zero(r)"));
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	kt_run(L, "kref_init(r)");
	assert_true(kt_bool(L, "return r:get_unless_zero() and r.refcount == 2"));
}

static void test_saturation_and_underflow_are_reported(void **state)
{
	lua_State *L = *state;
	/* A get before kref_init: addition on 0, saturated, and it stays so. */
	kt_run(L, "r = new_kref()\n"
		  "kref_get(r)");
	assert_int_equal(kt_int(L, "return kref_read(r)"), 3221225472LL);
	assert_string_equal(kt_str(L, "return tostring(r)"),
			    "kref refcount=3221225472 (saturated)");
	assert_string_equal(kt_str(L, "local d = diagnostics()[1]\n"
				      "return d.tag .. '|' .. d.message .. '|' .. d.line"),
			    "get-released|refcount_t: addition on 0; use-after-free.|2");
	assert_contains(kt_str(L, "return diagnostics()[1].explanation"),
			"kref_get() at lesson.lua:2 found the count at 0");
	assert_int_equal(kt_int(L, "return kref_put(r, function() error('never') end)"), 0);
	assert_int_equal(kt_int(L, "return kref_read(r)"), 3221225472LL);
	assert_string_equal(kt_str(L, "return diagnostics()[2].message"),
			    "refcount_t: underflow; use-after-free.");
	/* One put too many: underflow, saturated, no second release. */
	kt_run(L, "q = new_kref(); kref_init(q); n = 0\n"
		  "kref_put(q, function() n = n + 1 end)\n"
		  "kref_put(q, function() n = n + 1 end)");
	assert_int_equal(kt_int(L, "return n"), 1);
	assert_int_equal(kt_int(L, "return kref_read(q)"), 3221225472LL);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].tag .. '|' .. "
				      "d[#d].message .. '|' .. d[#d].line"),
			    "double-put|refcount_t: underflow; use-after-free.|3");
	/* get_unless_zero on a saturated count: "saturated; leaking memory", true. */
	assert_true(kt_bool(L, "return kref_get_unless_zero(q)"));
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "refcount_t: saturated; leaking memory.");
}

static void test_release_errors_become_diagnostics(void **state)
{
	lua_State *L = *state;
	kt_run(L, "r = new_kref(); kref_init(r)\n"
		  "ok = kref_put(r, function(k) error('release failed') end)");
	assert_int_equal(kt_int(L, "return ok"), 1);
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "callback-error");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"kref_put: release() raised a Lua error: lesson.lua:2: release failed");
	/* A release may put another kref, and even its own kref again (reported). */
	kt_run(L, "a = new_kref(); kref_init(a); b = new_kref(); kref_init(b)\n"
		  "order = {}\n"
		  "kref_put(a, function(x) order[#order + 1] = 'a'\n"
		  "  kref_put(b, function() order[#order + 1] = 'b' end)\n"
		  "  kref_put(x, function() order[#order + 1] = 'again' end)\n"
		  "end)");
	assert_string_equal(kt_str(L, "return table.concat(order, ',')"), "a,b");
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "refcount_t: underflow; use-after-free.");
	assert_contains(kt_error(L, "kref_put(a)"),
			"bad argument #2 to 'kref_put' (function expected, got no value)");
	assert_contains(kt_error(L, "kref_get({})"),
			"bad argument #1 to 'kref_get' (kref expected, got table)");
}

static void test_a_kref_embeds_and_outlives_reset(void **state)
{
	lua_State *L = *state;
	kt_run(L, "obj = { name = 'thing' }\n"
		  "new_kref(obj)\n"
		  "kref_init(obj.kref)\n"
		  "got = nil\n"
		  "kref_put(obj.kref, function(k) got = container_of(k, 'struct thing', 'kref').name end)");
	assert_string_equal(kt_str(L, "return got"), "thing");
	assert_true(kt_bool(L, "return container_of(new_kref()) == nil"));
	assert_contains(kt_error(L, "local t = {} new_kref(t, 'ref') container_of(t.ref, nil, 'kref')"),
			"container_of: the kref is embedded as 'ref', not 'kref'");
	assert_contains(kt_error(L, "return obj.kref.nope"), "kref has no field nope");
	assert_contains(kt_error(L, "obj.kref.refcount = 3"), "kref fields are read-only");
	/* No world owns it: it works after reset, and warns into the new world. */
	kt_run(L, "reset(); kref_get(obj.kref)");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 1);
	kt_run(L, "collectgarbage()");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_kref_counts_and_releases_once, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_saturation_and_underflow_are_reported, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_release_errors_become_diagnostics, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_kref_embeds_and_outlives_reset, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
