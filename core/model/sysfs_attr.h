/*
 * Today's sysfs attributes, binary attributes, groups and links (include/linux/sysfs.h,
 * include/linux/kobject.h), sysfs_notify(), plus the helpers a show() or store() uses:
 * sysfs_emit() (formatted by the kernel's printf, vsprintf.h) and kstrtoint(). Included
 * by core/kobject.h.
 *
 * A struct kobj_attribute embeds the struct attribute sysfs knows; kobj_sysfs_ops, the
 * sysfs_ops of kobject_create_and_add()'s objects, finds it with container_of and calls
 * its show() or store() (-EIO if there is none). sysfs_read() and sysfs_write() (sysfs.h)
 * go through the file's ktype's sysfs_ops, so a store() error reaches the writer.
 *
 * A struct bin_attribute is a file of bytes with its own read() and write(), called with
 * an offset and a count as fs/sysfs/file.c calls them: no sysfs_ops, no page to fill.
 * A non-zero size bounds it: a read from the end or beyond returns 0 (end of file), a
 * write there fails with -EFBIG, and both are cut to end at the size. A file whose
 * attribute has no read() cannot be read (-EACCES), nor one without write() written.
 */
#ifndef KOBJ_SYSFS_ATTR_H
#define KOBJ_SYSFS_ATTR_H

#include <limits.h>
#include <sys/types.h>

#include <stdbool.h>

#include "core/model/completion.h"
#include "core/model/kobject.h"
#include "core/model/vsprintf.h"

/* A file offset: the C library's own loff_t type where it has one (glibc's __loff_t), so
 * that <linux/types.h> can name it loff_t; 64 bits, as the kernel's. */
#ifdef __GLIBC__
typedef __loff_t kobj_loff_t;
#else
typedef long long kobj_loff_t;
#endif

/* The kernel's page, whatever the C library calls a page (WebAssembly's are 64 KiB):
 * <limits.h> comes first so that it cannot redefine it later. */
#undef PAGE_SIZE
#define PAGE_SIZE 4096

typedef unsigned short umode_t;

struct kobj_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kobject *kobj, struct kobj_attribute *attr, char *buf);
	ssize_t (*store)(struct kobject *kobj, struct kobj_attribute *attr, const char *buf,
			 size_t count);
};

/* Calls the kobj_attribute's show() or store(); -EIO when it has none. */
extern const struct sysfs_ops kobj_sysfs_ops;

/*
 * VERIFY_OCTAL_PERMISSIONS() - the kernel refuses these modes at build time, and so does
 * the compiler here: at most 0777, user bits >= group bits >= other bits for reading,
 * user >= group for writing, and never writable by others.
 */
#define VERIFY_OCTAL_PERMISSIONS(perms)                                                  \
	((perms) + 0 * sizeof(struct {                                                   \
		_Static_assert((perms) >= 0 && (perms) <= 0777,                          \
			       "sysfs modes are at most 0777");                          \
		_Static_assert((((perms) >> 6) & 4) >= (((perms) >> 3) & 4) &&           \
			       (((perms) >> 3) & 4) >= ((perms) & 4),                    \
			       "USER_READABLE >= GROUP_READABLE >= OTHER_READABLE");     \
		_Static_assert((((perms) >> 6) & 2) >= (((perms) >> 3) & 2),             \
			       "USER_WRITABLE >= GROUP_WRITABLE");                       \
		_Static_assert(!((perms) & 2),                                           \
			       "sysfs attributes cannot be world-writable");             \
		char c;                                                                  \
	}))

/* __stringify(): the name as the kernel's macros quote it, macros expanded first */
#define KOBJ_STRINGIFY_(...) #__VA_ARGS__
#define KOBJ_STRINGIFY(...) KOBJ_STRINGIFY_(__VA_ARGS__)

