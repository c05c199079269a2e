/*
 * The scene: which objects a picture draws and how. At exit the states come from the
 * leak report's own findings (kobj_leaks_find), so picture and report cannot disagree:
 * a root cause is leaked, an object still in sysfs was never unregistered, and one held
 * only by other leaked objects is kept alive by its root. Built-ins such as /sys/kernel
 * are never leaks. Wide ksets fold: the first and last members stay, so do members a
 * diagnostic names and leaks at exit (with the objects above them), and one box counts
 * the rest and everything below them.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/pictures/scene.h"
#include "core/report/report.h"

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();
	return p;
}

/* Marks who is drawn: at or below @top through the parents they hold. */
static void find_drawn(struct kobj_scene *s)
{
	enum { UNKNOWN, YES, NO };
	unsigned char *v = s->shown;
	for (unsigned id = 1; id <= s->n; id++) {
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (!s->top || r->kind == KOBJ_KIND_MODULE) {
			v[id] = !s->top ? YES : NO;
			continue;
		}
		unsigned path[256], depth = 0, at = id;
		while (at && !v[at] && at != s->top && depth < 256) {
			path[depth++] = at;
			at = kobj_record_by_id(s->w, at)->parent;
		}
		unsigned char found = at == s->top ? YES : at && v[at] ? v[at] : NO;
		while (depth)
			v[path[--depth]] = found;
		v[id] = found;
	}
	for (unsigned id = 1; id <= s->n; id++)
		v[id] = v[id] == YES ? KOBJ_SHOWN_YES : KOBJ_SHOWN_NO;
}

/* The states as the run goes, then at exit as the leak report finds them. */
static void find_states(struct kobj_scene *s)
{
	for (unsigned id = 1; id <= s->n; id++)
		s->state[id] = (unsigned char)kobj_record_state(kobj_record_by_id(s->w, id));
	if (!s->at_exit)
		return;
	size_t count;
	struct kobj_leak *leaks = kobj_leaks_find(s->w, &count);
	for (size_t i = 0; i < count; i++) {
		unsigned id = leaks[i].record->id;
		s->root[id] = leaks[i].root;
		s->state[id] = leaks[i].root != id ? KOBJ_STATE_KEPT
			       : leaks[i].registered ? KOBJ_STATE_REGISTERED
						     : KOBJ_STATE_LEAKED;
	}
	kobj_leaks_free(leaks, count);
}

/* Each object's diagnostics, by a counting sort of their indices. */
static void find_diagnostics(struct kobj_scene *s)
{
	size_t nd = kobj_diag_count(s->w);
	s->diag_list = xcalloc(nd, sizeof(unsigned));
	for (size_t i = 0; i < nd; i++) {
		unsigned obj = kobj_diag_at(s->w, i)->obj;
		if (obj && obj <= s->n)
			s->diag_n[obj]++;
	}
	unsigned at = 0;
	for (unsigned id = 1; id <= s->n; id++) {
		s->diag_start[id] = at;
		at += s->diag_n[id];
		s->diag_n[id] = 0;
	}
	for (size_t i = 0; i < nd; i++) {
		unsigned obj = kobj_diag_at(s->w, i)->obj;
		if (obj && obj <= s->n)
			s->diag_list[s->diag_start[obj] + s->diag_n[obj]++] = (unsigned)i;
	}
}

bool kobj_scene_ref_is_note(const struct kobj_scene *s, unsigned id, enum kobj_ref_kind kind)
{
	if (!s->at_exit || s->root[id] != id || kobj_ref_held_by_object(kind) ||
	    kind == KOBJ_REF_PENDING)
		return false;
	/* an object never unregistered keeps its creator's reference: no extra culprit */
	return !(s->state[id] == KOBJ_STATE_REGISTERED && kind == KOBJ_REF_CREATOR);
}

struct kobj_ref *kobj_scene_refs(const struct kobj_scene *s, unsigned id, size_t *n)
{
	size_t count = kobj_refs_count(s->w, id);
	struct kobj_ref *refs = xcalloc(count + 1, sizeof(*refs));
	*n = kobj_refs_of(s->w, id, refs, count);
	return refs;
}

