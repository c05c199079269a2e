/*
 * Today's sysfs calls (fs/sysfs/file.c, group.c, symlink.c): attribute and binary
 * files, groups (a named one is a subdirectory), links, sysfs_notify(), and the
 * kobj_attribute dispatch. The warnings are the kernel's; a generic WARN_ON is shown as
 * the line the kernel prints for it. Making and removing files, groups and links, and
 * notifying, are events of the log (KOBJ_EV_SYSFS).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model_internal.h"

/* ============================================================== kobj_attribute glue */

static ssize_t kobj_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct kobj_attribute *a = container_of(attr, struct kobj_attribute, attr);
	return a->show ? a->show(kobj, a, buf) : -EIO;
}

static ssize_t kobj_attr_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			       size_t count)
{
	struct kobj_attribute *a = container_of(attr, struct kobj_attribute, attr);
	return a->store ? a->store(kobj, a, buf, count) : -EIO;
}

const struct sysfs_ops kobj_sysfs_ops = {
	.show = kobj_attr_show,
	.store = kobj_attr_store,
};

/* ============================================================================ helpers */

/* The object's directory if it is in sysfs, else NULL. */
static struct sysfs_dirent *dir_of(struct kobj_world *w, struct kobject *kobj)
{
	struct kobj_record *r = kobj ? kobj_live_of(w, kobj) : NULL;
	return r && r->in_sysfs ? r->dir : NULL;
}

static unsigned id_of(struct kobj_world *w, const struct kobject *kobj)
{
	const struct kobj_record *r = kobj ? kobj_rec_of(w, kobj) : NULL;
	return r ? r->id : 0;
}

/* A file, group or link made or removed, in the log. */
static void logged(struct kcall *c, struct kobject *kobj, enum kobj_sysfs_event what)
{
	kobj_log_call(c, KOBJ_EV_SYSFS, kobj_rec_of(c->w, kobj), what);
}

/* A WARN_ON(!kobj->sd) without text: the kernel prints where it fired. */
static void not_in_sysfs(struct kcall *c, struct kobject *kobj, const char *site)
{
	char where[256];
	kobj_diagnose(c, KOBJ_DIAG_NOT_IN_SYSFS, id_of(c->w, kobj),
		    kobj_xasprintf("WARNING: CPU: 0 PID: 1 at %s", site),
		    kobj_xasprintf("%s() at %s: %s, so there is no directory to put files in. "
				   "Add the object first (kobject_add), and remove its files "
				   "before kobject_del(). Nothing was created.", c->op,
				   kobj_site_where(c->w, c->site, where),
				   !kobj ? "the object is NULL"
				   : kobj_live_of(c->w, kobj) ? "the object is not in sysfs"
							      : "the object is not a live kobject"));
}

/* "kernfs: can not remove '%s', no directory" */
static void no_directory(struct kcall *c, struct kobject *kobj, const char *name)
{
	char where[256];
	kobj_diagnose(c, KOBJ_DIAG_NOT_IN_SYSFS, id_of(c->w, kobj),
		    kobj_xasprintf("kernfs: can not remove '%s', no directory", name),
		    kobj_xasprintf("%s() at %s: '%s' has no sysfs directory (never added, or "
				   "already deleted), so there is nothing to remove '%s' from. "
				   "Remove files before kobject_del().", kcall_now(c),
				   kobj_site_where(c->w, c->site, where), kobject_name(kobj), name));
}

/* "sysfs: cannot create duplicate filename '%s/%s'" */
static int duplicate(struct kcall *c, struct kobject *kobj, struct sysfs_dirent *dir,
		     const char *name)
{
	char where[256];
	char *path = kobj_sysfs_path_of(dir);
	const char *shown = strcmp(path, "/") ? path : "";
	/* kernfs prints the root as "/": a top-level duplicate reads "//name" */
	kobj_diagnose(c, KOBJ_DIAG_DUPLICATE_NAME, id_of(c->w, kobj),
		    kobj_xasprintf("sysfs: cannot create duplicate filename '%s/%s'", path, name),
		    kobj_xasprintf("%s() at %s: /sys%s already has an entry named '%s'. A name "
				   "appears once per directory; nothing was created.", kcall_now(c),
				   kobj_site_where(c->w, c->site, where), shown, name));
	kobj_xfree(path);
	return -EEXIST;
}

