/*
 * The virtual sysfs: a directory per added kobject under its parent's (top level under
 * /sys), a file per default attribute. Paths may be given with or without "/sys".
 */
#ifndef KOBJ_SYSFS_H
#define KOBJ_SYSFS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct kobj_world;
struct kobject;
struct attribute;

enum sysfs_type { SYSFS_DIR, SYSFS_FILE };

struct sysfs_dirent;

/* sysfs_lookup() - Return: the entry at @path, or NULL. */
const struct sysfs_dirent *sysfs_lookup(const struct kobj_world *w, const char *path);
enum sysfs_type sysfs_dirent_type(const struct sysfs_dirent *d);
const char *sysfs_dirent_name(const struct sysfs_dirent *d);
/* The kobject a directory or file belongs to (NULL for /sys itself). */
struct kobject *sysfs_dirent_kobj(const struct sysfs_dirent *d);
struct attribute *sysfs_dirent_attr(const struct sysfs_dirent *d);
/* Writes "/sys/a/b" into @buf; Return: the length it needs (like snprintf). */
size_t sysfs_dirent_path(const struct sysfs_dirent *d, char *buf, size_t size);

/**
 * sysfs_list() - the entries of a directory, sorted by name
 * Return: the number of entries; *@out is a malloc'd array the caller frees (NULL when
 * empty). -ENOENT if @path does not exist, -ENOTDIR if it is a file.
 */
long sysfs_list(const struct kobj_world *w, const char *path,
		const struct sysfs_dirent ***out);

/**
 * sysfs_read() - read an attribute file through its ktype's sysfs_ops->show
 * Return: the byte count (@buf NUL-terminated, at most @size - 1 bytes), or -ENOENT,
 * -EISDIR, -EIO (no show method).
 */
ssize_t sysfs_read(const struct kobj_world *w, const char *path, char *buf, size_t size);
/* sysfs_write() - Return: what store() returns, or -ENOENT, -EISDIR, -EIO. */
ssize_t sysfs_write(const struct kobj_world *w, const char *path, const char *buf,
		    size_t count);

/*
 * sysfs_print_tree() - like `tree`: the subtree at @path with each object's kind,
 * refcount and named ktype, and "!" after objects a diagnostic named.
 * Return: 0, or -ENOENT.
 */
int sysfs_print_tree(const struct kobj_world *w, const char *path, FILE *out);
/* sysfs_print_tree_color() - the same with ANSI colours, for a terminal. */
int sysfs_print_tree_color(const struct kobj_world *w, const char *path, FILE *out);

#endif
