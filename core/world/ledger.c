/*
 * The ledger: every outstanding reference, with its kind, its holder and the place that
 * took it, so that each put drops one specific reference and every report can say whose
 * a reference is. Entries are 28 bytes in one array, linked per object in two lists (the
 * references callers hold, and those objects hold), newest first; a freed entry keeps
 * where it was dropped until it is reused, oldest first, so that a second put through
 * the same reference can name both lines. Taking and dropping cost O(1); a caller's put
 * without a named reference looks only at that object's callers' list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world/world_internal.h"

struct kobj_ledger_entry {
	uint32_t obj;       /* the object referenced; 0 while the entry is free */
	uint32_t holder;    /* the holding object (PARENT, KSET, SYSFS), else 0 */
	uint32_t site;      /* where it was taken */
	uint32_t serial;    /* its identity */
	union {
		uint32_t prev;       /* in the object's list */
		uint32_t dropped_at; /* a free entry: where it was dropped */
	};
	uint32_t next;      /* in the object's list; free entries: the free list */
	uint16_t op;        /* the call that took it */
	uint8_t kind;       /* enum kobj_ref_kind */
	uint8_t tracked;    /* carried by a reference handle or a ref_tracker */
};

_Static_assert(sizeof(struct kobj_ledger_entry) == 28, "a reference costs 28 bytes");

static const char *const kind_names[KOBJ_REF_KIND_COUNT] = {
	[KOBJ_REF_CREATOR] = "creator",
	[KOBJ_REF_SYSFS] = "sysfs",
	[KOBJ_REF_PARENT] = "parent of",
	[KOBJ_REF_KSET] = "kset of",
	[KOBJ_REF_GET] = "get",
	[KOBJ_REF_LOOKUP] = "lookup",
	[KOBJ_REF_SUBSYS] = "subsystem",
	[KOBJ_REF_MODULE] = "module user",
	[KOBJ_REF_CALL] = "call",
	[KOBJ_REF_PENDING] = "release pending",
};

const char *kobj_ref_kind_name(enum kobj_ref_kind kind)
{
	return (unsigned)kind < KOBJ_REF_KIND_COUNT ? kind_names[kind] : "?";
}

bool kobj_ref_held_by_object(enum kobj_ref_kind kind)
{
	return kind == KOBJ_REF_SYSFS || kind == KOBJ_REF_PARENT || kind == KOBJ_REF_KSET;
}

/* The list an entry of @kind belongs to on @r. */
static unsigned *list_of(struct kobj_record *r, enum kobj_ref_kind kind)
{
	return kobj_ref_held_by_object(kind) ? &r->holders : &r->callers;
}

static unsigned alloc_entry(struct kobj_world *w)
{
	unsigned e = w->free_head;
	if (e) {
		w->free_head = w->refs[e].next;
		if (!w->free_head)
			w->free_tail = 0;
		return e;
	}
	if (w->nrefs == 0)
		w->nrefs = 1; /* entry 0 means "none" */
	kobj_grow((void **)&w->refs, &w->refs_cap, w->nrefs + 1, sizeof(*w->refs));
	return (unsigned)w->nrefs++;
}

unsigned kobj_ledger_take(struct kobj_world *w, struct kobj_record *obj,
			  const struct kobj_holder *h, unsigned long *serial)
{
	unsigned e = alloc_entry(w);
	unsigned *head = list_of(obj, h->kind);
	struct kobj_ledger_entry *x = &w->refs[e];

	*x = (struct kobj_ledger_entry){
		.obj = obj->id, .holder = h->holder, .site = h->site,
		.serial = (uint32_t)++w->serial, .next = *head,
		.op = (uint16_t)kobj_op_code(h->op), .kind = (uint8_t)h->kind,
	};
	if (*head)
		w->refs[*head].prev = e;
	*head = e;
	if (serial)
		*serial = x->serial;
	return e;
}

