/*
 * DEBUG_KOBJECT_RELEASE on a virtual clock: the last put of a today's object only queues
 * its cleanup, which runs when the clock reaches its deadline. The queue is a binary heap
 * by (deadline, order), and advance() steps the clock to each deadline in turn, so that
 * a release queued by another release counts from the moment it was queued.
 */
#include <string.h>

#include "core/model/model_internal.h"

#define DEFAULT_SEED 0x6b6f626a656374ull /* "kobject" */

/* A cleanup queued by KOBJ_DEBUG_RELEASE. */
struct kobj_pending {
	unsigned id;               /* the object's record */
	unsigned entry;            /* its "release pending" ledger entry */
	unsigned long due;         /* tick when it runs */
	unsigned long order;       /* queue order: equal deadlines run first-in first */
	unsigned put_at;           /* the site of the last put */
	bool freed;                /* kfree()d before it ran: it will only report */
};

void kobj_world_set_debug(struct kobj_world *w, unsigned flags)
{
	kobj_model(w)->debug = flags & (KOBJ_DEBUG_KOBJECT | KOBJ_DEBUG_RELEASE);
}

unsigned kobj_world_debug(const struct kobj_world *w)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m ? m->debug : 0;
}

void kobj_world_set_release_delay(struct kobj_world *w, long ticks)
{
	kobj_model(w)->release_delay = ticks > 0 ? ticks : 0;
}

void kobj_world_set_release_seed(struct kobj_world *w, unsigned long seed)
{
	kobj_model(w)->rng = seed ? seed : DEFAULT_SEED; /* xorshift must not start at 0 */
}

unsigned long kobj_world_now(const struct kobj_world *w)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m ? m->now : 0;
}

size_t kobj_world_pending_releases(const struct kobj_world *w)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m ? m->npending : 0;
}

/* The kernel's HZ + HZ * (random & 3), from a xorshift64* sequence. */
static long next_delay(struct kobj_model *m)
{
	if (m->release_delay)
		return m->release_delay;
	m->rng ^= m->rng >> 12;
	m->rng ^= m->rng << 25;
	m->rng ^= m->rng >> 27;
	unsigned long long x = m->rng * 0x2545f4914f6cdd1dull;
	return HZ + HZ * (long)((x >> 33) % 4);
}

/* ============================================================================ the heap */

static bool before(const struct kobj_pending *a, const struct kobj_pending *b)
{
	return a->due < b->due || (a->due == b->due && a->order < b->order);
}

static void swap(struct kobj_pending *a, struct kobj_pending *b)
{
	struct kobj_pending t = *a;
	*a = *b;
	*b = t;
}

