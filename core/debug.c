/*
 * DEBUG_KOBJECT and DEBUG_KOBJECT_RELEASE for a world: the kernel log, the virtual clock
 * and the queue of delayed releases. Also the world's state for today's API as a whole,
 * made on first use and freed with the world.
 */
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/modern_internal.h"

#define DEFAULT_SEED 0x6b6f626a656374ull /* "kobject" */

/* ============================================================================= state */

struct kobj_modern *kobj_modern(struct kobj_world *w)
{
	if (!w->modern) {
		w->modern = kobj_xcalloc(1, sizeof(*w->modern));
		w->modern->rng = DEFAULT_SEED;
	}
	return w->modern;
}

bool kobj_debugging(const struct kobj_world *w, unsigned flag)
{
	return w->modern && (w->modern->debug & flag);
}

void kobj_world_set_debug(struct kobj_world *w, unsigned flags)
{
	kobj_modern(w)->debug = flags & (KOBJ_DEBUG_KOBJECT | KOBJ_DEBUG_RELEASE);
}

unsigned kobj_world_debug(const struct kobj_world *w)
{
	return w->modern ? w->modern->debug : 0;
}

void kobj_world_set_release_delay(struct kobj_world *w, long ticks)
{
	kobj_modern(w)->release_delay = ticks > 0 ? ticks : 0;
}

void kobj_world_set_release_seed(struct kobj_world *w, unsigned long seed)
{
	kobj_modern(w)->rng = seed ? seed : DEFAULT_SEED; /* xorshift must not start at 0 */
}

unsigned long kobj_world_now(const struct kobj_world *w)
{
	return w->modern ? w->modern->now : 0;
}

size_t kobj_world_pending_releases(const struct kobj_world *w)
{
	return w->modern ? w->modern->npending : 0;
}

/* The kernel's HZ + HZ * get_random_u32_below(4), from a xorshift64* sequence. */
static long next_delay(struct kobj_modern *m)
{
	if (m->release_delay)
		return m->release_delay;
	m->rng ^= m->rng >> 12;
	m->rng ^= m->rng << 25;
	m->rng ^= m->rng >> 27;
	unsigned long long x = m->rng * 0x2545f4914f6cdd1dull;
	return HZ + HZ * (long)((x >> 33) % 4);
}

/* ======================================================================= kernel log */

static void vtrace(struct kobj_world *w, enum kobj_loglevel level, unsigned obj,
		   struct kobj_origin o, const char *fmt, va_list ap)
{
	struct kobj_modern *m = kobj_modern(w);
	char *text;
	va_list copy;

	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	text = kobj_xmalloc((size_t)(n > 0 ? n : 0) + 1);
	vsnprintf(text, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
	kobj_grow((void **)&m->trace, &m->trace_cap, m->ntrace + 1, sizeof(*m->trace));
	m->trace[m->ntrace++] = (struct kobj_trace){
		.level = level, .text = text, .obj = obj, .tick = m->now,
		.seq = w->nevents, .origin = o,
	};
}

void kobj_trace(struct kobj_world *w, enum kobj_loglevel level, unsigned obj,
		struct kobj_origin o, const char *fmt, ...)
{
	va_list ap;