unsigned long kobj_ledger_drop(struct kobj_world *w, struct kobj_record *obj, unsigned e,
			       unsigned site)
{
	struct kobj_ledger_entry *x = &w->refs[e];
	unsigned *head = list_of(obj, (enum kobj_ref_kind)x->kind);

	if (x->prev)
		w->refs[x->prev].next = x->next;
	else
		*head = x->next;
	if (x->next)
		w->refs[x->next].prev = x->prev;
	x->obj = 0;
	x->next = 0;
	x->dropped_at = site; /* prev is not needed any more */
	if (w->free_tail)
		w->refs[w->free_tail].next = e;
	else
		w->free_head = e;
	w->free_tail = e;
	return x->serial;
}

void kobj_ledger_clear(struct kobj_world *w, struct kobj_record *obj, unsigned site)
{
	while (obj->callers)
		kobj_ledger_drop(w, obj, obj->callers, site);
	while (obj->holders)
		kobj_ledger_drop(w, obj, obj->holders, site);
}

/* ============================================================== which reference a put */

static const struct kobj_site_entry *site_entry(const struct kobj_world *w, unsigned site)
{
	return site && site <= w->nsites ? &w->sites[site - 1] : NULL;
}

/* How well entry @x fits a put from @at: lower is better, as the rules order them. */
static int rank(const struct kobj_world *w, const struct kobj_ledger_entry *x,
		const struct kobj_site_entry *at, bool lua)
{
	const struct kobj_site_entry *took = site_entry(w, x->site);
	/* a script's main chunk has no name: in one file, it is one function */
	bool same_func = at && took && (at->func || lua) && took->func == at->func &&
			 took->file == at->file;
	bool same_file = at && took && took->file == at->file;
	bool creator = x->kind == KOBJ_REF_CREATOR;

	if (lua)
		return creator ? 0 : same_func ? 1 : 3;
	return same_func ? 0 : same_file ? 1 : creator ? 2 : 3;
}

/* The best entry among the callers' list with tracked == @tracked; *@ties: how many share
 * its rank. Newest first, so equal ranks go to the newest. */
static unsigned best(const struct kobj_world *w, const struct kobj_record *obj, unsigned site,
		     bool lua, bool tracked, int *ties)
{
	const struct kobj_site_entry *at = site_entry(w, site);
	unsigned found = 0;
	int found_rank = 99;

	*ties = 0;
	for (unsigned e = obj->callers; e; e = w->refs[e].next) {
		const struct kobj_ledger_entry *x = &w->refs[e];
		/* a kernel call's own reference and a queued release are no caller's to drop */
		if (!x->tracked != !tracked || x->kind == KOBJ_REF_CALL || x->kind == KOBJ_REF_PENDING)
			continue;
		int r = rank(w, x, at, lua);
		if (r < found_rank) {
			found = e;
			found_rank = r;
			*ties = 1;
		} else if (r == found_rank) {
			++*ties;
		}
	}
	return found;
}

enum kobj_pick kobj_ledger_pick(const struct kobj_world *w, const struct kobj_record *obj,
				unsigned site, bool lua, unsigned *e)
{
	int ties;

	if (!obj->callers)
		return obj->holders ? KOBJ_PICK_NONE : KOBJ_PICK_EMPTY;
	*e = best(w, obj, site, lua, false, &ties);
	if (*e)
		return ties > 1 ? KOBJ_PICK_CHOSEN : KOBJ_PICK_FOUND;
	/* every reference is carried by a handle: dropping one without it is a choice */
	*e = best(w, obj, site, lua, true, &ties);
	return *e ? KOBJ_PICK_CHOSEN : KOBJ_PICK_NONE;
}

unsigned kobj_ledger_creator(const struct kobj_world *w, const struct kobj_record *obj)
{
	for (unsigned e = obj->callers; e; e = w->refs[e].next)
		if (w->refs[e].kind == KOBJ_REF_CREATOR)
			return e;
	return 0;
}

unsigned kobj_ledger_find(const struct kobj_world *w, const struct kobj_record *obj,
			  unsigned long serial)
{
	for (unsigned e = obj->callers; e; e = w->refs[e].next)
		if (w->refs[e].serial == (uint32_t)serial)
			return e;
	return 0;
}

/* =============================================================== tokens and handles */

unsigned long long kobj_ledger_token(const struct kobj_world *w, unsigned e)
{
	return (unsigned long long)e << 32 | w->refs[e].serial;
}

