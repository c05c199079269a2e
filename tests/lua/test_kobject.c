/* kobjects through the bindings: every kernel call, fields, methods, tostring. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

/* A ktype whose release records the names it released, in order. */
static const char *const prelude =
	"released = {}\n"
	"kt = new_ktype{ release = function(k) released[#released + 1] = k.name end }\n";

static void test_new_kobject_is_born_uninitialised(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject()");
	assert_string_equal(kt_str(L, "return k.state"), "uninitialized");
	assert_int_equal(kt_int(L, "return k.refcount"), 0);
	assert_string_equal(kt_str(L, "return k.name"), "");
	assert_true(kt_bool(L, "return k.id == nil and k.parent == nil and k.kset == nil "
			       "and k.ktype == nil and k.path == nil"));
	assert_string_equal(kt_str(L, "return tostring(k)"), "kobject (no name) uninitialized");
}

static void test_init_gives_the_creator_one_reference(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = new_kobject(); k.ktype = kt; kobject_init(k)");
	assert_int_equal(kt_int(L, "return k.refcount"), 1);
	assert_string_equal(kt_str(L, "return k.state"), "initialized");
	assert_int_equal(kt_int(L, "return k.id"), 1);
	kt_run(L, "kobject_put(k)");
	assert_string_equal(kt_str(L, "return k.state"), "released");
	assert_int_equal(kt_int(L, "return #released"), 1);
}

static void test_set_name_formats_like_printk(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); kobject_init(k)");
	assert_int_equal(kt_int(L, "return kobject_set_name(k, 'dev%d-%s', 3, 'x')"), 0);
	assert_string_equal(kt_str(L, "return k.name"), "dev3-x");
	assert_string_equal(kt_str(L, "return kobject_name(k)"), "dev3-x");
	kt_run(L, "assert(kobject_set_name(k, 'a/b') == 0)");
	assert_string_equal(kt_str(L, "return k.name"), "a!b");
	kt_run(L, "assert(k:set_name('a-name-longer-than-twenty-%s', 'chars') == 0)");
	assert_string_equal(kt_str(L, "return k.name"), "a-name-longer-than-twenty-chars");
	kt_run(L, "k.name = '100%'");
	assert_string_equal(kt_str(L, "return k.name"), "100%");
}

static void test_set_name_can_fail(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); kobject_init(k); kobject_set_name(k, 'old')");
	kt_run(L, "fail_alloc(1)");
	assert_int_equal(kt_int(L, "return kobject_set_name(k, 'new')"), -12);
	assert_true(kt_bool(L, "return kobject_set_name ~= nil and -ENOMEM == -12"));
	assert_string_equal(kt_str(L, "return k.name"), "old");
	kt_run(L, "fail_alloc(1)");
	assert_contains(kt_error(L, "k.name = 'new'"),
			"lesson.lua:1: setting name: kobject_set_name failed (-12)");
}

static void test_set_name_reports_bad_formats(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject()");
	assert_contains(kt_error(L, "kobject_set_name(k, '%d', 'x')"),
			"lesson.lua:1: bad argument #3 to 'kobject_set_name' (number expected, got string)");
	assert_contains(kt_error(L, "kobject_set_name(k)"), "bad argument #2 to 'kobject_set_name'");
}

static void test_get_and_put_move_the_count(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = new_kobject(); k.ktype = kt; kobject_init(k); kobject_set_name(k, 'k')");
	assert_true(kt_bool(L, "return kobject_get(k) == k"));
	/* a get gives a reference handle: the same object, another Lua value */
	assert_true(kt_bool(L, "local r = k:get() return r == k and not rawequal(r, k)"));
	assert_int_equal(kt_int(L, "return k.refcount"), 3);
	assert_int_equal(kt_int(L, "return kobject_refcount(k)"), 3);
	kt_run(L, "kobject_put(k); k:put()");
	assert_int_equal(kt_int(L, "return k.refcount"), 1);
	assert_int_equal(kt_int(L, "return #released"), 0);
	kt_run(L, "k:put()");
	assert_string_equal(kt_str(L, "return released[1]"), "k");
	assert_true(kt_bool(L, "return kobject_get(nil) == nil"));
	kt_run(L, "kobject_put(nil)");
}

