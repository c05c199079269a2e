/* See harness.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

static char result[16384];

static int msgh(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	luaL_traceback(L, L, msg ? msg : "(non-string error)", 1);
	return 1;
}

lua_State *kt_open(void)
{
	lua_State *L = luaL_newstate();
	assert_non_null(L);
	luaL_openlibs(L);
	lua_pushglobaltable(L);
	kobj_lua_install(L, -1);
	lua_pop(L, 1);
	assert_int_equal(lua_gettop(L), 0);
	return L;
}

void kt_close(lua_State *L)
{
	assert_int_equal(lua_gettop(L), 0);
	lua_close(L);
}

int kt_setup(void **state)
{
	*state = kt_open();
	return 0;
}

int kt_teardown(void **state)
{
	kt_close(*state);
	return 0;
}

/* Runs @code with @nres results; Return: the pcall status (results or message pushed). */
static int call(lua_State *L, const char *code, int nres)
{
	int top = lua_gettop(L);
	lua_pushcfunction(L, msgh);
	int status = luaL_loadbuffer(L, code, strlen(code), "@lesson.lua");
	if (status == LUA_OK)
		status = lua_pcall(L, 0, nres, top + 1);
	lua_remove(L, top + 1);
	assert_int_equal(lua_gettop(L), top + (status == LUA_OK ? nres : 1));
	return status;
}

void kt_run(lua_State *L, const char *code)
{
	int top = lua_gettop(L);
	if (call(L, code, 0) != LUA_OK) {
		print_error("chunk:\n%s\nraised: %s\n", code, lua_tostring(L, -1));
		lua_pop(L, 1);
		fail();
	}
	assert_int_equal(lua_gettop(L), top);
}

const char *kt_error(lua_State *L, const char *code)
{
	int top = lua_gettop(L);
	if (call(L, code, 0) == LUA_OK) {
		print_error("chunk:\n%s\nshould have raised an error\n", code);
		fail();
	}
	const char *msg = lua_tostring(L, -1);
	snprintf(result, sizeof(result), "%s", msg ? msg : "(non-string error)");
	/* Only the message: drop the traceback. */
	char *tb = strstr(result, "\nstack traceback:");
	if (tb)
		*tb = '\0';
	lua_pop(L, 1);
	assert_int_equal(lua_gettop(L), top);
	return result;
}

const char *kt_str(lua_State *L, const char *code)
{
	int top = lua_gettop(L);
	if (call(L, code, 1) != LUA_OK) {
		print_error("chunk:\n%s\nraised: %s\n", code, lua_tostring(L, -1));
		lua_pop(L, 1);
		fail();
	}
	snprintf(result, sizeof(result), "%s", luaL_tolstring(L, -1, NULL));
	lua_pop(L, 2);
	assert_int_equal(lua_gettop(L), top);
	return result;
}

long long kt_int(lua_State *L, const char *code)
{
	int top = lua_gettop(L);
	if (call(L, code, 1) != LUA_OK) {
		print_error("chunk:\n%s\nraised: %s\n", code, lua_tostring(L, -1));
		lua_pop(L, 1);
		fail();
	}
	int isnum;
	lua_Integer v = lua_tointegerx(L, -1, &isnum);
	if (!isnum) {
		print_error("chunk:\n%s\nreturned %s, not an integer\n", code,
			    luaL_tolstring(L, -1, NULL));
		fail();
	}
	lua_pop(L, 1);
	assert_int_equal(lua_gettop(L), top);
	return (long long)v;
}

bool kt_bool(lua_State *L, const char *code)
{
	int top = lua_gettop(L);
	if (call(L, code, 1) != LUA_OK) {
		print_error("chunk:\n%s\nraised: %s\n", code, lua_tostring(L, -1));
		lua_pop(L, 1);
		fail();
	}
	bool v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	assert_int_equal(lua_gettop(L), top);
	return v;
}

void kt_assert_contains(const char *haystack, const char *needle, const char *file, int line)
{
	if (haystack && needle && strstr(haystack, needle))
		return;
	print_error("%s:%d: expected to find\n  \"%s\"\nin\n  \"%s\"\n", file, line,
		    needle ? needle : "(null)", haystack ? haystack : "(null)");
	fail();
}