/* One file for @attr in @dir, which belongs to @kobj; Return: 0 or an error, reported.
 * *@made (if given) is the new entry. */
static int create_file(struct kcall *c, struct kobject *kobj, struct sysfs_dirent *dir,
		       const struct attribute *attr, unsigned mode, struct sysfs_dirent **made)
{
	const struct kobj_record *r = kobj_rec_of(c->w, kobj);
	const struct kobj_type *t = r ? kobj_ktype_of_rec(r) : NULL;
	char where[256];
	int err = 0;

	/* 2.6.0's sysfs made the file whatever the ops; reading it then failed */
	if ((!t || !t->sysfs_ops) && (!r || r->era == KOBJ_ERA_TODAY)) {
		kobj_diagnose(c, KOBJ_DIAG_NO_SYSFS_OPS, id_of(c->w, kobj),
			    kobj_xasprintf("missing sysfs attribute operations for kobject: %s",
					   kobject_name(kobj)),
			    kobj_xasprintf("%s() at %s: the ktype of '%s' has no sysfs_ops, so "
					   "nothing could read or write the file '%s'. Give the ktype "
					   "sysfs_ops (kobj_sysfs_ops for kobj_attribute files). "
					   "Nothing was created.", kcall_now(c),
					   kobj_site_where(c->w, c->site, where), kobject_name(kobj),
					   attr->name ? attr->name : ""));
		return -EINVAL;
	}
	struct sysfs_dirent *d = kobj_sysfs_add(c->w, dir, attr->name ? attr->name : "",
						SYSFS_FILE, r->id, kobj, (struct attribute *)attr,
						mode, 0, &err);
	if (made)
		*made = d;
	if (d)
		return 0;
	return err == -EEXIST ? duplicate(c, kobj, dir, attr->name) : err;
}

/* One binary file for @attr in @dir: no sysfs_ops needed, its own read() and write(). */
static int create_bin_file(struct kcall *c, struct kobject *kobj, struct sysfs_dirent *dir,
			   const struct bin_attribute *attr, unsigned mode,
			   struct sysfs_dirent **made)
{
	const char *name = attr->attr.name ? attr->attr.name : "";
	int err = 0;
	struct sysfs_dirent *d = kobj_sysfs_add(c->w, dir, name, SYSFS_FILE, id_of(c->w, kobj),
						kobj, (struct attribute *)&attr->attr, mode & 0777,
						0, &err);
	if (made)
		*made = d;
	if (!d)
		return err == -EEXIST ? duplicate(c, kobj, dir, name) : err;
	kobj_sysfs_set_bin(d);
	return 0;
}

/* ============================================================================== files */

int (sysfs_create_file)(struct kobject *kobj, const struct attribute *attr)
{
	struct kcall c = kobj_call("sysfs_create_file");
	struct sysfs_dirent *dir = dir_of(c.w, kobj);

	if (!dir || !attr) {
		not_in_sysfs(&c, kobj, "fs/sysfs/file.c sysfs_create_file_ns");
		return -EINVAL;
	}
	int err = create_file(&c, kobj, dir, attr, attr->mode, NULL);
	if (!err)
		logged(&c, kobj, KOBJ_SYSFS_FILE_ADDED);
	return err;
}

/* Removes the entry @name of type @type from @dir, if there is one; Return: true if so.
 * A child object's own directory is never taken for a group's, whatever its name. */
