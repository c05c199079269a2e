/*
 * The environment scripts and REPL lines run in. It holds the lesson-facing kernel names
 * (kobj_lua_install) and the safe parts of Lua: the base functions that touch no file,
 * string (without dump), table, math, utf8, coroutine, and os.time/clock/date/difftime.
 * There is no io, no package or require, no debug, no dofile or loadfile; `load` only
 * takes text and defaults to this environment; binary chunks are refused everywhere.
 * pcall, xpcall, coroutine.resume and close, and load's reader re-raise a stop by the
 * limits (limits.c), so a script cannot catch its way past the instruction budget, the
 * memory cap or Ctrl-C; setmetatable runs a script's __gc in a coroutine, where the
 * limits' hook works. getmetatable shows no metatable of the program's own (strings,
 * handles). Each environment has its own copy of the module table, and dot() writes only
 * into --write-dir.
 *
 * The host's own global table keeps the full base library; nothing in the environment
 * leads back to it.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"

/* Registry keys: the addresses of these statics. */
static const char env_key;    /* the current environment table */
static const char module_key; /* the kobject module table */
static const char proxies_key; /* weak map: a finalizing copy -> the script's metatable */

/* =============================================================== opening the host */

static bool warn_on = true;
static bool warn_continued;

/* Lua warnings (warn(), errors in __gc) to stderr; "@on"/"@off" switch them. */
static void sandbox_warnf(void *ud, const char *msg, int tocont)
{
	(void)ud;
	if (!warn_continued && !tocont && msg[0] == '@') {
		if (strcmp(msg, "@off") == 0)
			warn_on = false;
		else if (strcmp(msg, "@on") == 0)
			warn_on = true;
		return;
	}
	if (warn_on) {
		if (!warn_continued)
			fputs("Lua warning: ", stderr);
		fputs(msg, stderr);
		if (!tocont)
			fputc('\n', stderr);
		fflush(stderr);
	}
	warn_continued = tocont;
}

void sandbox_open(lua_State *L)
{
	static const luaL_Reg libs[] = {
		{ LUA_GNAME, luaopen_base },         { LUA_STRLIBNAME, luaopen_string },
		{ LUA_TABLIBNAME, luaopen_table },   { LUA_MATHLIBNAME, luaopen_math },
		{ LUA_UTF8LIBNAME, luaopen_utf8 },   { LUA_COLIBNAME, luaopen_coroutine },
		{ LUA_OSLIBNAME, luaopen_os },       { NULL, NULL },
	};
	const luaL_Reg *lib;

	lua_setwarnf(L, sandbox_warnf, NULL);
	for (lib = libs; lib->func; lib++) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	/* the string metatable's __index is this table: no dump, even by ("").dump */
	lua_getglobal(L, LUA_STRLIBNAME);
	lua_pushnil(L);
	lua_setfield(L, -2, "dump");
	lua_pop(L, 1);

	costs_wrap(L);
	lua_newtable(L); /* the finalizing copies of metatables, weak keys */
	lua_createtable(L, 0, 1);
	lua_pushliteral(L, "k");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &proxies_key);

	luaL_requiref(L, "kobject", luaopen_kobject, 0);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &module_key);
	kobj_lua_allow_files(L, 0); /* only sb_dot, into --write-dir, lets a script write */
}

/* ======================================================= wrappers that keep limits */

/* Raises the stop of a limit again, with its own message (an xpcall handler may have
 * replaced the original one with anything). */
static int reraise(lua_State *L)
{
	char buf[160];

	lua_pushstring(L, limits_message(limits_of(L), buf, sizeof(buf)));
	return lua_error(L);
}

/* After pcall/xpcall: results, or false and the error; a limit's stop goes on up. */
static int finish_pcall(lua_State *L, int status, lua_KContext extra)
{
	if (status != LUA_OK && status != LUA_YIELD) {
		if (limits_uncatchable(L, status))
			return reraise(L);
		lua_pushboolean(L, 0);
		lua_pushvalue(L, -2);
		return 2;
	}
	return lua_gettop(L) - (int)extra;
}

