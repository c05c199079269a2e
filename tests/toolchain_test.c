/* Proves the toolchain: cmocka runs tests, and Debian's Lua 5.4 links and evaluates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

static void test_lua_evaluates_one_plus_one(void **state)
{
	lua_State *L = luaL_newstate();

	(void)state;
	assert_non_null(L);
	luaL_openlibs(L);
	assert_int_equal(luaL_dostring(L, "return 1+1"), LUA_OK);
	assert_int_equal(lua_gettop(L), 1);
	assert_true(lua_isinteger(L, -1));
	assert_int_equal(lua_tointeger(L, -1), 2);
	lua_close(L);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lua_evaluates_one_plus_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
