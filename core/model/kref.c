/*
 * refcount_t and kref with 5.5+ semantics. The arithmetic (kobj_rc_*) is shared with
 * today's kobjects (lifecycle.c), which report with the object's name; the refcount_* and
 * kref_* calls report with the call's name and place only, as they know no object.
 *
 * Every warning is recorded, not only the first of each call site as WARN_ONCE would.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

/* =================================================================== the arithmetic */

int kobj_rc_add(int *refs, int i)
{
	int old = *refs;
	long long sum = (long long)old + i;

	if (old == 0) {
		*refs = REFCOUNT_SATURATED;
		return REFCOUNT_ADD_UAF;
	}
	if (old < 0 || sum > INT_MAX || sum < 0) {
		*refs = REFCOUNT_SATURATED;
		return REFCOUNT_ADD_OVF;
	}
	*refs = (int)sum;
	return -1;
}

int kobj_rc_add_not_zero(int *refs, int i, bool *added)
{
	int old = *refs;
	long long sum = (long long)old + i;

	*added = old != 0;
	if (old == 0)
		return -1;
	if (old < 0 || sum > INT_MAX || sum < 0) {
		*refs = REFCOUNT_SATURATED;
		return REFCOUNT_ADD_NOT_ZERO_OVF;
	}
	*refs = (int)sum;
	return -1;
}

int kobj_rc_sub_and_test(int *refs, int i, bool *zero)
{
	int old = *refs;
	long long left = (long long)old - i;

	*zero = old == i;
	if (*zero) {
		*refs = 0;
		return -1;
	}
	if (old < 0 || left < 0) {
		*refs = REFCOUNT_SATURATED;
		return REFCOUNT_SUB_UAF;
	}
	*refs = (int)left;
	return -1;
}

static const struct {
	const char *message;
	enum kobj_diag_kind kind;
	const char *why; /* after "<call>() at <place>: " */
} events[] = {
	[REFCOUNT_ADD_NOT_ZERO_OVF] = {
		"refcount_t: saturated; leaking memory.", KOBJ_DIAG_REFCOUNT_SATURATED,
		"the count was saturated already, or this addition would pass INT_MAX. It is "
		"saturated now and stays so: the object can never be freed, which is safer than "
		"a count that wraps round to 0 while the object is in use." },
	[REFCOUNT_ADD_OVF] = {
		"refcount_t: saturated; leaking memory.", KOBJ_DIAG_REFCOUNT_SATURATED,
		"the count was saturated already, or this addition would pass INT_MAX. It is "
		"saturated now and stays so: the object can never be freed, which is safer than "
		"a count that wraps round to 0 while the object is in use." },
	[REFCOUNT_ADD_UAF] = {
		"refcount_t: addition on 0; use-after-free.", KOBJ_DIAG_GET_ZERO,
		"the count was 0: whatever it counted was already released (or was never "
		"counted with kref_init/refcount_set). Taking a reference now is a "
		"use-after-free. The count is saturated and stays so; release will never run." },
	[REFCOUNT_SUB_UAF] = {
		"refcount_t: underflow; use-after-free.", KOBJ_DIAG_PUT_ZERO,
		"more references were dropped than are held: one put too many, so some holder "
		"is using freed memory (or was, when the count reached 0). The count is "
		"saturated and stays so; release will never run." },
	[REFCOUNT_DEC_LEAK] = {
		"refcount_t: decrement hit 0; leaking memory.", KOBJ_DIAG_REFCOUNT_DEC_ZERO,
		"refcount_dec() brought the count to 0 (or below). Only the *_and_test calls "
		"may reach 0, because only they tell the caller to free; after a plain "
		"refcount_dec() nobody frees. The count is saturated: the object leaks." },
};

const char *kobj_rc_message(int event)
{
	if (event < 0 || (size_t)event >= sizeof(events) / sizeof(events[0]))
		return "refcount_t: unknown saturation event!?";
	return events[event].message;
}

enum kobj_diag_kind kobj_rc_diag_kind(int event)
{
	if (event < 0 || (size_t)event >= sizeof(events) / sizeof(events[0]))
		return KOBJ_DIAG_REFCOUNT_SATURATED;
	return events[event].kind;
}

/* ========================================================================= reporting */

/* Records the warning for @event of a refcount_t call; no object is named. */
static void report(int event, int old, struct kcall *c)
{
	char where[256];

	if (event < 0)
		return;
	kobj_diagnose(c, kobj_rc_diag_kind(event), 0, kobj_xstrdup(kobj_rc_message(event)),
		    kobj_xasprintf("%s() at %s found the count at %d: %s", c->op,
				   kobj_site_where(c->w, c->site, where), old,
				   (size_t)event < sizeof(events) / sizeof(events[0])
					   ? events[event].why
					   : "an unknown saturation event."));
}

/* The call @op on the counter @r: a scheduling point, then the counter changes hands. */
static struct kcall counted(const char *op, const refcount_t *r)
{
	struct kcall c = kobj_call(op);
	kobj_sched_touch(KOBJ_RES_ADDRESS, (uintptr_t)r, true);
	return c;
}