static int sb_pcall(lua_State *L)
{
	int status;

	luaL_checkany(L, 1);
	lua_pushboolean(L, 1); /* first result if no errors */
	lua_insert(L, 1);
	status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
	return finish_pcall(L, status, 0);
}

static int sb_xpcall(lua_State *L)
{
	int n = lua_gettop(L);
	int status;

	luaL_checktype(L, 2, LUA_TFUNCTION); /* the message handler */
	lua_pushboolean(L, 1);               /* first result */
	lua_pushvalue(L, 1);                 /* the function */
	lua_rotate(L, 3, 2);                 /* move them below the function's arguments */
	status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
	return finish_pcall(L, status, 2);
}

/* coroutine.resume and coroutine.close (upvalue 1, the real one): false and an error,
 * unless a limit stopped the coroutine (a __close, for close), which goes on up. */
static int sb_coroutine(lua_State *L)
{
	int n = lua_gettop(L);

	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, n, LUA_MULTRET);
	if (!lua_toboolean(L, 1) && limits_uncatchable(L, LUA_ERRRUN))
		return reraise(L);
	return lua_gettop(L);
}

/*
 * Finalizers. Lua runs a __gc with hooks off, so neither the budget nor Ctrl-C could stop
 * one, and it reads __gc when the object dies, so a finalizer swapped in after
 * setmetatable, or a callable table, would escape a wrapper made at setmetatable time.
 * So an object whose metatable has a __gc gets a copy of that metatable whose __gc is
 * sb_gc; the script never sees the copy (getmetatable gives its own table), and sb_gc
 * runs whatever __gc the script's table holds at that moment, in a coroutine, where the
 * hook works, under the limits even between two statements of the prompt. A stop there
 * is recorded (limits.c) and becomes Lua's "error in __gc" warning; the code after it
 * stops at its next instruction. Other changes to such a metatable after setmetatable
 * do not reach the object.
 */

/* Upvalue 1: the script's metatable. */
static int sb_gc(lua_State *L)
{
	struct kobj_limits *lim = limits_of(L);
	bool was_armed = lim->budget_armed;
	lua_State *co;
	int nres, status;

	lua_pushliteral(L, "__gc");
	if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL)
		return 0;
	co = lua_newthread(L);
	limits_install(co);
	lua_insert(L, -2);
	lua_pushvalue(L, 1);
	lua_xmove(L, co, 2);
	if (!was_armed)
		limits_arm(lim);
	status = lua_resume(co, L, 1, &nres);
	if (status != LUA_OK && status != LUA_YIELD)
		limits_uncatchable(co, status);
	if (!was_armed)
		limits_disarm(lim);
	if (status == LUA_OK || status == LUA_YIELD)
		return 0;
	lua_xmove(co, L, 1);
	return lua_error(L);
}

/* [mt] -> [copy]: @mt's fields, with sb_gc as __gc; the copy is noted in the map. */
static void finalizing_copy(lua_State *L)
{
	int mt = lua_gettop(L);

	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, mt)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, mt + 1);
	}
	lua_pushvalue(L, mt);
	lua_pushcclosure(L, sb_gc, 1);
	lua_setfield(L, mt + 1, "__gc");
	lua_rawgetp(L, LUA_REGISTRYINDEX, &proxies_key);
	lua_pushvalue(L, mt + 1);
	lua_pushvalue(L, mt);
	lua_rawset(L, -3);
	lua_pop(L, 1);
	lua_remove(L, mt);
}

/* setmetatable: upvalue 1 is the real one. A metatable with a __gc is installed as a copy. */
static int sb_setmetatable(lua_State *L)
{
	lua_settop(L, 2);
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL) {
			lua_pop(L, 1);
			lua_pushvalue(L, 2);
			finalizing_copy(L);
			lua_replace(L, 2);
		} else {
			lua_pop(L, 1);
		}
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 2, 1);
	return 1;
}

