/*
 * Today's sysfs calls (fs/sysfs/file.c, group.c, symlink.c): attribute files, groups
 * (a named one is a subdirectory), links, and the kobj_attribute dispatch. The warnings
 * are the kernel's; a generic WARN_ON is shown as the line the kernel prints for it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/modern_internal.h"

#define W() kobj_world_current()

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
	struct kobj_record *r = kobj ? kobj_live(w, kobj) : NULL;
	return r && r->in_sysfs ? r->dir : NULL;
}

static unsigned id_of(struct kobj_world *w, const struct kobject *kobj)
{
	const struct kobj_record *r = kobj ? kobj_any(w, kobj) : NULL;
	return r ? r->id : 0;
}

/* A WARN_ON(!kobj->sd) without text: the kernel prints where it fired. */
static void not_in_sysfs(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
			 const char *op, const char *site)
{
	char where[256];
	kobj_diag_add(w, KOBJ_DIAG_NOT_IN_SYSFS, id_of(w, kobj), o,
		      kobj_xasprintf("WARNING: CPU: 0 PID: 1 at %s", site),
		      kobj_xasprintf("%s() at %s: %s, so there is no directory to put files "
				     "in. Add the object first (kobject_add), and remove its "
				     "files before kobject_del(). Nothing was created.", op,
				     kobj_where(o, where),
				     !kobj ? "the object is NULL"
				     : kobj_live(w, kobj) ? "the object is not in sysfs"
							  : "the object is not a live kobject"));
}

/* "kernfs: can not remove '%s', no directory" */
static void no_directory(struct kobj_world *w, struct kobject *kobj, const char *name,
			 struct kobj_origin o, const char *op)
{
	char where[256];
	kobj_diag_add(w, KOBJ_DIAG_NOT_IN_SYSFS, id_of(w, kobj), o,
		      kobj_xasprintf("kernfs: can not remove '%s', no directory", name),
		      kobj_xasprintf("%s() at %s: '%s' has no sysfs directory (never added, or "
				     "already deleted), so there is nothing to remove '%s' "
				     "from. Remove files before kobject_del().", op,
				     kobj_where(o, where), kobject_name(kobj), name));
}

/* "sysfs: cannot create duplicate filename '%s/%s'" */
static int duplicate(struct kobj_world *w, struct kobject *kobj, struct sysfs_dirent *dir,
		     const char *name, struct kobj_origin o, const char *op)
{
	char where[256];
	char *path = kobj_sysfs_path_of(dir);
	const char *shown = strcmp(path, "/") ? path : "";
	kobj_diag_add(w, KOBJ_DIAG_DUPLICATE_NAME, id_of(w, kobj), o,
		      kobj_xasprintf("sysfs: cannot create duplicate filename '%s/%s'", shown,
				     name),
		      kobj_xasprintf("%s() at %s: /sys%s already has an entry named '%s'. A name "
				     "appears once per directory; nothing was created.", op,
				     kobj_where(o, where), shown, name));
	free(path);
	return -EEXIST;
}

/* One file for @attr in @dir, which belongs to @kobj; Return: 0 or an error, reported.
 * *@made (if given) is the new entry. */
static int create_file(struct kobj_world *w, struct kobject *kobj, struct sysfs_dirent *dir,
		       const struct attribute *attr, struct kobj_origin o, const char *op,
		       struct sysfs_dirent **made)
{
	const struct kobj_type *t = kobj_ktype_of(w, kobj);
	char where[256];
	int err = 0;