static void test_register_and_unregister(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = new_kobject(); k.ktype = kt; kobject_set_name(k, 'foo')");
	assert_int_equal(kt_int(L, "return kobject_register(k)"), 0);
	assert_int_equal(kt_int(L, "return k.refcount"), 2);
	assert_string_equal(kt_str(L, "return k.state"), "in sysfs");
	assert_string_equal(kt_str(L, "return k.path"), "/sys/foo");
	assert_string_equal(kt_str(L, "return tostring(k)"),
			    "kobject 'foo' refcount=2 in sysfs /sys/foo");
	kt_run(L, "kobject_unregister(k)");
	assert_string_equal(kt_str(L, "return released[1]"), "foo");
	assert_string_equal(kt_str(L, "return tostring(k)"),
			    "kobject 'foo' released at lesson.lua:1");
}

static void test_add_and_del(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "p = new_kobject(); p.ktype = kt; p:set_name('p'); p:init()\n"
		  "c = new_kobject(); c.ktype = kt; c:set_name('c'); c:init(); c.parent = p");
	assert_int_equal(kt_int(L, "return kobject_add(c)"), -2); /* parent not in sysfs */
	assert_int_equal(kt_int(L, "return p:add()"), 0);
	assert_int_equal(kt_int(L, "return c:add()"), 0);
	assert_string_equal(kt_str(L, "return c.path"), "/sys/p/c");
	assert_int_equal(kt_int(L, "return p.refcount"), 3); /* creator, sysfs, child */
	kt_run(L, "kobject_del(c)");
	assert_string_equal(kt_str(L, "return c.state"), "deleted");
	assert_int_equal(kt_int(L, "return p.refcount"), 3); /* held until c's release */
	kt_run(L, "c:put()");
	assert_int_equal(kt_int(L, "return p.refcount"), 2);
	kt_run(L, "p:del(); p:put()");
	assert_string_equal(kt_str(L, "return table.concat(released, ',')"), "c,p");
}

static void test_add_reports_the_kernels_errors(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "a = new_kobject(); a.ktype = kt; a:set_name('same')");
	assert_int_equal(kt_int(L, "return kobject_add(a)"), -22); /* not initialised */
	kt_run(L, "a:init()");
	assert_int_equal(kt_int(L, "return a:add()"), 0);
	kt_run(L, "b = new_kobject(); b.ktype = kt; b:set_name('same')");
	assert_int_equal(kt_int(L, "return b:register()"), -17);
	assert_true(kt_bool(L, "return -EEXIST == -17 and -EINVAL == -22 and -ENOENT == -2"));
	kt_run(L, "e = new_kobject(); e.ktype = kt");
	assert_int_equal(kt_int(L, "return kobject_register(e)"), -22); /* empty name */
	assert_int_equal(kt_int(L, "return kobject_add(nil)"), -22);
	kt_run(L, "a:unregister(); b:put(); e:put()");
	assert_int_equal(kt_int(L, "return #released"), 3);
}

static void test_fields_are_assignable_as_in_c(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "p = new_kobject(); k = new_kobject(); ks = new_kset()\n"
		  "k.parent = p; k.kset = ks; k.ktype = kt");
	assert_true(kt_bool(L, "return k.parent == p and rawequal(k.parent, p)"));
	assert_true(kt_bool(L, "return rawequal(k.kset, ks) and rawequal(k.ktype, kt)"));
	kt_run(L, "k.parent = nil; k.kset = nil; k.ktype = nil");
	assert_true(kt_bool(L, "return k.parent == nil and k.kset == nil and k.ktype == nil"));
	assert_contains(kt_error(L, "k.parent = ks"),
			"kobject expected, got kset; pass its embedded kobject, kset.kobj");
	kt_run(L, "k.parent = ks.kobj");
	assert_true(kt_bool(L, "return rawequal(k.parent, ks.kobj)"));
	assert_contains(kt_error(L, "k.kset = 'x'"), "kset expected, got string");
}

