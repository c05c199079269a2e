/*
 * The diagnostics of the lifecycle, in the words of the object's era. Today's are Linux
 * 6.1's. For the article's objects, 2.6.0's own line where it printed one ("Badness in
 * kobject_get", "kobject_register failed for ..."); where 2.6.0 was silent or oopsed, the
 * explanation says so and the line shown is what a current kernel prints.
 */
#include <errno.h>
#include <string.h>

#include "core/model/model_internal.h"

/* 2.6.0's kobject_get() warned at this line of lib/kobject.c. */
#define BADNESS_2_6_0 "Badness in kobject_get at lib/kobject.c:431"

void kobj_diagnose(struct kcall *c, enum kobj_diag_kind kind, unsigned obj, char *message,
		 char *explanation)
{
	kobj_diag_add(c->w, kind, obj, c->site, message, explanation);
}

/* "2.6.0 printed nothing here; the line above is a current kernel's. " or "". */
static const char *silent_then(const struct kobj_record *r)
{
	return r && r->era == KOBJ_ERA_2_6_0
		       ? "2.6.0 printed nothing here; the line above is what a current kernel "
			 "prints. "
		       : "";
}

/* What the caller of a failed add must do next: put the object, unless the call that
 * failed creates its objects itself and already put it (kobject_create_and_add). */
const char *kobj_after_failed_add(const struct kcall *c)
{
	if (strcmp(c->op, "kobject_create_and_add") == 0 ||
	    strcmp(c->op, "kset_create_and_add") == 0)
		return "the call dropped the object itself and returns NULL";
	return "the caller must still kobject_put() it";
}

/* ====================================================================== init */

void kobj_report_invalid_pointer(struct kcall *c)
{
	char where[256];
	kobj_diagnose(c, KOBJ_DIAG_INVALID_POINTER, 0,
		    kobj_xstrdup("kobject (0000000000000000): invalid kobject pointer!"),
		    kobj_xasprintf("%s() was called with NULL at %s: there is no object to "
				   "initialise.", c->op, kobj_site_where(c->w, c->site, where)));
}

void kobj_report_no_ktype(struct kcall *c, struct kobject *kobj)
{
	char p[17], where[256];
	/* 6.1's string ends in a newline of its own: the log shows a blank line after it */
	kobj_diagnose(c, KOBJ_DIAG_NO_KTYPE, 0,
		    kobj_xasprintf("kobject (%s): must have a ktype to be initialized properly!\n",
				   kobj_unknown_pointer(c->w, kobj, p)),
		    kobj_xasprintf("%s() at %s was given no ktype for '%s'. Today's "
				   "kobject_init() needs one: it holds the release() that frees "
				   "the object. Nothing was initialised.", c->op,
				   kobj_site_where(c->w, c->site, where), kobj_name_of(kobj)));
}

void kobj_report_init_twice(struct kcall *c, const struct kobj_record *r)
{
	char p[17], where[256], when[256];
	bool today = r->era == KOBJ_ERA_TODAY;
	kobj_diagnose(c, KOBJ_DIAG_INIT_TWICE, r->id,
		    kobj_xasprintf("kobject (%s): tried to init an initialized object, "
				   "something is seriously wrong.", kobj_fake_pointer(r->id, p)),
		    kobj_xasprintf("%s'%s' was already initialised at %s and holds %d "
				   "reference(s). %s at %s %s; the sandbox left it as it was.",
				   silent_then(r), r->name, kobj_site_where(c->w, r->init_at, when),
				   r->refcount,
				   today ? "The kernel would set its count back to 1"
					 : "Initialising it again",
				   kobj_site_where(c->w, c->site, where),
				   today ? "and lose them (or the memory was not zeroed)"
					 : "would reset its count to 1 and lose them"));
}

/* ============================================================= released objects */

bool kobj_refuse_released(struct kcall *c, const struct kobj_record *r)
{
	char where[256], when[256];

	if (!r || !r->released)
		return false;
	kobj_diagnose(c, KOBJ_DIAG_USE_AFTER_FREE, r->id,
		    kobj_xasprintf("BUG: KASAN: slab-use-after-free in %s", kcall_now(c)),
		    kobj_xasprintf("%s() at %s used '%s', which was released at %s: its memory "
				   "may already be freed. The sandbox did nothing.", kcall_now(c),
				   kobj_site_where(c->w, c->site, where), r->name,
				   kobj_site_where(c->w, r->release_at, when)));
	return true;
}

