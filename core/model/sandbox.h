/*
 * Calls of the sandbox's own, beside the kernel's: reference handles (a reference named
 * by a token, so that a put drops exactly it), names for ktypes in pictures, and what
 * the layers above need to know while the model runs. Included by core/model/kobject.h.
 */
#ifndef KOBJ_SANDBOX_H
#define KOBJ_SANDBOX_H

#include <stdbool.h>

struct kobject;
struct kobj_world;
struct kobj_type;

/* kobj_last_ref() - a token for the reference the last call took (get, init, lookup). */
unsigned long long kobj_last_ref(const struct kobj_world *w);
/* kobj_next_put() - the next put (kobject_put, kset_put, subsys_put...) drops exactly the
 * reference @token names; one already dropped is reported as a put twice through the
 * same reference, and ignored. */
void kobj_next_put(struct kobj_world *w, unsigned long long token);
/* kobj_ref_track() - mark the reference carried by a handle (plain puts pick it last). */
void kobj_ref_track(struct kobj_world *w, unsigned long long token, unsigned obj, bool on);
/* kobj_ref_outstanding() - whether the reference @token names is still held. */
bool kobj_ref_outstanding(const struct kobj_world *w, unsigned long long token, unsigned obj);

/**
 * kobj_use_after_release() - a get or put through a stale handle, reported as the kernel
 * would (refcount_t: addition on 0 / underflow) without touching the freed object
 * @op: "kobject_get" or "kobject_put" (or kset_/subsys_ variants)
 */
void kobj_use_after_release(struct kobj_world *w, unsigned id, const char *op);

/* Give a ktype the name pictures and trees show (unnamed ones are "ktype 1", ...). */
void kobj_world_name_ktype(struct kobj_world *w, const struct kobj_type *ktype,
			   const char *name);
/* The name given with kobj_world_name_ktype(), or NULL. */
const char *kobj_ktype_name(const struct kobj_world *w, const struct kobj_type *ktype);
/* The kernel's name of a ktype the model itself provides ("dynamic_kobj_ktype",
 * "kset_ktype"), or NULL. */
const char *kobj_ktype_kernel_name(const struct kobj_type *ktype);

/* kobj_world_in_callback() - a release, show, store or event callback is running. */
bool kobj_world_in_callback(const struct kobj_world *w);

#endif
