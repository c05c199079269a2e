/*
 * lib/ref_tracker.c in the sandbox. Each tracker remembers where it was allocated and
 * freed; a freed one waits in its directory's quarantine, which is what lets a second
 * free be told from a first. Trackers are the world's: a pointer the caller passes is
 * looked up, never read, so a stale or made-up tracker is reported instead of followed.
 *
 * A tracker allocated in the function that just took a reference carries it in the
 * ledger (tracked, so plain puts pick it last); its free names that reference as the one
 * the next put on the object drops, and a free twice stops the count being trusted.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/ref_tracker.h"

#define DISPLAY_LIMIT 16 /* groups printed by ref_tracker_dir_exit() */

struct ref_tracker {
	unsigned dir;             /* its directory: an index + 1 */
	unsigned alloc_at, free_at; /* sites */
	unsigned obj;             /* the object whose reference it carries, or 0 */
	unsigned long long token; /* that reference (kobj_ledger_token) */
	bool dead;                /* freed: in the quarantine */
	bool gone;                /* out of the quarantine: its memory freed */
	unsigned qnext;           /* the next in its directory's quarantine (tracker + 1) */
};

struct tdir {
	const struct ref_tracker_dir *ptr; /* identity only */
	char name[32];
	unsigned id;                 /* for "%pK" */
	unsigned obj;                /* the object its trackers' references are on, or 0 */
	unsigned qhead, qtail;       /* the quarantine, oldest first (tracker + 1) */
	bool dead;
};

struct kobj_trackers {
	struct ref_tracker **all; /* every tracker made, freed with the world */
	size_t n, cap;
	struct tdir *dirs;
	size_t ndirs, dirs_cap;
	struct kobj_map by_ptr; /* tracker address -> index + 1 */
	bool alloc_failed_said; /* pr_err_once */
	bool warned[4];         /* WARN_ON_ONCE, per place */
};

enum { WARN_ALLOC_DEAD, WARN_FREE_DEAD, WARN_EXIT_UNTRACKED, WARN_EXIT_NO_TRACKER };

static struct kobj_trackers *trackers(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	if (!m->trackers)
		m->trackers = kobj_xcalloc(1, sizeof(*m->trackers));
	return m->trackers;
}

void kobj_trackers_free(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	struct kobj_trackers *t = m->trackers;
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		kobj_xfree(t->all[i]);
	kobj_xfree(t->all);
	kobj_xfree(t->dirs);
	kobj_map_free(&t->by_ptr);
	kobj_xfree(t);
	m->trackers = NULL;
}

/* The world's directory behind @dir, or NULL if ref_tracker_dir_init() never made it. */
static struct tdir *dir_of(struct kobj_trackers *t, const struct ref_tracker_dir *dir)
{
	if (!dir || dir->kobj_dir == 0 || dir->kobj_dir > t->ndirs)
		return NULL;
	struct tdir *d = &t->dirs[dir->kobj_dir - 1];
	return d->ptr == dir ? d : NULL;
}

static struct ref_tracker *tracker_at(struct kobj_trackers *t, unsigned i)
{
	return i ? t->all[i - 1] : NULL;
}

/* "    func() at file:line", the sandbox's one-frame stack of a site. */
static const char *stack_of(struct kobj_world *w, unsigned site, char buf[300])
{
	char where[256];
	struct kobj_origin o = kobj_site_origin(w, site);
	snprintf(buf, 300, "    %s%s at %s", o.func ? o.func : "?", o.func ? "()" : "",
		 kobj_site_where(w, site, where));
	return buf;
}

static const char *dir_pointer(const struct tdir *d, char buf[17])
{
	return kobj_fake_pointer(0x40000000u | d->id, buf);
}

static void warn_once(struct kcall *c, struct kobj_trackers *t, int which, const char *cond,
		      const char *why)
{
	char where[256];
	if (t->warned[which])
		return;
	t->warned[which] = true;
	kobj_diagnose(c, KOBJ_DIAG_REF_TRACKER, 0,
		    kobj_xasprintf("WARNING: at lib/ref_tracker.c, %s(): WARN_ON_ONCE(%s)",
				   c->op, cond),
		    kobj_xasprintf("%s() at %s: %s The kernel warns only the first time.", c->op,
				   kobj_site_where(c->w, c->site, where), why));
}