	if (!t || !t->sysfs_ops) {
		kobj_diag_add(w, KOBJ_DIAG_NO_SYSFS_OPS, id_of(w, kobj), o,
			      kobj_xasprintf("missing sysfs attribute operations for kobject: %s",
					     kobject_name(kobj)),
			      kobj_xasprintf("%s() at %s: the ktype of '%s' has no sysfs_ops, so "
					     "nothing could read or write the file '%s'. Give the "
					     "ktype sysfs_ops (kobj_sysfs_ops for kobj_attribute "
					     "files). Nothing was created.", op, kobj_where(o, where),
					     kobject_name(kobj), attr->name ? attr->name : ""));
		return -EINVAL;
	}
	struct sysfs_dirent *d = kobj_sysfs_add_entry(w, dir, attr->name ? attr->name : "",
						      SYSFS_FILE, kobj, (struct attribute *)attr,
						      &err);
	if (made)
		*made = d;
	if (d)
		return 0;
	return err == -EEXIST ? duplicate(w, kobj, dir, attr->name, o, op) : err;
}

/* ============================================================================== files */

int (sysfs_create_file)(struct kobject *kobj, const struct attribute *attr)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct sysfs_dirent *dir = dir_of(w, kobj);

	if (!dir || !attr) {
		not_in_sysfs(w, kobj, o, "sysfs_create_file", "fs/sysfs/file.c sysfs_create_file_ns");
		return -EINVAL;
	}
	return create_file(w, kobj, dir, attr, o, "sysfs_create_file", NULL);
}

/* Removes the entry @name of type @type from @dir, if there is one. */
static void remove_named(struct kobj_world *w, struct sysfs_dirent *dir, const char *name,
			 enum sysfs_type type)
{
	struct sysfs_dirent *d = name ? kobj_sysfs_find(w, dir, name) : NULL;
	if (d && sysfs_dirent_type(d) == type)
		kobj_sysfs_remove_entry(w, d);
}

void (sysfs_remove_file)(struct kobject *kobj, const struct attribute *attr)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct sysfs_dirent *dir = dir_of(w, kobj);

	if (!kobj || !attr)
		return;
	if (!dir) {
		no_directory(w, kobj, attr->name ? attr->name : "", o, "sysfs_remove_file");
		return;
	}
	remove_named(w, dir, attr->name, SYSFS_FILE);
}

/* ============================================================================= groups */

/* The mode a group gives attribute @i, 0 if hidden; a mode outside 0664 is warned. */
static unsigned group_mode(struct kobj_world *w, struct kobject *kobj,
			   const struct attribute_group *grp, int i, struct kobj_origin o,
			   const char *op)
{
	struct attribute *a = grp->attrs[i];
	unsigned mode = grp->is_visible ? grp->is_visible(kobj, a, i) : (unsigned)a->mode;
	char where[256];

	if (mode & ~0664u)
		kobj_diag_add(w, KOBJ_DIAG_BAD_PERMISSIONS, id_of(w, kobj), o,
			      kobj_xasprintf("Attribute %s: Invalid permissions 0%o", a->name,
					     mode),
			      kobj_xasprintf("%s() at %s: the file '%s' of '%s' would get mode "
					     "0%o; sysfs files may have at most 0664 (no execute "
					     "bits, never writable by others). The kernel masks it "
					     "to 0%o.", op, kobj_where(o, where), a->name,
					     kobject_name(kobj), mode, mode & 0664u));
	return mode;
}

