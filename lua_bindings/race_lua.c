/*
 * Simulated kernel threads from Lua (core/race): spawn() and run_threads() in a script,
 * explore() over every schedule that matters, replay() of one, and the locks threads
 * take (a kset's list_lock, a subsystem's rwsem, locks of their own).
 *
 * Each thread is a coroutine of the Lua state (lua_newthread), run by pcall on a host
 * thread of its own while the others wait at their scheduling points. Callbacks that a
 * thread's calls cause (release, show, uevent...) run on that thread's coroutine
 * (kl_race_state), and what the context notes about the binding call in progress (its
 * origin, a uevent env, a kset being created) goes with the CPU from thread to thread.
 *
 * The explorer calls back into C with no Lua frame of its own, so every Lua step it
 * asks for (the setup, the coroutines, teardown and check) runs in a protected C
 * function, and nothing raises through the explorer. During a run, registry[&run_key]
 * is { program, args, coroutines }: the program table { setup=, teardown=, check=,
 * [t] = { fn, args... , n = } } and setup's results { ..., n = }.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/race/race.h"
#include "lua_bindings/internal.h"

static const char schedule_key = 's'; /* registry: kobj --schedule, or nil */
static const char program_key = 'p';  /* registry: the last program explored */
static const char spawned_key = 't';  /* registry: the threads spawn() queued */
static const char run_key = 'r';      /* registry: the run in progress */

enum { RUN_PROGRAM = 1, RUN_ARGS, RUN_COROUTINES };

#define MAX_ALLOWED 16
#define SPINLOCK_META "spinlock_t"
#define RWSEM_META "rw_semaphore"

/* What the context notes about the binding call in progress, per thread. */
struct kl_cpu {
	const char *file;
	int line;
	struct kl_creating *creating;
	struct kobj_uevent_env *uevent_env;
	unsigned long uevent_token;
};

/* One explore(), replay() or run_threads() in progress. */
struct lrace {
	lua_State *L;            /* the caller's state: setup, teardown, check */
	struct kl_ctx *ctx;
	unsigned nthreads;
	bool fresh;              /* each run in a fresh world (explore, replay) */
	bool leaks_ok;           /* objects left at the end are no failure */
	const char *allowed[MAX_ALLOWED + 1]; /* diagnostic tags that are no failure */
	lua_State *co[KOBJ_RACE_MAX_THREADS + 1];
	char *errors[KOBJ_RACE_MAX_THREADS + 1];
	struct kl_cpu cpu[KOBJ_RACE_MAX_THREADS + 1];
	size_t first_diag;
	char *failed;            /* setup, teardown or check raised: their message */
	/* the last run, for the result */
	char *schedule, *run_error;
	bool deadlock;
	size_t steps;
};

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

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!s)
		abort();
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
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
			r->failed = format("setup() raised an error: %.*s%s%s", head, msg,
					   stale ? " (each run starts in a fresh world, as after "
						   "reset(): make what the threads use, ktypes "
						   "included, in setup())" : "", msg + head);
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
		r->failed = format("%s() raised an error: %s", key, lua_tostring(L, -1));
	else if (strcmp(key, "check") == 0 && !lua_toboolean(L, -2))
		r->failed = lua_isstring(L, -1) ? format("check() failed: %s", lua_tostring(L, -1))
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
			failure = format("thread %u raised an error: %s", t, r->errors[t]);
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

static void lrace_free(struct lrace *r)
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

/*
 * [args...] -> [args... program]: the program of explore() or replay() from arguments
 * @first on: a table {setup=, [1..n] = threads, options...}, or setup, thread1, ...
 */
static void read_program(lua_State *L, int first, const char *op)
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

/* The run's settings from the program at @program. */
static void configure(lua_State *L, int program, struct lrace *r, struct kobj_race_options *o)
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
	lrace_free(r);
	return status == LUA_OK ? 1 : lua_error(L);
}

/* ====================================================================== running */