/* =================================================================== directories */

void kobj_ref_tracker_dir_init(struct ref_tracker_dir *dir, unsigned int quarantine_count,
			       const char *name)
{
	struct kcall c = kobj_call("ref_tracker_dir_init");
	struct kobj_trackers *t = trackers(c.w);

	if (!dir) {
		kobj_report_invalid_pointer(&c);
		return;
	}
	kobj_grow((void **)&t->dirs, &t->dirs_cap, t->ndirs + 1, sizeof(*t->dirs));
	struct tdir *d = &t->dirs[t->ndirs++];
	*d = (struct tdir){ .ptr = dir, .id = (unsigned)t->ndirs };
	snprintf(d->name, sizeof(d->name), "%s", name ? name : "");
	*dir = (struct ref_tracker_dir){
		.quarantine_avail = quarantine_count,
		.untracked = REFCOUNT_INIT(1),
		.no_tracker = REFCOUNT_INIT(1),
		.kobj_dir = (unsigned)t->ndirs,
	};
	memcpy(dir->name, d->name, sizeof(dir->name));
}

/* Reports a directory ref_tracker_dir_init() did not make; Return: true if so. */
static bool refuse_unknown_dir(struct kcall *c, const struct tdir *d)
{
	char where[256];
	if (d)
		return false;
	kobj_diagnose(c, KOBJ_DIAG_REF_TRACKER, 0,
		    kobj_xstrdup("BUG: kernel NULL pointer dereference, address: 0000000000000000"),
		    kobj_xasprintf("%s() at %s was given a ref_tracker_dir that "
				   "ref_tracker_dir_init() never set up: its lists are not "
				   "initialised, and the kernel would follow an empty list head. "
				   "The sandbox did nothing.", c->op,
				   kobj_site_where(c->w, c->site, where)));
	return true;
}

/* Live trackers grouped by the place that allocated them, first seen first: @sites gets
 * the places, @counts how many trackers each; Return: the number of groups. */
static size_t group_live(struct kobj_trackers *t, unsigned dir, unsigned *sites,
			 unsigned *counts, unsigned *total)
{
	size_t n = 0;
	*total = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ref_tracker *k = t->all[i];
		if (k->dir != dir || k->dead || k->gone)
			continue;
		++*total;
		size_t g = 0;
		while (g < n && sites[g] != k->alloc_at)
			g++;
		if (g == n) {
			sites[n] = k->alloc_at;
			counts[n++] = 0;
		}
		counts[g]++;
	}
	return n;
}

/* The kernel's report of @d's live trackers, at most @limit groups; Return: kmalloc'd
 * text (kobj_xfree), "" if none are live; *@live gets their number. */
static char *live_report(struct kobj_world *w, struct kobj_trackers *t, const struct tdir *d,
			 unsigned limit, unsigned *live)
{
	unsigned *sites = kobj_xcalloc(t->n + 1, sizeof(*sites));
	unsigned *counts = kobj_xcalloc(t->n + 1, sizeof(*counts));
	size_t groups = group_live(t, (unsigned)(d - t->dirs) + 1, sites, counts, live);
	char p[17], frame[300], *text = kobj_xstrdup("");
	unsigned shown = 0;

	for (size_t g = 0; g < groups && g < limit; g++) {
		char *more = kobj_xasprintf("%s%sref_tracker: %s@%s has %u/%u users at\n%s",
					    text, *text ? "\n" : "", d->name, dir_pointer(d, p),
					    counts[g], *live, stack_of(w, sites[g], frame));
		kobj_xfree(text);
		text = more;
		shown += counts[g];
	}
	if (groups > limit) {
		char *more = kobj_xasprintf("%s\nref_tracker: %s@%s skipped reports about "
					    "%u/%u users.", text, d->name, dir_pointer(d, p),
					    *live - shown, *live);
		kobj_xfree(text);
		text = more;
	}
	kobj_xfree(sites);
	kobj_xfree(counts);
	return text;
}

