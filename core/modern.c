/*
 * Today's kobject lifecycle (lib/kobject.c of 6.x): init with a ktype, add taking only
 * the parent and kset references, del dropping them, and a last put that cleans up by
 * itself. The article's get/put/add/del come here for objects of this era (kobject.c).
 *
 * Messages are the kernel's; pr_debug lines go to the kernel log only with
 * KOBJ_DEBUG_KOBJECT (debug.c), and the last put is delayed with KOBJ_DEBUG_RELEASE.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lifecycle_diag.h"
#include "core/modern_internal.h"

#define W() kobj_world_current()

/* "kobject: 'foo' (00000000a1b2c3d4): " for the kernel's pr_debug lines */
#define TRACE(w, r, fmt, ...)                                                          \
	do {                                                                           \
		char p_[17];                                                           \
		kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, (r)->id, (struct kobj_origin){ 0 },  \
			   "kobject: '%s' (%s): " fmt, (r)->name,                      \
			   kobj_fake_pointer((r)->id, p_), __VA_ARGS__);               \
	} while (0)

const struct kobj_type *kobj_ktype_of(const struct kobj_world *w, struct kobject *kobj)
{
	const struct kobj_record *r = kobj_record_of(w, kobj);
	if (r && r->modern)
		return kobj->ktype; /* today's get_ktype(): the kset supplies no type */
	return get_ktype(kobj);
}

/* ============================================================================== init */

void (kobject_init_ktype)(struct kobject *kobj, const struct kobj_type *ktype)
{
	struct kobj_world *w = W();
	kobj_init_era(w, kobj, KOBJ_KIND_KOBJECT, ktype, true, kobj_take_origin(w), "kobject_init");
}

/* ============================================================================== names */

/* Reports a name that could not be set; Return: @err. */
static int name_failed(struct kobj_world *w, struct kobj_record *r, struct kobj_origin o,
		       const char *op, const char *why, int err)
{
	char where[256];
	kobj_diag_add(w, KOBJ_DIAG_SET_NAME_FAILED, r->id, o,
		      kobj_xstrdup("kobject: can not set name properly!"),
		      kobj_xasprintf("%s() at %s could not name '%s': %s. The object is not "
				     "added; the caller must still kobject_put() it.", op,
				     kobj_where(o, where), r->name, why));
	return err;
}

/* kobject_add's naming step; Return: 0, or the error with "can not set name properly!". */
static int set_name_va(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		       struct kobj_origin o, const char *op, const char *fmt, va_list ap)
{
	char *name;
	size_t len;

	if (!fmt && kobject_name(kobj)[0])
		return 0; /* keeps the name already set */
	if (!fmt)
		return name_failed(w, r, o, op, "no format, and no name was set before",
				   -EINVAL);
	name = kobj_format_name(w, fmt, ap, &len);
	if (!name)
		return name_failed(w, r, o, op, "no memory for the name (fault injection)",
				   -ENOMEM);
	/* By strlen, as today's calls always placed names (2.6.0 goes by the printed length;
	 * the two differ only for a name with a NUL in it). */
	kobj_install_name(w, kobj, r, name, strlen(name), o, op);
	return 0;
}