#define __ATTR(_name, _mode, _show, _store) {                                            \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = VERIFY_OCTAL_PERMISSIONS(_mode) }, \
	.show = _show,                                                                   \
	.store = _store,                                                                 \
}
#define __ATTR_RO(_name) {                                                               \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = 0444 }, .show = _name##_show }
#define __ATTR_WO(_name) {                                                               \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = 0200 }, .store = _name##_store }
#define __ATTR_RO_MODE(_name, _mode) {                                                   \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = VERIFY_OCTAL_PERMISSIONS(_mode) }, \
	.show = _name##_show }
#define __ATTR_RW_MODE(_name, _mode) {                                                   \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = VERIFY_OCTAL_PERMISSIONS(_mode) }, \
	.show = _name##_show, .store = _name##_store }
#define __ATTR_RW(_name) __ATTR(_name, 0644, _name##_show, _name##_store)
#define __ATTR_NULL { .attr = { .name = NULL } }

/* Lockdep's key for an attribute made at run time: nothing to do here. */
#define sysfs_attr_init(attr) ((void)(attr))

struct file;
struct address_space;
struct vm_area_struct;

/*
 * A file of bytes: read() and write() get the offset and count user space asked for,
 * and a NULL file (the sandbox has no open files). There is no mmap here: f_mapping
 * and mmap are accepted and never called.
 */
struct bin_attribute {
	struct attribute attr;
	size_t size;              /* 0: no bound */
	void *private;
	struct address_space *(*f_mapping)(void);
	ssize_t (*read)(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
			char *buf, kobj_loff_t off, size_t count);
	ssize_t (*write)(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
			 char *buf, kobj_loff_t off, size_t count);
	int (*mmap)(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
		    struct vm_area_struct *vma);
};

#define sysfs_bin_attr_init(bin_attr) sysfs_attr_init(&(bin_attr)->attr)

