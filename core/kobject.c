/*
 * kobjects: init, names, reference counts and release, following the article and the
 * 2.6.0 code: init gives the creator's reference; add takes one on the object itself
 * (dropped by del), one on the parent and one on the kset (dropped at release).
 *
 * Every public function reads the origin its caller noted; the *_as functions take it
 * explicitly so that compound calls (register, unregister) attribute each step to the
 * outer call.
 *
 * Objects initialised with today's calls (modern.c) keep today's bookkeeping whichever
 * era's name is called on them: get, put, add and del hand them over to modern.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lifecycle_diag.h"
#include "core/modern_internal.h"

#define W() kobj_world_current()

const char *kobject_name(const struct kobject *kobj)
{
	if (!kobj)
		return "";
	return kobj->k_name ? kobj->k_name : kobj->name;
}

struct kobj_type *get_ktype(struct kobject *kobj)
{
	if (kobj->kset && kobj->kset->ktype)
		return kobj->kset->ktype;
	return kobj->ktype;
}

/* ============================================================================== init */

struct kobj_record *kobj_init_era(struct kobj_world *w, struct kobject *kobj, enum kobj_kind kind,
				  const struct kobj_type *ktype, bool modern, struct kobj_origin o,
				  const char *op)
{
	if (!kobj_init_allowed(w, kobj, ktype, modern, o, op))
		return NULL;
	struct kobj_record *r = kobj_record_new(w, kind, kobj, kobject_name(kobj), o);
	r->modern = modern;
	r->refcount = 1;
	if (modern)
		kobj->ktype = (struct kobj_type *)ktype; /* the article's field is not const */
	/* 2.6.0's object may take its ktype from its kset; today's has its own. */
	r->ktype = modern ? ktype : get_ktype(kobj);
	kobj_sync_count(kobj, r);
	INIT_LIST_HEAD(&kobj->entry);
	kobj->dentry = NULL;
	kobj_log(w, KOBJ_EV_INIT, op, r->id, 0, 0, 1, 0, o);
	return r;
}

struct kobj_record *kobj_init_as(struct kobj_world *w, struct kobject *kobj, enum kobj_kind kind,
				 struct kobj_origin o, const char *op)
{
	return kobj_init_era(w, kobj, kind, NULL, false, o, op);
}

void (kobject_init)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	kobj_init_as(w, kobj, KOBJ_KIND_KOBJECT, kobj_take_origin(w), "kobject_init");
}

/* ============================================================================== names */

/* kobj_format_name() and kobj_install_name() also name today's objects (modern.c). */
char *kobj_format_name(struct kobj_world *w, const char *fmt, va_list ap, size_t *len)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	char *name = n < 0 ? NULL : kobj_kmalloc(w, (size_t)n + 1);
	if (!name)
		return NULL;
	vsnprintf(name, (size_t)n + 1, fmt, ap);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '!';
	*len = (size_t)n;
	return name;
}

void kobj_install_name(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		       char *name, size_t len, struct kobj_origin o, const char *op)
{
	if (kobj->k_name && kobj->k_name != kobj->name)
		free(kobj->k_name);
	if (len < KOBJ_NAME_LEN) {
		memcpy(kobj->name, name, len + 1);
		kobj->k_name = kobj->name;
		free(name);
	} else {
		kobj->k_name = name;
	}
	if (!r)
		return; /* 2.6.0 lets an object be named before it is initialised */
	kobj_rec_set_name(r, kobj->k_name);
	kobj_log(w, KOBJ_EV_SET_NAME, op, r->id, 0, r->refcount, r->refcount, 0, o);
}

int (kobject_set_name)(struct kobject *kobj, const char *fmt, ...)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	char where[256];

	if (!kobj)
		return -EINVAL;
	struct kobj_record *r = kobj_any(w, kobj);
	if (kobj_refuse_released(w, r, o, "kobject_set_name"))
		return -EINVAL;
	if (!fmt) {
		if (kobject_name(kobj)[0])
			return 0;
		kobj_diag_add(w, KOBJ_DIAG_SET_NAME_FAILED, r ? r->id : 0, o,
			      kobj_xstrdup("kobject: can not set name properly!"),
			      kobj_xasprintf("kobject_set_name() at %s was given no format for "
					     "an object that has no name yet.",
					     kobj_where(o, where)));
		return -EINVAL;
	}

	va_list ap;
	size_t len;
	va_start(ap, fmt);
	char *name = kobj_format_name(w, fmt, ap, &len);
	va_end(ap);
	if (!name) {
		kobj_log(w, KOBJ_EV_SET_NAME, "kobject_set_name", r ? r->id : 0, 0,
			 r ? r->refcount : 0, r ? r->refcount : 0, ENOMEM, o);
		return -ENOMEM;
	}
	kobj_install_name(w, kobj, r, name, len, o, "kobject_set_name");
	return 0;
}