/*
 * getmetatable: a table's own metatable (the script's, not the copy setmetatable made).
 * The metatables of strings and of the sandbox's handles are the program's, shared by
 * every environment, so scripts get nil for them.
 */
static int sb_getmetatable(lua_State *L)
{
	luaL_checkany(L, 1);
	if (lua_type(L, 1) != LUA_TTABLE || !lua_getmetatable(L, 1)) {
		lua_pushnil(L);
		return 1;
	}
	if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
		return 1;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &proxies_key);
	lua_pushvalue(L, -2);
	if (lua_rawget(L, -2) == LUA_TNIL)
		lua_pop(L, 2);
	return 1;
}

/*
 * load(chunk [, chunkname [, mode [, env]]]): text only, and the sandbox's environment
 * unless one is given. Upvalue 1 is the real load, upvalue 2 the environment.
 */
static int sb_load(lua_State *L)
{
	const char *mode = luaL_optstring(L, 3, "t");
	bool has_env = !lua_isnone(L, 4);

	if (strchr(mode, 't') == NULL)
		return luaL_error(L, "binary chunks are not allowed in the sandbox "
				     "(load mode \"%s\")", mode);
	lua_settop(L, 4);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	lua_pushliteral(L, "t");
	if (has_env)
		lua_pushvalue(L, 4);
	else
		lua_pushvalue(L, lua_upvalueindex(2));
	lua_call(L, 4, LUA_MULTRET);
	if (lua_isnil(L, 5) && limits_uncatchable(L, LUA_ERRRUN))
		return reraise(L); /* a reader function was stopped */
	return lua_gettop(L) - 4;
}

/* __index of the environment and its os table: a removed name is an error that says so. */
static int sb_missing(lua_State *L)
{
	const char *prefix = lua_tostring(L, lua_upvalueindex(1));
	const char *key = lua_tostring(L, 2);

	lua_pushvalue(L, 2);
	lua_rawget(L, lua_upvalueindex(2)); /* the set of removed names */
	if (key && lua_toboolean(L, -1))
		return luaL_error(L, "'%s%s' is not available in the kobj sandbox", prefix, key);
	lua_pushnil(L);
	return 1;
}

/* Gives the table at @idx a metatable whose __index names the removed @names. */
static void mark_removed(lua_State *L, int idx, const char *prefix, const char *const *names)
{
	idx = lua_absindex(L, idx);
	lua_createtable(L, 0, 1);     /* the metatable */
	lua_pushstring(L, prefix);
	lua_newtable(L);              /* the set of removed names */
	for (; *names; names++) {
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, *names);
	}
	lua_pushcclosure(L, sb_missing, 2);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, idx);
}

/* ========================================================== building the environment */

/* Copies host global @lib into env[@lib], all fields but @skip, or only @only. */
static void copy_lib(lua_State *L, int env, const char *lib, const char *const *only,
		     const char *skip)
{
	lua_newtable(L);
	if (lua_getglobal(L, lib) != LUA_TTABLE) {
		lua_pop(L, 2);
		return;
	}
	if (only) {
		for (; *only; only++) {
			lua_getfield(L, -1, *only);
			lua_setfield(L, -3, *only);
		}
	} else {
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			if (!(skip && lua_type(L, -2) == LUA_TSTRING &&
			      strcmp(lua_tostring(L, -2), skip) == 0)) {
				lua_pushvalue(L, -2);
				lua_insert(L, -2);
				lua_rawset(L, -5);
			} else {
				lua_pop(L, 1);
			}
		}
	}
	lua_pop(L, 1);
	lua_setfield(L, env, lib);
}