	if (level == KOBJ_LOGLEVEL_DEBUG && !kobj_debugging(w, KOBJ_DEBUG_KOBJECT))
		return; /* pr_debug is compiled out without CONFIG_DEBUG_KOBJECT */
	va_start(ap, fmt);
	vtrace(w, level, obj, o, fmt, ap);
	va_end(ap);
}

void kobj_printk(enum kobj_loglevel level, const char *fmt, ...)
{
	struct kobj_world *w = kobj_world_current();
	va_list ap;

	if (level == KOBJ_LOGLEVEL_DEBUG && !kobj_debugging(w, KOBJ_DEBUG_KOBJECT))
		return;
	va_start(ap, fmt);
	vtrace(w, level, 0, kobj_take_origin(w), fmt, ap);
	va_end(ap);
}

size_t kobj_trace_count(const struct kobj_world *w)
{
	return w->modern ? w->modern->ntrace : 0;
}

const struct kobj_trace *kobj_trace_at(const struct kobj_world *w, size_t i)
{
	return i < kobj_trace_count(w) ? &w->modern->trace[i] : NULL;
}

void kobj_trace_print(const struct kobj_world *w, FILE *out)
{
	for (size_t i = 0; i < kobj_trace_count(w); i++) {
		const struct kobj_trace *t = &w->modern->trace[i];
		fprintf(out, "[%5lu.%06lu] %s\n", t->tick / HZ, t->tick % HZ * (1000000 / HZ),
			t->text);
	}
}

const char *kobj_ptr(struct kobj_world *w, const void *kobj, char buf[17])
{
	const struct kobj_record *r = kobj ? kobj_any(w, kobj) : NULL;
	return r ? kobj_fake_pointer(r->id, buf) : kobj_unknown_pointer(w, kobj, buf);
}

/* ================================================================== delayed release */

void kobj_release_later(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
			struct kobj_origin o)
{
	struct kobj_modern *m = kobj_modern(w);
	long delay = next_delay(m);
	char p[17], pp[17];

