/*
 * The diagnostics that the article's lifecycle (kobject.c) and today's (modern.c) both
 * report. The kernel's line is the same in both eras (or differs by a flag, as the
 * "kobject: " prefix 2.6.0 did not print yet); the sandbox's explanation names the calls
 * of the era, picked by @modern.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/lifecycle_diag.h"
#include "core/modern_internal.h"

/* ============================================================================== init */

static void report_no_ktype(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
			    const char *op)
{
	char p[17], where[256];
	kobj_diag_add(w, KOBJ_DIAG_NO_KTYPE, 0, o,
		      kobj_xasprintf("kobject (%s): must have a ktype to be initialized "
				     "properly!", kobj_unknown_pointer(w, kobj, p)),
		      kobj_xasprintf("%s() at %s was given no ktype for '%s'. Today's "
				     "kobject_init() needs one: it holds the release() that "
				     "frees the object. Nothing was initialised.", op,
				     kobj_where(o, where), kobject_name(kobj)));
}

static void report_init_twice(struct kobj_world *w, const struct kobj_record *r,
			      struct kobj_origin o, bool modern)
{
	char p[17], where[256], when[256];
	/* Only what a second init would do is told per era: today's may be unzeroed memory. */
	const char *again = modern ? "The kernel would set its count back to 1"
				   : "Initialising it again";
	const char *loss = modern ? "and lose them (or the memory was not zeroed)"
				  : "would reset its count to 1 and lose them";

	kobj_diag_add(w, KOBJ_DIAG_INIT_TWICE, r->id, o,
		      kobj_xasprintf("kobject (%s): tried to init an initialized object, "
				     "something is seriously wrong.",
				     kobj_fake_pointer(r->id, p)),
		      kobj_xasprintf("'%s' was already initialised at %s and holds %d "
				     "reference(s). %s at %s %s; the sandbox left it as it was.",
				     r->name, kobj_where(r->init_at, when), r->refcount, again,
				     kobj_where(o, where), loss));
}

bool kobj_init_allowed(struct kobj_world *w, struct kobject *kobj,
		       const struct kobj_type *ktype, bool modern, struct kobj_origin o,
		       const char *op)
{
	char where[256];

	if (!kobj) {
		kobj_diag_add(w, KOBJ_DIAG_INVALID_POINTER, 0, o,
			      kobj_xstrdup("kobject (0000000000000000): invalid kobject pointer!"),
			      kobj_xasprintf("%s() was called with NULL at %s: there is no object "
					     "to initialise.", op, kobj_where(o, where)));
		return false;
	}
	if (modern && !ktype) { /* 2.6.0's init takes no ktype: the kset may give it */
		report_no_ktype(w, kobj, o, op);
		return false;
	}
	const struct kobj_record *r = kobj_live(w, kobj);
	if (r)
		report_init_twice(w, r, o, modern);
	return !r;
}

/* ================================================================== released objects */

bool kobj_refuse_released(struct kobj_world *w, const struct kobj_record *r,
			  struct kobj_origin o, const char *op)
{
	char where[256], when[256];

	if (!r || !r->released)
		return false;
	kobj_diag_add(w, KOBJ_DIAG_USE_AFTER_FREE, r->id, o,
		      kobj_xasprintf("BUG: KASAN: slab-use-after-free in %s", op),
		      kobj_xasprintf("%s() at %s used '%s', which was released at %s: its "
				     "memory may already be freed. The sandbox did nothing.",
				     op, kobj_where(o, where), r->name,
				     kobj_where(r->release_at, when)));
	return true;
}

void kobj_report_get_released(struct kobj_world *w, const struct kobj_record *r,
			      struct kobj_origin o, const char *op, bool modern)
{
	char where[256], when[256];
	/* Both return NULL, but only the article's get fails by rule: today's cannot fail. */
	kobj_diag_add(w, KOBJ_DIAG_GET_ZERO, r->id, o,
		      kobj_xstrdup("refcount_t: addition on 0; use-after-free."),
		      kobj_xasprintf(modern ? "%s() at %s asked for a reference to '%s', released "
					      "at %s. Today's kobject_get() cannot fail: the "
					      "kernel would saturate a count in freed memory and "
					      "hand the pointer back. The sandbox returned NULL; "
					      "the object must not be used."
					    : "%s() at %s asked for a reference to '%s', whose "
					      "count already reached zero at %s, where it was "
					      "released. As the article says, kobject_get() fails "
					      "then: it returned NULL, and the caller must not use "
					      "the object.",
				     op, kobj_where(o, where), r->name,
				     kobj_where(r->release_at, when)));
}