static void add_base(lua_State *L, int env)
{
	static const char *const names[] = {
		"assert", "collectgarbage", "error", "ipairs", "next", "pairs",
		"print", "rawequal", "rawget", "rawlen", "rawset", "select", "tonumber",
		"tostring", "type", "warn", "_VERSION", NULL,
	};
	const char *const *n;

	for (n = names; *n; n++) {
		lua_getglobal(L, *n);
		lua_setfield(L, env, *n);
	}
	lua_getglobal(L, "setmetatable");
	lua_pushcclosure(L, sb_setmetatable, 1);
	lua_setfield(L, env, "setmetatable");
	lua_pushcfunction(L, sb_getmetatable);
	lua_setfield(L, env, "getmetatable");
	lua_pushcfunction(L, sb_pcall);
	lua_setfield(L, env, "pcall");
	lua_pushcfunction(L, sb_xpcall);
	lua_setfield(L, env, "xpcall");
	lua_getglobal(L, "load");
	lua_pushvalue(L, env);
	lua_pushcclosure(L, sb_load, 2);
	lua_setfield(L, env, "load");
	lua_pushvalue(L, env);
	lua_setfield(L, env, LUA_GNAME);
}

static void add_libs(lua_State *L, int env)
{
	static const char *const os_safe[] = { "clock", "date", "difftime", "time", NULL };
	static const char *const os_removed[] = {
		"execute", "exit", "getenv", "remove", "rename", "setlocale", "tmpname", NULL,
	};

	copy_lib(L, env, LUA_STRLIBNAME, NULL, "dump");
	copy_lib(L, env, LUA_TABLIBNAME, NULL, NULL);
	copy_lib(L, env, LUA_MATHLIBNAME, NULL, NULL);
	copy_lib(L, env, LUA_UTF8LIBNAME, NULL, NULL);
	copy_lib(L, env, LUA_COLIBNAME, NULL, NULL);
	copy_lib(L, env, LUA_OSLIBNAME, os_safe, NULL);

	lua_getfield(L, env, LUA_OSLIBNAME);
	mark_removed(L, -1, "os.", os_removed);
	lua_pop(L, 1);

	lua_getfield(L, env, LUA_COLIBNAME);
	lua_getfield(L, -1, "resume");
	lua_pushcclosure(L, sb_coroutine, 1);
	lua_setfield(L, -2, "resume");
	lua_getfield(L, -1, "close");
	lua_pushcclosure(L, sb_coroutine, 1);
	lua_setfield(L, -2, "close");
	lua_pop(L, 1);
}

/* ======================================================== files, and graded runs */

static char write_dir[PATH_MAX]; /* --write-dir, made absolute; "" when none */

void sandbox_set_write_dir(const char *dir)
{
	if (!realpath(dir, write_dir))
		snprintf(write_dir, sizeof(write_dir), "%s", dir);
}

/* The file dot() is asked to write (its first or second argument), or 0. */
static int dot_file_arg(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TSTRING)
		return 2;
	if (lua_type(L, 1) == LUA_TSTRING && (lua_isnoneornil(L, 2) || lua_istable(L, 2))) {
		const char *ext = strrchr(lua_tostring(L, 1), '.');
		if (ext && (strcmp(ext, ".svg") == 0 || strcmp(ext, ".png") == 0 ||
			    strcmp(ext, ".pdf") == 0 || strcmp(ext, ".dot") == 0))
			return 1;
	}
	return 0;
}

/* Checks @name (a plain file name) and pushes --write-dir/@name; raises otherwise. */
static void push_write_path(lua_State *L, const char *name)
{
	struct stat st;

	if (!write_dir[0])
		luaL_error(L, "dot: a script writes files only where the command line says: "
			   "give kobj --write-dir DIR and dot(\"%s\") writes into DIR "
			   "(at the prompt, :dot FILE writes anywhere)", name);
	if (!name[0] || name[0] == '.' || strchr(name, '/'))
		luaL_error(L, "dot: '%s' is not a plain file name: a script writes only "
			   "into --write-dir, never into other folders", name);
	lua_pushfstring(L, "%s/%s", write_dir, name);
	if (lstat(lua_tostring(L, -1), &st) == 0 && !S_ISREG(st.st_mode))
		luaL_error(L, "dot: %s is not a regular file (a symbolic link?); refused",
			   lua_tostring(L, -1));
}

