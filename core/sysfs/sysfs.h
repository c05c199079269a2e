/*
 * The virtual sysfs, read side: a directory per added kobject under its parent's (top
 * level under /sys), files for attributes, subdirectories for named attribute groups,
 * symbolic links. Paths may be given with or without "/sys". A lookup through a link
 * continues at its target. Reading and writing files goes through the object's ktype
 * (core/model/kobject.h: sysfs_read, sysfs_write).
 */
#ifndef KOBJ_SYSFS_H
#define KOBJ_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

struct kobj_world;
struct kobject;
struct attribute;

enum sysfs_type { SYSFS_DIR, SYSFS_FILE, SYSFS_LINK };

struct sysfs_dirent;

/* sysfs_lookup() - Return: the entry at @path, or NULL. */
const struct sysfs_dirent *sysfs_lookup(const struct kobj_world *w, const char *path);
/* The root, /sys. */
const struct sysfs_dirent *sysfs_root(const struct kobj_world *w);
enum sysfs_type sysfs_dirent_type(const struct sysfs_dirent *d);
const char *sysfs_dirent_name(const struct sysfs_dirent *d);
/* The record id of the object a directory, file or link belongs to (0 for /sys). */
unsigned sysfs_dirent_obj(const struct sysfs_dirent *d);
/* The kobject a directory, file or link belongs to (NULL for /sys and its own links). */
struct kobject *sysfs_dirent_kobj(const struct sysfs_dirent *d);
/* Whether @d is an object's own directory (not a named group's). */
int sysfs_dirent_is_object(const struct sysfs_dirent *d);
/* The mode a file was created with (0444, 0644...), 0 for directories and links. */
unsigned sysfs_dirent_mode(const struct sysfs_dirent *d);
/* The file's struct attribute (a bin_attribute's embedded one for a binary file). */
struct attribute *sysfs_dirent_attr(const struct sysfs_dirent *d);
/* Whether @d is a binary file (sysfs_create_bin_file, a group's bin_attrs). */
int sysfs_dirent_is_bin(const struct sysfs_dirent *d);
/* How many times sysfs_notify() named @d: the event count a poll()ing reader compares. */
unsigned sysfs_dirent_events(const struct sysfs_dirent *d);
/* The parent directory, NULL for /sys. */
const struct sysfs_dirent *sysfs_dirent_parent(const struct sysfs_dirent *d);
/**
 * sysfs_dirent_link_target() - where a link points
 * Return: the target's directory; NULL if @d is not a link or the target's directory is
 * gone (a link stays, dangling, until its owner removes it, as in sysfs).
 */
const struct sysfs_dirent *sysfs_dirent_link_target(const struct kobj_world *w,
						    const struct sysfs_dirent *d);
/* The record id of a link's target object (0 if @d is not a link). */
unsigned sysfs_dirent_link_obj(const struct sysfs_dirent *d);
/*
 * sysfs_dirent_link_path() - what readlink shows: "/sys/..." of the target as it is now,
 * or, once the target's directory is gone, where it was when the link was made.
 * Return: the length it needs (like snprintf); 0 if @d is not a link.
 */
size_t sysfs_dirent_link_path(const struct kobj_world *w, const struct sysfs_dirent *d,
			      char *buf, size_t size);
/* Writes "/sys/a/b" into @buf; Return: the length it needs (like snprintf). */
size_t sysfs_dirent_path(const struct sysfs_dirent *d, char *buf, size_t size);
/* The number of entries in directory @d. */
size_t sysfs_dirent_count(const struct sysfs_dirent *d);
/**
 * sysfs_list() - the entries of a directory, sorted by name
 * Return: the number of entries; *@out is a malloc'd array the caller frees with free()
 * (NULL when empty). -ENOENT if @path does not exist, -ENOTDIR if it is a file.
 */
long sysfs_list(const struct kobj_world *w, const char *path,
		const struct sysfs_dirent ***out);
/* sysfs_children() - the same for a directory entry, in creation order when @sorted is 0. */
size_t sysfs_children(const struct sysfs_dirent *d, int sorted,
		      const struct sysfs_dirent ***out);

#endif
