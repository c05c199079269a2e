/*
 * The leak report: objects whose count never reached zero, and for each the references
 * still outstanding. Each put is matched to the newest earlier unmatched reference of the
 * same holder (else of anyone), as a person reading the log would pair them.
 */
#include <stdio.h>
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

void kobj_leak_ref_text(const struct kobj_world *w, const struct kobj_record *r,
			const struct kobj_event *ev, char *buf, size_t size)
{
	char where[256];
	const struct kobj_record *h = kobj_rec(w, ev->holder);
	const char *at = kobj_where(ev->origin, where);

	if (h && h == r)
		snprintf(buf, size, "taken at %s by %s for its sysfs directory: kobject_del() "
			 "drops it", at, ev->op);
	else if (h)
		snprintf(buf, size, "taken at %s by %s, held by '%s', which is not released "
			 "either", at, ev->op, h->name);
	else
		snprintf(buf, size, "taken at %s by %s, never put", at, ev->op);
}

struct kobj_leak *kobj_leaks_find(const struct kobj_world *w, size_t *count)
{
	size_t *head = kobj_xmalloc(((size_t)w->nrecords + 1) * sizeof(*head));
	struct ref *refs = NULL;
	size_t nrefs = 0, cap = 0, n = 0;

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

	struct kobj_leak *leaks = kobj_xcalloc(kobj_leak_count(w) + 1, sizeof(*leaks));
	for (unsigned id = 1; id <= w->nrecords; id++) {
		const struct kobj_record *r = kobj_rec(w, id);
		if (!leaked(r))
			continue;
		struct kobj_leak *l = &leaks[n++];
		l->record = r;
		for (size_t j = head[id]; j != NONE; j = refs[j].next)
			l->nrefs += !refs[j].matched;
		l->refs = kobj_xcalloc(l->nrefs + 1, sizeof(*l->refs));
		/* The list runs newest to oldest: fill the array from its end. */
		size_t k = l->nrefs;
		for (size_t j = head[id]; j != NONE; j = refs[j].next)
			if (!refs[j].matched)
				l->refs[--k] = &w->events[refs[j].event];
	}
	free(refs);
	free(head);
	*count = n;
	return leaks;
}

void kobj_leaks_free(struct kobj_leak *leaks, size_t count)
{
	for (size_t i = 0; leaks && i < count; i++)
		free(leaks[i].refs);
	free(leaks);
}

size_t kobj_leak_report(const struct kobj_world *w, FILE *out)
{
	char p[17], where[256], text[1024];
	size_t count;
	struct kobj_leak *leaks = kobj_leaks_find(w, &count);

	if (count)
		fprintf(out, "Not released:\n");
	for (size_t i = 0; i < count; i++) {
		const struct kobj_record *r = leaks[i].record;
		if (r->kind == KOBJ_KIND_MODULE)
			fprintf(out, "  module '%s' still has %d user(s), loaded at %s\n", r->name,
				r->refcount, kobj_where(r->init_at, where));
		else
			fprintf(out, "  '%s' (%s) refcount %d, initialised at %s\n", r->name,
				kobj_fake_pointer(r->id, p), r->refcount,
				kobj_where(r->init_at, where));
		for (size_t j = 0; j < leaks[i].nrefs; j++) {
			kobj_leak_ref_text(w, r, leaks[i].refs[j], text, sizeof(text));
			fprintf(out, "    %s\n", text);
		}
	}
	if (count == 0)
		fprintf(out, "No leaks: every object was released.\n");
	kobj_leaks_free(leaks, count);
	return count;
}
