/*
 * The kernel's small helpers from Lua (lua_bindings/kernel_lua.c): kstrtoint and
 * kstrtobool with nil, message, errno for what they refuse; sysfs_emit for show()
 * methods; refcount_t and its calls with the kernel's warnings at the script's line;
 * file modes enforced for cat and echo; a show() that returns a negative errno.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static void test_kstrtoint_parses_as_store_methods_do(void **state)
{
	lua_State *L = *state;

	assert_int_equal(kt_int(L, "return kstrtoint('42')"), 42);
	assert_int_equal(kt_int(L, "return kstrtoint('-7\\n', 10)"), -7);
	assert_int_equal(kt_int(L, "return kstrtoint('0x1f', 0) + kstrtoint('17', 8)"), 46);
	assert_string_equal(kt_str(L, "return table.concat({ select(2, kstrtoint('12abc')) }, '|')"),
			    "kstrtoint: '12abc': Invalid argument|-22");
	assert_string_equal(kt_str(L, "local v, msg, err = kstrtoint('2147483648')\n"
				      "return tostring(v) .. '|' .. msg .. '|' .. err"),
			    "nil|kstrtoint: '2147483648': Numerical result out of range|-34");
	assert_true(kt_bool(L, "return select(3, kstrtoint(' 1')) == -EINVAL"));
	assert_contains(kt_error(L, "kstrtoint('1', 1)"),
			"bad argument #2 to 'kstrtoint' (base must be 0 or 2 to 16)");
}

static void test_kstrtobool_reads_linux_6_1s_words(void **state)
{
	lua_State *L = *state;

	assert_true(kt_bool(L, "return kstrtobool('Yes') and kstrtobool('1') and kstrtobool('on')"));
	assert_true(kt_bool(L, "return kstrtobool('off') == false and kstrtobool('N') == false"));
	assert_string_equal(kt_str(L, "return table.concat({ select(2, kstrtobool('enable')) }, '|')"),
			    "kstrtobool: 'enable': Invalid argument|-22");
}

static void test_sysfs_emit_fills_a_page_at_most(void **state)
{
	lua_State *L = *state;

	assert_string_equal(kt_str(L, "return sysfs_emit('%d %s\\n', 5, 'x')"), "5 x\n");
	kt_run(L, "big = new_kobj_attribute{ name = 'big', mode = '0444',\n"
		  "  show = function(k, a) return sysfs_emit('%s', string.rep('x', 5000)) end }\n"
		  "k = kobject_create_and_add('emitter', kernel_kobj)\n"
		  "assert(sysfs_create_file(k, big) == 0)");
	/* cut as the kernel's sysfs_emit cuts: no bad count to report */
	assert_int_equal(kt_int(L, "return #cat('/sys/kernel/emitter/big')"), 4095);
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	kt_run(L, "kobject_put(k)");
}

static void test_refcount_counts_and_warns(void **state)
{
	lua_State *L = *state;

	kt_run(L, "r = REFCOUNT_INIT(1)\n"
		  "refcount_inc(r); refcount_add(2, r)\n"
		  "assert(refcount_read(r) == 4 and r.refs == 4)\n"
		  "assert(not refcount_dec_and_test(r))\n"
		  "assert(not refcount_sub_and_test(2, r))\n"
		  "assert(refcount_dec_not_one(r) == false and refcount_dec_if_one(r))\n"
		  "assert(refcount_inc_not_zero(r) == false and refcount_add_not_zero(1, r) == false)");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	assert_string_equal(kt_str(L, "return tostring(r)"), "refcount_t refs=0");
	/* one put too many: underflow, saturated, and it stays so */
	kt_run(L, "assert(not refcount_dec_and_test(r))");
	assert_true(kt_bool(L, "return refcount_read(r) == REFCOUNT_SATURATED"));
	assert_string_equal(kt_str(L, "local d = diagnostics()[1]\n"
				      "return d.message .. '|' .. d.line"),
			    "refcount_t: underflow; use-after-free.|1");
	assert_string_equal(kt_str(L, "return tostring(r)"),
			    "refcount_t refs=3221225472 (saturated)");
	kt_run(L, "q = REFCOUNT_INIT(); refcount_inc(q)");
	assert_string_equal(kt_str(L, "return diagnostics()[2].message"),
			    "refcount_t: addition on 0; use-after-free.");
	kt_run(L, "s = REFCOUNT_INIT(1); refcount_dec(s)");
	assert_string_equal(kt_str(L, "return diagnostics()[3].message"),
			    "refcount_t: decrement hit 0; leaking memory.");
	kt_run(L, "refcount_set(s, 7)");
	assert_int_equal(kt_int(L, "return s.refs"), 7);
	assert_int_equal(kt_int(L, "return REFCOUNT_MAX"), 2147483647);
	assert_contains(kt_error(L, "refcount_inc(5)"), "bad argument #1 to 'refcount_inc' "
							"(refcount_t expected, got number)");
	assert_contains(kt_error(L, "refcount_add(r, 1)"), "bad argument #1 to 'refcount_add'");
	assert_contains(kt_error(L, "r.refs = 1"), "refcount_t fields are read-only");
}