/* ======================================================================== references */

struct kobject *kobj_get_ref(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
			     const char *op, unsigned holder)
{
	char p[17], where[256];

	if (!kobj)
		return NULL;
	struct kobj_record *r = kobj_any(w, kobj);
	if (!r) {
		kobj_diag_add(w, KOBJ_DIAG_GET_UNINIT, 0, o,
			      kobj_xasprintf("kobject: '%s' (%s): is not initialized, yet "
					     "kobject_get() is being called.", kobject_name(kobj),
					     kobj_unknown_pointer(w, kobj, p)),
			      kobj_xasprintf("%s() at %s was given an object that kobject_init() "
					     "never set up, so it has no count to raise. The "
					     "sandbox returned NULL.", op, kobj_where(o, where)));
		return NULL;
	}
	if (r->modern)
		return kobj_modern_get(w, kobj, r, o, op, holder);
	if (r->released) {
		kobj_report_get_released(w, r, o, op, false);
		return NULL;
	}
	kobj_log(w, KOBJ_EV_GET, op, r->id, holder, r->refcount, r->refcount + 1, 0, o);
	r->refcount++;
	kobj_sync_count(kobj, r);
	return kobj;
}

struct kobject *(kobject_get)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	return kobj_get_ref(w, kobj, kobj_take_origin(w), "kobject_get", 0);
}

/* Takes the object out of sysfs and its kset list; no reference changes. */
static void unlink_from_sysfs(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
			      struct kobj_origin o)
{
	kobj_hotplug(w, kobj, "remove", o);
	if (r->dir)
		kobj_sysfs_remove_dir(w, r->dir);
	r->dir = NULL;
	kobj->dentry = NULL;
	struct kset *kset = r->held_kset;
	struct subsystem *subsys = kset ? kset->subsys : NULL;
	int locked = subsys && !rwsem_is_held(&subsys->rwsem) && down_write(&subsys->rwsem) == 0;
	if (kset)
		list_del_init(&kobj->entry);
	if (locked)
		up_write(&subsys->rwsem);
	r->in_sysfs = false;
}

/*
 * The last reference is gone: run release, then drop what the object held. Return: the
 * kset and parent to put next (the caller loops instead of recursing, so a deep chain
 * of objects cannot exhaust the stack).
 */
static void release_object(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
			   struct kobj_origin o, struct kset **kset, struct kobject **parent)
{
	char p[17], where[256];
	struct kobj_type *ktype = get_ktype(kobj);
	void (*release)(struct kobject *) = ktype ? ktype->release : NULL;
	char *heap_name = kobj->k_name != kobj->name ? kobj->k_name : NULL;

	if (r->in_sysfs) {
		kobj_diag_add(w, KOBJ_DIAG_AUTO_DEL, r->id, o,
			      kobj_xasprintf("kobject: '%s' (%s): auto cleanup kobject_del",
					     r->name, kobj_fake_pointer(r->id, p)),
			      kobj_xasprintf("The last reference to '%s' was dropped at %s while "
					     "it was still in sysfs: a put took the reference that "
					     "kobject_add() holds for sysfs, which only "
					     "kobject_del() should drop. The sandbox removed it "
					     "from sysfs before releasing it.", r->name,
					     kobj_where(o, where)));
		unlink_from_sysfs(w, kobj, r, o);
	}
	*kset = r->held_kset;
	*parent = r->held_parent;
	r->ktype = ktype;
	r->released = true;
	r->release_at = o;
	kobj->refcount = 0;
	kobj_log(w, KOBJ_EV_RELEASE, "release", r->id, 0, 0, 0, 0, o);

	/* 2.6.0's static ksets and subsystems had no release; that was correct there. */
	if (!release && r->kind == KOBJ_KIND_KOBJECT)
		kobj_report_no_release(w, r, o, false);
	if (release)
		release(kobj); /* may free kobj: it is not touched after this */
	free(heap_name);
	if (w->on_release)
		w->on_release(r, w->on_release_ctx);
}