/* An options table (the last argument) naming a file: a copy of it with the file inside
 * --write-dir replaces it. Return: whether there was one. */
static bool options_file(lua_State *L, int n)
{
	if (n < 1 || !lua_istable(L, n) || lua_getfield(L, n, "file") != LUA_TSTRING) {
		if (n >= 1 && lua_istable(L, n))
			lua_pop(L, 1);
		return false;
	}
	push_write_path(L, lua_tostring(L, -1));            /* [file path] */
	lua_newtable(L);                                    /* [file path copy] */
	lua_pushnil(L);
	while (lua_next(L, n)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -4);
	}
	lua_insert(L, -2);                                  /* [file copy path] */
	lua_setfield(L, -2, "file");
	lua_replace(L, n);
	lua_pop(L, 1);
	return true;
}

/* dot(...): the binding's (upvalue 1), with a file only inside --write-dir. */
static int sb_dot(lua_State *L)
{
	int file = dot_file_arg(L);
	int n = lua_gettop(L), status;

	if (file) {
		push_write_path(L, lua_tostring(L, file));
		lua_replace(L, file);
	} else if (options_file(L, n)) {
		file = n;
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	kobj_lua_allow_files(L, file != 0);
	status = lua_pcall(L, n, LUA_MULTRET, 0);
	kobj_lua_allow_files(L, 0);
	if (status != LUA_OK)
		return lua_error(L);
	return lua_gettop(L);
}

static int sb_no_reset(lua_State *L)
{
	return luaL_error(L, "reset() is not available while a lesson is checked");
}

/* Sets @name in the environment at @env and in its own copy of the module table. */
static void set_both(lua_State *L, int env, const char *name)
{
	lua_getfield(L, env, "kobject");
	lua_pushvalue(L, -2);
	lua_setfield(L, -2, name);
	lua_pop(L, 1);
	lua_setfield(L, env, name);
}

void sandbox_new_env(lua_State *L)
{
	static const char *const removed[] = {
		"io", "package", "require", "debug", "dofile", "loadfile", "loadstring", NULL,
	};
	int env;

	lua_newtable(L);
	env = lua_gettop(L);
	add_base(L, env);
	add_libs(L, env);
	kobj_lua_install(L, env);
	/* each environment has a copy of the module table: no script changes another's */
	lua_newtable(L);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &module_key);
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -5);
	}
	lua_pop(L, 1);
	lua_setfield(L, env, "kobject");
	lua_getfield(L, env, "dot");
	lua_pushcclosure(L, sb_dot, 1);
	set_both(L, env, "dot");
	mark_removed(L, env, "", removed);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &env_key);
}

void sandbox_graded_env(lua_State *L)
{
	sandbox_push_env(L);
	lua_pushcfunction(L, sb_no_reset);
	set_both(L, lua_gettop(L) - 1, "reset");
	lua_pop(L, 1);
}

void sandbox_use_env(lua_State *L, int idx)
{
	lua_pushvalue(L, idx);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &env_key);
}

void sandbox_fall_back(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	lua_createtable(L, 0, 1);
	sandbox_push_env(L);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, idx);
}

void sandbox_push_env(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &env_key);
}

/* ============================================================================ loading */

/* Replaces the fresh main chunk's _ENV (its first upvalue) with the sandbox's. */
static int set_env(lua_State *L, int status)
{
	if (status == LUA_OK) {
		sandbox_push_env(L);
		if (lua_setupvalue(L, -2, 1) == NULL)
			lua_pop(L, 1);
	}
	return status;
}

int sandbox_loadbuffer(lua_State *L, const char *s, size_t len, const char *chunkname)
{
	return set_env(L, luaL_loadbufferx(L, s, len, chunkname, "t"));
}

int sandbox_loadfile(lua_State *L, const char *path)
{
	if (path && strcmp(path, "-") == 0)
		path = NULL;
	return set_env(L, luaL_loadfilex(L, path, "t"));
}