static void test_modes_refuse_cat_and_echo_with_eacces(void **state)
{
	lua_State *L = *state;

	assert_int_equal(kt_int(L, "return EACCES + EFBIG + ENXIO"), 13 + 27 + 6);
	kt_run(L, "ro = new_kobj_attribute{ name = 'ro', mode = '0444',\n"
		  "  show = function() return 'r\\n' end, store = function() return 1 end }\n"
		  "wo = new_kobj_attribute{ name = 'wo', mode = '0200',\n"
		  "  show = function() return 'w\\n' end, store = function(k, a, v) return #v end }\n"
		  "k = kobject_create_and_add('modes', kernel_kobj)\n"
		  "assert(sysfs_create_file(k, ro) == 0 and sysfs_create_file(k, wo) == 0)");
	assert_string_equal(kt_str(L, "local v, msg, err = echo('/sys/kernel/modes/ro', '1')\n"
				      "return tostring(v) .. '|' .. msg .. '|' .. err"),
			    "nil|echo: /sys/kernel/modes/ro: Permission denied|-13");
	assert_string_equal(kt_str(L, "local v, msg, err = cat('/sys/kernel/modes/wo')\n"
				      "return tostring(v) .. '|' .. msg .. '|' .. err"),
			    "nil|cat: /sys/kernel/modes/wo: Permission denied|-13");
	assert_int_equal(kt_int(L, "return echo('/sys/kernel/modes/wo', 'abc')"), 3);
	assert_string_equal(kt_str(L, "return cat('/sys/kernel/modes/ro')"), "r\n");
	kt_run(L, "kobject_put(k)");
}

/* A ktype's show() that returns a negative errno: the reader gets the error. */
static void test_ktype_show_returns_an_errno(void **state)
{
	lua_State *L = *state;

	kt_run(L, "kt = new_ktype{ release = function() end,\n"
		  "  sysfs_ops = { show = function(k, attr) return -EIO end,\n"
		  "                store = function() return -ENXIO end },\n"
		  "  default_attrs = { 'broken' } }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('dev'); k:register()");
	assert_string_equal(kt_str(L, "local v, msg, err = cat('/sys/dev/broken')\n"
				      "return tostring(v) .. '|' .. msg .. '|' .. err"),
			    "nil|cat: /sys/dev/broken: Input/output error|-5");
	assert_string_equal(kt_str(L, "return table.concat({ select(2, echo('/sys/dev/broken', 'x')) }, '|')"),
			    "echo: /sys/dev/broken: No such device or address|-6");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	kt_run(L, "k:unregister()");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kstrtoint_parses_as_store_methods_do,
						kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kstrtobool_reads_linux_6_1s_words, kt_setup,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_sysfs_emit_fills_a_page_at_most, kt_setup,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_refcount_counts_and_warns, kt_setup,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_modes_refuse_cat_and_echo_with_eacces,
						kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_ktype_show_returns_an_errno, kt_setup,
						kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