static bool remove_named(struct kobj_world *w, struct sysfs_dirent *dir, const char *name,
			 enum sysfs_type type)
{
	struct sysfs_dirent *d = name ? kobj_sysfs_find(w, dir, name) : NULL;
	if (!d || sysfs_dirent_type(d) != type || sysfs_dirent_is_object(d))
		return false;
	kobj_sysfs_remove(w, d);
	return true;
}

/* kernfs_remove_by_name(kobj->sd, @attr's name), as both kinds of file are removed. */
static void remove_file(struct kcall *c, struct kobject *kobj, const struct attribute *attr)
{
	struct sysfs_dirent *dir = dir_of(c->w, kobj);

	if (!kobj || !attr)
		return;
	if (!dir) {
		no_directory(c, kobj, attr->name ? attr->name : "");
		return;
	}
	if (remove_named(c->w, dir, attr->name, SYSFS_FILE))
		logged(c, kobj, KOBJ_SYSFS_FILE_REMOVED);
}

void (sysfs_remove_file)(struct kobject *kobj, const struct attribute *attr)
{
	struct kcall c = kobj_call("sysfs_remove_file");
	remove_file(&c, kobj, attr);
}

int (sysfs_create_bin_file)(struct kobject *kobj, const struct bin_attribute *attr)
{
	struct kcall c = kobj_call("sysfs_create_bin_file");
	struct sysfs_dirent *dir = dir_of(c.w, kobj);

	if (!dir || !attr) {
		not_in_sysfs(&c, kobj, "fs/sysfs/file.c sysfs_create_bin_file");
		return -EINVAL;
	}
	int err = create_bin_file(&c, kobj, dir, attr, attr->attr.mode, NULL);
	if (!err)
		logged(&c, kobj, KOBJ_SYSFS_FILE_ADDED);
	return err;
}

void (sysfs_remove_bin_file)(struct kobject *kobj, const struct bin_attribute *attr)
{
	struct kcall c = kobj_call("sysfs_remove_bin_file");
	remove_file(&c, kobj, attr ? &attr->attr : NULL);
}

/* ============================================================================ notify */

void (sysfs_notify)(struct kobject *kobj, const char *dir, const char *attr)
{
	struct kcall c = kobj_call("sysfs_notify");
	char where[256];

	if (!kobj) { /* the kernel reads kobj->sd, at offset 0x30 */
		kobj_diagnose(&c, KOBJ_DIAG_INVALID_POINTER, 0,
			    kobj_xstrdup("BUG: kernel NULL pointer dereference, address: "
					 "0000000000000030"),
			    kobj_xasprintf("sysfs_notify() at %s was given a NULL kobject, which "
					   "the kernel reads (kobj->sd) and oopses on. Nothing was "
					   "notified.", kobj_site_where(c.w, c.site, where)));
		return;
	}
	struct sysfs_dirent *d = dir_of(c.w, kobj);
	if (d && dir)
		d = kobj_sysfs_find(c.w, d, dir);
	if (d && attr)
		d = kobj_sysfs_find(c.w, d, attr);
	if (!d || sysfs_dirent_type(d) == SYSFS_LINK)
		return; /* kernfs finds nothing to wake: silence, as in the kernel */
	kobj_sysfs_notify(d);
	logged(&c, kobj, KOBJ_SYSFS_NOTIFIED);
}

/* ============================================================================= groups */

/* The mode a group gives its attribute (or binary attribute, @bin) @i, 0 if hidden; a
 * mode outside 0664 is warned. The callback may change anything: the caller checks the
 * object again. */