static void refuse_nested(lua_State *L, struct kl_ctx *ctx, const char *op)
{
	if (active)
		luaL_error(L, "%s: threads are running already: a simulated thread cannot run "
			   "threads of its own", op);
	if (ctx->busy)
		luaL_error(L, "%s: cannot run threads from inside a release, show, store or "
			   "hotplug method", op);
}

/* [... program] -> [... program]: the run begins; from here nothing raises until end(). */
static void begin(lua_State *L, struct lrace *r, struct kl_ctx *ctx, int program)
{
	lua_createtable(L, 3, 0);
	lua_pushvalue(L, program);
	lua_rawseti(L, -2, RUN_PROGRAM);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &run_key);
	r->L = L;
	r->ctx = ctx;
	active = r;
}

static void end(lua_State *L)
{
	active = NULL;
	lua_pushnil(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &run_key);
}

static struct kobj_race_program program_of(struct lrace *r)
{
	return (struct kobj_race_program){ r->nthreads, setup, thread, switched, verdict, finish,
					   r };
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

	configure(L, program, &r, &o);
	check_schedule(L, schedule, r.nthreads, op);
	begin(L, &r, ctx, program);
	struct kobj_race_program p = program_of(&r);
	int rc = kobj_race_replay(&p, schedule, &failure, err, sizeof(err));
	end(L);
	if (rc != 0) {
		lrace_free(&r);
		return luaL_error(L, "%s: %s", op, err);
	}
	for (unsigned t = 1; !fresh && t <= r.nthreads; t++) {
		if (r.errors[t]) {
			lua_pushfstring(L, "%s: thread %d raised an error: %s", op, (int)t,
					r.errors[t]);
			free(failure);
			lrace_free(&r);
			return lua_error(L);
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
	read_program(L, 1, "explore");
	int program = lua_gettop(L);
	lua_pushvalue(L, program);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &program_key);
	const char *forced = given_schedule(L);
	if (forced)
		return run_once(L, ctx, program, forced, true, "explore");

	struct lrace r = { .fresh = true };
	struct kobj_race_options o;
	struct kobj_race_result res;
	configure(L, program, &r, &o);
	begin(L, &r, ctx, program);
	struct kobj_race_program p = program_of(&r);
	kobj_race_explore(&p, &o, &res);
	end(L);
	if (res.error) {
		lua_pushfstring(L, "explore: %s", res.error);
		kobj_race_result_free(&res);
		lrace_free(&r);
		return lua_error(L);
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
		read_program(L, 2, "replay");
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
	if (active)
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

/* ======================================================================== locks */

static spinlock_t *check_spinlock(lua_State *L, const char *op)
{
	spinlock_t *lock = luaL_testudata(L, 1, SPINLOCK_META);
	struct kl_handle *h = lock ? NULL : kl_tohandle(L, 1);
	if (lock)
		return lock;
	if (!h || h->type != KL_KSET)
		luaL_error(L, "%s: give a kset (its list_lock) or a lock from new_spinlock(), not "
			   "a %s", op, kl_typename(L, 1));
	return &((struct kset *)kl_view(kl_check(L, 1, KL_KSET, op), KL_KSET))->list_lock;
}

static struct rw_semaphore *check_rwsem(lua_State *L, const char *op)
{
	struct rw_semaphore *sem = luaL_testudata(L, 1, RWSEM_META);
	struct kl_handle *h = sem ? NULL : kl_tohandle(L, 1);
	if (sem)
		return sem;
	if (!h || h->type != KL_SUBSYS)
		luaL_error(L, "%s: give a subsystem (its rwsem) or a lock from new_rwsem(), not "
			   "a %s", op, kl_typename(L, 1));
	return &((struct subsystem *)kl_view(kl_check(L, 1, KL_SUBSYS, op), KL_SUBSYS))->rwsem;
}

static int l_spin_lock(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	spinlock_t *lock = check_spinlock(L, "spin_lock");
	kl_enter(L, ctx);
	(spin_lock)(lock);
	kl_leave(ctx);
	return 0;
}

static int l_spin_unlock(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	spinlock_t *lock = check_spinlock(L, "spin_unlock");
	kl_enter(L, ctx);
	(spin_unlock)(lock);
	kl_leave(ctx);
	return 0;
}

/* down_read, down_write (0 or -EDEADLK), up_read, up_write of a subsystem or rwsem. */
static int rwsem_call(lua_State *L, const char *op, int (*take)(struct rw_semaphore *),
		      void (*give_back)(struct rw_semaphore *))
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct rw_semaphore *sem = check_rwsem(L, op);
	int err = 0;
	kl_enter(L, ctx);
	if (take)
		err = take(sem);
	else
		give_back(sem);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return take ? 1 : 0;
}

static int l_down_read(lua_State *L)
{
	return rwsem_call(L, "down_read", (down_read), NULL);
}

static int l_down_write(lua_State *L)
{
	return rwsem_call(L, "down_write", (down_write), NULL);
}

static int l_up_read(lua_State *L)
{
	return rwsem_call(L, "up_read", NULL, (up_read));
}

static int l_up_write(lua_State *L)
{
	return rwsem_call(L, "up_write", NULL, (up_write));
}

/* lockdep_is_held(lock): whether the running thread holds @lock, a kset's list_lock, a
 * subsystem's rwsem or a lock of a program's own. */
static int l_lockdep_is_held(lua_State *L)
{
	struct kl_handle *h = kl_tohandle(L, 1);
	bool rwsem = luaL_testudata(L, 1, RWSEM_META) || (h && h->type == KL_SUBSYS);
	if (rwsem) {
		lua_pushboolean(L, rwsem_is_held(check_rwsem(L, "lockdep_is_held")));
	} else {
		const spinlock_t *lock = check_spinlock(L, "lockdep_is_held");
		lua_pushboolean(L, lock->holder && lock->holder == kobj_race_current() + 1);
	}
	return 1;
}

/* new_spinlock() and new_rwsem(): locks of a program's own, unlocked. */
static int l_new_spinlock(lua_State *L)
{
	spinlock_t *lock = lua_newuserdatauv(L, sizeof(*lock), 0);
	spin_lock_init(lock);
	luaL_setmetatable(L, SPINLOCK_META);
	return 1;
}

static int l_new_rwsem(lua_State *L)
{
	struct rw_semaphore *sem = lua_newuserdatauv(L, sizeof(*sem), 0);
	init_rwsem(sem);
	luaL_setmetatable(L, RWSEM_META);
	return 1;
}

static int spinlock_tostring(lua_State *L)
{
	const spinlock_t *lock = luaL_checkudata(L, 1, SPINLOCK_META);
	if (lock->holder)
		lua_pushfstring(L, "spinlock (held by thread %d)", (int)lock->holder - 1);
	else
		lua_pushliteral(L, "spinlock (free)");
	return 1;
}

static int rwsem_tostring(lua_State *L)
{
	const struct rw_semaphore *sem = luaL_checkudata(L, 1, RWSEM_META);
	if (sem->writer)
		lua_pushfstring(L, "rw_semaphore (held for writing by thread %d)",
				(int)sem->writer - 1);
	else if (sem->readers)
		lua_pushliteral(L, "rw_semaphore (held for reading)");
	else
		lua_pushliteral(L, "rw_semaphore (free)");
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
	{ "spin_lock", l_spin_lock },
	{ "spin_unlock", l_spin_unlock },
	{ "down_read", l_down_read },
	{ "down_write", l_down_write },
	{ "up_read", l_up_read },
	{ "up_write", l_up_write },
	{ "lockdep_is_held", l_lockdep_is_held },
	{ "new_spinlock", l_new_spinlock },
	{ "new_rwsem", l_new_rwsem },
	{ NULL, NULL },
};

void kl_open_race(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	if (luaL_newmetatable(L, SPINLOCK_META)) {
		lua_pushcfunction(L, spinlock_tostring);
		lua_setfield(L, -2, "__tostring");
	}
	lua_pop(L, 1);
	if (luaL_newmetatable(L, RWSEM_META)) {
		lua_pushcfunction(L, rwsem_tostring);
		lua_setfield(L, -2, "__tostring");
	}
	lua_pop(L, 1);
}