/* The files of @grp in @dir (or its named subdirectory); on failure nothing remains. */
static int create_group(struct kobj_world *w, struct kobject *kobj, struct sysfs_dirent *dir,
			const struct attribute_group *grp, struct kobj_origin o, const char *op)
{
	struct sysfs_dirent *gdir = dir;
	char where[256];
	int err = 0;

	if (!grp->attrs) {
		kobj_diag_add(w, KOBJ_DIAG_EMPTY_GROUP, id_of(w, kobj), o,
			      kobj_xasprintf("sysfs: (bin_)attrs not set by subsystem for group: "
					     "%s/%s", kobject_name(kobj), grp->name ? grp->name : ""),
			      kobj_xasprintf("%s() at %s: the attribute_group has no attrs list, "
					     "so it would create nothing. Nothing was created.", op,
					     kobj_where(o, where)));
		return -EINVAL;
	}
	if (grp->name && !(gdir = kobj_sysfs_add_entry(w, dir, grp->name, SYSFS_DIR, kobj, NULL,
						       &err)))
		return err == -EEXIST ? duplicate(w, kobj, dir, grp->name, o, op) : err;
	size_t n = 0, nmade = 0;
	while (grp->attrs[n])
		n++;
	struct sysfs_dirent **made = kobj_xcalloc(n, sizeof(*made));
	for (size_t i = 0; i < n && !err; i++) {
		if (!group_mode(w, kobj, grp, (int)i, o, op))
			continue;
		err = create_file(w, kobj, gdir, grp->attrs[i], o, op, &made[nmade]);
		nmade += !err;
	}
	if (err && grp->name)
		kobj_sysfs_remove_entry(w, gdir);
	/* Only what this call made goes: a clashing file that was there stays. */
	while (err && !grp->name && nmade)
		kobj_sysfs_remove_entry(w, made[--nmade]);
	free(made);
	return err;
}

int (sysfs_create_group)(struct kobject *kobj, const struct attribute_group *grp)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct sysfs_dirent *dir = dir_of(w, kobj);

	if (!dir || !grp) {
		not_in_sysfs(w, kobj, o, "sysfs_create_group",
			     "fs/sysfs/group.c internal_create_group");
		return -EINVAL;
	}
	return create_group(w, kobj, dir, grp, o, "sysfs_create_group");
}

static void remove_group(struct kobj_world *w, struct kobject *kobj,
			 const struct attribute_group *grp, struct kobj_origin o, const char *op)
{
	struct sysfs_dirent *dir = dir_of(w, kobj);
	char where[256];

	if (grp->name) {
		struct sysfs_dirent *g = dir ? kobj_sysfs_find(w, dir, grp->name) : NULL;
		if (g && sysfs_dirent_type(g) == SYSFS_DIR) {
			kobj_sysfs_remove_entry(w, g);
			return;
		}
		kobj_diag_add(w, KOBJ_DIAG_GROUP_NOT_FOUND, id_of(w, kobj), o,
			      kobj_xasprintf("sysfs group '%s' not found for kobject '%s'",
					     grp->name, kobject_name(kobj)),
			      kobj_xasprintf("%s() at %s: '%s' has no group directory '%s' (never "
					     "created, already removed, or the object is not in "
					     "sysfs). Nothing was removed.", op, kobj_where(o, where),
					     kobject_name(kobj), grp->name));
		return;
	}
	for (int i = 0; grp->attrs && grp->attrs[i]; i++) {
		if (!dir)
			no_directory(w, kobj, grp->attrs[i]->name, o, op);
		else
			remove_named(w, dir, grp->attrs[i]->name, SYSFS_FILE);
	}
}

void (sysfs_remove_group)(struct kobject *kobj, const struct attribute_group *grp)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	if (kobj && grp)
		remove_group(w, kobj, grp, o, "sysfs_remove_group");
}

int (sysfs_create_groups)(struct kobject *kobj, const struct attribute_group **groups)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct sysfs_dirent *dir = dir_of(w, kobj);
	int err = 0, i;

	if (!groups)
		return 0;
	if (!dir) {
		not_in_sysfs(w, kobj, o, "sysfs_create_groups",
			     "fs/sysfs/group.c internal_create_group");
		return -EINVAL;
	}
	for (i = 0; groups[i] && !err; i++)
		err = create_group(w, kobj, dir, groups[i], o, "sysfs_create_groups");
	for (i -= 2; err && i >= 0; i--) /* undo the groups before the one that failed */
		remove_group(w, kobj, groups[i], o, "sysfs_create_groups");
	return err;
}

void (sysfs_remove_groups)(struct kobject *kobj, const struct attribute_group **groups)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	for (int i = 0; kobj && groups && groups[i]; i++)
		remove_group(w, kobj, groups[i], o, "sysfs_remove_groups");
}