void kobj_report_put_released(struct kobj_world *w, const struct kobj_record *r,
			      struct kobj_origin o, const char *op)
{
	char where[256], when[256];
	kobj_diag_add(w, KOBJ_DIAG_PUT_ZERO, r->id, o,
		      kobj_xstrdup("refcount_t: underflow; use-after-free."),
		      kobj_xasprintf("%s() at %s dropped a reference to '%s', but its count "
				     "had already reached zero at %s, where it was released: "
				     "this put is one too many (a double put). In the kernel the "
				     "memory is already freed; the sandbox ignored the put.", op,
				     kobj_where(o, where), r->name,
				     kobj_where(r->release_at, when)));
}

void kobj_report_no_release(struct kobj_world *w, struct kobj_record *r, struct kobj_origin o,
			    bool modern)
{
	char p[17], where[256];
	const char *text = "does not have a release() function, it is broken and must be "
			   "fixed. See Documentation/core-api/kobject.rst.";

	if (modern) /* today's kernel says it at debug level only */
		kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, (struct kobj_origin){ 0 },
			   "kobject: '%s' (%s): %s", r->name, kobj_fake_pointer(r->id, p), text);
	r->no_release = true;
	/* 2.6.0's get_ktype() lets the kset supply the ktype; today's object has its own. */
	kobj_diag_add(w, KOBJ_DIAG_NO_RELEASE, r->id, o,
		      kobj_xasprintf("kobject: '%s' (%s): %s", r->name,
				     kobj_fake_pointer(r->id, p), text),
		      kobj_xasprintf("The last reference to '%s' was dropped at %s, but its %s "
				     "has no release method, so nothing frees the structure that "
				     "embeds it: its memory leaks. Every kobject needs a "
				     "release().", r->name, kobj_where(o, where),
				     modern ? "ktype" : "ktype (or its kset's ktype)"));
}

/* =============================================================================== add */

void kobj_report_add_uninit(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
			    const char *op, bool modern)
{
	char p[17], where[256];
	const char *fix = modern ? "Call kobject_init(kobj, ktype) first, or use "
				   "kobject_init_and_add()."
				 : "Call kobject_init() first (or use kobject_register(), "
				   "which does both).";

	kobj_diag_add(w, KOBJ_DIAG_ADD_UNINIT, 0, o,
		      kobj_xasprintf("kobject '%s' (%s): tried to add an uninitialized "
				     "object, something is seriously wrong.",
				     kobject_name(kobj), kobj_unknown_pointer(w, kobj, p)),
		      kobj_xasprintf("%s() at %s was given an object that kobject_init() "
				     "never set up. %s", op, kobj_where(o, where), fix));
}

void kobj_report_added_twice(struct kobj_world *w, const struct kobj_record *r,
			     struct kobj_origin o, const char *op, bool modern)
{
	char where[256], when[256];
	char *path = kobj_sysfs_path_of(r->dir);
	/* 2.6.0 printed no "kobject: " prefix; today's kernel does not notice the re-add. */
	const char *prefix = modern ? "kobject: " : "";
	const char *result = modern ? "The kernel does not notice and corrupts the kset's "
				      "list; the sandbox changed nothing."
				    : "kobject_add() is called once per object.";

	kobj_diag_add(w, KOBJ_DIAG_ADD_TWICE, r->id, o,
		      kobj_xasprintf("sysfs: cannot create duplicate filename '%s'\n"
				     "%skobject_add_internal failed for %s with -EEXIST, "
				     "don't try to register things with the same name in "
				     "the same directory.", path, prefix, r->name),
		      kobj_xasprintf("%s() at %s added '%s' a second time: it has been in "
				     "sysfs since %s. %s", op, kobj_where(o, where), r->name,
				     kobj_where(r->added_at, when), result));
	free(path);
}

void kobj_report_empty_name(struct kobj_world *w, const struct kobj_record *r,
			    struct kobj_origin o, const char *op, bool modern)
{
	char p[17], where[256];
	/* Today's add is a naming call itself; 2.6.0's caller named the object before. */
	const char *fix = modern ? "The caller must still kobject_put() it."
				 : "Set it with kobject_set_name() and check what that "
				   "returns.";

