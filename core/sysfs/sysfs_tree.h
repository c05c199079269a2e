/*
 * The sysfs tree as the model builds it (core/model): entries made, removed, renamed and
 * moved. Nothing here reports a diagnostic: the callers do, in the kernel's words.
 */
#ifndef KOBJ_SYSFS_TREE_H
#define KOBJ_SYSFS_TREE_H

#include "core/sysfs/sysfs.h"
#include "core/world/world_internal.h"

/* The root, made on first use. */
struct sysfs_dirent *kobj_sysfs_root(struct kobj_world *w);
/**
 * kobj_sysfs_add() - a new entry @name in @dir
 * @obj, @kobj: the object it belongs to; @attr: a file's attribute; @mode: a file's mode
 * @object_dir: true for an object's own directory
 * Return: the entry, or NULL with *@err = -EEXIST (name taken) or -ENOMEM.
 */
struct sysfs_dirent *kobj_sysfs_add(struct kobj_world *w, struct sysfs_dirent *dir,
				    const char *name, enum sysfs_type type, unsigned obj,
				    struct kobject *kobj, struct attribute *attr, unsigned mode,
				    int object_dir, int *err);
/* A link @name in @dir to the directory of object @target (which must have one). */
struct sysfs_dirent *kobj_sysfs_add_link(struct kobj_world *w, struct sysfs_dirent *dir,
					 const char *name, unsigned owner, unsigned target,
					 int *err);
/* Marks the file @d as a binary attribute's. */
void kobj_sysfs_set_bin(struct sysfs_dirent *d);
/* Counts a sysfs_notify() of @d (a file or directory). */
void kobj_sysfs_notify(struct sysfs_dirent *d);
/* The entry @name in @dir, or NULL. */
struct sysfs_dirent *kobj_sysfs_find(const struct kobj_world *w, const struct sysfs_dirent *dir,
				     const char *name);
/* Removes @d and everything below it; objects whose directories go with it are told
 * through the hook set with kobj_sysfs_on_dir_gone(). */
void kobj_sysfs_remove(struct kobj_world *w, struct sysfs_dirent *d);
/* Rename and/or move @d; Return: 0, -EEXIST, or -EINVAL (into its own subtree). */
int kobj_sysfs_rename(struct kobj_world *w, struct sysfs_dirent *d,
		      struct sysfs_dirent *new_parent, const char *new_name);
struct sysfs_dirent *kobj_sysfs_parent_of(struct sysfs_dirent *d);
/* "/a/b" (no /sys prefix; "/" for the root), malloc'd with kobj_xmalloc. */
char *kobj_sysfs_path_of(const struct sysfs_dirent *d);
/* Called when an object's directory is removed because an ancestor's was. */
void kobj_sysfs_on_dir_gone(struct kobj_world *w,
			    void (*fn)(struct kobj_world *w, unsigned obj, struct sysfs_dirent *d));

#endif
