/*
 * The leak report, read from the ledger: every object not released, each reference it
 * still has with its kind, holder and line. An object held only by other leaked objects
 * is not a cause but a consequence: it points at its root, the leaked object whose
 * callers never let go, and roots come first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/report.h"

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
	for (unsigned id = 1; id <= kobj_record_count(w); id++)
		n += leaked(kobj_record_by_id(w, id));
	return n;
}

/* The references on @r, oldest first, in a malloc'd array. */
static struct kobj_ref *refs_of(const struct kobj_world *w, unsigned id, size_t *n)
{
	size_t count = kobj_refs_count(w, id);
	struct kobj_ref *refs = calloc(count + 1, sizeof(*refs));
	if (!refs)
		abort();
	*n = kobj_refs_of(w, id, refs, count);
	return refs;
}

/* Whether a caller (not an object) holds one of @refs, or none holds any at all. */
static bool is_root(const struct kobj_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!kobj_ref_held_by_object(refs[i].kind))
			return true;
	return n == 0;
}

/* The root of leak @i: follows the objects that hold it, remembering each answer. */
static unsigned root_of(const struct kobj_world *w, struct kobj_leak *by_id, unsigned id,
			unsigned *memo)
{
	unsigned path[64], depth = 0;

	while (id && !memo[id]) {
		const struct kobj_leak *l = &by_id[id];
		if (!l->record || is_root(l->refs, l->nrefs)) {
			memo[id] = id;
			break;
		}
		if (depth < 64)
			path[depth++] = id;
		unsigned next = 0;
		for (size_t i = 0; i < l->nrefs && !next; i++)
			if (l->refs[i].holder != id && by_id[l->refs[i].holder].record)
				next = l->refs[i].holder;
		if (!next) {
			memo[id] = id;
			break;
		}
		memo[id] = id; /* a cycle of holders ends here */
		id = next;
	}
	unsigned root = id ? memo[id] : 0;
	while (depth)
		memo[path[--depth]] = root;
	(void)w;
	return root;
}

static int by_root_first(const void *a, const void *b)
{
	const struct kobj_leak *x = a, *y = b;
	bool xr = x->root == x->record->id, yr = y->root == y->record->id;
	if (xr != yr)
		return xr ? -1 : 1;
	return (x->record->id > y->record->id) - (x->record->id < y->record->id);
}

struct kobj_leak *kobj_leaks_find(const struct kobj_world *w, size_t *count)
{
	unsigned n = (unsigned)kobj_record_count(w);
	struct kobj_leak *by_id = calloc((size_t)n + 1, sizeof(*by_id));
	unsigned *memo = calloc((size_t)n + 1, sizeof(*memo));
	size_t found = 0;

	if (!by_id || !memo)
		abort();
	for (unsigned id = 1; id <= n; id++) {
		const struct kobj_record *r = kobj_record_by_id(w, id);
		if (!leaked(r))
			continue;
		by_id[id].record = r;
		by_id[id].refs = refs_of(w, id, &by_id[id].nrefs);
		by_id[id].registered = r->in_sysfs;
		found++;
	}
	struct kobj_leak *leaks = calloc(found + 1, sizeof(*leaks));
	if (!leaks)
		abort();
	size_t k = 0;
	for (unsigned id = 1; id <= n; id++) {
		if (!by_id[id].record)
			continue;
		by_id[id].root = root_of(w, by_id, id, memo);
		leaks[k++] = by_id[id];
	}
	qsort(leaks, found, sizeof(*leaks), by_root_first);
	free(memo);
	free(by_id);
	*count = found;
	return leaks;
}

void kobj_leaks_free(struct kobj_leak *leaks, size_t count)
{
	for (size_t i = 0; leaks && i < count; i++)
		free(leaks[i].refs);
	free(leaks);
}

void kobj_leak_ref_text(const struct kobj_world *w, const struct kobj_ref *ref, char *buf,
			size_t size)
{
	char text[768];
	const struct kobj_record *h = kobj_record_by_id(w, ref->holder);

	kobj_ref_text(w, ref, text, sizeof(text));
	if (ref->kind == KOBJ_REF_SYSFS)
		snprintf(buf, size, "%s, never deleted", text);
	else if (h && kobj_ref_held_by_object(ref->kind))
		snprintf(buf, size, "%s, held by '%s', which is not released either", text,
			 h->name);
	else
		snprintf(buf, size, "%s, never put", text);
}

static void print_leak(const struct kobj_world *w, const struct kobj_leak *l, FILE *out)
{
	const struct kobj_record *r = l->record;
	char p[17], where[256], text[1024];

	if (r->kind == KOBJ_KIND_MODULE) {
		fprintf(out, "  module '%s' still has %d user(s), loaded at %s\n", r->name,
			r->refcount, kobj_site_where(w, r->init_at, where));
	} else {
		fprintf(out, "  '%s' (%s) refcount %d, initialised at %s%s\n", r->name,
			kobj_fake_pointer(r->id, p), r->refcount,
			kobj_site_where(w, r->init_at, where),
			l->registered ? ", still in sysfs" : "");
	}
	if (l->root != r->id) {
		const struct kobj_record *root = kobj_record_by_id(w, l->root);
		fprintf(out, "    kept alive only by objects not released: the cause is '%s' "
			"(above)\n", root ? root->name : "?");
	}
	for (size_t j = 0; j < l->nrefs; j++) {
		kobj_leak_ref_text(w, &l->refs[j], text, sizeof(text));
		fprintf(out, "    %s\n", text);
	}
}

size_t kobj_leak_report(const struct kobj_world *w, FILE *out)
{
	size_t count;
	struct kobj_leak *leaks = kobj_leaks_find(w, &count);

	if (count)
		fprintf(out, "Not released:\n");
	for (size_t i = 0; i < count; i++)
		print_leak(w, &leaks[i], out);
	if (count == 0)
		fprintf(out, "No leaks: every object was released.\n");
	kobj_leaks_free(leaks, count);
	return count;
}
