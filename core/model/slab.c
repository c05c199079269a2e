/*
 * kmalloc and kfree. kfree() looks inside the block it is given for kobjects the world
 * knows: one still live is reported and its memory kept, so that the model stays whole;
 * one whose release is only delayed is reported as DEBUG_KOBJECT_RELEASE would; released
 * ones are fine. Freed memory then waits in a quarantine, as KASAN's does, so that a late
 * put through a stale pointer still reads the old record id instead of reused memory.
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model_internal.h"

#define QUARANTINE_BYTES (4u << 20)

struct block {
	void *p;
	size_t size;
};

enum { QUARANTINED = 1, KEPT = 2 };

struct kobj_quarantine {
	struct block *q;       /* a ring of blocks waiting to be freed */
	size_t head, n, cap, bytes;
	struct block *kept;    /* blocks kfree()d while they held a live kobject */
	size_t nkept, kept_cap;
	struct kobj_map state; /* address -> QUARANTINED or KEPT */
};

void *kmalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return kobj_kmalloc(kobj_world_current(), size);
}

void *kzalloc(size_t size, gfp_t flags)
{
	void *p = kmalloc(size, flags);
	return p ? memset(p, 0, size) : NULL;
}

/* The kobjects the world knows inside [@p, @p + @size): @fn for each record found. */
static void each_kobject(struct kobj_world *w, const void *p, size_t size,
			 void (*fn)(struct kcall *c, struct kobj_record *r), struct kcall *c)
{
	const char *lo = p;
	for (size_t off = 0; off + sizeof(struct kobject) <= size; off += sizeof(void *)) {
		const struct kobject *k = (const struct kobject *)(const void *)(lo + off);
		struct kobj_record *r = kobj_rec_of(w, k);
		if (r)
			fn(c, r);
	}
}

static struct kobj_quarantine *quarantine(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	if (!m->quarantine)
		m->quarantine = kobj_xcalloc(1, sizeof(*m->quarantine));
	return m->quarantine;
}

static unsigned state_of(const struct kobj_quarantine *q, const void *p)
{
	return kobj_map_get(&q->state, (uintptr_t)p);
}

/* A released kobject in memory being freed reads its inline name from now on: the heap
 * copy was freed at its release, and a stale pointer may still ask for the name. */
static void unname(struct kcall *c, struct kobj_record *r)
{
	struct kobject *k = kobj_of(r);
	(void)c;
	if (r->released)
		k->k_name = k->name;
}

static void mark_gone(struct kcall *c, struct kobj_record *r)
{
	(void)c;
	if (r->released)
		r->memory_gone = true;
}

/* Really frees the oldest blocks until the quarantine holds at most @bytes. */
static void evict(struct kobj_world *w, struct kobj_quarantine *q, size_t bytes)
{
	while (q->n && q->bytes > bytes) {
		struct block b = q->q[q->head];
		q->head = (q->head + 1) % q->cap;
		q->n--;
		q->bytes -= b.size;
		each_kobject(w, b.p, b.size, mark_gone, NULL);
		kobj_map_del(&q->state, (uintptr_t)b.p);
		kobj_xfree(b.p);
	}
}

static void quarantine_put(struct kobj_world *w, void *p, size_t size)
{
	struct kobj_quarantine *q = quarantine(w);
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		struct block *ring = kobj_xmalloc(cap * sizeof(*ring));
		for (size_t i = 0; i < q->n; i++)
			ring[i] = q->q[(q->head + i) % q->cap];
		kobj_xfree(q->q);
		q->q = ring;
		q->head = 0;
		q->cap = cap;
	}
	q->q[(q->head + q->n++) % q->cap] = (struct block){ p, size };
	q->bytes += size;
	kobj_map_put(&q->state, (uintptr_t)p, QUARANTINED);
	evict(w, q, QUARANTINE_BYTES);
}

void kobj_quarantine_free(struct kobj_world *w)
{
	struct kobj_quarantine *q = kobj_model(w)->quarantine;
	if (!q)
		return;
	evict(w, q, 0);
	for (size_t i = 0; i < q->nkept; i++)
		kobj_xfree(q->kept[i].p);
	kobj_xfree(q->kept);
	kobj_xfree(q->q);
	kobj_map_free(&q->state);
	kobj_xfree(q);
}

/* ==================================================================== what kfree finds */

/* Live kobjects the last kobj_may_free() found. */
static unsigned live_found;