static unsigned group_mode(struct kcall *c, struct kobject *kobj,
			   const struct attribute_group *grp, int i, bool bin)
{
	struct attribute *a = bin ? &grp->bin_attrs[i]->attr : grp->attrs[i];
	unsigned mode = a->mode;
	char where[256];

	if (bin ? grp->is_bin_visible != NULL : grp->is_visible != NULL) {
		kobj_callback_enter(c->w);
		mode = bin ? grp->is_bin_visible(kobj, grp->bin_attrs[i], i)
			   : grp->is_visible(kobj, a, i);
		kobj_callback_leave(c->w);
	}
	if (mode & ~0664u)
		kobj_diagnose(c, KOBJ_DIAG_BAD_PERMISSIONS, id_of(c->w, kobj),
			    kobj_xasprintf("Attribute %s: Invalid permissions 0%o", a->name, mode),
			    kobj_xasprintf("%s() at %s: the file '%s' of '%s' would get mode 0%o; "
					   "sysfs files may have at most 0664 (no execute bits, never "
					   "writable by others). The kernel masks it to 0%o.",
					   kcall_now(c), kobj_site_where(c->w, c->site, where),
					   a->name, kobject_name(kobj), mode, mode & 0664u));
	return mode & 0664u;
}

/* Entries of a NULL-terminated array of pointers (0 for NULL). */
static size_t count_of(void *const *list)
{
	size_t n = 0;
	while (list && list[n])
		n++;
	return n;
}

/* Attribute @i of @grp: its attrs, then its bin_attrs. */
static const struct attribute *group_attr(const struct attribute_group *grp, size_t i,
					  bool *bin, int *at)
{
	size_t n = count_of((void *const *)grp->attrs);
	*bin = i >= n;
	*at = (int)(*bin ? i - n : i);
	return *bin ? &grp->bin_attrs[*at]->attr : grp->attrs[*at];
}

/* The directory @grp's files go in: @dir, or its subdirectory named for the group;
 * NULL if a callback removed it. Found again by name after each callback, since
 * is_visible() may remove the group, or the object, before the next file is made. */
static struct sysfs_dirent *group_dir(struct kobj_world *w, struct sysfs_dirent *dir,
				      const struct attribute_group *grp)
{
	if (!grp->name)
		return dir;
	struct sysfs_dirent *d = kobj_sysfs_find(w, dir, grp->name);
	return d && sysfs_dirent_type(d) == SYSFS_DIR && !sysfs_dirent_is_object(d) ? d : NULL;
}

/* File @i of @grp in the group's directory, unless is_visible() hides it; *@made is
 * whether it was made. Return: 0 or an error; -ENOENT if the callback took the object's
 * directory @dir away (with everything in it) or the group's own. */
static int group_file(struct kcall *c, struct kobject *kobj, struct sysfs_dirent *dir,
		      const struct attribute_group *grp, size_t i, bool *made)
{
	bool bin;
	int at;
	const struct attribute *a = group_attr(grp, i, &bin, &at);
	unsigned mode = group_mode(c, kobj, grp, at, bin);
	const struct kobj_record *r = kobj_live_of(c->w, kobj);
	struct sysfs_dirent *gdir = r && r->dir == dir ? group_dir(c->w, dir, grp) : NULL;
	struct sysfs_dirent *d = NULL;

	*made = false;
	if (!gdir)
		return -ENOENT;
	if (!mode)
		return 0;
	int err = bin ? create_bin_file(c, kobj, gdir, grp->bin_attrs[at], mode, &d)
		      : create_file(c, kobj, gdir, a, mode, &d);
	*made = d != NULL;
	return err;
}

/* Removes file @i of @grp from @gdir if it is still the one this call made. */
static void unmake(struct kobj_world *w, struct sysfs_dirent *gdir,
		   const struct attribute_group *grp, size_t i)
{
	bool bin;
	int at;
	const struct attribute *a = group_attr(grp, i, &bin, &at);
	struct sysfs_dirent *d = kobj_sysfs_find(w, gdir, a->name);
	if (d && sysfs_dirent_attr(d) == a)
		kobj_sysfs_remove(w, d);
}

