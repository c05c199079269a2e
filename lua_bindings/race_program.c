/*
 * The program that core/race runs for explore(), replay() and run_threads(): each thread
 * a coroutine of the Lua state (lua_newthread), run by pcall on a host thread of its own
 * while the others wait at their scheduling points. Callbacks that a thread's calls
 * cause (release, show, uevent...) run on that thread's coroutine (kl_race_state), and
 * what the context notes about the binding call in progress (its origin, a uevent env,
 * a kset being created) goes with the CPU from thread to thread.
 *
 * The explorer calls back into C with no Lua frame of its own, so every Lua step it
 * asks for (the setup, the coroutines, teardown and check) runs in a protected C
 * function, and nothing raises through the explorer. During a run, registry[&run_key]
 * is { program, args, coroutines }: the program table { setup=, teardown=, check=,
 * [t] = { fn, args = } } and setup's results { ..., n = }.
 */
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/race_lua.h"

static const char run_key = 'r'; /* registry: the run in progress */

enum { RUN_PROGRAM = 1, RUN_ARGS, RUN_COROUTINES };

static struct lrace *active; /* the run in progress: one at a time */

lua_State *kl_race_state(struct kl_ctx *ctx)
{
	unsigned t = kobj_race_current();
	return active && active->ctx == ctx && t && active->co[t] ? active->co[t] : ctx->L;
}

static char *copy(const char *s)
{
	char *c = strdup(s ? s : "(error object is not a string)");
	if (!c)
		abort();
	return c;
}

/* A text a run cannot do without: out of memory here ends the process. */
static char *must(char *s)
{
	if (!s)
		abort();
	return s;
}

/* [] -> [run[slot]] */
static void push_run(lua_State *L, int slot)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &run_key);
	lua_rawgeti(L, -1, slot);
	lua_remove(L, -2);
}

/* ================================================================ the program in C */

static void switched(void *p, unsigned from, unsigned to)
{
	struct lrace *r = p;
	struct kl_ctx *ctx = r->ctx;
	r->cpu[from] = (struct kl_cpu){ ctx->file, ctx->line, ctx->creating, ctx->uevent_env,
				       ctx->uevent_token };
	ctx->file = r->cpu[to].file;
	ctx->line = r->cpu[to].line;
	ctx->creating = r->cpu[to].creating;
	ctx->uevent_env = r->cpu[to].uevent_env;
	ctx->uevent_token = r->cpu[to].uevent_token;
}

/* [args] -> []: pushes args[1..n] onto @co. */
static void push_args(lua_State *L, lua_State *co, int args)
{
	lua_Integer n = (lua_getfield(L, args, "n"), lua_tointeger(L, -1));
	lua_pop(L, 1);
	luaL_checkstack(co, (int)n + 2, "too many arguments for a thread");
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, args, i);
		lua_xmove(L, co, 1);
	}
}

/* [r] -> []: setup(), its results as run.args, a coroutine per thread holding
 * [msgh fn args...]. A setup error is kept in r->failed. */
