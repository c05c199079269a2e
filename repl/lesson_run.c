/*
 * Running a lesson's scripts: the vocabulary (lessons/lib/lesson.lua) first, then the
 * demo, or the student's exercise followed by the lesson's checks, all in the sandbox.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

/* The first line of the last error reported, for a check's verdict. */
static char last_error[200];

/* kobj_report(), noting the error's first line. */
static int report(lua_State *L, int status)
{
	const char *msg = status != LUA_OK ? lua_tostring(L, -1) : NULL;

	if (msg)
		snprintf(last_error, sizeof(last_error), "%.*s", (int)strcspn(msg, "\n"), msg);
	return kobj_report(L, status, NULL);
}

/* Runs a file in the sandbox's current environment. Return: a Lua status. */
static int run_file(lua_State *L, const char *path)
{
	int status = sandbox_loadfile(L, path);
	if (status == LUA_OK)
		status = kobj_docall(L, 0, 0);
	return report(L, status);
}

/* lesson_ask(prompt): a line typed by the student, or nil at the end of input. */
static int l_ask(lua_State *L)
{
	char line[512];
	fputs(luaL_optstring(L, 1, "> "), stdout);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	line[strcspn(line, "\n")] = '\0';
	lua_pushstring(L, line);
	return 1;
}

static int load_vocabulary(lua_State *L, const struct lesson *l, bool ask)
{
	char lib[4200];
	snprintf(lib, sizeof(lib), "%s/../lib/lesson.lua", l->dir);
	if (ask) {
		sandbox_push_env(L);
		lua_pushcfunction(L, l_ask);
		lua_setfield(L, -2, "lesson_ask");
		lua_pop(L, 1);
	}
	return run_file(L, lib);
}

/* A fresh world and environment, so runs never see each other's objects. */
static int fresh(lua_State *L)
{
	if (kobj_lua_reset(L) != 0)
		return luaL_error(L, "the world cannot be reset here");
	sandbox_new_env(L);
	return 0;
}

static int start(lua_State *L)
{
	lua_pushcfunction(L, fresh);
	return kobj_report(L, kobj_docall(L, 0, 0), NULL);
}

int lesson_open(lua_State *L, const struct lesson *l, const char *file)
{
	int status = load_vocabulary(L, l, false);
	return status == LUA_OK ? run_file(L, file) : status;
}

int lesson_demo(lua_State *L, const struct lesson *l, bool ask)
{
	char demo[4200];
	int status = start(L);

	if (status == LUA_OK)
		status = load_vocabulary(L, l, ask);
	snprintf(demo, sizeof(demo), "%s/demo.lua", l->dir);
	if (status == LUA_OK)
		status = run_file(L, demo);
	return status;
}

/* The student's own environment; reset() refuses there, so the world stays the run's. */
static int student_env(lua_State *L)
{
	sandbox_new_env(L);
	sandbox_graded_env(L);
	return 0;
}

/*
 * A check run keeps the student's code away from the checks: the vocabulary and
 * lesson_results are loaded into an environment of their own before the student's file
 * runs in another, and check.lua runs in the first, which finds the student's functions
 * in the second. Nothing the student's code does to its globals reaches the checks.
 */
struct verdict lesson_check(lua_State *L, const struct lesson *l, const char *file)
{
	struct verdict v = { 0, 0, true, "" };
	char check[4200];
	int top = lua_gettop(L), status = start(L), checks;

	last_error[0] = '\0';
	snprintf(check, sizeof(check), "%s/check.lua", l->dir);
	if (status == LUA_OK)
		status = load_vocabulary(L, l, false);
	if (status != LUA_OK)
		return v;
	sandbox_push_env(L);
	checks = lua_gettop(L);
	lua_getfield(L, checks, "lesson_results");
	lua_pushcfunction(L, student_env);
	status = report(L, kobj_docall(L, 0, 0));
	if (status == LUA_OK)
		status = run_file(L, file);
	if (status == LUA_OK) {
		sandbox_fall_back(L, checks);
		sandbox_use_env(L, checks);
		status = run_file(L, check);
	}
	if (status == LUA_OK)
		status = report(L, kobj_docall(L, 0, 2));
	if (status == LUA_OK) {
		v.passed = (int)lua_tointeger(L, -2);
		v.failed = (int)lua_tointeger(L, -1);
		v.lua_error = false;
	}
	snprintf(v.error, sizeof(v.error), "%s", last_error);
	lua_settop(L, top);
	return v;
}

char *lesson_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t len = 0, cap = 4096;
	char *text = malloc(cap);
	size_t n;
	while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *more = realloc(text, cap *= 2);
			if (!more)
				free(text);
			text = more;
		}
	}
	fclose(f);
	if (text)
		text[len] = '\0';
	return text;
}
