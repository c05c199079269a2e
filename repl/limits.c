/*
 * Limits that stop runaway scripts: a cap on the memory Lua holds (enforced by the
 * allocator given to lua_newstate) and a budget of VM instructions per call (enforced by
 * a count hook). Ctrl-C goes through the same hook, so there is one place that stops code.
 *
 * Once a limit has stopped a call, the stop is "fatal" until the call returns to the
 * program: the hook raises again at its next tick and the sandbox's pcall re-raises, so a
 * script cannot catch the error and carry on.
 */
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl/kobj.h"

/* Instructions between two ticks of the hook: cheap, yet Ctrl-C feels instant. */
#define HOOK_STEP 1000

#define MIB ((size_t)1024 * 1024)

void limits_init(struct kobj_limits *lim, size_t max_memory_mib,
		 unsigned long long max_instructions)
{
	memset(lim, 0, sizeof(*lim));
	lim->cap = max_memory_mib > SIZE_MAX / MIB ? SIZE_MAX : max_memory_mib * MIB;
	lim->budget = max_instructions;
	lim->fatal = KOBJ_FATAL_NONE;
}

/*
 * limits_alloc() - lua_Alloc with a cap. For a new block @ptr is NULL and @osize holds a
 * type tag, not a size. Refuses growth past the cap while armed; never refuses a shrink.
 */
void *limits_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct kobj_limits *lim = ud;
	size_t old = ptr ? osize : 0;
	void *p;

	if (nsize == 0) {
		free(ptr);
		lim->used -= old;
		return NULL;
	}
	if (lim->mem_armed && lim->cap && nsize > old &&
	    (nsize - old > lim->cap || lim->used + (nsize - old) > lim->cap))
		return NULL; /* Lua collects garbage and retries once, then raises */
	p = realloc(ptr, nsize);
	if (p == NULL)
		return NULL;
	lim->used = lim->used - old + nsize;
	return p;
}

struct kobj_limits *limits_of(lua_State *L)
{
	void *ud = NULL;

	lua_getallocf(L, &ud);
	return ud;
}

/* Raises the stop as an error at the line that was running (level 0 in a hook). */
static void stop(lua_State *L, struct kobj_limits *lim)
{
	char buf[160];

	luaL_where(L, 0);
	lua_pushstring(L, limits_message(lim, buf, sizeof(buf)));
	lua_concat(L, 2);
	lua_error(L);
}

/*
 * The hook: every HOOK_STEP instructions, or at every event just after Ctrl-C (the signal
 * handler switches the main thread to that). Coroutines inherit the counting part.
 */
static void limits_hook(lua_State *L, lua_Debug *ar)
{
	struct kobj_limits *lim = limits_of(L);

	if (lim->interrupted) {
		lim->interrupted = 0;
		lim->fatal = KOBJ_FATAL_INTERRUPT;
		limits_install(lim->main); /* back to counting only */
		limits_install(L);
		stop(L, lim);
	}
	if (!lim->budget_armed)
		return;
	if (lim->fatal == KOBJ_FATAL_INTERRUPT || lim->fatal == KOBJ_FATAL_BUDGET)
		stop(L, lim);
	if (ar->event == LUA_HOOKCOUNT && lim->budget) {
		lim->spent += HOOK_STEP;
		if (lim->spent > lim->budget) {
			lim->fatal = KOBJ_FATAL_BUDGET;
			stop(L, lim);
		}
	}
}

void limits_install(lua_State *L)
{
	lua_sethook(L, limits_hook, LUA_MASKCOUNT, HOOK_STEP);
}

/* Async-signal context: only a flag and lua_sethook, as lua.c's `laction` does. */
void limits_interrupt(struct kobj_limits *lim)
{
	int mask = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT;

	lim->interrupted = 1;
	if (lim->main)
		lua_sethook(lim->main, limits_hook, mask, 1);
}

void limits_arm(struct kobj_limits *lim)
{
	lim->spent = 0;
	lim->fatal = KOBJ_FATAL_NONE;
	lim->interrupted = 0;
	lim->mem_armed = true;
	lim->budget_armed = true;
}

void limits_disarm(struct kobj_limits *lim)
{
	lim->mem_armed = false;
	lim->budget_armed = false;
	lim->interrupted = 0;
	if (lim->main)
		limits_install(lim->main);
}

bool limits_uncatchable(lua_State *L, int status)
{
	struct kobj_limits *lim = limits_of(L);

	if (status == LUA_ERRMEM && lim->cap && lim->mem_armed)
		lim->fatal = KOBJ_FATAL_MEMORY;
	return lim->budget_armed && lim->fatal != KOBJ_FATAL_NONE;
}

const char *limits_message(const struct kobj_limits *lim, char *buf, size_t size)
{
	switch (lim->fatal) {
	case KOBJ_FATAL_BUDGET:
		snprintf(buf, size,
			 "instruction budget exhausted (%llu instructions; "
			 "raise it with --max-instructions)",
			 lim->budget);
		break;
	case KOBJ_FATAL_MEMORY:
		snprintf(buf, size,
			 "memory limit reached (%zu MiB; raise it with --max-memory)",
			 lim->cap / MIB);
		break;
	case KOBJ_FATAL_INTERRUPT:
		snprintf(buf, size, "interrupted!");
		break;
	default:
		snprintf(buf, size, "no limit reached");
		break;
	}
	return buf;
}