/* set_name_va() with printf arguments. */
static int set_name_f(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		      struct kobj_origin o, const char *op, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static int set_name_f(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		      struct kobj_origin o, const char *op, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int err = set_name_va(w, kobj, r, o, op, fmt, ap);
	va_end(ap);
	return err;
}

/* A plain string as the name; a NULL one fails as kvasprintf("%s", NULL) does. */
static int set_name(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		    struct kobj_origin o, const char *op, const char *name)
{
	if (!name)
		return name_failed(w, r, o, op, "the name given is NULL", -ENOMEM);
	return set_name_f(w, kobj, r, o, op, "%s", name);
}

/* =============================================================================== add */

/* Reports a directory that could not be made, in today's words; Return: @err. */
static int dir_failed(struct kobj_world *w, struct kobj_record *r, struct kobject *parent,
		      struct sysfs_dirent *pdir, int err, struct kobj_origin o, const char *op)
{
	char where[256];
	char *ppath = kobj_sysfs_path_of(pdir);

	kobj_report_dir_failed(
		w, r, parent, ppath, err, o,
		err == -EEXIST
			? kobj_xasprintf("%s() at %s: the directory /sys%s already has an entry "
					 "'%s'. Names must be unique within a directory. The add "
					 "failed; the caller must still kobject_put() the object.",
					 op, kobj_where(o, where), strcmp(ppath, "/") ? ppath : "",
					 r->name)
			: kobj_xasprintf("%s() at %s could not make the sysfs entries of '%s' "
					 "(error %d). The caller must still kobject_put() it.", op,
					 kobj_where(o, where), r->name, err));
	free(ppath);
	return err;
}

/* The directory and its default files; Return: 0 or an error (reported). */
static int create_dir(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		      struct kobject *parent, struct kobj_origin o, const char *op)
{
	struct sysfs_dirent *pdir = parent ? kobj_any(w, parent)->dir : kobj_sysfs_root(w);
	const struct kobj_type *t = kobj->ktype;
	int err = 0;
	struct sysfs_dirent *dir = kobj_sysfs_create_dir(w, pdir, kobj, &err);

	if (!dir)
		return dir_failed(w, r, parent, pdir, err, o, op);
	if (t && t->default_attrs)
		err = kobj_sysfs_create_default_attrs(w, kobj, dir, t->default_attrs, o, op);
	if (!err && t && t->default_groups)
		err = kobj_sysfs_create_default_groups(w, kobj, dir, t->default_groups, o, op);
	if (err) {
		char where[256];
		kobj_sysfs_remove_dir(w, dir);
		if (err != -EEXIST)
			return dir_failed(w, r, parent, pdir, err, o, op);
		/* sysfs reported the file; kobject adds its own line, as the kernel does */
		kobj_diag_add(w, KOBJ_DIAG_ADD_FAILED, r->id, o,
			      kobj_xasprintf("kobject: kobject_add_internal failed for %s with "
					     "-EEXIST, don't try to register things with the same "
					     "name in the same directory.", r->name),
			      kobj_xasprintf("%s() at %s: a default attribute of '%s' repeats a "
					     "name (see the diagnostic before). The add failed; the "
					     "caller must still kobject_put() it.", op,
					     kobj_where(o, where), r->name));
		return err;
	}
	r->dir = dir;
	kobj->dentry = dir;
	return 0;
}

/* A name, and not in sysfs yet (checked in that order); Return: 0 or the error, reported. */
static int add_precheck(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
			struct kobj_origin o, const char *op)
{
	if (!kobject_name(kobj)[0]) {
		kobj_report_empty_name(w, r, o, op, true);
		return -EINVAL;
	}
	if (r->in_sysfs) {
		kobj_report_added_twice(w, r, o, op, true);
		return -EEXIST;
	}
	return 0;
}

/* The bookkeeping of a successful add. */
static void mark_added(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		       struct kobject *parent, struct kset *kset, struct kobj_origin o,
		       const char *op)
{
	r->held_parent = parent;
	r->held_kset = kset;
	r->parent = parent ? kobj_any(w, parent)->id : 0;
	r->kset = kset ? kobj_any(w, &kset->kobj)->id : 0;
	r->nearest_kset = kset ? kset : parent ? kobj_any(w, parent)->nearest_kset : NULL;
	r->in_sysfs = true;
	r->was_added = true;
	r->added_at = o;
	r->ktype = kobj->ktype;
	kobj_log(w, KOBJ_EV_ADD, op, r->id, 0, r->refcount, r->refcount, 0, o);
}

/* kobject_add_internal() of lib/kobject.c. */
static int add_internal(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
			struct kobj_origin o, const char *op)
{
	struct kset *kset = kobj->kset;
	struct kobject *parent = kobj->parent;
	int err = add_precheck(w, kobj, r, o, op);

	if (err)
		return err;
	if (!parent && kset)
		parent = &kset->kobj; /* parent defaults to the kset */
	if ((kset && (err = kobj_check_kset(w, r, kset, o, op, true))) ||
	    (parent && (err = kobj_check_parent(w, r, parent, o, op, true)))) {
		kobj->parent = NULL; /* as the kernel's error path leaves it */
		return err;
	}

	/* As the kernel: references first, given back if the directory fails. */
	parent = kobj_get_ref(w, parent, o, op, r->id);
	if (kset) {
		kobj_get_ref(w, &kset->kobj, o, op, r->id);
		list_add_tail(&kobj->entry, &kset->list);
	}
	kobj->parent = parent;
	TRACE(w, r, "kobject_add_internal: parent: '%s', set: '%s'",
	      parent ? kobject_name(parent) : "<NULL>",
	      kset ? kobject_name(&kset->kobj) : "<NULL>");
	err = create_dir(w, kobj, r, parent, o, op);
	if (err) {
		if (kset) {
			list_del_init(&kobj->entry);
			kobj_put_ref(w, &kset->kobj, o, op, r->id);
		}
		kobj_put_ref(w, parent, o, op, r->id);
		kobj->parent = NULL;
		return err;
	}
	mark_added(w, kobj, r, parent, kset, o, op);
	return 0;
}

int kobj_modern_add(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		    struct kobj_origin o, const char *op)
{
	if (!kobj->k_name)
		kobj->k_name = kobj->name;
	kobj_rec_set_name(r, kobject_name(kobj));
	return add_internal(w, kobj, r, o, op);
}

/* kobject_add_varg(): name, parent, then the add of the object's own era. */
static int add_va(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		  struct kobject *parent, struct kobj_origin o, const char *op,
		  const char *fmt, va_list ap)
{
	int err = set_name_va(w, kobj, r, o, op, fmt, ap);
	if (err)
		return err;
	kobj->parent = parent;
	if (r->modern)
		return add_internal(w, kobj, r, o, op);
	return kobj_add_as(w, kobj, o, op); /* 2.6.0's rules for a 2.6.0 object */
}

int (kobject_add_named)(struct kobject *kobj, struct kobject *parent, const char *fmt, ...)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	va_list ap;

	if (!kobj)
		return -EINVAL;
	struct kobj_record *r = kobj_any(w, kobj);
	if (kobj_refuse_released(w, r, o, "kobject_add"))
		return -EINVAL;
	if (!r) {
		kobj_report_add_uninit(w, kobj, o, "kobject_add", true);
		return -EINVAL;
	}
	va_start(ap, fmt);
	int err = add_va(w, kobj, r, parent, o, "kobject_add", fmt, ap);
	va_end(ap);
	return err;
}

