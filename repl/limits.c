/*
 * Limits that stop runaway scripts: a cap on the memory the sandbox holds (Lua's, counted
 * by the allocator given to lua_newstate; the core's, which counts its own and refuses
 * simulated kernel allocations past the cap; and the bindings', measured on the process
 * heap) and a budget of VM instructions per call (a count hook), which work done in C is
 * charged to (limits_charge). Ctrl-C goes through the same hook, so there is one place
 * that stops code.
 *
 * The bindings note their own work done in C (kobj_lua_take_work()); it is charged at the
 * next tick or the next limits_charge().
 *
 * Once a limit has stopped a call, the stop is "fatal" until the call returns to the
 * program: the hook then fires at every instruction of every Lua function and raises
 * again, and the sandbox's pcall re-raises, so no Lua mechanism can catch the stop and
 * carry on for more than one instruction.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"

#if defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer's allocator replaces malloc's; it counts what is in use itself. */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* Instructions between two ticks of the hook: cheap, yet Ctrl-C feels instant. */
#define HOOK_STEP 1000

/* Bytes that count as one instruction when a script's code makes Lua allocate them. */
#define ALLOC_BYTES_PER_UNIT 16

/* Bytes the core may allocate before the heap is measured again. */
#define MEASURE_STEP ((size_t)256 * 1024)

/* Hook ticks between two measurements of the heap, at the least. */
#define MEASURE_TICKS 64

#define MIB ((size_t)1024 * 1024)

void limits_init(struct kobj_limits *lim, size_t max_memory_mib,
		 unsigned long long max_instructions)
{
	memset(lim, 0, sizeof(*lim));
	lim->cap = max_memory_mib > SIZE_MAX / MIB ? SIZE_MAX : max_memory_mib * MIB;
	lim->budget = max_instructions;
	lim->fatal = KOBJ_FATAL_NONE;
}

/* Bytes the whole process holds on its heap now (Lua's and the core's). */
static size_t heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
#endif
}

/*
 * The share of the heap that Lua's allocator does not account for: the core's and the
 * bindings' memory. Measuring walks the allocator's free lists, which takes long on a
 * fragmented heap, so the next measurement waits in proportion (about 5% of the time).
 */
static void measure(struct kobj_limits *lim)
{
	struct timespec t0, t1;
	size_t heap;
	long us;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	heap = heap_in_use();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
	lim->core = heap > lim->used ? heap - lim->used : 0;
	lim->core_measured = kobj_mem_in_use();
	lim->ticks_to_measure = us * 4 > MEASURE_TICKS ? (unsigned)(us * 4) : MEASURE_TICKS;
}