/* "is not initialized, yet @call() is being called", and what the sandbox did instead. */
static void report_uninit(struct kcall *c, struct kobject *kobj, enum kobj_diag_kind kind,
			  const char *call, const char *outcome)
{
	char p[17], where[256];
	kobj_diagnose(c, kind, 0,
		    kobj_xasprintf("kobject: '%s' (%s): is not initialized, yet %s() is being "
				   "called.", kobj_name_of(kobj),
				   kobj_unknown_pointer(c->w, kobj, p), call),
		    kobj_xasprintf("%s() at %s was given an object that kobject_init() never set "
				   "up%s", kcall_now(c), kobj_site_where(c->w, c->site, where),
				   outcome));
}

void kobj_report_get_uninit(struct kcall *c, struct kobject *kobj)
{
	report_uninit(c, kobj, KOBJ_DIAG_GET_UNINIT, "kobject_get",
		      ", so it has no count to raise. The sandbox returned NULL.");
}

void kobj_report_put_uninit(struct kcall *c, struct kobject *kobj)
{
	report_uninit(c, kobj, KOBJ_DIAG_PUT_UNINIT, "kobject_put",
		      "; there is no reference to drop. The sandbox ignored it.");
}

void kobj_report_get_released(struct kcall *c, const struct kobj_record *r)
{
	char where[256], when[256];
	bool today = r->era == KOBJ_ERA_TODAY;
	kobj_diagnose(c, KOBJ_DIAG_GET_ZERO, r->id,
		    kobj_xstrdup(today ? "refcount_t: addition on 0; use-after-free."
				       : BADNESS_2_6_0),
		    kobj_xasprintf(today ? "%s() at %s asked for a reference to '%s', released "
					   "at %s. Today's kobject_get() cannot fail: the kernel "
					   "would saturate a count in freed memory and hand the "
					   "pointer back. The sandbox returned NULL; the object "
					   "must not be used."
					 : "%s() at %s asked for a reference to '%s', whose count "
					   "already reached zero at %s, where it was released. As "
					   "the article says, kobject_get() fails then: it returned "
					   "NULL, and the caller must not use the object. (A "
					   "current kernel prints \"refcount_t: addition on 0; "
					   "use-after-free.\")",
				   kcall_now(c), kobj_site_where(c->w, c->site, where), r->name,
				   kobj_site_where(c->w, r->release_at, when)));
}

void kobj_report_put_released(struct kcall *c, const struct kobj_record *r)
{
	char where[256], when[256];
	kobj_diagnose(c, KOBJ_DIAG_PUT_ZERO, r->id,
		    kobj_xstrdup("refcount_t: underflow; use-after-free."),
		    kobj_xasprintf("%s%s() at %s dropped a reference to '%s', but its count "
				   "had already reached zero at %s, where it was released: this "
				   "put is one too many (a double put). In the kernel the memory "
				   "is already freed; the sandbox ignored the put.", silent_then(r),
				   kcall_now(c), kobj_site_where(c->w, c->site, where), r->name,
				   kobj_site_where(c->w, r->release_at, when)));
}

/* "'bus' (kset of 'eth0'), 'sysfs' ..." : who holds @r now, for an explanation. */
static char *holders_text(struct kobj_world *w, const struct kobj_record *r)
{
	struct kobj_ref refs[4];
	size_t n = kobj_refs_of(w, r->id, refs, 4);
	char *text = kobj_xstrdup("");

	for (size_t i = 0; i < n && i < 4; i++) {
		char one[512];
		kobj_ref_text(w, &refs[i], one, sizeof(one));
		char *next = kobj_xasprintf("%s%s%s", text, i ? "; " : "", one);
		kobj_xfree(text);
		text = next;
	}
	if (n > 4) {
		char *next = kobj_xasprintf("%s; and %zu more", text, n - 4);
		kobj_xfree(text);
		text = next;
	}
	return text;
}

