/*
 * The model's side of simulated threads. Without a scheduler there is one thread, and a
 * lock it cannot take is one nobody will ever release: a deadlock, reported as such.
 */
#include <errno.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

/* Installed by the race explorer (core/race); NULL: one thread. */
void (*kobj_sched_switch)(struct kcall *c, enum kobj_sched_what what);
int (*kobj_sched_block)(struct kcall *c, const void *lock, bool (*ready)(const void *lock));

void kobj_sched_point(struct kcall *c, enum kobj_sched_what what)
{
	if (kobj_sched_switch)
		kobj_sched_switch(c, what);
}

int kobj_sched_wait(struct kcall *c, const void *lock, bool (*ready)(const void *lock))
{
	char where[256];

	if (ready(lock))
		return 0;
	if (kobj_sched_block)
		return kobj_sched_block(c, lock, ready);
	kobj_diagnose(c, KOBJ_DIAG_DEADLOCK, 0,
		    kobj_xstrdup("INFO: task blocked for more than 120 seconds."),
		    kobj_xasprintf("%s() at %s waits for a lock that no running code will ever "
				   "release (it was taken and never released): the task would "
				   "hang here forever. The sandbox gave up (-EDEADLK).", c->op,
				   kobj_site_where(c->w, c->site, where)));
	return -EDEADLK;
}