int kobj_sysfs_create_default_groups(struct kobj_world *w, struct kobject *kobj,
				     struct sysfs_dirent *dir, const struct attribute_group **groups,
				     struct kobj_origin o, const char *op)
{
	int err = 0;
	for (int i = 0; groups[i] && !err; i++)
		err = create_group(w, kobj, dir, groups[i], o, op);
	return err; /* the caller removes the directory, and with it every group */
}

int kobj_sysfs_create_default_attrs(struct kobj_world *w, struct kobject *kobj,
				    struct sysfs_dirent *dir, struct attribute **attrs,
				    struct kobj_origin o, const char *op)
{
	int err = 0;
	for (int i = 0; attrs[i] && !err; i++)
		err = create_file(w, kobj, dir, attrs[i], o, op, NULL);
	return err;
}

/* ============================================================================== links */

int (sysfs_create_link)(struct kobject *kobj, struct kobject *target, const char *name)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct sysfs_dirent *dir = kobj ? dir_of(w, kobj) : kobj_sysfs_root(w);
	struct kobj_record *t = target ? kobj_live(w, target) : NULL;
	int err = 0;

	if (!dir)
		return -EFAULT;
	if (!t || !t->in_sysfs || !t->dir)
		return -ENOENT;
	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	if (kobj_sysfs_add_link(w, dir, name, t->id, &err))
		return 0;
	return err == -EEXIST ? duplicate(w, kobj, dir, name, o, "sysfs_create_link") : err;
}

void (sysfs_remove_link)(struct kobject *kobj, const char *name)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct sysfs_dirent *dir = kobj ? dir_of(w, kobj) : kobj_sysfs_root(w);

	if (!name)
		return;
	if (!dir) {
		no_directory(w, kobj, name, o, "sysfs_remove_link");
		return;
	}
	remove_named(w, dir, name, SYSFS_LINK);
}

/* ========================================================================= sysfs_emit */

/* A show() must write into the page it was lent, which starts on a page boundary. */
static bool bad_page(struct kobj_world *w, const char *buf, int at, struct kobj_origin o,
		     const char *op)
{
	char p[17], where[256];

	if (buf && !((uintptr_t)buf & (PAGE_SIZE - 1)) && at >= 0 && at < PAGE_SIZE)
		return false;
	kobj_diag_add(w, KOBJ_DIAG_BAD_SYSFS_EMIT, 0, o,
		      strcmp(op, "sysfs_emit") == 0
			      ? kobj_xasprintf("invalid sysfs_emit: buf:%s",
					       kobj_unknown_pointer(w, buf, p))
			      : kobj_xasprintf("invalid sysfs_emit_at: buf:%s at:%d",
					       kobj_unknown_pointer(w, buf, p), at),
		      kobj_xasprintf("%s() at %s was not given the page a show() method "
				     "receives (%s). It wrote nothing and returned 0.", op,
				     kobj_where(o, where),
				     at < 0 || at >= PAGE_SIZE ? "the offset is outside the page"
							       : "not the start of a page"));
	return true;
}

/* vscnprintf(): the bytes actually written, never more than fit. */
static int emit(char *buf, size_t room, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, room, fmt, ap);
	if (n < 0)
		return 0;
	return (size_t)n < room ? n : (int)room - 1;
}

int (sysfs_emit)(char *buf, const char *fmt, ...)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	va_list ap;

	if (bad_page(w, buf, 0, o, "sysfs_emit"))
		return 0;
	va_start(ap, fmt);
	int n = emit(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

int (sysfs_emit_at)(char *buf, int at, const char *fmt, ...)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	va_list ap;

	if (bad_page(w, buf, at, o, "sysfs_emit_at"))
		return 0;
	va_start(ap, fmt);
	int n = emit(buf + at, (size_t)(PAGE_SIZE - at), fmt, ap);
	va_end(ap);
	return n;
}