static int prepare(lua_State *L)
{
	struct lrace *r = lua_touserdata(L, 1);
	lua_pushcfunction(L, kl_msgh);                         /* [r msgh] */
	push_run(L, RUN_PROGRAM);                              /* [r msgh program] */
	int n = 0;
	if (lua_getfield(L, 3, "setup") != LUA_TNIL) {         /* [r msgh program setup] */
		if (lua_pcall(L, 0, LUA_MULTRET, 2) != LUA_OK) {
			const char *msg = luaL_optstring(L, -1, "?");
			const char *tb = strstr(msg, "\nstack traceback:");
			int head = tb ? (int)(tb - msg) : (int)strlen(msg);
			bool stale = strstr(msg, "belongs to a world that was reset");
			r->failed = must(kl_asprintf("setup() raised an error: %.*s%s%s", head, msg,
					   stale ? " (each run starts in a fresh world, as after "
						   "reset(): make what the threads use, ktypes "
						   "included, in setup())" : "", msg + head));
			return 0;
		}
		n = lua_gettop(L) - 3;
	} else {
		lua_pop(L, 1);
	}
	lua_createtable(L, n, 1);                              /* [... results args] */
	lua_insert(L, 4);
	for (int i = n; i >= 1; i--)
		lua_rawseti(L, 4, i);
	lua_pushinteger(L, n);
	lua_setfield(L, 4, "n");                               /* [r msgh program args] */
	lua_createtable(L, (int)r->nthreads, 0);               /* [... args coroutines] */
	for (unsigned t = 1; t <= r->nthreads; t++) {
		lua_State *co = lua_newthread(L);
		lua_rawseti(L, 5, t);
		lua_pushcfunction(co, kl_msgh);
		lua_rawgeti(L, 3, t);                          /* [... {fn, args=}] */
		lua_rawgeti(L, -1, 1);
		lua_xmove(L, co, 1);
		/* spawn()'s own arguments, else setup's results */
		push_args(L, co, lua_getfield(L, -1, "args") == LUA_TTABLE ? lua_gettop(L) : 4);
		lua_pop(L, 2);
		r->co[t] = co;
		r->cpu[t] = (struct kl_cpu){ 0 };
	}
	lua_rawgetp(L, LUA_REGISTRYINDEX, &run_key);
	lua_pushvalue(L, 4);
	lua_rawseti(L, -2, RUN_ARGS);
	lua_pushvalue(L, 5);
	lua_rawseti(L, -2, RUN_COROUTINES);
	return 0;
}

/* Runs @fn(lightuserdata @r) protected; a memory error becomes r->failed. */
static void protect(struct lrace *r, lua_CFunction fn)
{
	lua_State *L = r->L;
	lua_pushcfunction(L, fn);
	lua_pushlightuserdata(L, r);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		free(r->failed);
		r->failed = copy(lua_tostring(L, -1));
		lua_pop(L, 1);
	}
}

static int setup(void *p, char *err, size_t size)
{
	struct lrace *r = p;

	for (unsigned t = 1; t <= r->nthreads; t++) {
		free(r->errors[t]);
		r->errors[t] = NULL;
	}
	if (r->fresh && kobj_lua_reset(r->L) != 0) {
		snprintf(err, size, "the world cannot be reset inside a release, show, store or "
			 "hotplug method");
		return -1;
	}
	protect(r, prepare);
	r->first_diag = kobj_diag_count(kobj_lua_world(r->L));
	if (!r->failed)
		return 0;
	snprintf(err, size, "%s", r->failed);
	free(r->failed);
	r->failed = NULL;
	return -1;
}

/* A thread's body, on its host thread: the coroutine's function, protected. */
static void thread(void *p, unsigned t)
{
	struct lrace *r = p;
	lua_State *co = r->co[t];

	if (lua_pcall(co, lua_gettop(co) - 2, 0, 1) != LUA_OK)
		r->errors[t] = copy(lua_tostring(co, -1));
	lua_settop(co, 0);
}

/* [program args] -> []: calls program[key](args...); its error into r->failed. A check
 * that returns false or nil fails too, with the message it returns after that. */
static void call_program(lua_State *L, struct lrace *r, const char *key)
{
	lua_pushcfunction(L, kl_msgh);
	int msgh = lua_gettop(L);
	if (lua_getfield(L, 1, key) == LUA_TNIL) {
		lua_settop(L, msgh - 1);
		return;
	}
	lua_Integer n = (lua_getfield(L, 2, "n"), lua_tointeger(L, -1));
	lua_pop(L, 1);
	luaL_checkstack(L, (int)n + 2, "too many values from setup()");
	for (lua_Integer i = 1; i <= n; i++)
		lua_rawgeti(L, 2, i);
	if (lua_pcall(L, (int)n, 2, msgh) != LUA_OK)
		r->failed = must(kl_asprintf("%s() raised an error: %s", key, lua_tostring(L, -1)));
	else if (strcmp(key, "check") == 0 && !lua_toboolean(L, -2))
		r->failed = lua_isstring(L, -1)
				    ? must(kl_asprintf("check() failed: %s", lua_tostring(L, -1)))
				    : copy("check() returned false");
	lua_settop(L, msgh - 1);
}