static void freed_live(struct kcall *c, struct kobj_record *r)
{
	char where[256], p[17];
	char refs[1024] = "";
	struct kobj_ref list[3];
	size_t n = kobj_refs_of(c->w, r->id, list, 3);

	if (r->released)
		return;
	if (r->release_pending && !r->holders) {
		kobj_release_freed(c, r);
		return;
	}
	for (size_t i = 0; i < n && i < 3; i++) {
		char one[300];
		kobj_ref_text(c->w, &list[i], one, sizeof(one));
		snprintf(refs + strlen(refs), sizeof(refs) - strlen(refs), "%s%s", i ? "; " : "",
			 one);
	}
	r->freed_live = true;
	kobj_diagnose(c, KOBJ_DIAG_FREED_LIVE, r->id,
		    kobj_xasprintf("BUG: KASAN: slab-use-after-free in kobject_put: "
				   "kobject '%s' (%s) was freed by kfree()", r->name,
				   kobj_fake_pointer(r->id, p)),
		    kobj_xasprintf("kfree() at %s freed the memory of '%s', which is still live "
				   "with %d reference(s): %s%s. The kernel frees it anyway, and the "
				   "next put, list walk or sysfs access reads freed memory, where "
				   "KASAN reports it. Only the ktype's release() may free a "
				   "kobject: drop your reference with kobject_put(). The sandbox "
				   "kept the memory so the model stays whole.",
				   kobj_site_where(c->w, c->site, where), r->name, r->refcount, refs,
				   n > 3 ? "; and more" : ""));
	live_found++;
}

bool kobj_may_free(struct kcall *c, const void *p, size_t size)
{
	live_found = 0;
	each_kobject(c->w, p, size, freed_live, c);
	return live_found == 0;
}

void (kfree)(const void *p)
{
	struct kcall c = kobj_call("kfree");

	if (!p)
		return;
	struct kobj_quarantine *q = quarantine(c.w);
	if (state_of(q, p) == KEPT) { /* reported when it was first freed */
		each_kobject(c.w, p, malloc_usable_size((void *)p), unname, &c);
		return;
	}
	if (state_of(q, p) == QUARANTINED) {
		char where[256];
		kobj_diagnose(&c, KOBJ_DIAG_USE_AFTER_FREE, 0,
			    kobj_xstrdup("BUG: KASAN: double-free in kfree"),
			    kobj_xasprintf("kfree() at %s freed memory that was already freed. The "
					   "sandbox ignored it.",
					   kobj_site_where(c.w, c.site, where)));
		return;
	}
	size_t size = malloc_usable_size((void *)p);
	if (!kobj_may_free(&c, p, size)) {
		kobj_grow((void **)&q->kept, &q->kept_cap, q->nkept + 1, sizeof(*q->kept));
		q->kept[q->nkept++] = (struct block){ (void *)p, size };
		kobj_map_put(&q->state, (uintptr_t)p, KEPT);
		return;
	}
	each_kobject(c.w, p, size, unname, &c);
	quarantine_put(c.w, (void *)p, size);
}

void kobj_free_object_memory(struct kobj_world *w, void *p)
{
	struct kobj_quarantine *q = quarantine(w);
	kobj_map_del(&kobj_model(w)->owned, (uintptr_t)p);
	if (p && !state_of(q, p)) {
		each_kobject(w, p, malloc_usable_size(p), unname, NULL);
		quarantine_put(w, p, malloc_usable_size(p));
	}
}

/* ============================================================ memory objects own */

void kobj_owned_add(struct kobj_world *w, void *p, enum kobj_owned what)
{
	kobj_map_put(&kobj_model(w)->owned, (uintptr_t)p, what);
}

void kobj_owned_free(struct kobj_world *w, void *p)
{
	if (!p)
		return;
	kobj_map_del(&kobj_model(w)->owned, (uintptr_t)p);
	kobj_xfree(p);
}

void kobj_owned_teardown(struct kobj_world *w)
{
	struct kobj_map *m = &kobj_model(w)->owned;
	struct kobj_quarantine *q = quarantine(w);

	for (size_t i = 0; i < m->cap; i++) {
		void *p = (void *)m->keys[i];
		unsigned what = m->vals[i];
		if (!what || state_of(q, p)) /* gone, or a caller kfree()d it: the quarantine's */
			continue;
		m->vals[i] = 0;
		if (what == KOBJ_OWNED_NAME)
			kobj_xfree(p);
		else
			quarantine_put(w, p, malloc_usable_size(p));
	}
	kobj_map_free(m);
}