static void test_moving_an_object_in_sysfs_is_refused(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "p = new_kobject(); k = new_kobject(); k.ktype = kt; k:set_name('k'); "
		  "k:register()");
	assert_contains(kt_error(L, "k.parent = p"),
			"setting parent: 'k' is in sysfs; kobject_del() it before changing "
			"its parent");
	assert_contains(kt_error(L, "k.kset = new_kset()"), "setting kset: 'k' is in sysfs");
	kt_run(L, "k:del(); k.parent = p; k:put()");
}

static void test_a_parent_cycle_is_refused(void **state)
{
	lua_State *L = *state;
	kt_run(L, "a = new_kobject(); b = new_kobject(); a:set_name('a'); b.parent = a");
	assert_contains(kt_error(L, "a.parent = b"), "setting parent: 'a' would become its own "
						     "ancestor");
	assert_contains(kt_error(L, "a.parent = a"), "would become its own ancestor");
}

static void test_read_only_and_unknown_fields(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject()");
	assert_contains(kt_error(L, "k.refcount = 5"),
			"kobject field 'refcount' is read-only: only kobject_get() and "
			"kobject_put() change it");
	assert_contains(kt_error(L, "k.state = 'x'"), "kobject field 'state' is read-only");
	assert_contains(kt_error(L, "return k.nmae"), "kobject has no field 'nmae' (fields: "
						      "name, refcount, parent");
	assert_contains(kt_error(L, "k.foo = 1"), "kobject has no field 'foo' (assignable: "
						  "name, parent, kset, ktype)");
	assert_contains(kt_error(L, "return k[1]"), "kobject has no field 1");
	assert_string_equal(kt_str(L, "return getmetatable(k)"), "kobject");
}

static void test_get_ktype_prefers_the_ksets(void **state)
{
	lua_State *L = *state;
	kt_run(L, "own = new_ktype(); settype = new_ktype()\n"
		  "ks = new_kset{ ktype = settype }; k = new_kobject(); k.ktype = own");
	assert_true(kt_bool(L, "return get_ktype(k) == own"));
	kt_run(L, "k.kset = ks");
	assert_true(kt_bool(L, "return get_ktype(k) == settype"));
	kt_run(L, "ks.ktype = nil");
	assert_true(kt_bool(L, "return get_ktype(k) == own"));
	assert_contains(kt_error(L, "get_ktype(nil)"), "bad argument #1 to 'get_ktype' "
						       "(kobject expected, got nil)");
}

static void test_nil_reaches_the_core_as_null(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kobject_init(nil)");
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "invalid-pointer");
	assert_int_equal(kt_int(L, "return diagnostics()[1].line"), 1);
	kt_run(L, "kobject_del(nil); kobject_unregister(nil)");
	assert_int_equal(kt_int(L, "return kobject_register(nil)"), -22);
	assert_int_equal(kt_int(L, "return kobject_refcount(nil)"), 0);
	assert_string_equal(kt_str(L, "return kobject_name(nil)"), "");
}

static void test_misuse_is_diagnosed_not_raised(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = new_kobject(); k.ktype = kt\n"
		  "kobject_get(k)\n"
		  "kobject_put(k)\n"
		  "kobject_init(k)\n"
		  "kobject_init(k)\n"
		  "kobject_del(k)\n"
		  "kobject_put(k)");
	assert_string_equal(kt_str(L, "local t = {} for _, d in ipairs(diagnostics()) do "
				      "t[#t + 1] = d.tag .. '@' .. d.line end "
				      "return table.concat(t, ' ')"),
			    "get-uninitialized@2 put-uninitialized@3 init-twice@5 "
			    "del-not-added@6");
	assert_string_equal(kt_str(L, "return k.state"), "released");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_kobject_is_born_uninitialised, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_init_gives_the_creator_one_reference, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_set_name_formats_like_printk, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_set_name_can_fail, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_set_name_reports_bad_formats, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_get_and_put_move_the_count, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_register_and_unregister, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_add_and_del, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_add_reports_the_kernels_errors, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fields_are_assignable_as_in_c, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_moving_an_object_in_sysfs_is_refused, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_parent_cycle_is_refused, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_read_only_and_unknown_fields, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_get_ktype_prefers_the_ksets, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_nil_reaches_the_core_as_null, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_misuse_is_diagnosed_not_raised, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
