/*
 * Running Lua chunks through the kobject bindings in cmocka tests. Every helper runs its
 * chunk as "@lesson.lua" (so origins read lesson.lua:N), with the lesson names installed
 * as globals, and asserts that the stack is left as it was found.
 *
 * Include <stdarg.h>, <stddef.h>, <setjmp.h>, <stdint.h> and <cmocka.h> first.
 */
#ifndef KOBJ_TESTS_LUA_HARNESS_H
#define KOBJ_TESTS_LUA_HARNESS_H

#include <stdbool.h>

#include <lua.h>

/* A fresh state: standard libraries, the module open, its names installed as globals. */
lua_State *kt_open(void);
/* Closes the state (which frees its world and every object's memory). */
void kt_close(lua_State *L);

/* cmocka group setup/teardown sharing the state through *state. */
int kt_setup(void **state);
int kt_teardown(void **state);

/* Runs @code; the test fails with Lua's message and traceback if it raises. */
void kt_run(lua_State *L, const char *code);
/* Runs @code, which must raise. Return: the message (valid until the next helper call). */
const char *kt_error(lua_State *L, const char *code);
/* Evaluates the chunk @code (which returns one value) and gives tostring of the result. */
const char *kt_str(lua_State *L, const char *code);
long long kt_int(lua_State *L, const char *code);
bool kt_bool(lua_State *L, const char *code);

/* Asserts that @haystack contains @needle, printing both if not. */
#define assert_contains(haystack, needle) kt_assert_contains((haystack), (needle), __FILE__, __LINE__)
void kt_assert_contains(const char *haystack, const char *needle, const char *file, int line);

#endif
