/*
 * Today's reference counts: refcount_t (5.5+ semantics) and struct kref on top of it, as
 * in include/linux/refcount.h and include/linux/kref.h. They need no kobject and no world
 * argument; a warning goes to the current world's diagnostics with the kernel's text.
 *
 * refcount_t never wraps. An increment from 0 ("addition on 0"), past INT_MAX or on a
 * negative count, and a decrement below 0 ("underflow") or a plain refcount_dec() down to 0
 * set the count to REFCOUNT_SATURATED, where it stays: the object leaks instead of being
 * freed while in use, and its release never runs. kref_read() of a saturated count gives
 * 3221225472 (0xC0000000).
 *
 * The kernel warns once per call site and boot (WARN_ONCE); the sandbox records every
 * occurrence, so that each mistake in a lesson is shown.
 *
 * The sandbox runs these on plain ints: they are not atomic.
 */
#ifndef KOBJ_KREF_H
#define KOBJ_KREF_H

#include <limits.h>
#include <stdbool.h>

#include "core/world/world.h"

typedef struct refcount_struct {
	int refs;
} refcount_t;

#define REFCOUNT_INIT(n) { .refs = (n), }
#define REFCOUNT_MAX INT_MAX
#define REFCOUNT_SATURATED (INT_MIN / 2)

/* What refcount_warn_saturate() reports, as lib/refcount.c names it. */
enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
};

/* refcount_warn_saturate() - saturate @r and record the kernel's warning for @t. */
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t);

/* refcount_set() - set the count; no check, as in the kernel. Cannot fail. */
void refcount_set(refcount_t *r, int n);
/* refcount_read() - Return: the count, unsigned as the kernel returns it. */
unsigned int refcount_read(const refcount_t *r);

/* refcount_inc() / refcount_add() - saturate (with a warning) from 0, past INT_MAX or
 * from a negative count. */
void refcount_inc(refcount_t *r);
void refcount_add(int i, refcount_t *r);

/**
 * refcount_inc_not_zero() - increment unless the count is 0
 * Return: false (nothing changed, no warning) if it was 0, else true; a saturated count
 * or one pushed past INT_MAX saturates with a warning and still returns true.
 */
bool refcount_inc_not_zero(refcount_t *r);
bool refcount_add_not_zero(int i, refcount_t *r);

/**
 * refcount_dec_and_test() - decrement; the caller frees when this returns true
 * Return: true when the count went from exactly 1 (or @i) to 0. A count at or below 0,
 * or one that would go below 0, saturates with "underflow" and returns false.
 */
bool refcount_dec_and_test(refcount_t *r);
bool refcount_sub_and_test(int i, refcount_t *r);

/* refcount_dec() - a decrement that must not reach 0: reaching it saturates and warns. */
void refcount_dec(refcount_t *r);
/* refcount_dec_if_one() - 1 -> 0 only; Return: true if it did. */
bool refcount_dec_if_one(refcount_t *r);
/* refcount_dec_not_one() - decrement unless the count is 1; Return: false only for 1.
 * Saturated stays saturated; 0 warns "underflow" and stays 0. */
bool refcount_dec_not_one(refcount_t *r);

/* ------------------------------------------------------------------------------ kref */

struct kref {
	refcount_t refcount;
};

#define KREF_INIT(n) { .refcount = REFCOUNT_INIT(n), }

/* kref_init() - set the count to 1: the creator's reference. Cannot fail. */
void kref_init(struct kref *kref);
/* kref_read() - Return: the count (3221225472 when saturated). */
unsigned int kref_read(const struct kref *kref);
/* kref_get() - take a reference; from 0 it warns "addition on 0" and saturates. */
void kref_get(struct kref *kref);

/**
 * kref_put() - drop a reference; the last one calls @release
 * @release: frees the object that embeds @kref; it must not be NULL or kfree itself
 *
 * Return: 1 if @release was called, else 0. After 0 another holder may already have
 * freed the object: do not touch it. A put of a count already at 0 warns "underflow",
 * saturates, and never calls @release.
 */
int kref_put(struct kref *kref, void (*release)(struct kref *kref));

/**
 * kref_get_unless_zero() - take a reference unless the count already reached 0
 * Return: non-zero if a reference was taken; 0 (no warning) if the object is dying.
 * For lookups that may race with the last put.
 */
int kref_get_unless_zero(struct kref *kref);

#ifndef KOBJ_CALL
#define KOBJ_SITE()                                                                       \
	({                                                                                \
		static struct kobj_site_note kobj_site_ = { __FILE__, __LINE__,           \
							    __func__, 0, 0 };             \
		&kobj_site_;                                                              \
	})
#define KOBJ_CALL(call) (kobj_note_site(KOBJ_SITE()), (call))
#endif

#define refcount_warn_saturate(r, t)  KOBJ_CALL((refcount_warn_saturate)(r, t))
#define refcount_inc(r)               KOBJ_CALL((refcount_inc)(r))
#define refcount_add(i, r)            KOBJ_CALL((refcount_add)(i, r))
#define refcount_inc_not_zero(r)      KOBJ_CALL((refcount_inc_not_zero)(r))
#define refcount_add_not_zero(i, r)   KOBJ_CALL((refcount_add_not_zero)(i, r))
#define refcount_dec_and_test(r)      KOBJ_CALL((refcount_dec_and_test)(r))
#define refcount_sub_and_test(i, r)   KOBJ_CALL((refcount_sub_and_test)(i, r))
#define refcount_dec(r)               KOBJ_CALL((refcount_dec)(r))
#define refcount_dec_not_one(r)       KOBJ_CALL((refcount_dec_not_one)(r))
#define kref_get(k)                   KOBJ_CALL((kref_get)(k))
#define kref_put(k, release)          KOBJ_CALL((kref_put)(k, release))
#define kref_get_unless_zero(k)       KOBJ_CALL((kref_get_unless_zero)(k))

#endif
