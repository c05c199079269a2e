/*
 * Completions (completion.h): a count of complete() calls, and waits that run the
 * world's delayed releases instead of sleeping, since those are the only other work a
 * sandbox has.
 */
#include "core/model/completion.h"
#include "core/model/insmod.h"
#include "core/model/model_internal.h"

void complete(struct completion *x)
{
	if (x->done != UINT_MAX)
		x->done++;
}

void complete_all(struct completion *x)
{
	x->done = UINT_MAX;
}

bool try_wait_for_completion(struct completion *x)
{
	if (!x->done)
		return false;
	if (x->done != UINT_MAX)
		x->done--;
	return true;
}

bool completion_done(struct completion *x)
{
	return x->done != 0;
}

/* Moves the clock a tick at a time while delayed releases are pending and @x is not
 * done, at most @ticks; Return: the ticks that passed. */
static unsigned long run_delayed(struct kobj_world *w, struct completion *x,
				 unsigned long ticks)
{
	unsigned long used = 0;
	while (!x->done && used < ticks && kobj_world_pending_releases(w)) {
		kobj_world_advance(w, 1);
		used++;
	}
	return used;
}

void (wait_for_completion)(struct completion *x)
{
	struct kcall c = kobj_call("wait_for_completion");
	char where[256];

	run_delayed(c.w, x, (unsigned long)-1);
	if (try_wait_for_completion(x))
		return;
	kobj_diagnose(&c, KOBJ_DIAG_DEADLOCK, 0,
		    kobj_xasprintf("INFO: task %s:1 blocked for more than 120 seconds.",
				   kobj_current_task()),
		    kobj_xasprintf("wait_for_completion() at %s waits for a completion that "
				   "nothing will complete: complete() was not called and no "
				   "delayed release is pending. The kernel's task would sleep "
				   "there for ever (the hung-task watchdog prints this after 120 "
				   "s); the sandbox returned, so the code after the wait runs.",
				   kobj_site_where(c.w, c.site, where)));
}

unsigned long (wait_for_completion_timeout)(struct completion *x, unsigned long timeout)
{
	struct kcall c = kobj_call("wait_for_completion_timeout");
	unsigned long used = run_delayed(c.w, x, timeout);

	if (try_wait_for_completion(x))
		return timeout - used > 0 ? timeout - used : 1;
	if (timeout > used) /* nobody will complete it: the whole timeout passes */
		kobj_world_advance(c.w, timeout - used);
	return 0;
}
