/*
 * What the Lua side of simulated threads shares between its files: the state of one
 * explore(), replay() or run_threads() (race_program.c runs it for core/race, race_lua.c
 * offers the Lua functions), and the locks (lock_lua.c).
 */
#ifndef KOBJ_RACE_LUA_H
#define KOBJ_RACE_LUA_H

#include "core/race/race.h"
#include "lua_bindings/internal.h"

#define MAX_ALLOWED 16

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

/* race_program.c */
/* Whether threads are running now (one explore(), replay() or run_threads() at a time). */
bool kl_race_running(void);
/*
 * [args...] -> [args... program]: the program of explore() or replay() from arguments
 * @first on: a table {setup=, [1..n] = threads, options...}, or setup, thread1, ...
 * Raises for anything malformed, naming @op.
 */
void kl_race_read_program(lua_State *L, int first, const char *op);
/* The run's settings and @o from the program at @program. */
void kl_race_configure(lua_State *L, int program, struct lrace *r,
		       struct kobj_race_options *o);
/* The run of the program at @program begins; from here nothing raises until end(). */
void kl_race_begin(lua_State *L, struct lrace *r, struct kl_ctx *ctx, int program);
void kl_race_end(lua_State *L);
/* The program core/race runs: @r's callbacks. */
struct kobj_race_program kl_race_program(struct lrace *r);
/* Frees what @r holds (not @r itself). */
void kl_race_free(struct lrace *r);

/* lock_lua.c: spin_lock and the rest, added to the module table on top. */
void kl_open_locks(lua_State *L);

#endif
