/*
 * What the race explorer's files share: the host threads (threads.c) or, in the browser,
 * the fibers (fibers.c) that carry simulated threads, the CPU they pass (cpu.c), one run
 * under the scheduler (scheduler.c), the path of decisions the explorer backtracks over
 * (explore.c) and schedule strings (schedule.c).
 */
#ifndef KOBJ_RACE_INTERNAL_H
#define KOBJ_RACE_INTERNAL_H

#include <stdint.h>
#ifdef __EMSCRIPTEN__
#include <emscripten/fiber.h>
#else
#include <pthread.h>
#include <semaphore.h>
#endif

#include "core/model/sched.h"
#include "core/race/race.h"
#include "core/world/world_internal.h"

#define DEFAULT_MAX_SCHEDULES 100000
#define DEFAULT_MAX_STEPS 10000
#define FAIR_STEPS 1000 /* steps in a row before a thread not explored lets another run */

/* ========================================================================= footprints */

/* A thing a step used: (res << 56) | id, and whether the step changed it. */
struct race_use {
	uint64_t key;
	bool write;
};

/* What one step used, sorted by key, each key once. */
struct race_footprint {
	struct race_use *uses;
	size_t n, cap;
};

void race_fp_add(struct race_footprint *fp, enum kobj_sched_res res, uintptr_t id, bool write);
/* Sorts and merges: each key once, written if any use wrote it. */
void race_fp_close(struct race_footprint *fp);
/* Two steps are dependent when one changes something the other uses. */
bool race_fp_conflict(const struct race_footprint *a, const struct race_footprint *b);
/* The same for steps of two runs: record ids mean the same in both, addresses may not,
 * so any two addresses are taken for one. */
bool race_fp_conflict_across(const struct race_footprint *a, const struct race_footprint *b);
void race_fp_copy(struct race_footprint *dst, const struct race_footprint *src);
void race_fp_free(struct race_footprint *fp);

/* ========================================================================= the path */

typedef uint32_t race_set; /* bit t: thread t (1..KOBJ_RACE_MAX_THREADS) */

/* A decision of a run: which threads could take the next step, and which one did. */
struct race_node {
	race_set enabled;
	race_set backtrack;        /* threads the explorer must still try here */
	race_set done;             /* threads tried here */
	race_set sleep;            /* threads whose step from here leads only to orders
				    * already explored (Godefroid's sleep sets) */
	struct race_footprint asleep[KOBJ_RACE_MAX_THREADS + 1]; /* the step of each
				    * thread asleep or done here */
	unsigned char chosen;      /* the thread that took the step */
	unsigned char prev;        /* the thread of the step before (0 at the start) */
	unsigned preemptions;      /* before this decision */
	struct race_footprint fp;  /* what the step used */
	unsigned clock[KOBJ_RACE_MAX_THREADS + 1]; /* steps (index + 1) it comes after */
};

struct race_path {
	struct race_node *nodes;
	size_t n, cap;
};

void race_path_free(struct race_path *path);

/* ========================================================================= threads */

/* What a simulated thread has on its CPU between two points: the origin noted for the
 * next call, and the world's notes about the call in progress. */
struct race_cpu {
	struct kobj_note noted;
	unsigned long long last_take, next_put;
	unsigned next_put_obj;
	bool site_from_c;
};

enum race_state { RACE_READY, RACE_BLOCKED, RACE_DONE };

struct race_thread {
	struct race *race;
	unsigned id;
#ifdef __EMSCRIPTEN__
	emscripten_fiber_t fiber;  /* [0]: the caller's context */
	char *stacks;              /* the fiber's C stack and asyncify's (malloc'd) */
#else
	pthread_t host;
	bool started;              /* the host thread exists */
	sem_t go;                  /* posted when the thread gets the CPU */
#endif
	enum race_state state;
	const void *lock;          /* RACE_BLOCKED: waiting until ready(lock) */
	bool (*ready)(const void *lock);
	bool deadlocked;           /* woken because every thread waited: the wait fails */
	struct race_cpu cpu;
};

/* One exploration or replay: the host threads, and the run in progress. */
struct race {
	const struct kobj_race_program *p;
	struct race_thread t[KOBJ_RACE_MAX_THREADS + 1]; /* [0]: the caller */
#ifndef __EMSCRIPTEN__
	sem_t done;                /* the caller waits here while the threads run */
	bool quit;                 /* the host threads end */
#endif
	unsigned running;

	/* the run in progress */
	struct kobj_sched_hooks hooks;
	struct race_path *path;    /* its decisions (kept by the explorer between runs) */
	size_t depth;              /* decisions made so far */
	size_t replay;             /* the first this many are taken from the path */
	bool exploring;            /* decisions are nodes of the path, to branch over */
	const char *forced;        /* not exploring: these digits (a schedule replayed) */
	size_t nforced;
	unsigned char *choices;    /* the thread of each step of the run */
	size_t choices_cap;
	size_t keep;               /* the schedule's shortest form: the first this many */
	unsigned streak;           /* steps the same thread took in a row (FAIR_STEPS) */
	bool recording;            /* exploring, and not after a deadlock or the step limit */
	unsigned max_steps;
	bool reduce;               /* partial-order reduction: look for races */
	bool naive;                /* every enabled thread is to be tried at each decision */
	int preemptions;           /* the bound, < 0: none */
	unsigned long analysed;    /* steps before this one were analysed in an earlier run */
	struct race_footprint cur; /* the step in progress */
	struct kobj_world *step_world;
	size_t log_mark;           /* events in its log when the step began */
	struct kobj_race_run run;
	char *run_error;
	char *run_schedule;
	bool nondeterministic;     /* a replayed decision found other threads able to run */
};

/* threads.c, or fibers.c in the browser */
/* Makes a carrier per simulated thread, parked. Return: 0, or -1 (@err says). */
int race_threads_start(struct race *r, char *err, size_t size);
/* Ends and frees them. */
void race_threads_stop(struct race *r);
/* Hands the CPU from @from to @to (0: the caller), saving and restoring their CPUs. */
void race_pass(struct race *r, unsigned from, unsigned to);
/* Waits until thread @me (0: the caller) gets the CPU back. */
void race_wait(struct race *r, unsigned me);

/* cpu.c */
/* What race_pass does with the CPU's state: @from's saved, @to's restored, @to runs. */
void race_hand_over(struct race *r, unsigned from, unsigned to);

/* scheduler.c */
/* Runs the threads once to their end: exploring, taking @r->replay decisions from the
 * path and then the rule; else following @r->forced, then the rule. Fills @r->run. */
void race_run(struct race *r);
/* Thread @me's body returned: the CPU goes on, to the caller when every thread is done. */
void race_thread_exit(struct race *r, unsigned me);
/* The thread the rule picks: @prev if it can run, else the lowest that can. */
unsigned race_default(race_set enabled, unsigned prev);

/* The threads of @want that node @n may choose within the preemption bound. */
race_set race_allowed(const struct race *r, const struct race_node *n, race_set want);

/* explore.c: the clock of the step just recorded at @i, and with partial-order reduction
 * the races it is in: the other orders to try. */
void race_analyse(struct race *r, size_t i);

/* schedule.c */
/* The schedule of the first @n steps' threads @choices. Return: malloc'd. */
char *race_schedule_text(const unsigned char *choices, size_t n);

#endif