/* Whether a leak note points at @id: it must stay in view. */
static bool has_note(const struct kobj_scene *s, unsigned id)
{
	if (!s->at_exit || s->root[id] != id)
		return false;
	size_t n;
	struct kobj_ref *refs = kobj_scene_refs(s, id, &n);
	bool found = false;
	for (size_t i = 0; i < n && !found; i++)
		found = kobj_scene_ref_is_note(s, id, refs[i].kind);
	free(refs);
	return found;
}

/* Objects a fold may not hide: those a diagnostic names, leaks at exit, and what is
 * above them (parents and ksets), so that the path to them stays drawn. */
static unsigned char *find_kept_in_view(const struct kobj_scene *s)
{
	unsigned char *keep = xcalloc((size_t)s->n + 1, 1);
	unsigned *stack = xcalloc(2 * (size_t)s->n + 2, sizeof(unsigned));
	for (unsigned id = 1; id <= s->n; id++) {
		if (!s->diag_n[id] && !has_note(s, id))
			continue;
		size_t depth = 0;
		stack[depth++] = id;
		while (depth) {
			unsigned at = stack[--depth];
			if (!at || keep[at])
				continue;
			keep[at] = 1;
			const struct kobj_record *r = kobj_record_by_id(s->w, at);
			stack[depth++] = r->parent;
			stack[depth++] = r->kset;
		}
	}
	free(stack);
	return keep;
}

bool kobj_scene_is_member(const struct kobj_scene *s, unsigned id)
{
	const struct kobj_record *r = kobj_record_by_id(s->w, id);
	return r && r->kset && r->kset <= s->n && s->shown[r->kset] == KOBJ_SHOWN_YES &&
	       (s->shown[id] == KOBJ_SHOWN_YES || s->shown[id] == KOBJ_SHOWN_FOLDED);
}

/* Each drawn kset's members, in creation order. */
static void find_members(struct kobj_scene *s)
{
	for (unsigned id = s->n; id >= 1; id--) {
		if (!kobj_scene_is_member(s, id))
			continue;
		unsigned kset = kobj_record_by_id(s->w, id)->kset;
		s->next[id] = s->first[kset];
		s->first[kset] = id;
	}
}

/* Folds the members of @kset past the first and last halves of @limit. */
static void fold_members(struct kobj_scene *s, unsigned kset, unsigned limit,
			 const unsigned char *keep)
{
	unsigned count = 0, i = 0;
	for (unsigned m = s->first[kset]; m; m = s->next[m])
		count++;
	if (count <= limit)
		return;
	unsigned head = (limit + 1) / 2, tail = limit / 2;
	for (unsigned m = s->first[kset]; m; m = s->next[m], i++)
		if (i >= head && i < count - tail && !keep[m]) {
			s->shown[m] = KOBJ_SHOWN_FOLDED;
			s->fold_of[m] = kset;
		}
}

/* Objects under a folded member (through their parent or kset) are hidden in its fold:
 * a walk with an explicit stack, each object resolved once. */
static void hide_below(struct kobj_scene *s)
{
	enum { UNKNOWN, VISIBLE, HIDDEN, BUSY };
	unsigned char *memo = xcalloc((size_t)s->n + 1, 1);
	unsigned *stack = xcalloc(2 * (size_t)s->n + 2, sizeof(unsigned));
	for (unsigned id = 1; id <= s->n; id++) {
		size_t depth = 0;
		stack[depth++] = id;
		while (depth) {
			unsigned t = stack[depth - 1];
			const struct kobj_record *r = kobj_record_by_id(s->w, t);
			unsigned deps[2] = { r->parent, r->kset }, pushed = 0;
			if (memo[t] == UNKNOWN) {
				memo[t] = BUSY;
				for (int d = 0; d < 2; d++)
					if (deps[d] && deps[d] <= s->n && !memo[deps[d]])
						stack[depth++] = deps[d], pushed++;
				if (pushed)
					continue;
			}
			depth--;
			if (memo[t] != BUSY)
				continue;
			memo[t] = s->shown[t] == KOBJ_SHOWN_FOLDED ? HIDDEN : VISIBLE;
			for (int d = 0; d < 2 && memo[t] == VISIBLE; d++) {
				if (deps[d] && deps[d] <= s->n && memo[deps[d]] == HIDDEN &&
				    s->shown[t] == KOBJ_SHOWN_YES) {
					memo[t] = HIDDEN;
					s->shown[t] = KOBJ_SHOWN_BELOW;
					s->fold_of[t] = s->fold_of[deps[d]];
				}
			}
		}
	}
	free(stack);
	free(memo);
}

