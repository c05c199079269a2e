/*
 * Running a lesson's scripts: the vocabulary (lessons/lib/lesson.lua and predict.lua)
 * first, then the demo, or the student's exercise followed by the lesson's checks, all
 * in the sandbox. Each file is loaded under a short name, relative to the lessons folder
 * ("01-refcounts/demo.lua") or to the student's ("01-refcounts.lua"), so that the log,
 * the diagnostics and the leak report never show where the course happens to be stored.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

/* The text of @path and its length, malloc'd; NULL if it cannot be read. */
static char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096, n;
	char *text;

	if (!f)
		return NULL;
	text = malloc(cap);
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
	*size = len;
	return text;
}

char *lesson_slurp(const char *path)
{
	size_t len;
	return slurp(path, &len);
}

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

/* Runs @path in the sandbox's current environment, its origins named @shown.
 * Return: a Lua status, reported. */
static int run_file(lua_State *L, const char *path, const char *shown)
{
	const char *chunkname = lua_pushfstring(L, "@%s", shown); /* before the malloc */
	size_t len;
	char *text = slurp(path, &len);
	int status;

	if (!text) {
		lua_pop(L, 1);
		lua_pushfstring(L, "cannot read %s", shown);
		return report(L, LUA_ERRFILE);
	}
	size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0; /* as lua.c */
	if (text[bom] == '#') /* a "#!" line: blank it, keeping the line numbers */
		memset(text + bom, ' ', strcspn(text + bom, "\n"));
	status = sandbox_loadbuffer(L, text + bom, len - bom, chunkname);
	free(text);
	lua_remove(L, -2); /* the chunk name */
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
	line[strcspn(line, "\r\n")] = '\0';
	lua_pushstring(L, line);
	return 1;
}

/* The vocabulary from the course's lib/ folder @lib; predictions are asked when @ask.
 * On a terminal, print() wraps its lines to the terminal's width. */
static int load_vocabulary(lua_State *L, const char *lib, bool ask)
{
	char path[LESSON_PATH_MAX];
	int status;

	sandbox_push_env(L);
	if (ask) {
		lua_pushcfunction(L, l_ask);
		lua_setfield(L, -2, "lesson_ask");
	}
	if (wrap_width(STDOUT_FILENO) > 0) {
		lua_pushcfunction(L, wrap_print);
		lua_setfield(L, -2, "print");
	}
	lua_pop(L, 1);
	snprintf(path, sizeof(path), "%s/lesson.lua", lib);
	status = run_file(L, path, "lib/lesson.lua");
	snprintf(path, sizeof(path), "%s/predict.lua", lib);
	return status == LUA_OK ? run_file(L, path, "lib/predict.lua") : status;
}

static int lesson_vocabulary(lua_State *L, const struct lesson *l, bool ask)
{
	char lib[LESSON_PATH_MAX];

	snprintf(lib, sizeof(lib), "%s/../lib", l->dir);
	return load_vocabulary(L, lib, ask);
}

/* Runs the lesson's own @file ("demo.lua"), named "NN-name/@file". */
static int run_lesson_file(lua_State *L, const struct lesson *l, const char *file)
{
	char path[LESSON_PATH_MAX], shown[300];

	snprintf(path, sizeof(path), "%s/%s", l->dir, file);
	snprintf(shown, sizeof(shown), "%s/%s", l->slug, file);
	return run_file(L, path, shown);
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

int lesson_open(lua_State *L, const struct lesson *l, const char *file, const char *shown)
{
	int status = lesson_vocabulary(L, l, false);
	return status == LUA_OK ? run_file(L, file, shown) : status;
}

int lesson_demo(lua_State *L, const struct lesson *l, bool ask)
{
	int status = start(L);

	if (status == LUA_OK)
		status = lesson_vocabulary(L, l, ask);
	if (status == LUA_OK)
		status = run_lesson_file(L, l, "demo.lua");
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
struct verdict lesson_check_as(lua_State *L, const struct lesson *l, const char *file,
			       const char *shown)
{
	struct verdict v = { 0, 0, true, "" };
	int top = lua_gettop(L), status, checks;

	last_error[0] = '\0';
	status = start(L);
	if (status == LUA_OK)
		status = lesson_vocabulary(L, l, false);
	if (status != LUA_OK)
		return v;
	sandbox_push_env(L);
	checks = lua_gettop(L);
	lua_getfield(L, checks, "lesson_results");
	lua_pushcfunction(L, student_env);
	status = report(L, kobj_docall(L, 0, 0));
	if (status == LUA_OK)
		status = run_file(L, file, shown);
	if (status == LUA_OK) {
		sandbox_fall_back(L, checks);
		sandbox_use_env(L, checks);
		status = run_lesson_file(L, l, "check.lua");
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

struct verdict lesson_check(lua_State *L, const struct lesson *l, const char *file)
{
	return lesson_check_as(L, l, file, file);
}

/* Whether @dir is a lesson's folder: named NN-something, beside a lib/lesson.lua. */
static bool lesson_folder(const char *dir, char *lib, size_t size)
{
	char copy[LESSON_PATH_MAX + 16];
	const char *name;
	char *end;

	snprintf(copy, sizeof(copy), "%s", dir);
	name = basename(copy);
	if (strtol(name, &end, 10) <= 0 || *end != '-')
		return false;
	snprintf(lib, size, "%s/../lib", dir);
	snprintf(copy, sizeof(copy), "%s/lesson.lua", lib);
	return access(copy, R_OK) == 0;
}

int lesson_script_vocabulary(lua_State *L, const char *script)
{
	char dir[4096], lib[LESSON_PATH_MAX];

	if (!script || strcmp(script, "-") == 0)
		return LUA_OK;
	snprintf(dir, sizeof(dir), "%s", script);
	if (!lesson_folder(dirname(dir), lib, sizeof(lib)))
		return LUA_OK;
	return load_vocabulary(L, lib, isatty(STDIN_FILENO));
}