void kobj_report_put_not_owned(struct kcall *c, const struct kobj_record *r)
{
	char where[256];
	char *held = holders_text(c->w, r);
	kobj_diagnose(c, KOBJ_DIAG_PUT_NOT_OWNED, r->id,
		    kobj_xstrdup("refcount_t: underflow; use-after-free."),
		    kobj_xasprintf("%s() at %s dropped a reference to '%s', but the code that "
				   "called it holds none: every reference left belongs to another "
				   "object (%s). This put is one too many. The kernel would drop "
				   "the count anyway, free '%s' while they still use it, and "
				   "print this line when their own put finds the count at zero. "
				   "The sandbox ignored the put, so '%s' stays whole.",
				   kcall_now(c), kobj_site_where(c->w, c->site, where), r->name,
				   held, r->name, r->name));
	kobj_xfree(held);
}

void kobj_report_ref_put_twice(struct kcall *c, const struct kobj_record *r,
			       unsigned long serial)
{
	char where[256], taken[256], dropped[256];
	unsigned at = kobj_ledger_dropped_at(c->w, serial);
	unsigned took = 0;
	struct kobj_event ev;
	for (size_t i = 0; i < kobj_log_count(c->w) && !took; i++)
		if (kobj_log_read(c->w, i, &ev) && ev.ref == serial &&
		    (ev.kind == KOBJ_EV_GET || ev.kind == KOBJ_EV_INIT))
			took = ev.site;
	kobj_diagnose(c, KOBJ_DIAG_REF_PUT_TWICE, r->id,
		    kobj_xstrdup("refcount_t: underflow; use-after-free."),
		    kobj_xasprintf("%s() at %s dropped, through the same reference, the "
				   "reference to '%s' taken at %s, which was already dropped at "
				   "%s. %s The sandbox ignored this put.", kcall_now(c),
				   kobj_site_where(c->w, c->site, where), r->name,
				   took ? kobj_site_where(c->w, took, taken) : "an earlier line",
				   at ? kobj_site_where(c->w, at, dropped) : "an earlier line",
				   r->released ? "No references were left after that put: the "
						 "object was released, so this put reaches freed "
						 "memory, and a kernel finds its count at zero."
					       : "Other references keep the count above zero, so a "
						 "kernel would notice only later, when the last "
						 "holder's put finds nothing left."));
}

void kobj_report_no_release(struct kcall *c, struct kobj_record *r)
{
	char p[17], where[256];
	r->no_release = true;
	kobj_diagnose(c, KOBJ_DIAG_NO_RELEASE, r->id,
		    kobj_xasprintf("kobject: '%s' (%s): does not have a release() function, it "
				   "is broken and must be fixed. See "
				   "Documentation/core-api/kobject.rst.", r->name,
				   kobj_fake_pointer(r->id, p)),
		    kobj_xasprintf("%sThe last reference to '%s' was dropped at %s, but its %s "
				   "has no release method, so nothing frees the structure that "
				   "embeds it: its memory leaks. Every kobject needs a release().",
				   r->era == KOBJ_ERA_TODAY
					   ? "Linux 6.1 says this only with DEBUG_KOBJECT. "
					   : silent_then(r),
				   r->name, kobj_site_where(c->w, c->site, where),
				   r->era == KOBJ_ERA_TODAY ? "ktype"
							    : "ktype (or its kset's ktype)"));
}

/* =================================================================== saturation */

void kobj_report_saturation(struct kcall *c, struct kobj_record *r, int event, int before)
{
	char where[256], when[256];
	char *story;

	if (r->release_pending && event == REFCOUNT_ADD_UAF)
		story = kobj_xasprintf("its count reached 0 at %s and its release is only "
				       "delayed (DEBUG_KOBJECT_RELEASE): it runs when due whatever "
				       "happens now, so whoever keeps this pointer will use freed "
				       "memory (only an object that takes it as its parent or kset "
				       "keeps it alive here, saturated). Take a reference only while "
				       "holding one, or use kobject_get_unless_zero() in lookups",
				       kobj_site_where(c->w, r->release_at, when));
	else if (r->release_pending)
		story = kobj_xasprintf("its count reached 0 at %s and its release is queued "
				       "(DEBUG_KOBJECT_RELEASE): this put is one too many",
				       kobj_site_where(c->w, r->release_at, when));
	else
		story = kobj_xasprintf("its count is saturated (an earlier diagnostic says why; "
				       "it was initialised at %s): it stays saturated and the "
				       "object is never released, a leak the kernel prefers to a "
				       "use-after-free", kobj_site_where(c->w, r->init_at, when));
	kobj_diagnose(c, kobj_rc_diag_kind(event), r->id, kobj_xstrdup(kobj_rc_message(event)),
		    kobj_xasprintf("%s() at %s on '%s' found the count at %d: %s. The count is "
				   "now saturated (%d).", kcall_now(c),
				   kobj_site_where(c->w, c->site, where), r->name, before, story,
				   REFCOUNT_SATURATED));
	kobj_xfree(story);
}