void (refcount_warn_saturate)(refcount_t *r, enum refcount_saturation_type t)
{
	struct kcall c = counted("refcount_warn_saturate", r);
	int old = r->refs;
	r->refs = REFCOUNT_SATURATED;
	report((int)t, old, &c);
}

/* ======================================================================= refcount_t */

void refcount_set(refcount_t *r, int n)
{
	kobj_sched_touch(KOBJ_RES_ADDRESS, (uintptr_t)r, true);
	r->refs = n;
}

unsigned int refcount_read(const refcount_t *r)
{
	kobj_sched_touch(KOBJ_RES_ADDRESS, (uintptr_t)r, false);
	return (unsigned int)r->refs;
}

void (refcount_add)(int i, refcount_t *r)
{
	struct kcall c = counted("refcount_add", r);
	int old = r->refs;
	report(kobj_rc_add(&r->refs, i), old, &c);
}

void (refcount_inc)(refcount_t *r)
{
	struct kcall c = counted("refcount_inc", r);
	int old = r->refs;
	report(kobj_rc_add(&r->refs, 1), old, &c);
}

static bool add_not_zero(int i, refcount_t *r, const char *op)
{
	struct kcall c = counted(op, r);
	int old = r->refs;
	bool added;
	report(kobj_rc_add_not_zero(&r->refs, i, &added), old, &c);
	return added;
}

bool (refcount_add_not_zero)(int i, refcount_t *r)
{
	return add_not_zero(i, r, "refcount_add_not_zero");
}

bool (refcount_inc_not_zero)(refcount_t *r)
{
	return add_not_zero(1, r, "refcount_inc_not_zero");
}

static bool sub_and_test(int i, refcount_t *r, const char *op)
{
	struct kcall c = counted(op, r);
	int old = r->refs;
	bool zero;
	report(kobj_rc_sub_and_test(&r->refs, i, &zero), old, &c);
	return zero;
}

bool (refcount_sub_and_test)(int i, refcount_t *r)
{
	return sub_and_test(i, r, "refcount_sub_and_test");
}

bool (refcount_dec_and_test)(refcount_t *r)
{
	return sub_and_test(1, r, "refcount_dec_and_test");
}

void (refcount_dec)(refcount_t *r)
{
	struct kcall c = counted("refcount_dec", r);
	int old = r->refs;

	if (old <= 1) {
		r->refs = REFCOUNT_SATURATED;
		report(REFCOUNT_DEC_LEAK, old, &c);
		return;
	}
	r->refs = old - 1;
}

bool refcount_dec_if_one(refcount_t *r)
{
	kobj_sched_touch(KOBJ_RES_ADDRESS, (uintptr_t)r, true);
	if (r->refs != 1)
		return false;
	r->refs = 0;
	return true;
}

/* As lib/refcount.c: on the unsigned value, so only 0 counts as an underflow here. */
bool (refcount_dec_not_one)(refcount_t *r)
{
	struct kcall c = counted("refcount_dec_not_one", r);
	unsigned int val = (unsigned int)r->refs;

	if (val == (unsigned int)REFCOUNT_SATURATED)
		return true;
	if (val == 1)
		return false;
	if (val == 0) {
		/* The kernel warns here without saturating; the count stays 0. */
		report(REFCOUNT_SUB_UAF, 0, &c);
		r->refs = 0;
		return true;
	}
	r->refs = (int)(val - 1);
	return true;
}

/* ============================================================================= kref */

void kref_init(struct kref *kref)
{
	refcount_set(&kref->refcount, 1);
}

unsigned int kref_read(const struct kref *kref)
{
	return refcount_read(&kref->refcount);
}

void (kref_get)(struct kref *kref)
{
	struct kcall c = counted("kref_get", &kref->refcount);
	int old = kref->refcount.refs;
	report(kobj_rc_add(&kref->refcount.refs, 1), old, &c);
}

int (kref_put)(struct kref *kref, void (*release)(struct kref *kref))
{
	struct kcall c = counted("kref_put", &kref->refcount);
	int old = kref->refcount.refs;
	bool zero;

	report(kobj_rc_sub_and_test(&kref->refcount.refs, 1, &zero), old, &c);
	if (!zero)
		return 0;
	/* Another CPU may meet the count at 0 before the release has run. */
	kobj_sched_point(&c, KOBJ_SCHED_DECREMENT);
	if (release) {
		kobj_callback_enter(c.w);
		release(kref); /* may free the kref: not touched after this */
		kobj_callback_leave(c.w);
	}
	return 1;
}

int (kref_get_unless_zero)(struct kref *kref)
{
	struct kcall c = counted("kref_get_unless_zero", &kref->refcount);
	int old = kref->refcount.refs;
	bool added;
	report(kobj_rc_add_not_zero(&kref->refcount.refs, 1, &added), old, &c);
	return added;
}