static bool over_cap(const struct kobj_limits *lim, size_t more)
{
	size_t held = lim->used + lim->core;

	return lim->mem_armed && lim->cap && (more > lim->cap || held + more > lim->cap);
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
	if (nsize > old && over_cap(lim, nsize - old))
		return NULL; /* Lua collects garbage and retries once, then raises */
	if (nsize > old && lim->budget_armed) {
		/* copying into new memory is work done in C: the next tick charges it */
		lim->spent += (nsize - old) / ALLOC_BYTES_PER_UNIT;
		lim->total += (nsize - old) / ALLOC_BYTES_PER_UNIT;
	}
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

static void limits_hook(lua_State *L, lua_Debug *ar);

static void count_only(lua_State *L)
{
	lua_sethook(L, limits_hook, LUA_MASKCOUNT, HOOK_STEP);
}

/* From now on every Lua function stops at its next instruction (new threads inherit). */
static void stop_everywhere(lua_State *L, struct kobj_limits *lim)
{
	lua_sethook(L, limits_hook, LUA_MASKCOUNT, 1);
	if (lim->main && lim->main != L)
		lua_sethook(lim->main, limits_hook, LUA_MASKCOUNT, 1);
}

/* Raises the stop as an error at the line that was running (level 0 in a hook). */
static void stop(lua_State *L, struct kobj_limits *lim, enum kobj_fatal why)
{
	char buf[160];

	if (lim->fatal == KOBJ_FATAL_NONE)
		lim->fatal = why;
	if (lim->first_stop == KOBJ_FATAL_NONE)
		lim->first_stop = lim->fatal;
	stop_everywhere(L, lim);
	luaL_where(L, 0);
	lua_pushstring(L, limits_message(lim, buf, sizeof(buf)));
	lua_concat(L, 2);
	lua_error(L);
}

/* Whatever must stop the code now, or KOBJ_FATAL_NONE. Counts @units first. */
static enum kobj_fatal due(struct kobj_limits *lim, unsigned long long units)
{
	if (lim->interrupted) {
		lim->interrupted = 0;
		count_only(lim->main); /* back to counting only */
		return KOBJ_FATAL_INTERRUPT;
	}
	if (!lim->budget_armed)
		return KOBJ_FATAL_NONE;
	if (lim->fatal != KOBJ_FATAL_NONE)
		return lim->fatal;
	units += kobj_lua_take_work();
	lim->spent += units;
	lim->total += units;
	if (kobj_mem_in_use() > lim->core_measured + MEASURE_STEP ||
	    (units && (lim->ticks_to_measure == 0 || --lim->ticks_to_measure == 0)))
		measure(lim);
	if (lim->budget && lim->spent > lim->budget)
		return KOBJ_FATAL_BUDGET;
	if (over_cap(lim, 0) || kobj_mem_over_limit())
		return KOBJ_FATAL_MEMORY;
	return KOBJ_FATAL_NONE;
}

/*
 * The hook: every HOOK_STEP instructions, at every event just after Ctrl-C (the signal
 * handler switches the main thread to that), and at every instruction once a stop is
 * under way. Coroutines inherit the counting part.
 */
static void limits_hook(lua_State *L, lua_Debug *ar)
{
	struct kobj_limits *lim = limits_of(L);
	unsigned long long units = ar->event == LUA_HOOKCOUNT ? (unsigned)lua_gethookcount(L) : 0;
	enum kobj_fatal why = due(lim, units);

	if (why != KOBJ_FATAL_NONE) {
		stop(L, lim, why);
	}
}

void limits_charge(lua_State *L, unsigned long long units)
{
	struct kobj_limits *lim = limits_of(L);
	enum kobj_fatal why = due(lim, units);

	if (why != KOBJ_FATAL_NONE)
		stop(L, lim, why);
}

/* The bindings' way in, the registry's "kobject.charge": charges what the core noted
 * (kobj_lua_take_work) and raises if a limit says so. */
static int l_charge(lua_State *L)
{
	limits_charge(L, 0);
	return 0;
}

void limits_install(lua_State *L)
{
	count_only(L);
	if (lua_getfield(L, LUA_REGISTRYINDEX, "kobject.charge") == LUA_TNIL) {
		lua_pushcfunction(L, l_charge);
		lua_setfield(L, LUA_REGISTRYINDEX, "kobject.charge");
	}
	lua_pop(L, 1);
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
	kobj_mem_set_limit(lim->cap);
	measure(lim);
}

void limits_disarm(struct kobj_limits *lim)
{
	lim->mem_armed = false;
	lim->budget_armed = false;
	lim->interrupted = 0;
	kobj_mem_set_limit(0);
	if (lim->main)
		count_only(lim->main);
}

bool limits_uncatchable(lua_State *L, int status)
{
	struct kobj_limits *lim = limits_of(L);

	if (status == LUA_ERRMEM && lim->cap && lim->mem_armed)
		lim->fatal = KOBJ_FATAL_MEMORY;
	if (lim->fatal != KOBJ_FATAL_NONE && lim->first_stop == KOBJ_FATAL_NONE)
		lim->first_stop = lim->fatal;
	return lim->budget_armed && lim->fatal != KOBJ_FATAL_NONE;
}

const char *limits_reason(const struct kobj_limits *lim, enum kobj_fatal reason, char *buf,
			  size_t size)
{
	switch (reason) {
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

const char *limits_message(const struct kobj_limits *lim, char *buf, size_t size)
{
	return limits_reason(lim, lim->fatal, buf, size);
}