/* =========================================================================== add */

void kobj_report_add_uninit(struct kcall *c, struct kobject *kobj)
{
	char p[17], where[256];
	kobj_diagnose(c, KOBJ_DIAG_ADD_UNINIT, 0,
		    kobj_xasprintf("kobject '%s' (%s): tried to add an uninitialized object, "
				   "something is seriously wrong.", kobj_name_of(kobj),
				   kobj_unknown_pointer(c->w, kobj, p)),
		    kobj_xasprintf("%s() at %s was given an object that kobject_init() never set "
				   "up. Call kobject_init() first (the article's "
				   "kobject_register(), or today's kobject_init_and_add(), do both).",
				   kcall_now(c), kobj_site_where(c->w, c->site, where)));
}

void kobj_report_added_twice(struct kcall *c, const struct kobj_record *r)
{
	char where[256], when[256];
	char *path = kobj_sysfs_path_of(r->dir);
	bool today = r->era == KOBJ_ERA_TODAY;
	kobj_diagnose(c, KOBJ_DIAG_ADD_TWICE, r->id,
		    kobj_xasprintf("sysfs: cannot create duplicate filename '%s'\n"
				   "kobject_add_internal failed for %s with -EEXIST, don't try to "
				   "register things with the same name in the same directory.",
				   path, r->name),
		    kobj_xasprintf("%s%s() at %s added '%s' a second time: it has been in sysfs "
				   "since %s. %s", silent_then(r), kcall_now(c),
				   kobj_site_where(c->w, c->site, where), r->name,
				   kobj_site_where(c->w, r->added_at, when),
				   today ? "The kernel does not notice and corrupts the kset's "
					   "list; the sandbox changed nothing."
					 : "kobject_add() is called once per object."));
	kobj_xfree(path);
}

void kobj_report_empty_name(struct kcall *c, const struct kobj_record *r)
{
	char p[17], where[256];
	bool today = r->era == KOBJ_ERA_TODAY;
	/* Today's add is a naming call itself; 2.6.0's caller named the object before. */
	char *fix = today ? kobj_xasprintf("The add failed; %s.", kobj_after_failed_add(c))
			  : kobj_xstrdup("Set it with kobject_set_name() and check what that "
					 "returns.");
	kobj_diagnose(c, KOBJ_DIAG_EMPTY_NAME, r->id,
		      kobj_xasprintf("kobject: (%s): attempted to be registered with empty name!",
				     kobj_fake_pointer(r->id, p)),
		      kobj_xasprintf("%s%s() at %s: the object has no name, and its sysfs directory "
				     "needs one. %s",
				     today ? "" : "2.6.0 did not check; sysfs refused the empty name "
						  "later. The line above is a current kernel's. ",
				     kcall_now(c), kobj_site_where(c->w, c->site, where), fix));
	kobj_xfree(fix);
}

/* Why the kset was refused; 2.6.0's wording knows only registered or not. */
static const char *kset_state(const struct kobj_record *r, const struct kobj_record *kr)
{
	if (r->era == KOBJ_ERA_2_6_0)
		return kr ? "already released" : "not registered";
	return !kr ? "not initialised" : kr->released ? "already released" : "a plain kobject";
}

int kobj_check_kset(struct kcall *c, const struct kobj_record *r, struct kset *kset)
{
	char p[17], where[256];
	const struct kobj_record *kr = kobj_rec_of(c->w, &kset->kobj);
	bool today = r->era == KOBJ_ERA_TODAY;

	if (kr && !kr->released && kr->kind != KOBJ_KIND_KOBJECT)
		return 0;
	kobj_diagnose(c, kr ? KOBJ_DIAG_GET_ZERO : KOBJ_DIAG_GET_UNINIT, r->id,
		    kr ? kobj_xstrdup(today ? "refcount_t: addition on 0; use-after-free."
					    : BADNESS_2_6_0)
		       : kobj_xasprintf("kobject: '%s' (%s): is not initialized, yet "
					"kobject_get() is being called.",
					kobj_name_of(&kset->kobj),
					kobj_unknown_pointer(c->w, &kset->kobj, p)),
		    kobj_xasprintf("%s() at %s: '%s' names a kset that is %s, so it cannot join "
				   "it. %s", kcall_now(c), kobj_site_where(c->w, c->site, where),
				   r->name, kset_state(r, kr),
				   today ? "Create it first (kset_create_and_add)."
					 : "Register the kset first (kset_register)."));
	return -EINVAL;
}