/* The files of @grp in @dir (or its named subdirectory); on failure nothing remains. */
static int create_group(struct kcall *c, struct kobject *kobj, struct sysfs_dirent *dir,
			const struct attribute_group *grp)
{
	unsigned obj = id_of(c->w, kobj);
	char where[256];
	int err = 0;

	if (!grp->attrs && !grp->bin_attrs) {
		kobj_diagnose(c, KOBJ_DIAG_EMPTY_GROUP, obj,
			    kobj_xasprintf("sysfs: (bin_)attrs not set by subsystem for group: "
					   "%s/%s", kobject_name(kobj), grp->name ? grp->name : ""),
			    kobj_xasprintf("%s() at %s: the attribute_group has neither attrs nor "
					   "bin_attrs, so it would create nothing. Nothing was "
					   "created.", kcall_now(c),
					   kobj_site_where(c->w, c->site, where)));
		return -EINVAL;
	}
	if (grp->name && !kobj_sysfs_add(c->w, dir, grp->name, SYSFS_DIR, obj, kobj, NULL, 0, 0,
					 &err))
		return err == -EEXIST ? duplicate(c, kobj, dir, grp->name) : err;
	size_t n = count_of((void *const *)grp->attrs) +
		   count_of((void *const *)grp->bin_attrs), nmade = 0;
	size_t *made = kobj_xcalloc(n + 1, sizeof(*made));
	for (size_t i = 0; i < n && !err; i++) {
		bool one;
		err = group_file(c, kobj, dir, grp, i, &one);
		if (one)
			made[nmade++] = i;
	}
	/* A callback may have deleted the object or the group: what is left is found by
	 * name. Only what this call made goes: a clashing file that was there stays. */
	const struct kobj_record *r = kobj_live_of(c->w, kobj);
	struct sysfs_dirent *gdir = err && r && r->dir == dir ? group_dir(c->w, dir, grp) : NULL;
	if (gdir && grp->name)
		kobj_sysfs_remove(c->w, gdir);
	else if (gdir)
		while (nmade)
			unmake(c->w, gdir, grp, made[--nmade]);
	kobj_xfree(made);
	return err;
}

int (sysfs_create_group)(struct kobject *kobj, const struct attribute_group *grp)
{
	struct kcall c = kobj_call("sysfs_create_group");
	struct sysfs_dirent *dir = dir_of(c.w, kobj);

	if (!dir || !grp) {
		not_in_sysfs(&c, kobj, "fs/sysfs/group.c internal_create_group");
		return -EINVAL;
	}
	int err = create_group(&c, kobj, dir, grp);
	if (!err)
		logged(&c, kobj, KOBJ_SYSFS_GROUP_ADDED);
	return err;
}

static void remove_group(struct kcall *c, struct kobject *kobj,
			 const struct attribute_group *grp)
{
	struct sysfs_dirent *dir = dir_of(c->w, kobj);
	char where[256];

	if (grp->name) {
		if (dir && remove_named(c->w, dir, grp->name, SYSFS_DIR)) {
			logged(c, kobj, KOBJ_SYSFS_GROUP_REMOVED);
			return;
		}
		kobj_diagnose(c, KOBJ_DIAG_GROUP_NOT_FOUND, id_of(c->w, kobj),
			    kobj_xasprintf("sysfs group '%s' not found for kobject '%s'", grp->name,
					   kobject_name(kobj)),
			    kobj_xasprintf("%s() at %s: '%s' has no group directory '%s' (never "
					   "created, already removed, or the object is not in "
					   "sysfs). Nothing was removed.", kcall_now(c),
					   kobj_site_where(c->w, c->site, where), kobject_name(kobj),
					   grp->name));
		return;
	}
	bool removed = false;
	size_t n = count_of((void *const *)grp->attrs);
	size_t all = n + count_of((void *const *)grp->bin_attrs);
	for (size_t i = 0; i < all; i++) {
		const char *name = i < n ? grp->attrs[i]->name : grp->bin_attrs[i - n]->attr.name;
		if (!dir)
			no_directory(c, kobj, name);
		else
			removed |= remove_named(c->w, dir, name, SYSFS_FILE);
	}
	if (removed)
		logged(c, kobj, KOBJ_SYSFS_GROUP_REMOVED);
}