	/* pr_info: printed with or without DEBUG_KOBJECT */
	kobj_trace(w, KOBJ_LOGLEVEL_INFO, r->id, o,
		   "kobject: '%s' (%s): kobject_release, parent %s (delayed %ld)", r->name,
		   kobj_fake_pointer(r->id, p), kobj_ptr(w, kobj->parent, pp), delay);
	kobj_grow((void **)&m->pending, &m->pending_cap, m->npending + 1, sizeof(*m->pending));
	m->pending[m->npending++] = (struct kobj_pending){
		.id = r->id, .kobj = kobj, .due = m->now + (unsigned long)delay,
		.order = m->next_order++, .put_at = o,
	};
	r->release_pending = true;
}

/* The cleanup of @e ran on memory freed by kfree(): in the kernel, the crash. */
static void report_freed(struct kobj_world *w, const struct kobj_pending *e)
{
	const struct kobj_record *r = kobj_rec(w, e->id);
	char where[256], when[256];

	kobj_diag_add(w, KOBJ_DIAG_USE_AFTER_FREE, e->id, e->put_at,
		      kobj_xstrdup("BUG: KASAN: slab-use-after-free in kobject_delayed_cleanup"),
		      kobj_xasprintf("The delayed release of '%s' (its last put was at %s) ran at "
				     "tick %lu, but its memory had been freed at %s. In the "
				     "kernel the cleanup reads and frees that memory again. Only "
				     "the ktype's release() may free a kobject; the sandbox did "
				     "nothing.", r->name, kobj_where(e->put_at, where),
				     e->due, kobj_where(r->release_at, when)));
}

/* Runs the queued cleanup @e (already off the queue). */
static void run_delayed(struct kobj_world *w, struct kobj_pending e)
{
	struct kobj_record *r = kobj_rec(w, e.id);
	unsigned holder = 0;

	if (e.freed) {
		report_freed(w, &e);
		return;
	}
	struct kobject *parent = kobj_modern_cleanup(w, e.kobj, r, e.put_at, &holder);
	kobj_put_ref(w, parent, e.put_at, "kobject_delayed_cleanup", holder);
}

/* Takes the entry due first (deadline, then queue order) if it is due by @now. */
static bool take_due(struct kobj_modern *m, unsigned long now, struct kobj_pending *out)
{
	size_t best = m->npending;
	for (size_t i = 0; i < m->npending; i++) {
		const struct kobj_pending *e = &m->pending[i];
		if (e->due <= now && (best == m->npending || e->due < m->pending[best].due ||
				      (e->due == m->pending[best].due &&
				       e->order < m->pending[best].order)))
			best = i;
	}
	if (best == m->npending)
		return false;
	*out = m->pending[best];
	memmove(&m->pending[best], &m->pending[best + 1],
		(m->npending - best - 1) * sizeof(*m->pending));
	m->npending--;
	return true;
}

size_t kobj_world_advance(struct kobj_world *w, unsigned long ticks)
{
	struct kobj_modern *m = kobj_modern(w);
	struct kobj_world *was = kobj_world_use(w); /* release() calls the current world */
	struct kobj_pending e;
	size_t ran = 0;

	m->now += ticks;
	while (take_due(m, m->now, &e)) {
		run_delayed(w, e);
		ran++;
	}
	kobj_world_use(was);
	return ran;
}

/* kfree() in the window: take the object out now, while its memory is still whole. */
static void freed_early(struct kobj_world *w, struct kobj_pending *e, struct kobj_origin o)
{
	struct kobj_record *r = kobj_rec(w, e->id);
	struct kobject *kobj = e->kobj;
	char p[17], where[256], when[256];

	kobj_diag_add(w, KOBJ_DIAG_FREED_BEFORE_RELEASE, r->id, o,
		      kobj_xasprintf("ODEBUG: free active (active state 0) object: %s object "
				     "type: timer_list hint: kobject_delayed_cleanup",
				     kobj_fake_pointer(r->id, p)),
		      kobj_xasprintf("kfree() at %s freed the memory of '%s', whose last "
				     "reference was dropped at %s. Its release was delayed "
				     "(DEBUG_KOBJECT_RELEASE) to tick %lu: code that frees a "
				     "kobject itself, or assumes the last put freed it at once, "
				     "breaks here. Only the ktype's release() may free it.",
				     kobj_where(o, where), r->name, kobj_where(e->put_at, when),
				     e->due));
	struct kobject *parent = r->in_sysfs ? kobj_modern_unlink(w, kobj, r, o, "kfree") : NULL;
	char *heap_name = kobj->k_name != kobj->name ? kobj->k_name : NULL;
	r->released = true;
	r->release_pending = false;
	r->release_at = o;
	r->refcount = 0;
	kobj_log(w, KOBJ_EV_RELEASE, "kfree", r->id, 0, 0, 0, 0, o);
	free(heap_name);
	if (w->on_release)
		w->on_release(r, w->on_release_ctx);
	e->freed = true;
	kobj_put_ref(w, parent, o, "kfree", r->id);
}

void kobj_debug_kfree(const void *p)
{
	struct kobj_world *w = kobj_world_peek();
	struct kobj_origin o = { 0 };

	if (w)
		o = kobj_take_origin(w);
	else
		kobj_note_origin(NULL, 0); /* the note is used up either way */
	if (!p || !w || !w->modern || !w->modern->npending)
		return;
	const char *lo = p, *hi = lo + malloc_usable_size((void *)p);
	for (size_t i = 0; i < w->modern->npending; i++) {
		struct kobj_pending *e = &w->modern->pending[i];
		if (!e->freed && (const char *)e->kobj >= lo && (const char *)e->kobj < hi)
			freed_early(w, e, o);
	}
}

/* ========================================================================= teardown */

/* /sys/kernel goes with its world: its memory is the world's. */
static void free_kernel_kobj(struct kobj_world *w, struct kobj_modern *m)
{
	struct kobject *k = m->sys_kernel;
	struct kobj_record *r = kobj_rec(w, m->kernel_id);

	if (!r || r->released)
		return;
	if (k->k_name != k->name)
		free(k->k_name);
	free(k);
}

void kobj_modern_teardown(struct kobj_world *w)
{
	struct kobj_modern *m = w->modern;

	if (!m)
		return;
	/* Each release may queue its parent's; a bound keeps a pathological one finite. */
	for (unsigned rounds = 0; m->npending && rounds < 1000000; rounds++) {
		unsigned long first = m->pending[0].due;
		for (size_t i = 1; i < m->npending; i++)
			if (m->pending[i].due < first)
				first = m->pending[i].due;
		kobj_world_advance(w, first > m->now ? first - m->now : 0);
	}
	free_kernel_kobj(w, m);
	for (size_t i = 0; i < m->ntrace; i++)
		free(m->trace[i].text);
	free(m->trace);
	free(m->pending);
	free(m);
	w->modern = NULL;
}