int kobj_check_parent(struct kcall *c, const struct kobj_record *r, struct kobject *parent)
{
	char where[256];
	const struct kobj_record *pr = kobj_rec_of(c->w, parent);
	bool today = r->era == KOBJ_ERA_TODAY;

	if (pr && !pr->released && pr->in_sysfs && pr->dir)
		return 0;
	/* A released parent may be freed memory: only its record is read. */
	const char *name = pr ? pr->name : kobj_name_of(parent);
	char *end = today ? kobj_xasprintf("; %s.", kobj_after_failed_add(c)) : kobj_xstrdup(".");
	kobj_diagnose(c, KOBJ_DIAG_ADD_FAILED, r->id,
		    kobj_xasprintf("kobject_add_internal failed for %s (error: -2 parent: %s)",
				   r->name, name),
		    kobj_xasprintf("%s%s() at %s: the parent '%s' is %s, so there is no directory "
				   "to create '%s' in. Add the parent first%s", silent_then(r),
				   kcall_now(c), kobj_site_where(c->w, c->site, where), name,
				   !pr ? "not an initialised kobject"
				   : pr->released ? "already released" : "not in sysfs",
				   r->name, end));
	kobj_xfree(end);
	return -ENOENT;
}

/* Whose the name is, or the fault, for a directory that could not be made. */
static char *dir_story(struct kcall *c, const struct kobj_record *r, const char *ppath, int err)
{
	char where[256], when[256];
	const char *shown = strcmp(ppath, "/") ? ppath : "";
	const struct sysfs_dirent *pd = sysfs_lookup(c->w, ppath);
	const struct sysfs_dirent *clash = pd ? kobj_sysfs_find(c->w, pd, r->name) : NULL;
	const struct kobj_record *other = clash ? kobj_rec(c->w, sysfs_dirent_obj(clash)) : NULL;
	const char *then = r->era == KOBJ_ERA_TODAY ? kobj_after_failed_add(c)
						    : "the caller still holds its reference and "
						      "must kobject_put() it";

	if (err != -EEXIST)
		return kobj_xasprintf("%s() at %s could not make the sysfs entries of '%s' "
				      "(error %d). The add failed; %s.", kcall_now(c),
				      kobj_site_where(c->w, c->site, where), r->name, err, then);
	if (other && other != r && sysfs_dirent_is_object(clash))
		return kobj_xasprintf("%s%s() at %s: the directory /sys%s already has an entry "
				      "'%s' (object initialised at %s). Names must be unique "
				      "within a directory. The add failed; %s.", silent_then(r),
				      kcall_now(c), kobj_site_where(c->w, c->site, where), shown,
				      r->name, kobj_site_where(c->w, other->init_at, when), then);
	return kobj_xasprintf("%s%s() at %s: the directory /sys%s already has an entry '%s'. "
			      "Names must be unique within a directory. The add failed; %s.",
			      silent_then(r), kcall_now(c), kobj_site_where(c->w, c->site, where),
			      shown, r->name, then);
}

void kobj_report_dir_failed(struct kcall *c, const struct kobj_record *r,
			    const char *parent_name, const char *ppath, int err)
{
	bool dup = err == -EEXIST;
	kobj_diagnose(c, dup ? KOBJ_DIAG_DUPLICATE_NAME : KOBJ_DIAG_ADD_FAILED, r->id,
		    /* kernfs prints the root as "/": a top-level duplicate reads "//name" */
		    dup ? kobj_xasprintf("sysfs: cannot create duplicate filename '%s/%s'\n"
					 "kobject_add_internal failed for %s with -EEXIST, don't "
					 "try to register things with the same name in the same "
					 "directory.", ppath, r->name, r->name)
			: kobj_xasprintf("kobject_add_internal failed for %s (error: %d parent: "
					 "%s)", r->name, err, parent_name ? parent_name : "'none'"),
		    dir_story(c, r, ppath, err));
}
