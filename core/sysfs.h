/*
 * The virtual sysfs: a directory per added kobject under its parent's (top level under
 * /sys), a file per default attribute. Paths may be given with or without "/sys".
 * Today's API adds attribute files and groups (a named group is a subdirectory) and
 * symbolic links (sysfs_attr.h); a lookup through a link continues at its target.
 */
#ifndef KOBJ_SYSFS_H
#define KOBJ_SYSFS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct kobj_world;
struct kobject;
struct attribute;

enum sysfs_type { SYSFS_DIR, SYSFS_FILE, SYSFS_LINK };

struct sysfs_dirent;

/* sysfs_lookup() - Return: the entry at @path, or NULL. */
const struct sysfs_dirent *sysfs_lookup(const struct kobj_world *w, const char *path);
enum sysfs_type sysfs_dirent_type(const struct sysfs_dirent *d);
const char *sysfs_dirent_name(const struct sysfs_dirent *d);
/* The kobject a directory, file or link belongs to (NULL for /sys and its own links). */
struct kobject *sysfs_dirent_kobj(const struct sysfs_dirent *d);
/**
 * sysfs_dirent_link_target() - where a link points
 * Return: the target's directory; NULL if @d is not a link or the target's directory is
 * gone (a link stays, dangling, until its owner removes it, as in sysfs).
 */
const struct sysfs_dirent *sysfs_dirent_link_target(const struct kobj_world *w,
						    const struct sysfs_dirent *d);
/* The path the link pointed to when it was made ("/sys/a/b"); NULL if not a link. */
const char *sysfs_dirent_link_path(const struct sysfs_dirent *d);
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
 *
 * show() writes into a page-aligned page of PAGE_SIZE bytes; a count of PAGE_SIZE or
 * more is reported ("fill_read_buffer: ... returned bad count") and cut to PAGE_SIZE - 1.
 * Return: the byte count (@buf NUL-terminated, at most @size - 1 bytes), what show()
 * returned if negative, or -ENOENT, -EISDIR, -EIO (no show method).
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
