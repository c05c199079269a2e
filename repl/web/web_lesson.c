/*
 * The course in the browser. A check is the one `kobj lesson check` runs (lesson_run.c),
 * so both give the same verdict. A demo runs in a coroutine: when it asks for a
 * prediction, lesson_ask yields to the page, which has no standard input to block on,
 * and the demo goes on when the answer comes back (web_demo_answer).
 */
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include <lauxlib.h>
#include <lua.h>

#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"
#include "repl/web/web.h"

static struct course course;
static int demo_ref = LUA_NOREF; /* the demo waiting for an answer, in the registry */

/* Lesson @n of the course the worker installed, or NULL with a message. */
static const struct lesson *lesson_numbered(int n)
{
	char arg[16];

	if (course.count == 0 && course_find(&course) != 0)
		return NULL;
	snprintf(arg, sizeof(arg), "%d", n);
	return course_lesson(&course, arg);
}

/**
 * web_check() - check @file (a student's exercise) against lesson @n, printing what
 * `kobj lesson check` prints about each check and what the kernel would have said
 * Return: {"passed":P,"failed":F,"error":true|false} as JSON; the world is the one the
 * check left, so the page can draw it.
 */
EMSCRIPTEN_KEEPALIVE const char *web_check(int n, const char *file)
{
	static char json[80];
	const struct lesson *l = web_L ? lesson_numbered(n) : NULL;
	struct verdict v = { .lua_error = true };

	if (l) {
		printf("Checking %s against lesson %d (%s):\n", file, l->number, l->title);
		fflush(stdout);
		v = lesson_check(web_L, l, file);
		lesson_print_findings(web_L);
		fflush(stdout);
	}
	snprintf(json, sizeof(json), "{\"passed\":%d,\"failed\":%d,\"error\":%s}", v.passed,
		 v.failed, v.lua_error ? "true" : "false");
	return web_keep_text(json);
}

/* ============================================================================= demos */

/* lesson_ask(prompt) in a demo: the page asks, and the answer is what this returns. */
static int ask(lua_State *L)
{
	lua_settop(L, 1);
	return lua_yield(L, 1);
}

static void drop_demo(void)
{
	luaL_unref(web_L, LUA_REGISTRYINDEX, demo_ref);
	demo_ref = LUA_NOREF;
}

/* Prints the error on top of @co with its traceback, as kobj_docall's handler would. */
static void report_demo_error(lua_State *co, int status)
{
	struct kobj_limits *lim = limits_of(web_L);
	const char *msg = lua_tostring(co, -1);
	char buf[160];

	if (status == LUA_ERRMEM && lim->fatal == KOBJ_FATAL_MEMORY)
		msg = limits_message(lim, buf, sizeof(buf));
	luaL_traceback(web_L, co, msg ? msg : "(error object is not a string)", 0);
	kobj_report(web_L, status, NULL);
}

/* Runs the demo until it ends or asks; @nargs values on its stack go to lesson_ask. */
static int resume_demo(lua_State *co, int nargs)
{
	struct kobj_limits *lim = limits_of(web_L);
	int nres = 0, status;

	limits_arm(lim);
	status = lua_resume(co, web_L, nargs, &nres);
	if (status == LUA_ERRMEM && lim->cap && lim->mem_armed)
		lim->fatal = KOBJ_FATAL_MEMORY;
	lim->mem_armed = false; /* the traceback may need memory past the cap */
	if (status != LUA_OK && status != LUA_YIELD)
		report_demo_error(co, status);
	limits_disarm(lim);
	fflush(stdout);
	if (status == LUA_YIELD) {
		lua_pop(co, nres);
		return WEB_ASK;
	}
	drop_demo();
	return status == LUA_OK ? WEB_DONE : WEB_ERROR;
}

static int demo(int n)
{
	const struct lesson *l = web_L ? lesson_numbered(n) : NULL;
	lua_State *co;

	if (!l)
		return WEB_ERROR;
	drop_demo();
	lua_settop(web_L, 0);
	if (lesson_demo_load(web_L, l) != LUA_OK)
		return WEB_ERROR;
	sandbox_push_env(web_L);
	lua_pushcfunction(web_L, ask);
	lua_setfield(web_L, -2, "lesson_ask");
	lua_pop(web_L, 1);
	co = lua_newthread(web_L); /* inherits the limits' hook */
	lua_insert(web_L, -2);
	lua_xmove(web_L, co, 1); /* the demo */
	demo_ref = luaL_ref(web_L, LUA_REGISTRYINDEX);
	return resume_demo(co, 0);
}

/**
 * web_demo() - run lesson @n's demo in a fresh world, as `kobj lesson run` does
 * Return: WEB_DONE, WEB_ERROR (printed), or WEB_ASK when it waits for a prediction.
 */
EMSCRIPTEN_KEEPALIVE int web_demo(int n)
{
	return web_keep(demo(n));
}

static int demo_answer(const char *answer)
{
	lua_State *co;

	if (!web_L || demo_ref == LUA_NOREF) {
		kobj_message(NULL, "no demo is waiting for a prediction");
		return WEB_ERROR;
	}
	lua_rawgeti(web_L, LUA_REGISTRYINDEX, demo_ref);
	co = lua_tothread(web_L, -1);
	lua_pop(web_L, 1);
	if (answer)
		lua_pushstring(co, answer);
	else
		lua_pushnil(co);
	return resume_demo(co, 1);
}

/**
 * web_demo_answer() - give the waiting demo the student's prediction
 * @answer: the text typed, or NULL to skip (the demo then shows the answer)
 * Return: as web_demo().
 */
EMSCRIPTEN_KEEPALIVE int web_demo_answer(const char *answer)
{
	return web_keep(demo_answer(answer));
}

/* web_demo_cancel() - forget a demo that waits for a prediction (the world stays). */
EMSCRIPTEN_KEEPALIVE void web_demo_cancel(void)
{
	if (web_L)
		drop_demo();
}
