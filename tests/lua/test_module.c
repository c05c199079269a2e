/* Modules through the bindings, and the article's cdev_get written in Lua. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static void test_load_get_put_unload(void **state)
{
	lua_State *L = *state;
	kt_run(L, "m = module_load('snd')");
	assert_string_equal(kt_str(L, "return tostring(m)"), "module 'snd' refcount=0 live");
	assert_true(kt_bool(L, "return try_module_get(m) and m:get()"));
	assert_int_equal(kt_int(L, "return module_refcount(m) + m.refcount"), 4);
	assert_int_equal(kt_int(L, "return module_unload(m)"), -16);
	assert_string_equal(kt_str(L, "return diagnostics()[1].message"),
			    "rmmod: ERROR: Module snd is in use");
	kt_run(L, "module_put(m); m:put()");
	assert_int_equal(kt_int(L, "return m:unload()"), 0);
	assert_string_equal(kt_str(L, "return m.state"), "unloaded");
	assert_false(kt_bool(L, "return try_module_get(m)"));
	assert_int_equal(kt_int(L, "return module_unload(m)"), -2);
	assert_true(kt_bool(L, "return try_module_get(nil)"));
	assert_true(kt_bool(L, "return -EBUSY == -16"));
}

static void test_load_failures_return_nil_message_code(void **state)
{
	lua_State *L = *state;
	kt_run(L, "m = module_load('snd')");
	assert_string_equal(kt_str(L, "local m2, err, code = module_load('snd') "
				      "return tostring(m2) .. '|' .. err .. '|' .. code"),
			    "nil|module_load: a module named 'snd' is already loaded|-17");
	assert_contains(kt_str(L, "return select(2, module_load(''))"),
			"module_load: '' is not a valid module name");
	assert_contains(kt_error(L, "m.refcount = 3"), "module fields are read-only");
	assert_contains(kt_error(L, "return m.owner"), "module has no field 'owner'");
	assert_contains(kt_error(L, "try_module_get('snd')"),
			"bad argument #1 to 'try_module_get' (module expected, got string)");
}

static void test_the_articles_cdev_get(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function() end }\n"
		  "function cdev_get(p)\n"
		  "  local owner = p.owner\n"
		  "  if owner and not try_module_get(owner) then return nil end\n"
		  "  local kobj = kobject_get(p.kobj)\n"
		  "  if not kobj then module_put(owner) end\n"
		  "  return kobj\n"
		  "end\n"
		  "cdev = { owner = module_load('drv') }\n"
		  "new_kobject(cdev); cdev.kobj.ktype = kt; kobject_init(cdev.kobj)\n"
		  "got = cdev_get(cdev)\n");
	assert_true(kt_bool(L, "return got == cdev.kobj"));
	assert_int_equal(kt_int(L, "return cdev.owner.refcount * 10 + cdev.kobj.refcount"), 12);
	kt_run(L, "kobject_put(cdev.kobj); kobject_put(cdev.kobj)\n"
		  "again = cdev_get(cdev)");
	assert_true(kt_bool(L, "return again == nil"));
	/* Both references or neither: the module reference was given back. */
	assert_int_equal(kt_int(L, "return cdev.owner.refcount"), 1);
	kt_run(L, "module_put(cdev.owner)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_load_get_put_unload, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_load_failures_return_nil_message_code, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_the_articles_cdev_get, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