static void heap_push(struct kobj_model *m, struct kobj_pending e)
{
	kobj_grow((void **)&m->pending, &m->pending_cap, m->npending + 1, sizeof(*m->pending));
	size_t i = m->npending++;
	m->pending[i] = e;
	while (i && before(&m->pending[i], &m->pending[(i - 1) / 2])) {
		swap(&m->pending[i], &m->pending[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static struct kobj_pending heap_pop(struct kobj_model *m)
{
	struct kobj_pending top = m->pending[0];
	m->pending[0] = m->pending[--m->npending];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;
		if (l < m->npending && before(&m->pending[l], &m->pending[best]))
			best = l;
		if (r < m->npending && before(&m->pending[r], &m->pending[best]))
			best = r;
		if (best == i)
			break;
		swap(&m->pending[i], &m->pending[best]);
		i = best;
	}
	return top;
}

/* ====================================================================== queueing */

void kobj_release_later(struct kcall *c, struct kobj_record *r)
{
	struct kobj_model *m = kobj_model(c->w);
	long delay = next_delay(m);
	char p[17], pp[17];
	const struct kobj_record *parent = kobj_rec(c->w, r->parent);

	/* pr_info: printed with or without DEBUG_KOBJECT */
	kobj_trace(c->w, KOBJ_LOGLEVEL_INFO, r->id, c->site,
		   "kobject: '%s' (%s): kobject_release, parent %s (delayed %ld)", r->name,
		   kobj_fake_pointer(r->id, p),
		   parent ? kobj_fake_pointer(parent->id, pp) : "0000000000000000", delay);
	const struct kobj_holder h = { KOBJ_REF_PENDING, 0, c->site, kcall_now(c) };
	heap_push(m, (struct kobj_pending){
		.id = r->id, .entry = kobj_ledger_take(c->w, r, &h, NULL),
		.due = m->now + (unsigned long)delay, .order = m->next_order++,
		.put_at = c->site,
	});
	r->release_pending = true;
	r->release_at = c->site;
}

/* The cleanup of @e ran on memory freed by kfree(): in the kernel, the crash. */
static void report_freed(struct kobj_world *w, const struct kobj_pending *e)
{
	const struct kobj_record *r = kobj_rec(w, e->id);
	char where[256], when[256];
	struct kcall c = kobj_call_in(w, e->put_at, "kobject_delayed_cleanup");

	kobj_diagnose(&c, KOBJ_DIAG_USE_AFTER_FREE, e->id,
		    kobj_xstrdup("BUG: KASAN: slab-use-after-free in kobject_delayed_cleanup"),
		    kobj_xasprintf("The delayed release of '%s' (its last put was at %s) ran at "
				   "tick %lu, but its memory had been freed at %s. In the kernel "
				   "the cleanup reads and frees that memory again. Only the "
				   "ktype's release() may free a kobject; the sandbox did nothing.",
				   r->name, kobj_site_where(w, e->put_at, where), e->due,
				   kobj_site_where(w, r->release_at, when)));
}

static void run_delayed(struct kobj_world *w, struct kobj_pending e)
{
	struct kobj_record *r = kobj_rec(w, e.id);

	if (e.freed) {
		report_freed(w, &e);
		return;
	}
	struct kcall c = kobj_call_in(w, e.put_at, "kobject_delayed_cleanup");
	kobj_ledger_drop(w, r, e.entry, e.put_at);
	if (r->holders) {
		/* an object took it as its parent or kset while it waited (reported then): the
		 * kernel frees it under that object; the sandbox keeps it, never released */
		r->release_pending = false;
		return;
	}
	kobj_cleanup(&c, r);
}

size_t kobj_world_advance(struct kobj_world *w, unsigned long ticks)
{
	struct kobj_model *m = kobj_model(w);
	struct kobj_world *was = kobj_world_use(w); /* release() calls the current world */
	unsigned long end = m->now + ticks;
	size_t ran = 0;

	while (m->npending && m->pending[0].due <= end) {
		if (m->pending[0].due > m->now)
			m->now = m->pending[0].due; /* each release runs at its own deadline */
		run_delayed(w, heap_pop(m));
		ran++;
	}
	m->now = end;
	kobj_world_use(was);
	return ran;
}

/* kfree() in the window: its cleanup runs now, without release(), while the memory is
 * still whole; when due, the queued cleanup reports the use after free. */
void kobj_release_freed(struct kcall *c, struct kobj_record *r)
{
	struct kobj_model *m = kobj_model(c->w);
	char p[17], where[256], when[256];

	for (size_t i = 0; i < m->npending; i++) {
		struct kobj_pending *e = &m->pending[i];
		if (e->id != r->id || e->freed)
			continue;
		kobj_diagnose(c, KOBJ_DIAG_FREED_BEFORE_RELEASE, r->id,
			    kobj_xasprintf("ODEBUG: free active (active state 0) object: %s object "
					   "type: timer_list hint: kobject_delayed_cleanup",
					   kobj_fake_pointer(r->id, p)),
			    kobj_xasprintf("kfree() at %s freed the memory of '%s', whose last "
					   "reference was dropped at %s. Its release was delayed "
					   "(DEBUG_KOBJECT_RELEASE) to tick %lu: code that frees a "
					   "kobject itself, or assumes the last put freed it at once, "
					   "breaks here. Only the ktype's release() may free it.",
					   kobj_site_where(c->w, c->site, where), r->name,
					   kobj_site_where(c->w, e->put_at, when), e->due));
		e->freed = true;
		kobj_ledger_drop(c->w, r, e->entry, c->site);
		kobj_release_without(c, r);
		return;
	}
}

/* ============================================================================ teardown */

void kobj_delayed_teardown(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	/* Each release may queue its parent's; a bound keeps a pathological one finite. */
	for (unsigned rounds = 0; m->npending && rounds < 1000000; rounds++)
		kobj_world_advance(w, m->pending[0].due > m->now ? m->pending[0].due - m->now : 0);
	kobj_xfree(m->pending);
	m->pending = NULL;
	m->npending = m->pending_cap = 0;
}
