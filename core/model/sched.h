/*
 * Simulated kernel threads: the scheduler's hooks inside the model. A kernel call that a
 * real kernel could interleave with another CPU's marks its steps as scheduling points;
 * with no scheduler running (the usual case) they cost a test and do nothing.
 */
#ifndef KOBJ_SCHED_H
#define KOBJ_SCHED_H

#include <stdbool.h>

struct kcall;

/* What a thread is about to do at a scheduling point (the log's SCHED events). */
enum kobj_sched_what {
	KOBJ_SCHED_CALL,      /* a kernel-named call begins */
	KOBJ_SCHED_LOOKUP,    /* a lookup found its object, before taking a reference */
	KOBJ_SCHED_UNLOCK,    /* a lock was released */
	KOBJ_SCHED_DECREMENT, /* a count was decremented, before the release it causes */
	KOBJ_SCHED_UNLINK,    /* an object left its kset, before its directory goes */
	KOBJ_SCHED_WAIT,      /* blocked on a lock */
};

struct kobj_sched;

/* A point where another thread may run; Return: nothing, it returns when this thread
 * runs again. */
void kobj_sched_point(struct kcall *c, enum kobj_sched_what what);
/*
 * kobj_sched_wait() - wait until @ready(@lock) holds, letting other threads run
 * Return: 0 when it holds; -EDEADLK (reported) when no thread can ever make it hold.
 */
int kobj_sched_wait(struct kcall *c, const void *lock, bool (*ready)(const void *lock));

#endif