void (ref_tracker_dir_print)(struct ref_tracker_dir *dir, unsigned int display_limit)
{
	struct kcall c = kobj_call("ref_tracker_dir_print");
	struct kobj_trackers *t = trackers(c.w);
	const struct tdir *d = dir_of(t, dir);
	unsigned live;

	if (refuse_unknown_dir(&c, d))
		return;
	char *text = live_report(c.w, t, d, display_limit, &live);
	if (live)
		kobj_trace(c.w, KOBJ_LOGLEVEL_ERR, d->obj, c.site, "%s", text);
	kobj_xfree(text);
}

/* Frees @k for good: a reference it carried is an untracked one from now on. */
static void let_go(struct kobj_world *w, struct ref_tracker *k)
{
	unsigned e = k->obj && !k->dead ? kobj_ledger_entry_of(w, k->token, k->obj) : 0;
	if (e)
		kobj_ledger_track(w, e, false);
	k->gone = true;
}

/* Where each leaked tracker's reference was taken, for the explanation. */
static char *leaked_refs(struct kobj_world *w, struct kobj_trackers *t, unsigned dir)
{
	char *text = kobj_xstrdup("");
	char where[256], taken[256];
	for (size_t i = 0; i < t->n; i++) {
		const struct ref_tracker *k = t->all[i];
		if (k->dir != dir || k->dead || k->gone)
			continue;
		unsigned e = k->obj ? kobj_ledger_entry_of(w, k->token, k->obj) : 0;
		struct kobj_ref ref;
		const struct kobj_record *r = kobj_rec(w, k->obj);
		char *more;
		if (e) {
			kobj_ledger_ref(w, e, &ref);
			more = kobj_xasprintf("%s The tracker allocated at %s carries the reference "
					      "to '%s' taken at %s by %s, still held.", text,
					      kobj_site_where(w, k->alloc_at, where), r->name,
					      kobj_site_where(w, ref.site, taken), ref.op);
		} else {
			more = kobj_xasprintf("%s The tracker allocated at %s was never freed.",
					      text, kobj_site_where(w, k->alloc_at, where));
		}
		kobj_xfree(text);
		text = more;
	}
	return text;
}

void (ref_tracker_dir_exit)(struct ref_tracker_dir *dir)
{
	struct kcall c = kobj_call("ref_tracker_dir_exit");
	struct kobj_trackers *t = trackers(c.w);
	struct tdir *d = dir_of(t, dir);
	char where[256];
	unsigned live;

	if (refuse_unknown_dir(&c, d))
		return;
	unsigned id = (unsigned)(d - t->dirs) + 1;
	d->dead = true;
	dir->dead = true;
	for (struct ref_tracker *k = tracker_at(t, d->qhead); k; k = tracker_at(t, k->qnext)) {
		k->gone = true;
		dir->quarantine_avail++;
	}
	d->qhead = d->qtail = 0;
	char *text = live_report(c.w, t, d, DISPLAY_LIMIT, &live);
	if (live) {
		char *refs = leaked_refs(c.w, t, id);
		kobj_diagnose(&c, KOBJ_DIAG_REF_TRACKER, d->obj, text,
			    kobj_xasprintf("ref_tracker_dir_exit() at %s found %u tracker(s) of "
					   "'%s' never freed: each stands for a reference a get "
					   "took and no put gave back.%s The kernel frees the "
					   "trackers and warns (WARN_ON_ONCE(leak)); the references "
					   "stay.", kobj_site_where(c.w, c.site, where), live,
					   d->name, refs));
		kobj_xfree(refs);
		for (size_t i = 0; i < t->n; i++)
			if (t->all[i]->dir == id)
				let_go(c.w, t->all[i]);
	} else {
		kobj_xfree(text);
	}
	if (refcount_read(&dir->untracked) != 1)
		warn_once(&c, t, WARN_EXIT_UNTRACKED, "refcount_read(&dir->untracked) != 1",
			  "references whose tracker could not be allocated were not all freed: "
			  "some are still held.");
	if (refcount_read(&dir->no_tracker) != 1)
		warn_once(&c, t, WARN_EXIT_NO_TRACKER, "refcount_read(&dir->no_tracker) != 1",
			  "allocations with a NULL tracker and frees with a NULL tracker do "
			  "not match.");
}

