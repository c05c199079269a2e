/*
 * What the files of today's API (modern.c, uevent.c, sysfs_attr.c, kref.c, debug.c) share
 * with each other and with the core's hooks (kobject.c, kset.c, sysfs.c, slab.c, world.c).
 */
#ifndef KOBJ_MODERN_INTERNAL_H
#define KOBJ_MODERN_INTERNAL_H

#include <stdarg.h>

#include "core/world_internal.h"

/* A cleanup queued by KOBJ_DEBUG_RELEASE. */
struct kobj_pending {
	unsigned id;               /* the object's record */
	struct kobject *kobj;      /* its memory: touched only while it is not freed */
	unsigned long due;         /* tick when it runs */
	unsigned long order;       /* queue order, so equal deadlines run first-in first */
	struct kobj_origin put_at; /* the last put */
	bool freed;                /* kfree()d before it ran: it will only report */
};

/* The world's state for today's API, made on first use. */
struct kobj_modern {
	unsigned debug;            /* KOBJ_DEBUG_* */
	unsigned long now;         /* ticks */
	long release_delay;        /* 0: pseudo-random HZ..4*HZ */
	unsigned long long rng;
	unsigned long next_order;
	struct kobj_pending *pending;
	size_t npending, pending_cap;
	struct kobj_trace *trace;
	size_t ntrace, trace_cap;
	unsigned long long uevent_seqnum;
	struct kobject *sys_kernel; /* /sys/kernel, valid while record kernel_id lives */
	unsigned kernel_id;
};

/* The world's today's-API state, made if missing. */
struct kobj_modern *kobj_modern(struct kobj_world *w);
/* Runs the delayed releases and frees /sys/kernel and the state (kobj_world_free). */
void kobj_modern_teardown(struct kobj_world *w);
bool kobj_debugging(const struct kobj_world *w, unsigned flag);

/* A kernel log line; KOBJ_LOGLEVEL_DEBUG lines only with KOBJ_DEBUG_KOBJECT. */
void kobj_trace(struct kobj_world *w, enum kobj_loglevel level, unsigned obj,
		struct kobj_origin o, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The "%p" the kernel would print for @kobj: its record's, or a stable unknown one. */
const char *kobj_ptr(struct kobj_world *w, const void *kobj, char buf[17]);

/* The ktype the sysfs files of @kobj use: today's objects their own, 2.6.0's get_ktype. */
const struct kobj_type *kobj_ktype_of(const struct kobj_world *w, struct kobject *kobj);

/* ------------------------------------------------- hooks for the article's functions */

/* Return: @kobj (also when the count saturates), or NULL if it was released. */
struct kobject *kobj_modern_get(struct kobj_world *w, struct kobject *kobj,
				struct kobj_record *r, struct kobj_origin o, const char *op,
				unsigned holder);
/* Return: the parent to put next (with *@holder set to this object), or NULL. */
struct kobject *kobj_modern_put(struct kobj_world *w, struct kobject *kobj,
				struct kobj_record *r, struct kobj_origin o, const char *op,
				unsigned *holder);
int kobj_modern_add(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		    struct kobj_origin o, const char *op);
void kobj_modern_del(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		     struct kobj_origin o, const char *op);
struct kobject *kobj_get_unless_zero_as(struct kobj_world *w, struct kobject *kobj,
					struct kobj_origin o, const char *op);
/* The cleanup of a count that reached 0; Return: as kobj_modern_put. */
struct kobject *kobj_modern_cleanup(struct kobj_world *w, struct kobject *kobj,
				    struct kobj_record *r, struct kobj_origin o,
				    unsigned *holder);
/* __kobject_del: out of sysfs and the kset; Return: the parent, still referenced. */
struct kobject *kobj_modern_unlink(struct kobj_world *w, struct kobject *kobj,
				   struct kobj_record *r, struct kobj_origin o, const char *op);

/* ------------------------------------------------------------------ delayed release */

/* Queues the cleanup of @r for later (KOBJ_DEBUG_RELEASE). */
void kobj_release_later(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
			struct kobj_origin o);
/* From kfree(): reports the freeing of an object whose release is queued. */
void kobj_debug_kfree(const void *p);

/* ------------------------------------------------------------------------ refcount_t */

/*
 * The arithmetic of refcount_t on a plain int, as include/linux/refcount.h does it.
 * Return: the refcount_saturation_type to report, or -1 when all is well.
 */
int kobj_rc_add(int *refs, int i);
int kobj_rc_add_not_zero(int *refs, int i, bool *added);
int kobj_rc_sub_and_test(int *refs, int i, bool *zero);
/* The kernel's line for a saturation event: "refcount_t: underflow; use-after-free." */
const char *kobj_rc_message(int event);
enum kobj_diag_kind kobj_rc_diag_kind(int event);

/* --------------------------------------------------------------------------- uevents */

int kobj_uevent_as(struct kobj_world *w, struct kobject *kobj, enum kobject_action action,
		   char *envp_ext[], struct kobj_origin o, const char *op);
/* kobject_get_path with the debug line; Return: kmalloc'd, or NULL. */
char *kobj_get_path_as(struct kobj_world *w, const struct kobject *kobj, struct kobj_origin o);

/* ----------------------------------------------------------------------------- sysfs */

struct sysfs_dirent *kobj_sysfs_find(const struct kobj_world *w, const struct sysfs_dirent *dir,
				     const char *name);
/* Return: the new entry, or NULL with *err = -EEXIST or -ENOMEM (nothing reported). */
struct sysfs_dirent *kobj_sysfs_add_entry(struct kobj_world *w, struct sysfs_dirent *dir,
					  const char *name, enum sysfs_type type,
					  struct kobject *kobj, struct attribute *attr, int *err);
struct sysfs_dirent *kobj_sysfs_add_link(struct kobj_world *w, struct sysfs_dirent *dir,
					 const char *name, unsigned target, int *err);
void kobj_sysfs_remove_entry(struct kobj_world *w, struct sysfs_dirent *d);
struct sysfs_dirent *kobj_sysfs_parent(const struct sysfs_dirent *d);
/* Rename and/or move @d; Return: 0, -EEXIST, or -EINVAL (into its own subtree). */
int kobj_sysfs_rename(struct kobj_world *w, struct sysfs_dirent *d,
		      struct sysfs_dirent *new_parent, const char *new_name);

/* Default groups of an object being added; reports what fails. Return: 0 or an error. */
int kobj_sysfs_create_default_groups(struct kobj_world *w, struct kobject *kobj,
				     struct sysfs_dirent *dir, const struct attribute_group **groups,
				     struct kobj_origin o, const char *op);
/* The article's default_attrs, for an object of today's era being added. */
int kobj_sysfs_create_default_attrs(struct kobj_world *w, struct kobject *kobj,
				    struct sysfs_dirent *dir, struct attribute **attrs,
				    struct kobj_origin o, const char *op);

#endif
