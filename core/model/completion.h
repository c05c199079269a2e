/*
 * struct completion (include/linux/completion.h) for a world with one host thread. What
 * another task would complete later is, here, either done already or done by the
 * world's delayed work: wait_for_completion() moves the virtual clock on, one tick at a
 * time, running the releases DEBUG_KOBJECT_RELEASE delayed, until the completion is
 * done. A wait nothing can end is the kernel's hung task: reported with its message
 * ("INFO: task insmod:1 blocked for more than 120 seconds."), and the call returns.
 */
#ifndef KOBJ_COMPLETION_H
#define KOBJ_COMPLETION_H

#include <limits.h>
#include <stdbool.h>

struct completion {
	unsigned int done; /* UINT_MAX: complete_all() */
};

#define COMPLETION_INITIALIZER(work) { 0 }
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
}

static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}

/* complete() - one waiter may go on; complete_all() - every waiter, from now on. */
void complete(struct completion *x);
void complete_all(struct completion *x);

/* wait_for_completion() - returns once @x is done (see above); a hung wait is reported. */
void wait_for_completion(struct completion *x);
/**
 * wait_for_completion_timeout() - wait at most @timeout ticks of the virtual clock
 * Return: 0 if it timed out, else the ticks left (at least 1). No hung-task report.
 */
unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout);
/* try_wait_for_completion() - Return: true (and one completion taken) if @x is done. */
bool try_wait_for_completion(struct completion *x);
/* completion_done() - Return: whether a wait would return at once. */
bool completion_done(struct completion *x);

#define wait_for_completion(x)             KOBJ_CALL((wait_for_completion)(x))
#define wait_for_completion_timeout(x, t)  KOBJ_CALL((wait_for_completion_timeout)(x, t))

#endif
