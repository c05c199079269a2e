/*
 * Running user code, the way lua.c does: one docall() for every chunk, a message handler
 * that appends a traceback, and Ctrl-C turned into a Lua error by a hook that the signal
 * handler sets (the handler itself calls no Lua function but lua_sethook).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl/kobj.h"

/* The state the SIGINT handler stops; set only while docall() runs. */
static lua_State *volatile running_L;

/* Installs @handler for SIGINT; the previous action goes to @old (may be NULL). */
static void set_sigint(void (*handler)(int), struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, old);
}

/* Ctrl-C while code runs: stop at the next instruction. A second Ctrl-C before the hook
 * fires (code stuck in C) ends the process, as in lua.c. */
static void on_sigint(int sig)
{
	lua_State *L = running_L;

	signal(sig, SIG_DFL);
	if (L)
		limits_interrupt(limits_of(L));
}

/* Calls __tostring on the error object (pcall'd by msghandler, under the limits). */
static int error_tostring(lua_State *L)
{
	luaL_tolstring(L, 1, NULL);
	return 1;
}

/*
 * The message handler: a string error gets a traceback; another value uses its
 * __tostring, run protected and under the limits like any other script code, or is named
 * by type. A stop by a limit gets the stop's own message and runs no script code at all.
 * The memory cap is lifted only for the traceback, which is the program's own work.
 */
static int msghandler(lua_State *L)
{
	struct kobj_limits *lim = limits_of(L);
	const char *msg = NULL;
	char buf[160];

	if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER) {
		msg = lua_tostring(L, 1);
	} else if (lim->fatal != KOBJ_FATAL_NONE) {
		msg = limits_message(lim, buf, sizeof(buf));
	} else if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
		lua_pop(L, 1);
		lua_pushcfunction(L, error_tostring);
		lua_pushvalue(L, 1);
		int status = lua_pcall(L, 1, 1, 0);

		if (status == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
			msg = lua_tostring(L, -1);
		else if (limits_uncatchable(L, status))
			msg = limits_message(lim, buf, sizeof(buf));
	}
	lim->mem_armed = false;
	if (msg == NULL)
		msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
	luaL_traceback(L, L, msg, 1);
	return 1;
}

int kobj_docall(lua_State *L, int narg, int nres)
{
	struct kobj_limits *lim = limits_of(L);
	int base = lua_gettop(L) - narg; /* the function's index */
	struct sigaction old;
	int status;

	lua_pushcfunction(L, msghandler);
	lua_insert(L, base);
	running_L = L;
	limits_arm(lim);
	set_sigint(on_sigint, &old);
	status = lua_pcall(L, narg, nres, base);
	sigaction(SIGINT, &old, NULL);
	running_L = NULL;
	if (status != LUA_OK)
		limits_uncatchable(L, status); /* notes a memory stop */
	if (status != LUA_ERRRUN && lim->fatal != KOBJ_FATAL_NONE) {
		char buf[160];

		/* no handler ran for a memory error, or the code finished although a
		 * finalizer was stopped meanwhile: the stop ends the call all the same */
		if (status == LUA_OK) {
			lua_settop(L, base);
			status = LUA_ERRRUN;
		} else {
			lua_pop(L, 1);
		}
		lim->mem_armed = false;
		lua_pushstring(L, limits_message(lim, buf, sizeof(buf)));
	}
	limits_disarm(lim);
	lua_remove(L, base);
	return status;
}

void kobj_message(const char *progname, const char *msg)
{
	const char *on = kobj_color_stderr ? "\x1b[31m" : "";
	const char *off = kobj_color_stderr ? "\x1b[0m" : "";

	fflush(stdout);
	if (progname)
		fprintf(stderr, "%s: ", progname);
	fprintf(stderr, "%s%s%s\n", on, msg, off);
	fflush(stderr);
}

int kobj_report(lua_State *L, int status, const char *progname)
{
	if (status != LUA_OK) {
		const char *msg = lua_tostring(L, -1);

		kobj_message(progname, msg ? msg : "(error object is not a string)");
		lua_pop(L, 1);
	}
	return status;
}