	kobj_diag_add(w, KOBJ_DIAG_EMPTY_NAME, r->id, o,
		      kobj_xasprintf("kobject: (%s): attempted to be registered with "
				     "empty name!", kobj_fake_pointer(r->id, p)),
		      kobj_xasprintf("%s() at %s: the object has no name, and its sysfs "
				     "directory needs one. %s", op, kobj_where(o, where), fix));
}

/* Why the kset was refused: 2.6.0's wording knows only registered or not. */
static const char *kset_state(const struct kobj_record *kr, bool modern)
{
	if (!modern)
		return kr ? "already released" : "not registered";
	return !kr ? "not initialised" : kr->released ? "already released" : "a plain kobject";
}

int kobj_check_kset(struct kobj_world *w, const struct kobj_record *r, struct kset *kset,
		    struct kobj_origin o, const char *op, bool modern)
{
	char p[17], where[256];
	const struct kobj_record *kr = kobj_any(w, &kset->kobj);

	if (kr && !kr->released && kr->kind != KOBJ_KIND_KOBJECT)
		return 0;
	kobj_diag_add(w, kr ? KOBJ_DIAG_GET_ZERO : KOBJ_DIAG_GET_UNINIT, r->id, o,
		      kr ? kobj_xstrdup("refcount_t: addition on 0; use-after-free.")
			 : kobj_xasprintf("kobject: '%s' (%s): is not initialized, yet "
					  "kobject_get() is being called.",
					  kobject_name(&kset->kobj),
					  kobj_unknown_pointer(w, &kset->kobj, p)),
		      kobj_xasprintf("%s() at %s: '%s' names a kset that is %s, so it cannot "
				     "join it. %s", op, kobj_where(o, where), r->name,
				     kset_state(kr, modern),
				     modern ? "Create it first (kset_create_and_add)."
					    : "Register the kset first (kset_register)."));
	return -EINVAL;
}

int kobj_check_parent(struct kobj_world *w, const struct kobj_record *r, struct kobject *parent,
		      struct kobj_origin o, const char *op, bool modern)
{
	char where[256];
	const struct kobj_record *pr = kobj_any(w, parent);

	if (pr && !pr->released && pr->in_sysfs && pr->dir)
		return 0;
	/* A released parent may be freed memory: only its record is read. */
	const char *name = pr ? pr->name : kobject_name(parent);
	/* Today's failed add still leaves the caller's reference to drop, and says so. */
	char *end = modern ? kobj_xasprintf("; the caller must still kobject_put() '%s'.",
					    r->name)
			   : kobj_xstrdup(".");
	kobj_diag_add(w, KOBJ_DIAG_ADD_FAILED, r->id, o,
		      kobj_xasprintf("kobject: kobject_add_internal failed for %s (error: -2 "
				     "parent: %s)", r->name, name),
		      kobj_xasprintf("%s() at %s: the parent '%s' is %s, so there is no "
				     "directory to create '%s' in. Add the parent first%s", op,
				     kobj_where(o, where), name,
				     !pr ? "not an initialised kobject"
				     : pr->released ? "already released" : "not in sysfs",
				     r->name, end));
	free(end);
	return -ENOENT;
}

void kobj_report_dir_failed(struct kobj_world *w, const struct kobj_record *r,
			    struct kobject *parent, const char *ppath, int err,
			    struct kobj_origin o, char *explanation)
{
	bool dup = err == -EEXIST;

	kobj_diag_add(w, dup ? KOBJ_DIAG_DUPLICATE_NAME : KOBJ_DIAG_ADD_FAILED, r->id, o,
		      dup ? kobj_xasprintf("sysfs: cannot create duplicate filename '%s/%s'\n"
					   "kobject: kobject_add_internal failed for %s with "
					   "-EEXIST, don't try to register things with the same "
					   "name in the same directory.",
					   strcmp(ppath, "/") ? ppath : "", r->name, r->name)
			  : kobj_xasprintf("kobject: kobject_add_internal failed for %s (error: "
					   "%d parent: %s)", r->name, err,
					   parent ? kobject_name(parent) : "'none'"),
		      explanation);
}