int (kobject_init_and_add)(struct kobject *kobj, const struct kobj_type *ktype,
			   struct kobject *parent, const char *fmt, ...)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	va_list ap;

	struct kobj_record *r = kobj_init_era(w, kobj, KOBJ_KIND_KOBJECT, ktype, true, o,
					      "kobject_init_and_add");
	if (!r && kobj && ktype)
		r = kobj_live(w, kobj); /* init twice was refused: the add goes on */
	if (!r)
		return -EINVAL;
	va_start(ap, fmt);
	int err = add_va(w, kobj, r, parent, o, "kobject_init_and_add", fmt, ap);
	va_end(ap);
	return err;
}

/* =============================================================================== del */

struct kobject *kobj_modern_unlink(struct kobj_world *w, struct kobject *kobj,
				   struct kobj_record *r, struct kobj_origin o, const char *op)
{
	struct kobject *parent = r->held_parent;
	struct kset *kset = r->held_kset;

	if (r->add_uevent_sent && !r->remove_uevent_sent) {
		TRACE(w, r, "%s", "auto cleanup 'remove' event");
		kobj_uevent_as(w, kobj, KOBJ_REMOVE, NULL, o, "kobject_uevent");
	}
	if (r->dir)
		kobj_sysfs_remove_dir(w, r->dir); /* the default groups go with it */
	r->dir = NULL;
	kobj->dentry = NULL;
	r->in_sysfs = false;
	kobj_log(w, KOBJ_EV_DEL, op, r->id, 0, r->refcount, r->refcount, 0, o);
	r->held_kset = NULL;
	r->kset = 0;
	if (kset) {
		list_del_init(&kobj->entry);
		kobj_put_ref(w, &kset->kobj, o, op, r->id);
	}
	r->held_parent = NULL;
	r->parent = 0;
	kobj->parent = NULL;
	return parent;
}

void kobj_modern_del(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		     struct kobj_origin o, const char *op)
{
	char where[256];

	if (!r->in_sysfs) {
		kobj_diag_add(w, KOBJ_DIAG_DEL_NOT_ADDED, r->id, o,
			      kobj_xasprintf("kernfs: can not remove '%s', no directory",
					     r->name),
			      kobj_xasprintf("%s() at %s: '%s' is not in sysfs (%s). Today's "
					     "kobject_del() then drops a kset reference it never "
					     "took; the sandbox changed nothing.", op,
					     kobj_where(o, where), r->name,
					     r->was_added ? "it was already deleted"
							  : "it was never added"));
		return;
	}
	struct kobject *parent = kobj_modern_unlink(w, kobj, r, o, op);
	kobj_put_ref(w, parent, o, op, r->id);
}

