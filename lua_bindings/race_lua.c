/*
 * Simulated kernel threads from Lua (core/race): spawn() and run_threads() in a script,
 * explore() over every schedule that matters, replay() of one. The program they run is
 * race_program.c's; the locks threads take are lock_lua.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/race_lua.h"

static const char schedule_key = 's'; /* registry: kobj --schedule, or nil */
static const char program_key = 'p';  /* registry: the last program explored */
static const char spawned_key = 't';  /* registry: the threads spawn() queued */

/* ====================================================================== results */

/* What a Lua function hands back: an exploration's result, or one run's. */
struct outcome {
	const struct kobj_race_result *res; /* explore(), or NULL */
	const struct lrace *r;              /* the run: replay(), run_threads() */
	const char *failure;
};

static void set_string(lua_State *L, const char *key, const char *value)
{
	if (!value)
		return;
	lua_pushstring(L, value);
	lua_setfield(L, -2, key);
}

static void set_number(lua_State *L, const char *key, double value)
{
	if (value < 9007199254740992.0)
		lua_pushinteger(L, (lua_Integer)value);
	else
		lua_pushnumber(L, value);
	lua_setfield(L, -2, key);
}

static void set_boolean(lua_State *L, const char *key, bool value)
{
	lua_pushboolean(L, value);
	lua_setfield(L, -2, key);
}

/* [outcome] -> [outcome table] */
static int push_outcome(lua_State *L)
{
	const struct outcome *out = lua_touserdata(L, 1);
	const struct kobj_race_result *res = out->res;

	lua_createtable(L, 0, 10);
	if (res) {
		set_boolean(L, "ok", res->failing == 0);
		set_string(L, "schedule", res->schedule);
		set_string(L, "failure", res->failure);
		set_number(L, "schedules", (double)res->schedules);
		set_number(L, "naive", res->naive);
		set_number(L, "failing", (double)res->failing);
		set_boolean(L, "complete", res->complete);
		if (res->nfailures) {
			lua_createtable(L, (int)res->nfailures, 0);
			for (size_t i = 0; i < res->nfailures; i++) {
				lua_pushstring(L, res->failures[i]);
				lua_rawseti(L, -2, (lua_Integer)i + 1);
			}
			lua_setfield(L, -2, "failures");
		}
		return 1;
	}
	set_boolean(L, "ok", out->failure == NULL);
	set_string(L, "schedule", out->r->schedule);
	set_string(L, "failure", out->failure);
	set_number(L, "steps", (double)out->r->steps);
	set_boolean(L, "deadlock", out->r->deadlock);
	set_string(L, "error", out->r->run_error);
	return 1;
}

/* Pushes the outcome's table, protected; raises only after the C memory is freed. */
static int give(lua_State *L, struct outcome *out, struct lrace *r, char *failure,
		struct kobj_race_result *res)
{
	lua_pushcfunction(L, push_outcome);
	lua_pushlightuserdata(L, out);
	int status = lua_pcall(L, 1, 1, 0);
	free(failure);
	if (res)
		kobj_race_result_free(res);
	kl_race_free(r);
	return status == LUA_OK ? 1 : lua_error(L);
}

/* ====================================================================== running */

static void refuse_nested(lua_State *L, struct kl_ctx *ctx, const char *op)
{
	if (kl_race_running())
		luaL_error(L, "%s: threads are running already: a simulated thread cannot run "
			   "threads of its own", op);
	if (ctx->busy)
		luaL_error(L, "%s: cannot run threads from inside a release, show, store or "
			   "hotplug method", op);
}

/* The schedule kobj --schedule gave, or NULL. */
static const char *given_schedule(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &schedule_key);
	const char *s = lua_tostring(L, -1); /* the registry keeps it */
	lua_pop(L, 1);
	return s;
}

static void check_schedule(lua_State *L, const char *schedule, unsigned nthreads,
			   const char *op)
{
	const char *bad = schedule ? kobj_race_check_schedule(schedule, nthreads) : NULL;
	if (bad)
		luaL_error(L, "%s: schedule '%s' %s (this program has %d thread%s)", op, schedule,
			   bad, (int)nthreads, nthreads == 1 ? "" : "s");
}

/* One run of the program at @program under @schedule; pushes its outcome. */
static int run_once(lua_State *L, struct kl_ctx *ctx, int program, const char *schedule,
		    bool fresh, const char *op)
{
	struct lrace r = { .fresh = fresh, .leaks_ok = !fresh };
	struct kobj_race_options o;
	char err[600], *failure = NULL;

	kl_race_configure(L, program, &r, &o);
	check_schedule(L, schedule, r.nthreads, op);
	kl_race_begin(L, &r, ctx, program);
	struct kobj_race_program p = kl_race_program(&r);
	int rc = kobj_race_replay(&p, schedule, &failure, err, sizeof(err));
	kl_race_end(L);
	if (rc != 0) {
		kl_race_free(&r);
		return luaL_error(L, "%s: %s", op, err);
	}
	for (unsigned t = 1; !fresh && t <= r.nthreads; t++) {
		if (r.errors[t]) {
			char msg[1024];
			snprintf(msg, sizeof(msg), "%s: thread %u raised an error: %s", op, t,
				 r.errors[t]);
			free(failure);
			kl_race_free(&r);
			return luaL_error(L, "%s", msg);
		}
	}
	struct outcome out = { NULL, &r, failure };
	return give(L, &out, &r, failure, NULL);
}