void kobj_put_ref(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
		  const char *op, unsigned holder)
{
	char p[17], where[256];

	while (kobj) {
		struct kobj_record *r = kobj_any(w, kobj);
		if (!r) {
			kobj_diag_add(w, KOBJ_DIAG_PUT_UNINIT, 0, o,
				      kobj_xasprintf("kobject: '%s' (%s): is not initialized, yet "
						     "kobject_put() is being called.",
						     kobject_name(kobj),
						     kobj_unknown_pointer(w, kobj, p)),
				      kobj_xasprintf("%s() at %s was given an object that "
						     "kobject_init() never set up; there is no "
						     "reference to drop. The sandbox ignored it.",
						     op, kobj_where(o, where)));
			return;
		}
		if (r->modern) { /* today's cleanup; it hands back the parent to put */
			kobj = kobj_modern_put(w, kobj, r, o, op, &holder);
			continue;
		}
		if (r->released) {
			kobj_report_put_released(w, r, o, op);
			return;
		}
		kobj_log(w, KOBJ_EV_PUT, op, r->id, holder, r->refcount, r->refcount - 1, 0, o);
		if (--r->refcount > 0) {
			kobj_sync_count(kobj, r);
			return;
		}
		struct kset *kset;
		struct kobject *parent;
		release_object(w, kobj, r, o, &kset, &parent);
		holder = r->id;
		/* Kset chains are shallow; parent chains can be long, so they loop. */
		if (kset)
			kobj_put_ref(w, &kset->kobj, o, op, holder);
		kobj = parent;
	}
}

void (kobject_put)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	kobj_put_ref(w, kobj, kobj_take_origin(w), "kobject_put", 0);
}

void kobj_use_after_release(struct kobj_world *w, unsigned id, const char *op)
{
	struct kobj_record *r = kobj_rec(w, id);
	struct kobj_origin o = kobj_take_origin(w);
	if (!r || !r->released)
		return;
	/* The address is never read: the record alone says the object is gone. */
	if (strstr(op, "put"))
		kobj_put_ref(w, (struct kobject *)r->ptr, o, op, 0);
	else
		kobj_get_ref(w, (struct kobject *)r->ptr, o, op, 0);
}

int kobject_refcount(const struct kobject *kobj)
{
	struct kobj_record *r = kobj_live(W(), kobj);
	return r ? r->refcount : 0;
}

/* =============================================================================== add */

/* Checks that kobject_add can start; Return: the record, or NULL with a diagnostic. */
static struct kobj_record *add_precheck(struct kobj_world *w, struct kobject *kobj,
					struct kobj_origin o, const char *op, int *err)
{
	struct kobj_record *r = kobj_any(w, kobj);

	*err = -EINVAL;
	if (!r) {
		kobj_report_add_uninit(w, kobj, o, op, false);
		return NULL;
	}
	if (kobj_refuse_released(w, r, o, op))
		return NULL;
	if (r->in_sysfs) {
		*err = -EEXIST;
		kobj_report_added_twice(w, r, o, op, false);
		return NULL;
	}
	if (!kobj->k_name)
		kobj->k_name = kobj->name;
	kobj_rec_set_name(r, kobj->k_name);
	if (!kobj->k_name[0]) {
		kobj_report_empty_name(w, r, o, op, false);
		return NULL;
	}
	return r;
}

/* The record of the entry named @name in /sys@ppath, or NULL if it is not an object. */
static const struct kobj_record *entry_owner(struct kobj_world *w, const char *ppath,
					     const char *name)
{
	const struct kobj_record *other = NULL;
	const struct sysfs_dirent *clash = sysfs_lookup(w, ppath);
	const struct sysfs_dirent **list = NULL;
	long n = clash ? sysfs_list(w, ppath, &list) : 0;

	for (long i = 0; i < n; i++)
		if (strcmp(sysfs_dirent_name(list[i]), name) == 0)
			other = kobj_any(w, sysfs_dirent_kobj(list[i]));
	free(list);
	return other;
}