/* ====================================================================== trackers */

/* The reference the caller just took, if it is the one @k should carry: taken in the
 * same function, by a caller, on the directory's object, and carried by no one else. */
static void carry_last_reference(struct kcall *c, struct tdir *d, struct ref_tracker *k)
{
	struct kobj_world *w = c->w;
	unsigned long long token = w->last_take;
	unsigned obj = kobj_ledger_object_of(w, token);
	unsigned e = obj ? kobj_ledger_entry_of(w, token, obj) : 0;
	struct kobj_ref ref;

	if (!e || (d->obj && d->obj != obj))
		return;
	kobj_ledger_ref(w, e, &ref);
	struct kobj_origin took = kobj_site_origin(w, ref.site);
	struct kobj_origin here = kobj_site_origin(w, c->site);
	if (ref.tracked || kobj_ref_held_by_object(ref.kind) || !took.func || !here.func ||
	    strcmp(took.func, here.func) != 0 || strcmp(took.file, here.file) != 0)
		return;
	kobj_ledger_track(w, e, true);
	k->obj = d->obj = obj;
	k->token = token;
}

int (ref_tracker_alloc)(struct ref_tracker_dir *dir, struct ref_tracker **trackerp, gfp_t gfp)
{
	struct kcall c = kobj_call("ref_tracker_alloc");
	struct kobj_trackers *t = trackers(c.w);
	struct tdir *d = dir_of(t, dir);
	char where[256];

	(void)gfp;
	if (refuse_unknown_dir(&c, d))
		return -EINVAL;
	if (d->dead)
		warn_once(&c, t, WARN_ALLOC_DEAD, "dir->dead",
			  "the directory's ref_tracker_dir_exit() already ran, so nothing will "
			  "ever report this tracker.");
	if (!trackerp) {
		kobj_note_site_id(c.site);
		refcount_inc(&dir->no_tracker);
		return 0;
	}
	struct ref_tracker *k = kobj_kmalloc(c.w, sizeof(*k));
	if (!k) {
		*trackerp = NULL;
		kobj_note_site_id(c.site);
		refcount_inc(&dir->untracked);
		if (!t->alloc_failed_said) {
			t->alloc_failed_said = true;
			kobj_diagnose(&c, KOBJ_DIAG_REF_TRACKER, d->obj,
				    kobj_xstrdup("ref_tracker: memory allocation failure, "
						 "unreliable refcount tracker."),
				    kobj_xasprintf("ref_tracker_alloc() at %s could not allocate "
						   "its tracker: the reference is counted in "
						   "'untracked', and its free must still be called "
						   "(it returns -EEXIST). The kernel says this once.",
						   kobj_site_where(c.w, c.site, where)));
		}
		return -ENOMEM;
	}
	*k = (struct ref_tracker){ .dir = (unsigned)(d - t->dirs) + 1, .alloc_at = c.site };
	kobj_grow((void **)&t->all, &t->cap, t->n + 1, sizeof(*t->all));
	t->all[t->n++] = k;
	kobj_map_put(&t->by_ptr, (uintptr_t)k, (unsigned)t->n);
	carry_last_reference(&c, d, k);
	*trackerp = k;
	return 0;
}

/* Moves @k into @d's quarantine; the oldest is really freed when it is full. */
static void quarantine(struct kobj_trackers *t, struct tdir *d, struct ref_tracker_dir *dir,
		       struct ref_tracker *k)
{
	unsigned i = kobj_map_get(&t->by_ptr, (uintptr_t)k);
	if (d->qtail)
		tracker_at(t, d->qtail)->qnext = i;
	else
		d->qhead = i;
	d->qtail = i;
	if (dir->quarantine_avail) {
		dir->quarantine_avail--;
		return;
	}
	struct ref_tracker *oldest = tracker_at(t, d->qhead);
	d->qhead = oldest->qnext;
	if (!d->qhead)
		d->qtail = 0;
	oldest->gone = true;
}