/***
 * explore(setup, thread1, thread2, ...) or explore{setup=, thread1, ..., teardown=,
 * check=, reduce=, preemptions=, max_schedules=, all=, leaks=, allow=}: runs the threads
 * under every schedule that matters, each run in a fresh world (setup()'s results are
 * every thread's arguments). A run fails on a diagnostic (not in allow), a thread's
 * error, teardown() raising or check() returning false, or objects left behind (unless
 * leaks = false). With kobj --schedule S, only S runs, as replay(S).
 * @treturn table {ok=, schedule= (the first failing), failure=, schedules=, naive=,
 *   failing=, complete=, failures= (with all = true)}
 */
static int l_explore(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	refuse_nested(L, ctx, "explore");
	kl_race_read_program(L, 1, "explore");
	int program = lua_gettop(L);
	lua_pushvalue(L, program);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &program_key);
	const char *forced = given_schedule(L);
	if (forced)
		return run_once(L, ctx, program, forced, true, "explore");

	struct lrace r = { .fresh = true };
	struct kobj_race_options o;
	struct kobj_race_result res;
	kl_race_configure(L, program, &r, &o);
	kl_race_begin(L, &r, ctx, program);
	struct kobj_race_program p = kl_race_program(&r);
	kobj_race_explore(&p, &o, &res);
	kl_race_end(L);
	if (res.error) {
		char msg[1024];
		snprintf(msg, sizeof(msg), "explore: %s", res.error);
		kobj_race_result_free(&res);
		kl_race_free(&r);
		return luaL_error(L, "%s", msg);
	}
	struct outcome out = { &res, &r, NULL };
	return give(L, &out, &r, NULL, &res);
}

/***
 * replay(schedule [, setup, thread1, ...]): one run under @schedule, in a fresh world
 * that stays for :tree, :log and the rest; without threads, the last explore()'s.
 * @treturn table {ok=, schedule=, failure=, steps=, deadlock=, error=}
 */
static int l_replay(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *schedule = luaL_checkstring(L, 1);
	refuse_nested(L, ctx, "replay");
	if (lua_gettop(L) > 1) {
		kl_race_read_program(L, 2, "replay");
	} else if (lua_rawgetp(L, LUA_REGISTRYINDEX, &program_key) == LUA_TNIL) {
		return luaL_error(L, "replay: nothing to replay: give the program, as in "
				  "replay(schedule, setup, thread1, thread2), or explore() it first");
	}
	return run_once(L, ctx, lua_gettop(L), schedule, true, "replay");
}

/***
 * run_threads([schedule]): runs the threads spawn() queued, in the current world, to
 * their end, under @schedule (or kobj --schedule, or the rule); a thread's error is
 * raised once all have finished.
 * @treturn table {ok=, schedule=, failure= (the first diagnostic), steps=, deadlock=, error=}
 */
static int l_run_threads(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *schedule = lua_isnoneornil(L, 1) ? given_schedule(L)
						      : luaL_checkstring(L, 1);
	refuse_nested(L, ctx, "run_threads");
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &spawned_key) != LUA_TTABLE ||
	    lua_rawlen(L, -1) == 0)
		return luaL_error(L, "run_threads: no thread to run: spawn(function() ... end) "
				  "queues one");
	lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
	lua_setfield(L, -2, "n");
	lua_pushnil(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &spawned_key); /* run once, whatever happens */
	return run_once(L, ctx, lua_gettop(L), schedule, false, "run_threads");
}

/***
 * spawn(fn, ...): queues a simulated kernel thread that will run fn(...); run_threads()
 * runs them. Return: its number (1, 2, ...).
 */
static int l_spawn(lua_State *L)
{
	kl_getctx(L);
	if (lua_type(L, 1) != LUA_TFUNCTION)
		return luaL_error(L, "spawn: give the thread's function, not a %s",
				  luaL_typename(L, 1));
	if (kl_race_running())
		return luaL_error(L, "spawn: a simulated thread cannot spawn another: spawn them "
				  "all, then run_threads()");
	int nargs = lua_gettop(L) - 1;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &spawned_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &spawned_key);
	}
	lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
	if (n >= KOBJ_RACE_MAX_THREADS)
		return luaL_error(L, "spawn: at most %d threads", KOBJ_RACE_MAX_THREADS);
	lua_createtable(L, 1, 1);                 /* [fn args... spawned entry] */
	lua_pushvalue(L, 1);
	lua_rawseti(L, -2, 1);
	lua_createtable(L, nargs, 1);
	for (int i = 1; i <= nargs; i++) {
		lua_pushvalue(L, i + 1);
		lua_rawseti(L, -2, i);
	}
	lua_pushinteger(L, nargs);
	lua_setfield(L, -2, "n");
	lua_setfield(L, -2, "args");
	lua_rawseti(L, -2, n + 1);
	lua_pushinteger(L, n + 1);
	return 1;
}

/* current_thread(): the simulated thread running this code (0: the main program). */
static int l_current_thread(lua_State *L)
{
	lua_pushinteger(L, kobj_race_current());
	return 1;
}

/* ======================================================================= opening */

const char *kobj_lua_set_schedule(lua_State *L, const char *schedule)
{
	const char *bad = schedule ? kobj_race_check_schedule(schedule, KOBJ_RACE_MAX_THREADS)
				   : NULL;
	if (bad)
		return bad;
	if (schedule)
		lua_pushstring(L, schedule);
	else
		lua_pushnil(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &schedule_key);
	return NULL;
}

static const luaL_Reg functions[] = {
	{ "spawn", l_spawn },
	{ "run_threads", l_run_threads },
	{ "explore", l_explore },
	{ "replay", l_replay },
	{ "current_thread", l_current_thread },
	{ NULL, NULL },
};

void kl_open_race(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_open_locks(L);
}