/* ========================================================================= get / put */

/* A saturation event of a get or put of @r, told with the object's story. */
static void report_rc(struct kobj_world *w, struct kobj_record *r, int event, int before,
		      struct kobj_origin o, const char *op)
{
	char where[256], when[256];
	char *story;

	if (r->release_pending && event == REFCOUNT_ADD_UAF)
		story = kobj_xasprintf("its count reached 0 at %s and its release is only "
				       "delayed (DEBUG_KOBJECT_RELEASE): it runs when due whatever "
				       "happens now, so whoever keeps this pointer will use freed "
				       "memory. Take a reference only while holding one, or use "
				       "kobject_get_unless_zero() in lookups",
				       kobj_where(r->release_at, when));
	else if (r->release_pending)
		story = kobj_xasprintf("its count reached 0 at %s and its release is queued "
				       "(DEBUG_KOBJECT_RELEASE): this put is one too many",
				       kobj_where(r->release_at, when));
	else
		story = kobj_xasprintf("its count is saturated (an earlier diagnostic says "
				       "why; it was initialised at %s): it stays saturated and "
				       "the object is never released, a leak the kernel prefers "
				       "to a use-after-free", kobj_where(r->init_at, when));
	kobj_diag_add(w, kobj_rc_diag_kind(event), r->id, o, kobj_xstrdup(kobj_rc_message(event)),
		      kobj_xasprintf("%s() at %s on '%s' found the count at %d: %s. The count "
				     "is now saturated (%d).", op, kobj_where(o, where), r->name,
				     before, story, REFCOUNT_SATURATED));
	free(story);
}

struct kobject *kobj_modern_get(struct kobj_world *w, struct kobject *kobj,
				struct kobj_record *r, struct kobj_origin o, const char *op,
				unsigned holder)
{
	if (r->released) {
		kobj_report_get_released(w, r, o, op, true);
		return NULL;
	}
	int before = r->refcount;
	int event = kobj_rc_add(&r->refcount, 1);
	kobj_sync_count(kobj, r);
	kobj_log(w, KOBJ_EV_GET, op, r->id, holder, before, r->refcount, 0, o);
	if (event >= 0)
		report_rc(w, r, event, before, o, op);
	return kobj;
}

struct kobject *kobj_get_unless_zero_as(struct kobj_world *w, struct kobject *kobj,
					struct kobj_origin o, const char *op)
{
	struct kobj_record *r = kobj ? kobj_any(w, kobj) : NULL;
	bool added;

	if (!r || r->released || r->refcount == 0)
		return NULL; /* dying or gone: the lookup fails quietly */
	if (!r->modern)
		return kobj_get_ref(w, kobj, o, op, 0);
	int before = r->refcount;
	int event = kobj_rc_add_not_zero(&r->refcount, 1, &added);
	kobj_sync_count(kobj, r);
	kobj_log(w, KOBJ_EV_GET, op, r->id, 0, before, r->refcount, 0, o);
	if (event >= 0)
		report_rc(w, r, event, before, o, op);
	return kobj;
}

struct kobject *(kobject_get_unless_zero)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	return kobj_get_unless_zero_as(w, kobj, kobj_take_origin(w), "kobject_get_unless_zero");
}

struct kobject *kobj_modern_put(struct kobj_world *w, struct kobject *kobj,
				struct kobj_record *r, struct kobj_origin o, const char *op,
				unsigned *holder)
{
	bool zero;

	if (r->released) {
		kobj_report_put_released(w, r, o, op);
		return NULL;
	}
	int before = r->refcount;
	int event = kobj_rc_sub_and_test(&r->refcount, 1, &zero);
	kobj_sync_count(kobj, r);
	kobj_log(w, KOBJ_EV_PUT, op, r->id, *holder, before, r->refcount, 0, o);
	if (event >= 0) {
		report_rc(w, r, event, before, o, op);
		return NULL;
	}
	if (!zero)
		return NULL;
	if (kobj_debugging(w, KOBJ_DEBUG_RELEASE)) { /* kobject_release() */
		r->release_at = o;
		kobj_release_later(w, kobj, r, o);
		return NULL;
	}
	return kobj_modern_cleanup(w, kobj, r, o, holder);
}

/* =========================================================================== cleanup */

