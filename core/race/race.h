/*
 * The race explorer: simulated kernel threads run one at a time under a deterministic
 * scheduler that switches only at the model's scheduling points (core/model/sched.h),
 * and an explorer that runs a small program under every schedule that matters.
 *
 * A program is a setup, a few threads (one C function each) and a verdict. Each run
 * starts from scratch (the setup makes a fresh world), so a schedule replays exactly.
 * Threads run on host threads of their own (threads.c; fibers in the browser, fibers.c),
 * but only one at a time: the CPU is a baton passed at scheduling points, so the world
 * is never used by two host threads at once (core/world/world.h) and each thread keeps
 * its own C stack between its steps.
 *
 * A schedule is written as the thread that ran each step, one digit per step ("1121"):
 * a step is what a thread does between two scheduling points. After the last digit each
 * thread runs on until it finishes or waits, and then the lowest-numbered thread that
 * can run goes on. A schedule as the explorer gives it stops at its last choice that
 * differs from that rule.
 *
 * Exploration is stateless model checking with dynamic partial-order reduction
 * (Flanagan and Godefroid, 2005): the steps of two threads are tried in both orders only
 * when they touch a common object, lock, module or the sysfs tree and one of them
 * changes it. An optional bound on preemptions (CHESS) runs only the schedules that
 * switch away from a thread that could have gone on at most that many times.
 */
#ifndef KOBJ_RACE_H
#define KOBJ_RACE_H

#include <stdbool.h>
#include <stddef.h>

/* Threads in one program (numbered 1..8; 0 is the caller: setup and verdict). */
#define KOBJ_RACE_MAX_THREADS 8

/* One run as the scheduler saw it. */
struct kobj_race_run {
	const char *schedule;  /* the run's schedule, shortest form */
	size_t steps;          /* steps taken, all threads together */
	unsigned thread_steps[KOBJ_RACE_MAX_THREADS + 1]; /* per thread (index 1..n) */
	bool deadlock;         /* every thread waited for another: their waits failed */
	bool too_long;         /* the step limit was reached: the rest ran by the rule */
	const char *error;     /* a schedule that named a thread which could not run, or NULL */
};

struct kobj_race_program {
	unsigned nthreads;     /* 1..KOBJ_RACE_MAX_THREADS */
	/* A run begins, on the caller's host thread: make a fresh world current and set
	 * up. Return: 0, or -1 to stop with a message in @err. */
	int (*setup)(void *ctx, char *err, size_t size);
	/* The body of thread @t (1..nthreads), on a host thread of its own. */
	void (*thread)(void *ctx, unsigned t);
	/* The CPU passes from thread @from to thread @to (0: the caller): per-thread state
	 * of the program's own to save and restore. May be NULL. */
	void (*switched)(void *ctx, unsigned from, unsigned to);
	/* The threads are done, on the caller's host thread. Return: NULL if the run
	 * passed, else a description of what went wrong (malloc'd, the explorer frees it). */
	char *(*verdict)(void *ctx, const struct kobj_race_run *run);
	/* After the verdict: the run's world may go. May be NULL. */
	void (*finish)(void *ctx);
	void *ctx;
};

struct kobj_race_options {
	bool naive;              /* every interleaving, no reduction */
	int preemptions;         /* at most this many preemptions; < 0: no bound */
	unsigned long max_schedules; /* stop after this many runs (0: 100000) */
	unsigned max_steps;      /* steps recorded per run (0: 10000) */
	bool keep_going;         /* run every schedule, collecting the distinct failures */
};

struct kobj_race_result {
	unsigned long schedules; /* runs made */
	double naive;            /* interleavings of the steps each thread took in the first
				  * run: what enumerating every order would run */
	unsigned long failing;   /* runs that failed */
	char *schedule;          /* the first failing run's schedule, or NULL */
	char *failure;           /* and what went wrong */
	char **failures;         /* keep_going: the distinct failures, sorted */
	size_t nfailures;
	bool complete;           /* every schedule the options allow was run (or, without
				  * keep_going, a failure was found) */
	char *error;             /* why it could not run (then nothing else is set), or NULL */
};

/*
 * kobj_race_explore() - run @p under every schedule that matters
 * Stops at the first failing run unless @o->keep_going. @o may be NULL (the defaults).
 * Return: 0, or -1 when @p could not run (@res->error says why). Free @res with
 * kobj_race_result_free() either way.
 */
int kobj_race_explore(const struct kobj_race_program *p, const struct kobj_race_options *o,
		      struct kobj_race_result *res);
void kobj_race_result_free(struct kobj_race_result *res);

/*
 * kobj_race_replay() - run @p once under @schedule ("" or NULL: by the rule alone)
 * The verdict goes to *@failure (malloc'd, NULL if it passed; @failure may be NULL);
 * the program's finish() runs, so a program that keeps its world keeps this run's.
 * Return: 0, or -1 with a message in @err (a malformed schedule, threads that could
 * not start, a setup that failed). A schedule that names a thread which cannot run at
 * its step is not an error here: the run goes on by the rule and @run->error says so.
 */
int kobj_race_replay(const struct kobj_race_program *p, const char *schedule,
		     char **failure, char *err, size_t size);

/* kobj_race_check_schedule() - Return: NULL if @s is a schedule for @nthreads threads,
 * else what is wrong with it (static text). */
const char *kobj_race_check_schedule(const char *s, unsigned nthreads);

/* kobj_race_current() - the simulated thread running now (0: the caller, or none). */
unsigned kobj_race_current(void);

/*
 * kobj_race_world_verdict() - what went wrong in the current world since its diagnostic
 * number @first_diag: the first diagnostic (its message and explanation), else the
 * objects never released (unless @leaks_ok). Diagnostics whose tag is in the
 * NULL-terminated @allowed (may be NULL) are not failures.
 * Return: NULL if nothing, else a malloc'd description.
 */
char *kobj_race_world_verdict(size_t first_diag, bool leaks_ok, const char *const *allowed);

#endif
