/*
 * The leak report: objects whose count never reached zero, and for each the references
 * still outstanding. Each put is matched to the newest earlier unmatched reference of the
 * same holder (else of anyone), as a person reading the log would pair them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/world_internal.h"

struct ref {
	size_t event;  /* index in the log */
	size_t next;   /* older reference of the same object, or NONE */
	bool matched;
};

#define NONE ((size_t)-1)

static bool leaked(const struct kobj_record *r)
{
	if (r->builtin) /* /sys/kernel lives as long as the world, as in the kernel */
		return false;
	if (r->kind == KOBJ_KIND_MODULE)
		return !r->released && r->refcount > 0;
	return !r->released;
}

size_t kobj_leak_count(const struct kobj_world *w)
{
	size_t n = 0;
	for (unsigned id = 1; id <= w->nrecords; id++)
		n += leaked(kobj_rec(w, id));
	return n;
}

/*
 * The reference a put gives back: an unregister gives back the creator's (the init);
 * otherwise the newest unmatched one of the same holder, else the newest of anyone.
 */
static size_t match_put(const struct kobj_world *w, const struct ref *refs, size_t head,
			const struct kobj_event *put)
{
	size_t same = NONE, any = NONE;
	bool unregister = strstr(put->op, "unregister") != NULL;

	for (size_t j = head; j != NONE; j = refs[j].next) {
		const struct kobj_event *taken = &w->events[refs[j].event];
		if (refs[j].matched)
			continue;
		if (unregister && put->holder == 0 && taken->kind == KOBJ_EV_INIT)
			return j;
		if (any == NONE)
			any = j;
		if (same == NONE && taken->holder == put->holder)
			same = j;
	}
	return same != NONE ? same : any;
}

static void print_ref(const struct kobj_world *w, const struct kobj_record *r,
		      const struct kobj_event *ev, FILE *out)
{
	char where[256];
	const struct kobj_record *h = kobj_rec(w, ev->holder);

	fprintf(out, "    taken at %s by %s", kobj_where(ev->origin, where), ev->op);
	if (h && h == r)
		fprintf(out, " for its sysfs directory: kobject_del() drops it\n");
	else if (h)
		fprintf(out, ", held by '%s', which is not released either\n", h->name);
	else
		fprintf(out, ", never put\n");
}

size_t kobj_leak_report(const struct kobj_world *w, FILE *out)
{
	size_t *head = kobj_xmalloc(((size_t)w->nrecords + 1) * sizeof(*head));
	struct ref *refs = NULL;
	size_t nrefs = 0, cap = 0, count = 0;
	char p[17], where[256];

	for (unsigned id = 0; id <= w->nrecords; id++)
		head[id] = NONE;
	for (size_t i = 0; i < w->nevents; i++) {
		const struct kobj_event *ev = &w->events[i];
		const struct kobj_record *r = kobj_rec(w, ev->obj);
		if (!r || !leaked(r))
			continue;
		if (ev->kind == KOBJ_EV_INIT || ev->kind == KOBJ_EV_GET) {
			kobj_grow((void **)&refs, &cap, nrefs + 1, sizeof(*refs));
			refs[nrefs] = (struct ref){ i, head[ev->obj], false };
			head[ev->obj] = nrefs++;
		} else if (ev->kind == KOBJ_EV_PUT) {
			size_t pick = match_put(w, refs, head[ev->obj], ev);
			if (pick != NONE)
				refs[pick].matched = true;
		}
	}

	for (unsigned id = 1; id <= w->nrecords; id++) {
		const struct kobj_record *r = kobj_rec(w, id);
		if (!leaked(r))
			continue;
		if (count++ == 0)
			fprintf(out, "Not released:\n");
		if (r->kind == KOBJ_KIND_MODULE)
			fprintf(out, "  module '%s' still has %d user(s), loaded at %s\n", r->name,
				r->refcount, kobj_where(r->init_at, where));
		else
			fprintf(out, "  '%s' (%s) refcount %d, initialised at %s\n", r->name,
				kobj_fake_pointer(id, p), r->refcount,
				kobj_where(r->init_at, where));
		/* Oldest first: the list runs newest to oldest, so print it reversed. */
		size_t n = 0;
		for (size_t j = head[id]; j != NONE; j = refs[j].next)
			n += !refs[j].matched;
		size_t *order = kobj_xmalloc((n ? n : 1) * sizeof(*order));
		size_t k = n;
		for (size_t j = head[id]; j != NONE; j = refs[j].next)
			if (!refs[j].matched)
				order[--k] = j;
		for (size_t j = 0; j < n; j++)
			print_ref(w, r, &w->events[refs[order[j]].event], out);
		free(order);
	}
	if (count == 0)
		fprintf(out, "No leaks: every object was released.\n");
	free(refs);
	free(head);
	return count;
}