struct kobject *kobj_modern_cleanup(struct kobj_world *w, struct kobject *kobj,
				    struct kobj_record *r, struct kobj_origin o,
				    unsigned *holder)
{
	char p[17];
	const struct kobj_type *t = kobj->ktype;
	void (*release)(struct kobject *) = t ? t->release : NULL;
	struct kobject *parent = NULL;

	TRACE(w, r, "kobject_cleanup, parent %s", kobj_ptr(w, kobj->parent, p));
	if (r->in_sysfs) {
		TRACE(w, r, "%s", "auto cleanup kobject_del");
		parent = kobj_modern_unlink(w, kobj, r, o, "kobject_cleanup");
	} /* otherwise kobject_del() already dropped the parent */
	char *heap_name = kobj->k_name != kobj->name ? kobj->k_name : NULL;
	r->released = true;
	r->release_pending = false;
	r->release_at = o;
	r->refcount = 0;
	kobj->refcount = 0;
	kobj_log(w, KOBJ_EV_RELEASE, "release", r->id, 0, 0, 0, 0, o);
	if (!release)
		kobj_report_no_release(w, r, o, true);
	if (release) {
		TRACE(w, r, "%s", "calling ktype release");
		release(kobj); /* may free kobj: it is not touched after this */
	}
	kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, (struct kobj_origin){ 0 },
		   "kobject: '%s': free name", r->name);
	free(heap_name);
	if (w->on_release)
		w->on_release(r, w->on_release_ctx);
	if (parent)
		*holder = r->id;
	return parent;
}

/* ==================================================================== dynamic kobjects */

static void dynamic_kobj_release(struct kobject *kobj)
{
	struct kobj_world *w = W();
	char p[17];
	kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, 0, (struct kobj_origin){ 0 },
		   "kobject: (%s): dynamic_kobj_release", kobj_ptr(w, kobj, p));
	free(kobj);
}

static const struct kobj_type dynamic_kobj_ktype = {
	.release = dynamic_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static struct kobject *create_and_add(struct kobj_world *w, const char *name,
				      struct kobject *parent, struct kobj_origin o)
{
	const char *op = "kobject_create_and_add";
	struct kobject *kobj = kobj_kmalloc(w, sizeof(*kobj));

	if (!kobj)
		return NULL;
	memset(kobj, 0, sizeof(*kobj));
	struct kobj_record *r =
		kobj_init_era(w, kobj, KOBJ_KIND_KOBJECT, &dynamic_kobj_ktype, true, o, op);
	int err = set_name(w, kobj, r, o, op, name);
	kobj->parent = parent;
	if (!err)
		err = add_internal(w, kobj, r, o, op);
	if (err) {
		kobj_trace(w, KOBJ_LOGLEVEL_WARNING, r->id, o,
			   "kobject: kobject_create_and_add: kobject_add error: %d", err);
		kobj_put_ref(w, kobj, o, "kobject_create_and_add", 0);
		return NULL;
	}
	return kobj;
}

struct kobject *(kobject_create_and_add)(const char *name, struct kobject *parent)
{
	struct kobj_world *w = W();
	return create_and_add(w, name, parent, kobj_take_origin(w));
}

struct kobject *kobj_kernel_kobj(void)
{
	struct kobj_world *w = W();
	struct kobj_modern *m = kobj_modern(w);
	const struct kobj_record *r = kobj_rec(w, m->kernel_id);

	/* No origin is taken: this runs inside another call's arguments. */
	if (r && !r->released)
		return m->sys_kernel;
	m->sys_kernel = create_and_add(w, "kernel", NULL, (struct kobj_origin){ 0 });
	m->kernel_id = m->sys_kernel ? kobj_any(w, m->sys_kernel)->id : 0;
	if (m->sys_kernel)
		kobj_rec(w, m->kernel_id)->builtin = true;
	return m->sys_kernel;
}

/* ============================================================================== ksets */

static void kset_release(struct kobject *kobj)
{
	struct kobj_world *w = W();
	struct kset *kset = container_of(kobj, struct kset, kobj);
	const struct kobj_record *r = kobj_any(w, kobj);
	char p[17];

	kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r ? r->id : 0, (struct kobj_origin){ 0 },
		   "kobject: '%s' (%s): kset_release", r ? r->name : "",
		   kobj_ptr(w, kobj, p));
	free(kset);
}