void (sysfs_remove_group)(struct kobject *kobj, const struct attribute_group *grp)
{
	struct kcall c = kobj_call("sysfs_remove_group");
	if (kobj && grp)
		remove_group(&c, kobj, grp);
}

int (sysfs_create_groups)(struct kobject *kobj, const struct attribute_group **groups)
{
	struct kcall c = kobj_call("sysfs_create_groups");
	struct sysfs_dirent *dir = dir_of(c.w, kobj);
	int err = 0, i;

	if (!groups)
		return 0;
	if (!dir) {
		not_in_sysfs(&c, kobj, "fs/sysfs/group.c internal_create_group");
		return -EINVAL;
	}
	for (i = 0; groups[i] && !err; i++) {
		err = create_group(&c, kobj, dir, groups[i]);
		if (!err)
			logged(&c, kobj, KOBJ_SYSFS_GROUP_ADDED);
	}
	for (i -= 2; err && i >= 0; i--) /* undo the groups before the one that failed */
		remove_group(&c, kobj, groups[i]);
	return err;
}

void (sysfs_remove_groups)(struct kobject *kobj, const struct attribute_group **groups)
{
	struct kcall c = kobj_call("sysfs_remove_groups");
	for (int i = 0; kobj && groups && groups[i]; i++)
		remove_group(&c, kobj, groups[i]);
}

/* ============================================================== an object being added */

int kobj_create_default_groups(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
			       struct sysfs_dirent *dir, const struct attribute_group **groups)
{
	int err = 0;
	(void)r;
	for (int i = 0; groups[i] && !err; i++)
		err = create_group(c, kobj, dir, groups[i]);
	return err; /* the caller removes the directory, and with it every group */
}

int kobj_create_default_attrs(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
			      struct sysfs_dirent *dir, struct attribute **attrs)
{
	int err = 0;
	(void)r;
	for (int i = 0; attrs[i] && !err; i++)
		err = create_file(c, kobj, dir, attrs[i], attrs[i]->mode, NULL);
	return err;
}

int kobj_create_dir(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		    struct sysfs_dirent *pdir)
{
	const struct kobj_type *t = kobj_ktype_of_rec(r);
	int err = 0;
	struct sysfs_dirent *dir = kobj_sysfs_add(c->w, pdir, r->name, SYSFS_DIR, r->id, kobj,
						  NULL, 0, 1, &err);
	if (!dir) {
		char *ppath = kobj_sysfs_path_of(pdir);
		const struct kobj_record *pr = kobj_rec(c->w, r->parent);
		kobj_report_dir_failed(c, r, pr ? pr->name : NULL, ppath, err);
		kobj_xfree(ppath);
		return err;
	}
	r->dir = dir;
	kobj->dentry = dir;
	if (t && t->default_attrs)
		err = kobj_create_default_attrs(c, kobj, r, dir, t->default_attrs);
	if (!err && t && t->default_groups && !r->released)
		err = kobj_create_default_groups(c, kobj, r, dir, t->default_groups);
	if (!err)
		return 0;
	if (r->dir == dir)
		kobj_sysfs_remove(c->w, dir);
	r->dir = NULL;
	if (!r->released)
		kobj->dentry = NULL;
	if (err != -EEXIST) {
		/* an is_visible() may have deleted the parent, and @pdir with it: ask again */
		const struct kobj_record *pr = kobj_rec(c->w, r->parent);
		char *ppath = kobj_sysfs_path_of(pr && pr->dir ? pr->dir : kobj_sysfs_root(c->w));
		kobj_report_dir_failed(c, r, pr ? pr->name : NULL, ppath, err);
		kobj_xfree(ppath);
	} else if (r->era == KOBJ_ERA_TODAY) {
		char where[256];
		/* sysfs reported the file; kobject adds its own line, as the kernel does */
		kobj_diagnose(c, KOBJ_DIAG_ADD_FAILED, r->id,
			    kobj_xasprintf("kobject_add_internal failed for %s with -EEXIST, don't "
					   "try to register things with the same name in the same "
					   "directory.", r->name),
			    kobj_xasprintf("%s() at %s: a default attribute of '%s' repeats a name "
					   "(see the diagnostic before). The add failed; %s.",
					   kcall_now(c), kobj_site_where(c->w, c->site, where), r->name,
					   kobj_after_failed_add(c)));
	}
	return err;
}

