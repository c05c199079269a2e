/* What went wrong in a run, as the world recorded it: a diagnostic, or objects left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/race/race_internal.h"

static bool allowed_tag(const char *tag, const char *const *allowed)
{
	for (size_t i = 0; allowed && allowed[i]; i++)
		if (strcmp(allowed[i], tag) == 0)
			return true;
	return false;
}

static char *describe(const struct kobj_diag *d)
{
	char where[256];
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		abort();
	fprintf(out, "[%s] %s\n  -> %s: %s", kobj_diag_tag(d->kind), d->message,
		kobj_where(d->origin, where), d->explanation);
	fclose(out);
	return text;
}

/* "'a' (refcount 1), 'b' (refcount 2)": the objects never released, or NULL. */
static char *left_behind(const struct kobj_world *w)
{
	char *text = NULL;
	size_t len = 0, n = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		abort();
	for (unsigned id = 1; id <= kobj_record_count(w); id++) {
		const struct kobj_record *r = kobj_record_by_id(w, id);
		if (r->released || r->builtin || r->kind == KOBJ_KIND_MODULE)
			continue;
		fprintf(out, "%s'%s' (refcount %d)", n++ ? ", " : "never released: ", r->name,
			r->refcount);
	}
	fclose(out);
	if (n)
		return text;
	free(text);
	return NULL;
}

char *kobj_race_world_verdict(size_t first_diag, bool leaks_ok, const char *const *allowed)
{
	struct kobj_world *w = kobj_world_current();

	for (size_t i = first_diag; i < kobj_diag_count(w); i++) {
		const struct kobj_diag *d = kobj_diag_at(w, i);
		if (!allowed_tag(kobj_diag_tag(d->kind), allowed))
			return describe(d);
	}
	return leaks_ok ? NULL : left_behind(w);
}

unsigned kobj_race_current(void)
{
	const struct kobj_world *w = kobj_world_peek();
	return kobj_sched_hooks && w ? w->thread : 0;
}
