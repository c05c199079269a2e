/*
 * Simulated kernel threads: the scheduler's hooks inside the model. A kernel call that a
 * real kernel could interleave with another CPU's marks its steps as scheduling points;
 * with no scheduler installed (the usual case) they cost a test and do nothing.
 *
 * A scheduler (core/race) installs its hooks for the length of a run. At each point the
 * model logs a SCHED event (the thread, what it does next, the object) and lets the
 * scheduler run another thread; what each step between two points used (objects by
 * record, locks by address, the sysfs tree) is told to the scheduler as it happens, so
 * that steps which touch nothing in common need not be tried in both orders.
 */
#ifndef KOBJ_SCHED_H
#define KOBJ_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct kcall;
struct kobj_world;

/* What a thread is about to do at a scheduling point (the log's SCHED events, aux). */
enum kobj_sched_what {
	KOBJ_SCHED_CALL,      /* a kernel-named call begins */
	KOBJ_SCHED_LOOKUP,    /* a lookup found its object, before taking a reference */
	KOBJ_SCHED_UNLOCK,    /* a lock was released */
	KOBJ_SCHED_DECREMENT, /* a count reached zero, before the release it causes */
	KOBJ_SCHED_UNLINK,    /* an object's directory is gone, before it leaves its kset */
	KOBJ_SCHED_WAIT,      /* blocked on a lock */
	KOBJ_SCHED_GOING,     /* a module is going, before its exit function runs */
	KOBJ_SCHED_WHAT_COUNT
};

/* kobj_sched_what_name() - "call", "lookup", "unlock", ... for logs and pictures. */
const char *kobj_sched_what_name(unsigned what);

/* What a step used, for the scheduler's reduction. */
enum kobj_sched_res {
	KOBJ_RES_OBJECT = 1, /* an object or module, by record id */
	KOBJ_RES_ADDRESS,    /* a lock, a kref: anything shared that has no record */
	KOBJ_RES_SYSFS,      /* the sysfs tree: names looked up, made or removed */
	KOBJ_RES_ALL,        /* everything: a step whose footprint is unknown */
};

/* ======================================================== the scheduler's side */

struct kobj_sched_hooks {
	/* The running thread reached a point (its SCHED event is logged); returns when the
	 * scheduler runs it again. */
	void (*yield)(void *ctx);
	/* The running thread cannot go on until @ready(@lock). Return: 0 when it holds;
	 * -EDEADLK when every thread is waiting (the wait then fails). */
	int (*block)(void *ctx, const void *lock, bool (*ready)(const void *lock));
	/* The running step used @res @id, changing it if @write. */
	void (*touch)(void *ctx, enum kobj_sched_res res, uintptr_t id, bool write);
	void *ctx;
};

/* The hooks of the scheduler running now, or NULL: one thread. */
extern const struct kobj_sched_hooks *kobj_sched_hooks;

/* kobj_sched_install() - install @hooks (NULL: back to one thread). Return: the previous. */
const struct kobj_sched_hooks *kobj_sched_install(const struct kobj_sched_hooks *hooks);

/* ============================================================ the model's side */

/* kobj_sched_touch() - the running step used @res @id (changed it if @write). */
static inline void kobj_sched_touch(enum kobj_sched_res res, uintptr_t id, bool write)
{
	if (kobj_sched_hooks)
		kobj_sched_hooks->touch(kobj_sched_hooks->ctx, res, id, write);
}

/* A point where another thread may run; returns when this thread runs again. */
void kobj_sched_point(struct kcall *c, enum kobj_sched_what what);
/* The same, about the object with record id @obj. */
void kobj_sched_point_on(struct kcall *c, enum kobj_sched_what what, unsigned obj);
/*
 * kobj_sched_wait() - wait until @ready(@lock) holds, letting other threads run
 * @holders: the threads holding @lock (bit n: thread n), for the report of a deadlock
 * Return: 0 when it holds; -EDEADLK (reported) when no thread can ever make it hold.
 */
int kobj_sched_wait(struct kcall *c, const void *lock, bool (*ready)(const void *lock),
		    unsigned (*holders)(const void *lock));

/*
 * Reads and writes of sysfs files in progress (kernfs's active references): removing an
 * object's directory waits until no other thread is inside one of its show() or store().
 */
void kobj_sched_active(struct kobj_world *w, unsigned obj, bool begin);
/* Return: true if it waited (the caller checks again what may have changed meanwhile). */
bool kobj_sched_drain(struct kcall *c, unsigned obj);

#endif