static const struct kobj_type kset_ktype = {
	.release = kset_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

struct kset *(kset_create_and_add)(const char *name, const struct kset_uevent_ops *uevent_ops,
				   struct kobject *parent_kobj)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	const char *op = "kset_create_and_add";
	struct kset *kset = kobj_kmalloc(w, sizeof(*kset));

	if (!kset)
		return NULL;
	memset(kset, 0, sizeof(*kset));
	kset->uevent_ops = uevent_ops;
	kset->kobj.parent = parent_kobj;
	struct kobj_record *r =
		kobj_init_era(w, &kset->kobj, KOBJ_KIND_KSET, &kset_ktype, true, o, op);
	INIT_LIST_HEAD(&kset->list);
	if (set_name(w, &kset->kobj, r, o, op, name) || add_internal(w, &kset->kobj, r, o, op)) {
		/* The kernel frees it directly; the put releases it the same way, on record. */
		kobj_put_ref(w, &kset->kobj, o, op, 0);
		return NULL;
	}
	kobj_uevent_as(w, &kset->kobj, KOBJ_ADD, NULL, o, op);
	return kset;
}

/* ==================================================================== rename and move */

/* "DEVPATH_OLD=/a/b" for the KOBJ_MOVE event; Return: malloc'd, or NULL (-ENOMEM). */
static char *devpath_old(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o)
{
	char *path = kobj_get_path_as(w, kobj, o);
	char *var = path ? kobj_xasprintf("DEVPATH_OLD=%s", path) : NULL;
	free(path);
	return var;
}

int (kobject_rename)(struct kobject *kobj, const char *new_name)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	const char *op = "kobject_rename";
	struct kobj_record *r = kobj ? kobj_any(w, kobj) : NULL;
	int err = -ENOMEM;

	if (kobj_refuse_released(w, r, o, op) || !r || !kobj->parent || !new_name)
		return -EINVAL;
	kobj_get_ref(w, kobj, o, op, 0);
	char *envp[2] = { devpath_old(w, kobj, o), NULL };
	char *name = envp[0] ? kobj_kmalloc(w, strlen(new_name) + 1) : NULL;
	if (name) {
		for (char *c = strcpy(name, new_name); *c; c++)
			*c = *c == '/' ? '!' : *c; /* sysfs needs it; the kernel trusts callers */
		err = r->dir ? kobj_sysfs_rename(w, r->dir, kobj_sysfs_parent(r->dir), name) : 0;
	}
	if (!err) {
		kobj_install_name(w, kobj, r, name, strlen(name), o, op);
		name = NULL;
		kobj_uevent_as(w, kobj, KOBJ_MOVE, envp, o, op);
	}
	free(name);
	free(envp[0]);
	kobj_put_ref(w, kobj, o, op, 0);
	return err;
}

/* The directory @kobj moves into: @np's, or /sys; NULL if @np is not in sysfs. */
static struct sysfs_dirent *dir_of(struct kobj_world *w, struct kobject *np)
{
	struct kobj_record *pr = np ? kobj_live(w, np) : NULL;
	return np ? (pr ? pr->dir : NULL) : kobj_sysfs_root(w);
}

int (kobject_move)(struct kobject *kobj, struct kobject *new_parent)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	const char *op = "kobject_move";
	char *envp[2] = { NULL, NULL };
	int err = -EINVAL;

	if (!kobj_get_ref(w, kobj, o, op, 0))
		return -EINVAL;
	struct kobj_record *r = kobj_any(w, kobj);
	struct kobject *np = kobj_get_ref(w, new_parent, o, op, r->id);
	if (new_parent && !np)
		goto put_kobj;
	if (!np && kobj->kset)
		np = kobj_get_ref(w, &kobj->kset->kobj, o, op, r->id);
	err = -ENOMEM;
	envp[0] = devpath_old(w, kobj, o);
	if (!envp[0])
		goto put_parent;
	struct sysfs_dirent *to = dir_of(w, np);
	err = !r->dir || !to ? -ENOENT : kobj_sysfs_rename(w, r->dir, to, kobject_name(kobj));
	if (err)
		goto put_parent;
	struct kobject *old = r->held_parent;
	kobj->parent = np;
	r->held_parent = np;
	r->parent = np ? kobj_any(w, np)->id : 0;
	r->nearest_kset = kobj->kset ? kobj->kset : np ? kobj_any(w, np)->nearest_kset : NULL;
	np = NULL; /* its reference is now the one the object holds */
	kobj_put_ref(w, old, o, op, r->id);
	kobj_uevent_as(w, kobj, KOBJ_MOVE, envp, o, op);
put_parent:
	kobj_put_ref(w, np, o, op, r->id);
put_kobj:
	kobj_put_ref(w, kobj, o, op, 0);
	free(envp[0]);
	return err;
}