static void sum_folds(struct kobj_scene *s)
{
	unsigned *index = xcalloc((size_t)s->n + 1, sizeof(unsigned));
	for (unsigned id = 1; id <= s->n; id++) {
		unsigned k = s->fold_of[id];
		if (!k)
			continue;
		if (!index[k]) {
			s->folds = realloc(s->folds, (s->nfolds + 1) * sizeof(*s->folds));
			if (!s->folds)
				abort();
			s->folds[s->nfolds++] = (struct kobj_fold){ .kset = k, .min_count = -1 };
			index[k] = (unsigned)s->nfolds;
		}
		struct kobj_fold *f = &s->folds[index[k] - 1];
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (s->shown[id] == KOBJ_SHOWN_BELOW) {
			f->below++;
			continue;
		}
		f->members++;
		f->per_state[s->state[id]]++;
		if (f->min_count < 0 || r->refcount < f->min_count)
			f->min_count = r->refcount;
		if (r->refcount > f->max_count)
			f->max_count = r->refcount;
		f->parent_refs += !r->released && r->parent == k;
		f->kset_refs += !r->released && r->kset == k;
	}
	free(index);
}

const struct kobj_fold *kobj_scene_fold(const struct kobj_scene *s, unsigned kset)
{
	for (size_t i = 0; i < s->nfolds; i++)
		if (s->folds[i].kset == kset)
			return &s->folds[i];
	return NULL;
}

struct kobj_scene *kobj_scene_new(const struct kobj_world *w,
				  const struct kobj_dot_options *o, int *err)
{
	static const struct kobj_dot_options defaults = { .legend = true };
	struct kobj_scene *s = xcalloc(1, sizeof(*s));
	o = o ? o : &defaults;
	s->w = w;
	s->n = (unsigned)kobj_record_count(w);
	s->at_exit = o->at_exit;
	if (o->path && sysfs_lookup(w, o->path) != sysfs_root(w)) {
		const struct sysfs_dirent *d = sysfs_lookup(w, o->path);
		if (!d || sysfs_dirent_type(d) != SYSFS_DIR || !sysfs_dirent_is_object(d)) {
			free(s);
			*err = -ENOENT;
			return NULL;
		}
		s->top = sysfs_dirent_obj(d);
	}
	size_t n1 = (size_t)s->n + 1;
	s->shown = xcalloc(n1, 1);
	s->state = xcalloc(n1, 1);
	s->root = xcalloc(n1, sizeof(unsigned));
	s->first = xcalloc(n1, sizeof(unsigned));
	s->next = xcalloc(n1, sizeof(unsigned));
	s->fold_of = xcalloc(n1, sizeof(unsigned));
	s->diag_start = xcalloc(n1, sizeof(unsigned));
	s->diag_n = xcalloc(n1, sizeof(unsigned));
	find_drawn(s);
	find_states(s);
	find_diagnostics(s);
	find_members(s);
	unsigned limit = o->fold ? o->fold : KOBJ_DOT_FOLD_DEFAULT;
	if (limit != KOBJ_DOT_NO_FOLD) {
		unsigned char *keep = find_kept_in_view(s);
		for (unsigned id = 1; id <= s->n; id++)
			if (s->first[id])
				fold_members(s, id, limit, keep);
		free(keep);
		hide_below(s);
		sum_folds(s);
	}
	return s;
}

void kobj_scene_free(struct kobj_scene *s)
{
	if (!s)
		return;
	free(s->shown);
	free(s->state);
	free(s->root);
	free(s->first);
	free(s->next);
	free(s->fold_of);
	free(s->folds);
	free(s->diag_start);
	free(s->diag_n);
	free(s->diag_list);
	free(s);
}
