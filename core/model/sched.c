/*
 * The model's side of simulated threads. Without a scheduler there is one thread, and a
 * lock it cannot take is one nobody will ever release: a deadlock, reported as such. With
 * one, each point is logged and handed to it, and so is a wait that cannot end.
 */
#include <errno.h>
#include <stdio.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

const struct kobj_sched_hooks *kobj_sched_hooks;

/* Sysfs files being read or written by a simulated thread: kernfs's active references. */
struct kobj_sched {
	struct { unsigned obj, thread; } *active;
	size_t nactive, cap;
};

static const char *const what_names[KOBJ_SCHED_WHAT_COUNT] = {
	[KOBJ_SCHED_CALL] = "call",           [KOBJ_SCHED_LOOKUP] = "lookup",
	[KOBJ_SCHED_UNLOCK] = "unlock",       [KOBJ_SCHED_DECREMENT] = "decrement",
	[KOBJ_SCHED_UNLINK] = "unlink",       [KOBJ_SCHED_WAIT] = "wait",
	[KOBJ_SCHED_GOING] = "going",
};

const char *kobj_sched_what_name(unsigned what)
{
	return what < KOBJ_SCHED_WHAT_COUNT ? what_names[what] : "?";
}

const struct kobj_sched_hooks *kobj_sched_install(const struct kobj_sched_hooks *hooks)
{
	const struct kobj_sched_hooks *old = kobj_sched_hooks;
	kobj_sched_hooks = hooks;
	return old;
}

/* The SCHED event of a point: the thread (the world's), what it does next, the object. */
static void log_point(struct kcall *c, enum kobj_sched_what what, unsigned obj)
{
	const struct kobj_record *r = kobj_rec(c->w, obj);
	const struct kobj_ev_args a = { .op = c->op, .step = c->step, .aux = what };
	int count = r ? r->refcount : 0;
	kobj_log(c->w, KOBJ_EV_SCHED, r ? obj : 0, count, count, c->site, &a);
}

void kobj_sched_point_on(struct kcall *c, enum kobj_sched_what what, unsigned obj)
{
	if (!kobj_sched_hooks)
		return;
	log_point(c, what, obj);
	kobj_sched_hooks->yield(kobj_sched_hooks->ctx);
}

void kobj_sched_point(struct kcall *c, enum kobj_sched_what what)
{
	kobj_sched_point_on(c, what, 0);
}

/* "thread 2", "thread 1 and thread 3", "the main program" for the holders @mask. */
static void name_threads(unsigned mask, char *buf, size_t size)
{
	size_t n = 0;
	unsigned left = 0;

	for (unsigned m = mask; m; m &= m - 1)
		left++;
	snprintf(buf, size, "no thread");
	for (unsigned t = 0; t < 32 && n < size; t++) {
		if (!(mask & (1u << t)))
			continue;
		const char *sep = n == 0 ? "" : left == 1 ? " and " : ", ";
		left--;
		if (t == 0)
			n += (size_t)snprintf(buf + n, size - n, "%sthe main program", sep);
		else
			n += (size_t)snprintf(buf + n, size - n, "%sthread %u", sep, t);
	}
}

static void report_deadlock(struct kcall *c, unsigned holders)
{
	char where[256], who[128];
	unsigned me = c->w->thread;

	name_threads(holders, who, sizeof(who));
	kobj_diagnose(c, KOBJ_DIAG_DEADLOCK, 0,
		    kobj_xasprintf("INFO: task thread%u:%u blocked for more than 120 seconds.",
				   me, me),
		    kobj_xasprintf("%s() at %s (thread %u) waits for a lock that %s holds, and "
				   "no thread that could release it can run: they all wait too, "
				   "or have finished without releasing it. The task would hang "
				   "forever (a deadlock); locks must be taken in one order "
				   "everywhere and always released. The sandbox gave up on the "
				   "call (-EDEADLK).", c->op, kobj_site_where(c->w, c->site, where),
				   me, who));
}

int kobj_sched_wait(struct kcall *c, const void *lock, bool (*ready)(const void *lock),
		    unsigned (*holders)(const void *lock))
{
	char where[256];

	kobj_sched_touch(KOBJ_RES_ADDRESS, (uintptr_t)lock, false);
	if (ready(lock))
		return 0;
	if (kobj_sched_hooks) {
		log_point(c, KOBJ_SCHED_WAIT, 0);
		if (kobj_sched_hooks->block(kobj_sched_hooks->ctx, lock, ready) == 0)
			return 0;
		report_deadlock(c, holders(lock));
		return -EDEADLK;
	}
	kobj_diagnose(c, KOBJ_DIAG_DEADLOCK, 0,
		    kobj_xstrdup("INFO: task blocked for more than 120 seconds."),
		    kobj_xasprintf("%s() at %s waits for a lock that no running code will ever "
				   "release (it was taken and never released): the task would "
				   "hang here forever. The sandbox gave up (-EDEADLK).", c->op,
				   kobj_site_where(c->w, c->site, where)));
	return -EDEADLK;
}

/* ===================================================================== active files */

void kobj_sched_active(struct kobj_world *w, unsigned obj, bool begin)
{
	if (!kobj_sched_hooks || !obj)
		return;
	struct kobj_model *m = kobj_model(w);
	if (!m->sched)
		m->sched = kobj_xcalloc(1, sizeof(*m->sched));
	struct kobj_sched *s = m->sched;
	if (begin) {
		kobj_grow((void **)&s->active, &s->cap, s->nactive + 1, sizeof(*s->active));
		s->active[s->nactive].obj = obj;
		s->active[s->nactive++].thread = w->thread;
		return;
	}
	for (size_t i = s->nactive; i-- > 0;) {
		if (s->active[i].obj == obj && s->active[i].thread == w->thread) {
			s->active[i] = s->active[--s->nactive];
			return;
		}
	}
}

/* What a drain waits on: the world's active files, one object, another thread's. */
struct drain {
	struct kobj_world *w;
	unsigned obj;
};

static bool drained(const void *p)
{
	const struct drain *d = p;
	const struct kobj_model *m = kobj_layer(d->w, KOBJ_LAYER_MODEL);
	const struct kobj_sched *s = m ? m->sched : NULL;
	for (size_t i = 0; s && i < s->nactive; i++)
		if (s->active[i].obj == d->obj && s->active[i].thread != d->w->thread)
			return false;
	return true;
}

static unsigned readers(const void *p)
{
	const struct drain *d = p;
	const struct kobj_sched *s = kobj_model(d->w)->sched;
	unsigned mask = 0;
	for (size_t i = 0; s && i < s->nactive; i++)
		if (s->active[i].obj == d->obj)
			mask |= 1u << (s->active[i].thread % 32);
	return mask;
}

bool kobj_sched_drain(struct kcall *c, unsigned obj)
{
	struct drain d = { c->w, obj };
	kobj_sched_touch(KOBJ_RES_OBJECT, obj, false);
	if (!kobj_sched_hooks || drained(&d))
		return false;
	return kobj_sched_wait(c, &d, drained, readers) == 0;
}

void kobj_sched_free(struct kobj_world *w)
{
	struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	if (!m || !m->sched)
		return;
	kobj_xfree(m->sched->active);
	kobj_xfree(m->sched);
	m->sched = NULL;
}
