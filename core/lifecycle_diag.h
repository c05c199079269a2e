/*
 * The diagnostics both eras' lifecycles report (kobject.c for 2.6.0, modern.c for today's):
 * the kernel prints the same line in both, so one function writes it. Where the sandbox's
 * explanation differs between the eras, @modern picks today's wording; the checks
 * themselves are the same.
 */
#ifndef KOBJ_LIFECYCLE_DIAG_H
#define KOBJ_LIFECYCLE_DIAG_H

#include "core/world_internal.h"

/* --------------------------------------------------------------------------- init */

/* NULL, a missing ktype (today's init only), or an object already initialised.
 * Return: true if @kobj may be initialised; otherwise one diagnostic says why not. */
bool kobj_init_allowed(struct kobj_world *w, struct kobject *kobj,
		       const struct kobj_type *ktype, bool modern, struct kobj_origin o,
		       const char *op);

/* ----------------------------------------------------------------- released objects */

/* Refuses @op on @r (NULL: no record) if it was released, reporting a use after free
 * without touching the object's memory. Return: true if refused. */
bool kobj_refuse_released(struct kobj_world *w, const struct kobj_record *r,
			  struct kobj_origin o, const char *op);
/* A get on a released object ("refcount_t: addition on 0; use-after-free."). */
void kobj_report_get_released(struct kobj_world *w, const struct kobj_record *r,
			      struct kobj_origin o, const char *op, bool modern);
/* A put on a released object: a double put. */
void kobj_report_put_released(struct kobj_world *w, const struct kobj_record *r,
			      struct kobj_origin o, const char *op);
/* The last put of an object whose ktype has no release(); marks it leaked. */
void kobj_report_no_release(struct kobj_world *w, struct kobj_record *r, struct kobj_origin o,
			    bool modern);

/* ---------------------------------------------------------------------------- add */

/* kobject_add() of an object kobject_init() never saw. */
void kobj_report_add_uninit(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
			    const char *op, bool modern);
/* kobject_add() of an object already in sysfs (the caller returns -EEXIST). */
void kobj_report_added_twice(struct kobj_world *w, const struct kobj_record *r,
			     struct kobj_origin o, const char *op, bool modern);
/* kobject_add() of an object with an empty name (the caller returns -EINVAL). */
void kobj_report_empty_name(struct kobj_world *w, const struct kobj_record *r,
			    struct kobj_origin o, const char *op, bool modern);
/* The kset @r joins must be a live kset; Return: 0 or -EINVAL with a diagnostic. */
int kobj_check_kset(struct kobj_world *w, const struct kobj_record *r, struct kset *kset,
		    struct kobj_origin o, const char *op, bool modern);
/* The parent must have a directory; Return: 0 or -ENOENT with a diagnostic. */
int kobj_check_parent(struct kobj_world *w, const struct kobj_record *r, struct kobject *parent,
		      struct kobj_origin o, const char *op, bool modern);
/* A directory kobject_add() could not make, in /sys@ppath: the kernel's line for @err
 * (-EEXIST: a duplicate name), with the caller's @explanation (malloc'd, taken over). */
void kobj_report_dir_failed(struct kobj_world *w, const struct kobj_record *r,
			    struct kobject *parent, const char *ppath, int err,
			    struct kobj_origin o, char *explanation);

#endif