/* [r] -> []: teardown() then check(), the first failure kept in r->failed. */
static int conclude(lua_State *L)
{
	struct lrace *r = lua_touserdata(L, 1);
	lua_settop(L, 0);
	push_run(L, RUN_PROGRAM);
	push_run(L, RUN_ARGS);
	call_program(L, r, "teardown");
	if (!r->failed)
		call_program(L, r, "check");
	return 0;
}

/* The first failure of a run: a diagnostic, a thread's error, teardown or check, then
 * objects left behind. */
static char *verdict(void *p, const struct kobj_race_run *run)
{
	struct lrace *r = p;
	char *failure;

	free(r->schedule);
	free(r->run_error);
	r->schedule = copy(run->schedule);
	r->run_error = run->error ? copy(run->error) : NULL;
	r->deadlock = run->deadlock;
	r->steps = run->steps;
	protect(r, conclude);
	failure = kobj_race_world_verdict(r->first_diag, true, r->allowed);
	for (unsigned t = 1; !failure && t <= r->nthreads; t++)
		if (r->errors[t])
			failure = must(kl_asprintf("thread %u raised an error: %s", t, r->errors[t]));
	if (!failure) {
		failure = r->failed;
		r->failed = NULL;
	}
	if (!failure && !r->leaks_ok)
		failure = kobj_race_world_verdict(kobj_diag_count(kobj_lua_world(r->L)), false,
						  NULL);
	free(r->failed);
	r->failed = NULL;
	return failure;
}

static void finish(void *p)
{
	struct lrace *r = p;
	for (unsigned t = 1; t <= r->nthreads; t++)
		r->co[t] = NULL;
}

void kl_race_free(struct lrace *r)
{
	for (unsigned t = 0; t <= KOBJ_RACE_MAX_THREADS; t++)
		free(r->errors[t]);
	free(r->failed);
	free(r->schedule);
	free(r->run_error);
}

/* ===================================================================== programs */

static const char *const option_names[] = {
	"setup", "teardown", "check", "reduce", "preemptions", "max_schedules", "all",
	"leaks", "allow", NULL,
};

static void check_function(lua_State *L, int idx, const char *op, const char *what, bool opt)
{
	if ((opt && lua_isnil(L, idx)) || lua_type(L, idx) == LUA_TFUNCTION)
		return;
	luaL_error(L, "%s: %s must be a function%s, not a %s", op, what, opt ? " (or nil)" : "",
		   luaL_typename(L, idx));
}

/* program[t] = {fn} for the function at @idx, into the program at @program; the thread
 * gets setup's results. */
static void add_thread(lua_State *L, int program, int idx, unsigned t, const char *op)
{
	char what[32];
	snprintf(what, sizeof(what), "thread %u", t);
	check_function(L, idx, op, what, false);
	lua_createtable(L, 1, 0);
	lua_pushvalue(L, idx);
	lua_rawseti(L, -2, 1);
	lua_rawseti(L, program, t);
}

static void check_thread_count(lua_State *L, lua_Integer n, const char *op)
{
	if (n < 1 || n > KOBJ_RACE_MAX_THREADS)
		luaL_error(L, "%s: give 1 to %d thread functions, not %d", op,
			   KOBJ_RACE_MAX_THREADS, (int)n);
}

/* The options of the table at @tbl, checked, into the program on top. */
static void read_options(lua_State *L, int tbl, const char *op)
{
	for (const char *const *key = option_names; *key; key++) {
		int type = lua_getfield(L, tbl, *key);
		if (strcmp(*key, "reduce") == 0 || strcmp(*key, "all") == 0 ||
		    strcmp(*key, "leaks") == 0) {
			if (type != LUA_TNIL && type != LUA_TBOOLEAN)
				luaL_error(L, "%s: %s must be true or false", op, *key);
		} else if (strcmp(*key, "preemptions") == 0 ||
			   strcmp(*key, "max_schedules") == 0) {
			lua_Integer min = strcmp(*key, "preemptions") == 0 ? 0 : 1;
			if (type != LUA_TNIL && (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < min))
				luaL_error(L, "%s: %s must be an integer of %d or more", op, *key,
					   (int)min);
		} else if (strcmp(*key, "allow") == 0) {
			if (type != LUA_TNIL && type != LUA_TTABLE)
				luaL_error(L, "%s: allow must be a list of diagnostic tags", op);
		} else {
			check_function(L, -1, op, *key, true);
		}
		lua_setfield(L, -2, *key);
	}
}