/* ============================================================================== links */

int (sysfs_create_link)(struct kobject *kobj, struct kobject *target, const char *name)
{
	struct kcall c = kobj_call("sysfs_create_link");
	struct sysfs_dirent *dir = kobj ? dir_of(c.w, kobj) : kobj_sysfs_root(c.w);
	struct kobj_record *t = target ? kobj_live_of(c.w, target) : NULL;
	int err = 0;

	if (!dir)
		return -EFAULT;
	if (!t || !t->in_sysfs || !t->dir)
		return -ENOENT;
	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	if (kobj_sysfs_add_link(c.w, dir, name, id_of(c.w, kobj), t->id, &err)) {
		logged(&c, kobj ? kobj : target, KOBJ_SYSFS_LINK_ADDED);
		return 0;
	}
	return err == -EEXIST ? duplicate(&c, kobj, dir, name) : err;
}

void (sysfs_remove_link)(struct kobject *kobj, const char *name)
{
	struct kcall c = kobj_call("sysfs_remove_link");
	struct sysfs_dirent *dir = kobj ? dir_of(c.w, kobj) : kobj_sysfs_root(c.w);

	if (!name)
		return;
	if (!dir) {
		no_directory(&c, kobj, name);
		return;
	}
	if (remove_named(c.w, dir, name, SYSFS_LINK) && kobj)
		logged(&c, kobj, KOBJ_SYSFS_LINK_REMOVED);
}

/* ========================================================================= sysfs_emit */

/* A show() must write into the page it was lent, which starts on a page boundary. */
static bool bad_page(struct kcall *c, const char *buf, int at)
{
	char p[17], where[256];

	if (buf && !((uintptr_t)buf & (PAGE_SIZE - 1)) && at >= 0 && at < PAGE_SIZE)
		return false;
	kobj_diagnose(c, KOBJ_DIAG_BAD_SYSFS_EMIT, 0,
		    strcmp(c->op, "sysfs_emit") == 0
			    ? kobj_xasprintf("invalid sysfs_emit: buf:%s",
					     kobj_unknown_pointer(c->w, buf, p))
			    : kobj_xasprintf("invalid sysfs_emit_at: buf:%s at:%d",
					     kobj_unknown_pointer(c->w, buf, p), at),
		    kobj_xasprintf("%s() at %s was not given the page a show() method receives "
				   "(%s). It wrote nothing and returned 0.", c->op,
				   kobj_site_where(c->w, c->site, where),
				   at < 0 || at >= PAGE_SIZE ? "the offset is outside the page"
							     : "not the start of a page"));
	return true;
}

int (sysfs_emit)(char *buf, const char *fmt, ...)
{
	struct kcall c = kobj_call("sysfs_emit");
	va_list ap;

	if (bad_page(&c, buf, 0))
		return 0;
	va_start(ap, fmt);
	int n = vscnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

int (sysfs_emit_at)(char *buf, int at, const char *fmt, ...)
{
	struct kcall c = kobj_call("sysfs_emit_at");
	va_list ap;

	if (bad_page(&c, buf, at))
		return 0;
	va_start(ap, fmt);
	int n = vscnprintf(buf + at, (size_t)(PAGE_SIZE - at), fmt, ap);
	va_end(ap);
	return n;
}