unsigned kobj_ledger_entry_of(const struct kobj_world *w, unsigned long long token,
			      unsigned obj)
{
	unsigned e = (unsigned)(token >> 32);
	if (e == 0 || e >= w->nrefs || w->refs[e].obj != obj ||
	    w->refs[e].serial != (uint32_t)token)
		return 0;
	return e;
}

unsigned kobj_ledger_object_of(const struct kobj_world *w, unsigned long long token)
{
	unsigned e = (unsigned)(token >> 32);
	if (e == 0 || e >= w->nrefs || w->refs[e].serial != (uint32_t)token)
		return 0;
	return w->refs[e].obj;
}

void kobj_ledger_track(struct kobj_world *w, unsigned e, bool tracked)
{
	w->refs[e].tracked = tracked;
}

unsigned kobj_ledger_dropped_at(const struct kobj_world *w, unsigned long serial)
{
	for (unsigned e = 1; e < w->nrefs; e++)
		if (!w->refs[e].obj && w->refs[e].serial == (uint32_t)serial)
			return w->refs[e].dropped_at;
	struct kobj_event ev;
	for (size_t i = kobj_log_count(w); i-- > 0;)
		if (kobj_log_read(w, i, &ev) && ev.kind == KOBJ_EV_PUT && ev.ref == serial)
			return ev.site;
	return 0;
}

/* ======================================================================== reading */

void kobj_ledger_ref(const struct kobj_world *w, unsigned e, struct kobj_ref *out)
{
	const struct kobj_ledger_entry *x = &w->refs[e];
	*out = (struct kobj_ref){
		.serial = x->serial, .kind = (enum kobj_ref_kind)x->kind, .obj = x->obj,
		.holder = x->holder, .site = x->site, .op = kobj_op_name(x->op),
		.tracked = x->tracked,
	};
}

size_t kobj_refs_count(const struct kobj_world *w, unsigned obj)
{
	const struct kobj_record *r = kobj_rec(w, obj);
	size_t n = 0;
	for (unsigned e = r ? r->callers : 0; e; e = w->refs[e].next)
		n++;
	for (unsigned e = r ? r->holders : 0; e; e = w->refs[e].next)
		n++;
	return n;
}

static int by_serial(const void *a, const void *b)
{
	const struct kobj_ref *x = a, *y = b;
	return (x->serial > y->serial) - (x->serial < y->serial);
}

size_t kobj_refs_of(const struct kobj_world *w, unsigned obj, struct kobj_ref *out, size_t max)
{
	const struct kobj_record *r = kobj_rec(w, obj);
	size_t n = 0;

	if (!r)
		return 0;
	const unsigned heads[2] = { r->callers, r->holders };
	for (int l = 0; l < 2; l++)
		for (unsigned e = heads[l]; e; e = w->refs[e].next, n++)
			if (n < max)
				kobj_ledger_ref(w, e, &out[n]);
	qsort(out, n < max ? n : max, sizeof(*out), by_serial);
	return n;
}

void kobj_ref_text(const struct kobj_world *w, const struct kobj_ref *ref, char *buf,
		   size_t size)
{
	char where[256];
	const char *at = kobj_site_where(w, ref->site, where);
	const struct kobj_record *h = kobj_rec(w, ref->holder);
	struct kobj_origin o = kobj_site_origin(w, ref->site);
	const char *op = ref->op ? ref->op : "?";

	switch (ref->kind) {
	case KOBJ_REF_PARENT:
	case KOBJ_REF_KSET:
		snprintf(buf, size, "%s '%s', taken at %s by %s", kobj_ref_kind_name(ref->kind),
			 h ? h->name : "?", at, op);
		break;
	case KOBJ_REF_SYSFS:
		snprintf(buf, size, "its sysfs registration, taken at %s by %s (kobject_del() "
			 "drops it)", at, op);
		break;
	case KOBJ_REF_CREATOR:
		snprintf(buf, size, "the creator's, taken at %s by %s", at, op);
		break;
	case KOBJ_REF_PENDING:
		snprintf(buf, size, "its delayed release, queued at %s", at);
		break;
	default:
		snprintf(buf, size, "%s, taken at %s by %s%s%s", kobj_ref_kind_name(ref->kind), at,
			 op, o.func ? " in " : "", o.func ? o.func : "");
		break;
	}
}