/* Whether @key (on top) is an option name or a thread number 1..n. */
static bool known_key(lua_State *L, lua_Integer n)
{
	if (lua_isinteger(L, -1))
		return lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n;
	if (lua_type(L, -1) != LUA_TSTRING)
		return false;
	for (const char *const *key = option_names; *key; key++)
		if (strcmp(*key, lua_tostring(L, -1)) == 0)
			return true;
	return false;
}

void kl_race_read_program(lua_State *L, int first, const char *op)
{
	int top = lua_gettop(L);
	lua_newtable(L);
	int program = lua_gettop(L);
	if (lua_istable(L, first) && top == first) {
		lua_Integer n = (lua_Integer)lua_rawlen(L, first);
		check_thread_count(L, n, op);
		lua_pushnil(L);
		while (lua_next(L, first)) {
			lua_pop(L, 1);
			if (!known_key(L, n))
				luaL_error(L, "%s: unknown option '%s' (options: setup, teardown, "
					   "check, reduce, preemptions, max_schedules, all, leaks, "
					   "allow, and the threads as a list)", op,
					   luaL_tolstring(L, -1, NULL));
		}
		for (lua_Integer t = 1; t <= n; t++) {
			lua_rawgeti(L, first, t);
			add_thread(L, program, lua_gettop(L), (unsigned)t, op);
			lua_pop(L, 1);
		}
		read_options(L, first, op);
	} else {
		check_function(L, first, op, "setup", true);
		check_thread_count(L, top - first, op);
		lua_pushvalue(L, first);
		lua_setfield(L, program, "setup");
		for (int i = first + 1; i <= top; i++)
			add_thread(L, program, i, (unsigned)(i - first), op);
	}
	lua_pushinteger(L, (lua_Integer)lua_rawlen(L, program));
	lua_setfield(L, program, "n");
}

void kl_race_configure(lua_State *L, int program, struct lrace *r,
		       struct kobj_race_options *o)
{
	*o = (struct kobj_race_options){ .preemptions = -1 };
	r->nthreads = (unsigned)(lua_getfield(L, program, "n"), lua_tointeger(L, -1));
	if (lua_getfield(L, program, "leaks") == LUA_TBOOLEAN)
		r->leaks_ok = !lua_toboolean(L, -1);
	o->naive = lua_getfield(L, program, "reduce") == LUA_TBOOLEAN && !lua_toboolean(L, -1);
	o->keep_going = lua_getfield(L, program, "all") == LUA_TBOOLEAN && lua_toboolean(L, -1);
	o->preemptions = lua_getfield(L, program, "preemptions") == LUA_TNUMBER
				 ? (int)lua_tointeger(L, -1) : -1;
	o->max_schedules = lua_getfield(L, program, "max_schedules") == LUA_TNUMBER
				   ? (unsigned long)lua_tointeger(L, -1) : 0;
	lua_pop(L, 6);
	if (lua_getfield(L, program, "allow") == LUA_TTABLE) {
		size_t n = 0;
		for (lua_Integer i = 1; n < MAX_ALLOWED; i++, n++) {
			if (lua_rawgeti(L, -1, i) != LUA_TSTRING) {
				lua_pop(L, 1);
				break;
			}
			r->allowed[n] = lua_tostring(L, -1); /* the program table keeps it */
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
}

/* ====================================================================== the run */

bool kl_race_running(void)
{
	return active != NULL;
}

void kl_race_begin(lua_State *L, struct lrace *r, struct kl_ctx *ctx, int program)
{
	lua_createtable(L, 3, 0);
	lua_pushvalue(L, program);
	lua_rawseti(L, -2, RUN_PROGRAM);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &run_key);
	r->L = L;
	r->ctx = ctx;
	active = r;
}

void kl_race_end(lua_State *L)
{
	active = NULL;
	lua_pushnil(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &run_key);
}

struct kobj_race_program kl_race_program(struct lrace *r)
{
	return (struct kobj_race_program){ r->nthreads, setup, thread, switched, verdict, finish,
					   r };
}