/* The sandbox's account of a failed directory: whose the name is, or the fault. */
static char *dir_failed_story(struct kobj_world *w, const struct kobj_record *r,
			      const char *ppath, int err, struct kobj_origin o)
{
	char where[256], when[256];

	if (err != -EEXIST)
		return kobj_xasprintf("kobject_add() at %s could not allocate the sysfs "
				      "entries of '%s' (fault injection). The caller still "
				      "holds its reference and must kobject_put() it.",
				      kobj_where(o, where), r->name);
	const struct kobj_record *other = entry_owner(w, ppath, r->name);
	if (other && other != r)
		return kobj_xasprintf("kobject_add() at %s: the directory /sys%s already has "
				      "an entry '%s' (object initialised at %s). Names must be "
				      "unique within a directory. The add failed; the caller "
				      "still holds its reference and must kobject_put() it.",
				      kobj_where(o, where), ppath, r->name,
				      kobj_where(other->init_at, when));
	return kobj_xasprintf("kobject_add() at %s: two entries named the same in /sys%s (a "
			      "default attribute repeats a name). The add failed.",
			      kobj_where(o, where), ppath);
}

/* Creates the directory and the default attribute files; Return: 0 or an error. */
static int create_dir(struct kobj_world *w, struct kobject *kobj, struct kobject *parent,
		      struct kobj_record *r, struct kobj_origin o)
{
	struct sysfs_dirent *pdir = parent ? parent->dentry : kobj_sysfs_root(w);
	int err = 0;
	struct sysfs_dirent *dir = kobj_sysfs_create_dir(w, pdir, kobj, &err);
	struct kobj_type *ktype = get_ktype(kobj);

	for (struct attribute **a = ktype ? ktype->default_attrs : NULL; dir && a && *a; a++) {
		err = kobj_sysfs_create_file(w, dir, *a);
		if (err) {
			kobj_sysfs_remove_dir(w, dir);
			dir = NULL;
		}
	}
	if (dir) {
		r->dir = dir;
		kobj->dentry = dir;
		return 0;
	}
	char *ppath = kobj_sysfs_path_of(pdir);
	kobj_report_dir_failed(w, r, parent, ppath, err, o,
			       dir_failed_story(w, r, ppath, err, o));
	free(ppath);
	return err;
}

/* Replaces what the object holds with @parent and @kset, taking their references. */
static void hold(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		 struct kobject *parent, struct kset *kset, struct kobj_origin o, const char *op)
{
	struct kobject *old_parent = r->held_parent;
	struct kset *old_kset = r->held_kset;

	kobj_get_ref(w, kobj, o, op, r->id);
	r->held_parent = kobj_get_ref(w, parent, o, op, r->id);
	r->held_kset = kset ? to_kset(kobj_get_ref(w, &kset->kobj, o, op, r->id)) : NULL;
	r->parent = r->held_parent ? kobj_any(w, r->held_parent)->id : 0;
	r->kset = r->held_kset ? kobj_any(w, &r->held_kset->kobj)->id : 0;
	/* A re-add after kobject_del: the old holds go, so release drops exactly one each. */
	if (old_kset)
		kobj_put_ref(w, &old_kset->kobj, o, op, r->id);
	kobj_put_ref(w, old_parent, o, op, r->id);
}