static int report_freed_twice(struct kcall *c, const struct ref_tracker *k)
{
	char where[256], alloc[300], freed[300];
	kobj_diagnose(c, KOBJ_DIAG_REF_TRACKER, k->obj,
		    kobj_xasprintf("ref_tracker: reference already released.\n"
				   "ref_tracker: allocated in:\n%s\n"
				   "ref_tracker: freed in:\n%s",
				   stack_of(c->w, k->alloc_at, alloc),
				   stack_of(c->w, k->free_at, freed)),
		    kobj_xasprintf("ref_tracker_free() at %s freed a tracker that was already "
				   "freed: the put that goes with this free drops a reference "
				   "its caller no longer has, one that belongs to another "
				   "holder. While other holders keep the count above zero, only "
				   "the tracker can tell. The kernel warns (WARN_ON_ONCE) and "
				   "returns -EINVAL; the put still goes ahead.",
				   kobj_site_where(c->w, c->site, where)));
	return -EINVAL;
}

static int report_tracker_gone(struct kcall *c, const struct tdir *d,
			       const struct ref_tracker *k)
{
	char where[256], alloc[256], freed[256];
	kobj_diagnose(c, KOBJ_DIAG_REF_TRACKER, k->obj,
		    kobj_xstrdup("BUG: KASAN: slab-use-after-free in ref_tracker_free"),
		    kobj_xasprintf("ref_tracker_free() at %s freed again the tracker allocated "
				   "at %s and freed at %s. It has left the quarantine of "
				   "'%s' since (%s), so its memory is freed: the kernel reads "
				   "freed memory here instead of saying \"reference already "
				   "released\". A larger quarantine_count in "
				   "ref_tracker_dir_init() keeps freed trackers longer.",
				   kobj_site_where(c->w, c->site, where),
				   kobj_site_where(c->w, k->alloc_at, alloc),
				   kobj_site_where(c->w, k->free_at, freed), d->name,
				   d->dead ? "ref_tracker_dir_exit() emptied it"
					   : "later frees pushed it out"));
	return -EINVAL;
}

int (ref_tracker_free)(struct ref_tracker_dir *dir, struct ref_tracker **trackerp)
{
	struct kcall c = kobj_call("ref_tracker_free");
	struct kobj_trackers *t = trackers(c.w);
	struct tdir *d = dir_of(t, dir);
	char where[256];

	if (refuse_unknown_dir(&c, d))
		return -EINVAL;
	if (d->dead)
		warn_once(&c, t, WARN_FREE_DEAD, "dir->dead",
			  "the directory's ref_tracker_dir_exit() already ran.");
	if (!trackerp) {
		kobj_note_site_id(c.site);
		refcount_dec(&dir->no_tracker);
		return 0;
	}
	if (!*trackerp) {
		kobj_note_site_id(c.site);
		refcount_dec(&dir->untracked);
		return -EEXIST;
	}
	struct ref_tracker *k = tracker_at(t, kobj_map_get(&t->by_ptr, (uintptr_t)*trackerp));
	if (!k || k->dir != (unsigned)(d - t->dirs) + 1) {
		kobj_diagnose(&c, KOBJ_DIAG_REF_TRACKER, 0,
			    kobj_xstrdup("list_del corruption"),
			    kobj_xasprintf("ref_tracker_free() at %s was given a tracker that "
					   "ref_tracker_alloc() did not make for '%s': the kernel "
					   "would unlink it from a list it is not on. The sandbox "
					   "did nothing.", kobj_site_where(c.w, c.site, where),
					   d->name));
		return -EINVAL;
	}
	if (k->gone)
		return report_tracker_gone(&c, d, k);
	if (k->dead)
		return report_freed_twice(&c, k);
	k->dead = true;
	k->free_at = c.site;
	unsigned e = k->obj ? kobj_ledger_entry_of(c.w, k->token, k->obj) : 0;
	if (e) {
		kobj_ledger_track(c.w, e, false);
		c.w->next_put = k->token;
		c.w->next_put_obj = k->obj;
	}
	quarantine(t, d, dir, k);
	return 0;
}