#define __BIN_ATTR(_name, _mode, _read, _write, _size) {                                 \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = _mode },                        \
	.read = _read, .write = _write, .size = _size,                                   \
}
#define __BIN_ATTR_RO(_name, _size) {                                                    \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = 0444 },                         \
	.read = _name##_read, .size = _size,                                             \
}
#define __BIN_ATTR_WO(_name, _size) {                                                    \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = 0200 },                         \
	.write = _name##_write, .size = _size,                                           \
}
#define __BIN_ATTR_RW(_name, _size) __BIN_ATTR(_name, 0644, _name##_read, _name##_write, _size)
#define __BIN_ATTR_ADMIN_RO(_name, _size) {                                              \
	.attr = { .name = KOBJ_STRINGIFY(_name), .mode = 0400 },                         \
	.read = _name##_read, .size = _size,                                             \
}
#define __BIN_ATTR_ADMIN_RW(_name, _size)                                                \
	__BIN_ATTR(_name, 0600, _name##_read, _name##_write, _size)
#define __BIN_ATTR_NULL __ATTR_NULL

#define BIN_ATTR(_name, _mode, _read, _write, _size)                                     \
	struct bin_attribute bin_attr_##_name = __BIN_ATTR(_name, _mode, _read, _write, _size)
#define BIN_ATTR_RO(_name, _size)                                                        \
	struct bin_attribute bin_attr_##_name = __BIN_ATTR_RO(_name, _size)
#define BIN_ATTR_WO(_name, _size)                                                        \
	struct bin_attribute bin_attr_##_name = __BIN_ATTR_WO(_name, _size)
#define BIN_ATTR_RW(_name, _size)                                                        \
	struct bin_attribute bin_attr_##_name = __BIN_ATTR_RW(_name, _size)
#define BIN_ATTR_ADMIN_RO(_name, _size)                                                  \
	struct bin_attribute bin_attr_##_name = __BIN_ATTR_ADMIN_RO(_name, _size)
#define BIN_ATTR_ADMIN_RW(_name, _size)                                                  \
	struct bin_attribute bin_attr_##_name = __BIN_ATTR_ADMIN_RW(_name, _size)

struct attribute_group {
	const char *name; /* NULL: files go in the object's directory; else a subdirectory */
	/* Return 0 to hide attribute @n, or the mode to give it. */
	umode_t (*is_visible)(struct kobject *kobj, struct attribute *attr, int n);
	umode_t (*is_bin_visible)(struct kobject *kobj, struct bin_attribute *attr, int n);
	struct attribute **attrs;            /* NULL-terminated */
	struct bin_attribute **bin_attrs;    /* NULL-terminated; made after attrs */
};

/* ATTRIBUTE_GROUPS(foo) - from foo_attrs[], foo_group and the list foo_groups[]. */
#define __ATTRIBUTE_GROUPS(_name)                                                        \
	static const struct attribute_group *_name##_groups[] = { &_name##_group, NULL, }
#define ATTRIBUTE_GROUPS(_name)                                                          \
	static const struct attribute_group _name##_group = { .attrs = _name##_attrs, };   \
	__ATTRIBUTE_GROUPS(_name)
/* BIN_ATTRIBUTE_GROUPS(foo) - the same from foo_attrs[] of binary attributes. */
#define BIN_ATTRIBUTE_GROUPS(_name)                                                      \
	static const struct attribute_group _name##_group = { .bin_attrs = _name##_attrs, }; \
	__ATTRIBUTE_GROUPS(_name)

/**
 * sysfs_create_file() - one attribute file in @kobj's directory
 * Return: 0; -EINVAL (NULL argument, object not in sysfs, or no sysfs_ops in its ktype:
 * both warned); -EEXIST ("sysfs: cannot create duplicate filename"); -ENOMEM.
 */
int sysfs_create_file(struct kobject *kobj, const struct attribute *attr);
/* sysfs_remove_file() - remove a file by name; a missing one is ignored. */
void sysfs_remove_file(struct kobject *kobj, const struct attribute *attr);

/**
 * sysfs_create_bin_file() - a binary file for @attr in @kobj's directory
 * Return: 0; -EINVAL (NULL argument or object not in sysfs: warned); -EEXIST ("sysfs:
 * cannot create duplicate filename"); -ENOMEM.
 */
int sysfs_create_bin_file(struct kobject *kobj, const struct bin_attribute *attr);
/* sysfs_remove_bin_file() - remove a binary file by name; a missing one is ignored. */
void sysfs_remove_bin_file(struct kobject *kobj, const struct bin_attribute *attr);

/**
 * sysfs_notify() - tell pollers of the file @attr (in @kobj's subdirectory @dir when it
 * is not NULL; the directory itself when @attr is NULL) that it changed
 *
 * The entry's event count goes up (sysfs_dirent_events(): what poll() compares) and the
 * log shows a sysfs_notify event. A name that is not there is ignored, as in the kernel.
 */
void sysfs_notify(struct kobject *kobj, const char *dir, const char *attr);

/**
 * sysfs_read_at() - read(2) of @count bytes at @pos of the file at @path
 *
 * A binary file calls its read() with them; an attribute file is shown into its page
 * and the bytes from @pos returned. Nothing is NUL-terminated. One call moves at most
 * PAGE_SIZE bytes, as kernfs does.
 * Return: the bytes read (0 at the end), or -ENOENT, -EISDIR, -EACCES, -EIO, or what
 * show() or read() returned.
 */
ssize_t sysfs_read_at(const struct kobj_world *w, const char *path, char *buf, size_t count,
		      kobj_loff_t pos);
/**
 * sysfs_write_at() - write(2) of @count bytes at @pos to the file at @path
 * A binary file's write() gets them (-EFBIG at or past a non-zero size); an attribute's
 * store() gets them whatever @pos, as sysfs does. Return: as sysfs_write().
 */
ssize_t sysfs_write_at(const struct kobj_world *w, const char *path, const char *buf,
		       size_t count, kobj_loff_t pos);

/**
 * sysfs_create_group() - the files of @grp, in a subdirectory if the group is named
 *
 * is_visible() and is_bin_visible() may hide a file (0) or change its mode; a mode
 * outside 0664 is warned. Binary attributes follow the others.
 * Return: 0; -EINVAL (object not in sysfs, group with neither attrs nor bin_attrs, no
 * sysfs_ops for attrs); -EEXIST; -ENOMEM. On failure nothing of the group remains.
 */
int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp);
/* sysfs_remove_group() - remove what sysfs_create_group() made; a missing named group is
 * warned ("sysfs group '%s' not found for kobject '%s'"). */
void sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp);
/* sysfs_create_groups() - each group of a NULL-terminated list; on failure the groups
 * already made are removed. Return: as sysfs_create_group(); 0 for a NULL list. */
int sysfs_create_groups(struct kobject *kobj, const struct attribute_group **groups);
void sysfs_remove_groups(struct kobject *kobj, const struct attribute_group **groups);

/**
 * sysfs_create_link() - a symbolic link @name in @kobj's directory (NULL: /sys) to
 * @target's directory
 *
 * Lookups through the link continue at the target; if the target's directory goes, the
 * link stays and leads nowhere (it is found by the target's record, never by address).
 * Return: 0; -EFAULT (@kobj not in sysfs); -ENOENT (@target not in sysfs); -EINVAL (no
 * name); -EEXIST (name taken, warned); -ENOMEM.
 */
int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name);
/* sysfs_remove_link() - remove the link @name from @kobj's directory (NULL: /sys). */
void sysfs_remove_link(struct kobject *kobj, const char *name);

/**
 * sysfs_emit() - printf into the page a show() was given
 * Return: the bytes written (at most PAGE_SIZE - 1); 0 with the kernel's warning if @buf
 * is not the start of a page ("invalid sysfs_emit: buf:%p").
 */
int sysfs_emit(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* sysfs_emit_at() - the same at offset @at of the page (0 <= @at < PAGE_SIZE). */
int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kstrtoint() - parse an integer the way store() methods do
 * @base: 0 (prefix 0x or 0 chooses 16 or 8), or 2..16
 *
 * An optional sign, digits, at most one trailing newline, nothing else.
 * Return: 0 with *@res set; -EINVAL for anything else; -ERANGE if it does not fit.
 */
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
/* kstrtobool() - "1", "y", "t", "on" (any case) are true; "0", "n", "f", "off" false.
 * Return: 0 with *@res set, or -EINVAL. */
int kstrtobool(const char *s, bool *res);

#define sysfs_create_file(k, a)         KOBJ_CALL((sysfs_create_file)(k, a))
#define sysfs_remove_file(k, a)         KOBJ_CALL((sysfs_remove_file)(k, a))
#define sysfs_create_group(k, g)        KOBJ_CALL((sysfs_create_group)(k, g))
#define sysfs_remove_group(k, g)        KOBJ_CALL((sysfs_remove_group)(k, g))
#define sysfs_create_groups(k, g)       KOBJ_CALL((sysfs_create_groups)(k, g))
#define sysfs_remove_groups(k, g)       KOBJ_CALL((sysfs_remove_groups)(k, g))
#define sysfs_create_bin_file(k, a)     KOBJ_CALL((sysfs_create_bin_file)(k, a))
#define sysfs_remove_bin_file(k, a)     KOBJ_CALL((sysfs_remove_bin_file)(k, a))
#define sysfs_notify(k, d, a)           KOBJ_CALL((sysfs_notify)(k, d, a))
#define sysfs_create_link(k, t, n)      KOBJ_CALL((sysfs_create_link)(k, t, n))
#define sysfs_remove_link(k, n)         KOBJ_CALL((sysfs_remove_link)(k, n))
#define sysfs_emit(...)                 KOBJ_CALL((sysfs_emit)(__VA_ARGS__))
#define sysfs_emit_at(...)              KOBJ_CALL((sysfs_emit_at)(__VA_ARGS__))

#endif