int kobj_add_as(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o, const char *op)
{
	char where[256];
	int err;

	if (!kobj)
		return -EINVAL;
	struct kobj_record *mr = kobj_live(w, kobj);
	if (mr && mr->modern)
		return kobj_modern_add(w, kobj, mr, o, op);
	struct kobj_record *r = add_precheck(w, kobj, o, op, &err);
	if (!r)
		return err;

	struct kset *kset = kobj->kset;
	struct subsystem *subsys = NULL;
	struct kobject *parent = kobj->parent;
	if (kset) {
		err = kobj_check_kset(w, r, kset, o, op, false);
		if (err)
			return err;
		subsys = kset->subsys;
		if (!subsys)
			kobj_diag_add(w, KOBJ_DIAG_NO_SUBSYSTEM, r->id, o,
				      kobj_xasprintf("Unable to handle kernel NULL pointer "
						     "dereference at virtual address %08zx",
						     offsetof(struct subsystem, rwsem)),
				      kobj_xasprintf("%s() at %s: '%s' joins kset '%s', which "
						     "belongs to no subsystem. kobject_add() "
						     "takes the subsystem's rwsem to change the "
						     "kset's list; in 2.6.0 this oopses. Every "
						     "kset must belong to a subsystem. The "
						     "sandbox went on without the lock.",
						     op, kobj_where(o, where), r->name,
						     kobject_name(&kset->kobj)));
		if (subsys && rwsem_is_held(&subsys->rwsem)) {
			kobj_diag_add(w, KOBJ_DIAG_RECURSIVE_LOCK, r->id, o,
				      kobj_xasprintf("WARNING: possible recursive locking "
						     "detected\n%s() is trying to acquire lock "
						     "&%s->rwsem but task is already holding it.",
						     op, kobject_name(&subsys->kset.kobj)),
				      kobj_xasprintf("%s() at %s needs the rwsem of subsystem '%s' "
						     "to change the kset's list, but this code "
						     "already holds it: waiting would deadlock. "
						     "The add failed with -EDEADLK.", op,
						     kobj_where(o, where),
						     kobject_name(&subsys->kset.kobj)));
			return -EDEADLK;
		}
		if (!parent)
			parent = &kset->kobj;
	}
	if (parent) {
		err = kobj_check_parent(w, r, parent, o, op, false);
		if (err)
			return err;
	}
	err = create_dir(w, kobj, parent, r, o);
	if (err)
		return err;

	if (subsys)
		down_write(&subsys->rwsem);
	if (kset)
		list_add_tail(&kobj->entry, &kset->list);
	if (subsys)
		up_write(&subsys->rwsem);
	kobj->parent = parent;
	hold(w, kobj, r, parent, kset, o, op);
	r->nearest_kset = kset ? kset : parent ? kobj_any(w, parent)->nearest_kset : NULL;
	r->in_sysfs = true;
	r->ktype = get_ktype(kobj);
	r->was_added = true;
	r->added_at = o;
	kobj_log(w, KOBJ_EV_ADD, op, r->id, 0, r->refcount, r->refcount, 0, o);
	kobj_hotplug(w, kobj, "add", o);
	return 0;
}

int (kobject_add)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	return kobj_add_as(w, kobj, kobj_take_origin(w), "kobject_add");
}

/* =============================================================================== del */

void kobj_del_as(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o, const char *op)
{
	char where[256];

	if (!kobj)
		return;
	struct kobj_record *r = kobj_any(w, kobj);
	if (kobj_refuse_released(w, r, o, op))
		return;
	if (r && r->modern) {
		kobj_modern_del(w, kobj, r, o, op);
		return;
	}
	if (!r || !r->in_sysfs) {
		kobj_diag_add(w, KOBJ_DIAG_DEL_NOT_ADDED, r ? r->id : 0, o,
			      kobj_xasprintf("kernfs: can not remove '%s', no directory",
					     kobject_name(kobj)),
			      kobj_xasprintf("%s() at %s: '%s' is not in sysfs (%s). In 2.6.0 "
					     "kobject_del() drops a reference anyway, the one its "
					     "creator holds, so the object can be freed under its "
					     "owner. The sandbox changed nothing.", op,
					     kobj_where(o, where), kobject_name(kobj),
					     !r ? "it was never initialised"
					     : r->was_added ? "it was already deleted"
							    : "it was never added"));
		return;
	}
	unlink_from_sysfs(w, kobj, r, o);
	kobj_log(w, KOBJ_EV_DEL, op, r->id, 0, r->refcount, r->refcount, 0, o);
	kobj_put_ref(w, kobj, o, op, r->id);
}

void (kobject_del)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	kobj_del_as(w, kobj, kobj_take_origin(w), "kobject_del");
}

/* ===================================================================== register pair */

int (kobject_register)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	char where[256];

	if (!kobj)
		return -EINVAL;
	if (!kobj_init_as(w, kobj, KOBJ_KIND_KOBJECT, o, "kobject_register"))
		return -EINVAL;
	int err = kobj_add_as(w, kobj, o, "kobject_register");
	if (err) {
		struct kobj_record *r = kobj_any(w, kobj);
		kobj_diag_add(w, KOBJ_DIAG_REGISTER_FAILED, r->id, o,
			      kobj_xasprintf("kobject_register failed for %s (%d)", r->name, err),
			      kobj_xasprintf("kobject_register() at %s: the add step failed (see "
					     "the diagnostic before this one). The object is "
					     "initialised, so the caller must still kobject_put() "
					     "it to release it.", kobj_where(o, where)));
	}
	return err;
}

void (kobject_unregister)(struct kobject *kobj)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);

	if (!kobj)
		return;
	kobj_del_as(w, kobj, o, "kobject_unregister");
	kobj_put_ref(w, kobj, o, "kobject_unregister", 0);
}
