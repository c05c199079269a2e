/*
 * kref and refcount_t with today's semantics, and the kernel's refcount conformance
 * suite: the expectations of drivers/misc/lkdtm/refcount.c and
 * tools/testing/selftests/lkdtm/tests.txt (5.5+ refcount_t), one test per LKDTM case.
 */
#include <errno.h>

#include "tests/core/fixture.h"

/* ------------------------------------------------------------------------------ kref */

struct counted {
	struct kref ref;
	int payload;
};

static int kref_releases;

static void counted_release(struct kref *ref)
{
	kref_releases++;
	free(container_of(ref, struct counted, ref));
}

static struct counted *new_counted(void)
{
	struct counted *c = calloc(1, sizeof(*c));
	kref_init(&c->ref);
	kref_releases = 0;
	return c;
}

static void kref_counts_and_releases_on_last_put(void **state)
{
	struct counted *c = new_counted();

	assert_int_equal(kref_read(&c->ref), 1);
	kref_get(&c->ref);
	kref_get(&c->ref);
	assert_int_equal(kref_read(&c->ref), 3);
	assert_int_equal(kref_put(&c->ref, counted_release), 0);
	assert_int_equal(kref_put(&c->ref, counted_release), 0);
	assert_int_equal(kref_releases, 0);
	assert_int_equal(kref_put(&c->ref, counted_release), 1);
	assert_int_equal(kref_releases, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void kref_init_static_and_get_unless_zero(void **state)
{
	struct kref k = KREF_INIT(2);

	assert_int_equal(kref_read(&k), 2);
	assert_true(kref_get_unless_zero(&k));
	assert_int_equal(kref_read(&k), 3);

	struct kref dead = KREF_INIT(0);
	assert_false(kref_get_unless_zero(&dead)); /* a dying object: no reference, silent */
	assert_int_equal(kref_read(&dead), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void kref_get_on_zero_warns_and_saturates(void **state)
{
	struct kref k = KREF_INIT(0);

	kref_get(&k);
	assert_last_diag(state, "get-released", "refcount_t: addition on 0; use-after-free.");
	assert_string_equal(last_diag(state)->message,
			    "refcount_t: addition on 0; use-after-free.");
	assert_int_equal(kref_read(&k), 3221225472u);
	assert_non_null(strstr(last_diag(state)->explanation, "kref_get() at "));
	assert_non_null(strstr(last_diag(state)->explanation, "test_kref.c:"));
}

static void kref_put_below_zero_never_releases(void **state)
{
	struct counted *c = new_counted();

	assert_int_equal(kref_put(&c->ref, counted_release), 1);
	assert_int_equal(kref_releases, 1);

	/* a second kref whose count is already 0: the underflow saturates, no release */
	struct kref k = KREF_INIT(0);
	assert_int_equal(kref_put(&k, counted_release), 0);
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_int_equal(kref_read(&k), (unsigned)REFCOUNT_SATURATED);
	assert_int_equal(kref_put(&k, counted_release), 0);
	assert_int_equal(kref_releases, 1);
	assert_int_equal(kobj_diag_count(*state), 2); /* every occurrence, not WARN_ONCE */
}

static void refcount_dec_to_zero_leaks(void **state)
{
	refcount_t r = REFCOUNT_INIT(1);

	refcount_dec(&r);
	assert_last_diag(state, "refcount-dec-hit-zero",
			 "refcount_t: decrement hit 0; leaking memory.");
	assert_int_equal(refcount_read(&r), (unsigned)REFCOUNT_SATURATED);
}

static void refcount_overflow_saturates(void **state)
{
	refcount_t r = REFCOUNT_INIT(REFCOUNT_MAX);

	refcount_inc(&r);
	assert_last_diag(state, "refcount-saturated", "refcount_t: saturated; leaking memory.");
	assert_int_equal(refcount_read(&r), (unsigned)REFCOUNT_SATURATED);
	assert_int_equal(REFCOUNT_SATURATED, -1073741824);
}

static void refcount_dec_if_one_and_not_one(void **state)
{
	refcount_t r = REFCOUNT_INIT(2);

	assert_false(refcount_dec_if_one(&r));
	assert_true(refcount_dec_not_one(&r));
	assert_int_equal(refcount_read(&r), 1);
	assert_false(refcount_dec_not_one(&r));
	assert_true(refcount_dec_if_one(&r));
	assert_int_equal(refcount_read(&r), 0);
	assert_int_equal(kobj_diag_count(*state), 0);

	/* dec_not_one on 0 warns and stays at 0; on saturated it stays saturated */
	assert_true(refcount_dec_not_one(&r));
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_int_equal(refcount_read(&r), 0);
	refcount_set(&r, REFCOUNT_SATURATED);
	assert_true(refcount_dec_not_one(&r));
	assert_int_equal(refcount_read(&r), (unsigned)REFCOUNT_SATURATED);
}

static void refcount_warn_saturate_reports_its_type(void **state)
{
	refcount_t r = REFCOUNT_INIT(5);

	refcount_warn_saturate(&r, REFCOUNT_DEC_LEAK);
	assert_last_diag(state, "refcount-dec-hit-zero", "decrement hit 0");
	assert_int_equal(refcount_read(&r), (unsigned)REFCOUNT_SATURATED);
	refcount_warn_saturate(&r, (enum refcount_saturation_type)99);
	assert_last_diag(state, "refcount-saturated", "refcount_t: unknown saturation event!?");
}

static void kref_works_without_a_current_world(void **state)
{
	struct kobj_world *was = kobj_world_use(NULL);
	struct counted *c = new_counted();

	kref_get(&c->ref);
	kref_put(&c->ref, counted_release);
	kref_put(&c->ref, counted_release);
	assert_int_equal(kref_releases, 1);
	/* a warning made the default world, which keeps the diagnostic */
	struct kref k = KREF_INIT(0);
	kref_get(&k);
	struct kobj_world *made = kobj_world_current();
	assert_ptr_not_equal(made, was);
	assert_int_equal(kobj_diag_count(made), 1);
	kobj_world_free(made);
	kobj_world_use(was);
	(void)state;
}

/* ---------------------------------------- LKDTM: drivers/misc/lkdtm/refcount.c */

/* The verdicts LKDTM prints after each case. */
static const char *overflow_check(refcount_t *ref)
{
	switch (refcount_read(ref)) {
	case REFCOUNT_SATURATED:
		return "Overflow detected: saturated";
	case REFCOUNT_MAX:
		return "Overflow detected: unsafely reset to max";
	default:
		return "Fail: refcount wrapped";
	}
}

static const char *check_zero(refcount_t *ref)
{
	switch (refcount_read(ref)) {
	case REFCOUNT_SATURATED:
		return "Zero detected: saturated";
	case REFCOUNT_MAX:
		return "Zero detected: unsafely reset to max";
	case 0:
		return "Still at zero: refcount_inc/add() must not inc-from-0";
	default:
		return "Fail: refcount went crazy";
	}
}

static const char *check_negative(refcount_t *ref, int start)
{
	if (refcount_read(ref) == (unsigned)start)
		return "Still at start: refcount_inc/add() must not inc-from-0";
	switch (refcount_read(ref)) {
	case REFCOUNT_SATURATED:
		return "Negative detected: saturated";
	case REFCOUNT_MAX:
		return "Negative detected: unsafely reset to max";
	default:
		return "Fail: refcount went crazy";
	}
}

static const char *check_from_zero(refcount_t *ref)
{
	switch (refcount_read(ref)) {
	case 0:
		return "Zero detected: stayed at zero";
	case REFCOUNT_SATURATED:
		return "Zero detected: saturated";
	case REFCOUNT_MAX:
		return "Zero detected: unsafely reset to max";
	default:
		return "Fail: zero not detected";
	}
}

static const char *check_saturated(refcount_t *ref)
{
	switch (refcount_read(ref)) {
	case REFCOUNT_SATURATED:
		return "Saturation detected: still saturated";
	case REFCOUNT_MAX:
		return "Saturation detected: unsafely reset to max";
	default:
		return "Fail: refcount went crazy";
	}
}

static void lkdtm_REFCOUNT_INC_OVERFLOW(void **state)
{
	refcount_t over = REFCOUNT_INIT(REFCOUNT_MAX - 1);

	refcount_dec(&over);
	refcount_inc(&over);
	assert_int_equal(kobj_diag_count(*state), 0); /* the good part warns nothing */
	refcount_inc(&over);
	refcount_inc(&over);
	assert_string_equal(overflow_check(&over), "Overflow detected: saturated");
	assert_last_diag(state, "refcount-saturated", "refcount_t: saturated; leaking memory.");
}

static void lkdtm_REFCOUNT_ADD_OVERFLOW(void **state)
{
	refcount_t over = REFCOUNT_INIT(REFCOUNT_MAX - 1);

	for (int i = 0; i < 4; i++)
		refcount_dec(&over);
	refcount_add(4, &over);
	assert_int_equal(kobj_diag_count(*state), 0);
	refcount_add(4, &over);
	assert_string_equal(overflow_check(&over), "Overflow detected: saturated");
}

static void lkdtm_REFCOUNT_INC_NOT_ZERO_OVERFLOW(void **state)
{
	refcount_t over = REFCOUNT_INIT(REFCOUNT_MAX);

	assert_true(refcount_inc_not_zero(&over));
	assert_string_equal(overflow_check(&over), "Overflow detected: saturated");
	assert_last_diag(state, "refcount-saturated", "refcount_t: saturated; leaking memory.");
}

static void lkdtm_REFCOUNT_ADD_NOT_ZERO_OVERFLOW(void **state)
{
	refcount_t over = REFCOUNT_INIT(REFCOUNT_MAX);

	assert_true(refcount_add_not_zero(6, &over));
	assert_string_equal(overflow_check(&over), "Overflow detected: saturated");
	(void)state;
}

static void lkdtm_REFCOUNT_DEC_ZERO(void **state)
{
	refcount_t zero = REFCOUNT_INIT(2);

	refcount_dec(&zero);
	assert_int_equal(kobj_diag_count(*state), 0);
	refcount_dec(&zero);
	assert_string_equal(check_zero(&zero), "Zero detected: saturated");
	assert_last_diag(state, "refcount-dec-hit-zero", "decrement hit 0; leaking memory.");
}

static void lkdtm_REFCOUNT_DEC_NEGATIVE(void **state)
{
	refcount_t neg = REFCOUNT_INIT(0);

	refcount_dec(&neg);
	assert_string_equal(check_negative(&neg, 0), "Negative detected: saturated");
	(void)state;
}

static void lkdtm_REFCOUNT_DEC_AND_TEST_NEGATIVE(void **state)
{
	refcount_t neg = REFCOUNT_INIT(0);

	assert_false(refcount_dec_and_test(&neg));
	assert_string_equal(check_negative(&neg, 0), "Negative detected: saturated");
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
}

static void lkdtm_REFCOUNT_SUB_AND_TEST_NEGATIVE(void **state)
{
	refcount_t neg = REFCOUNT_INIT(3);

	assert_false(refcount_sub_and_test(5, &neg));
	assert_string_equal(check_negative(&neg, 3), "Negative detected: saturated");
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
}

static void lkdtm_REFCOUNT_INC_ZERO(void **state)
{
	refcount_t zero = REFCOUNT_INIT(0);

	assert_false(refcount_inc_not_zero(&zero)); /* "Good: zero detected" */
	assert_int_equal(refcount_read(&zero), 0);  /* "Correctly stayed at zero" */
	assert_int_equal(kobj_diag_count(*state), 0);
	refcount_inc(&zero);
	assert_string_equal(check_from_zero(&zero), "Zero detected: saturated");
	assert_last_diag(state, "get-released", "refcount_t: addition on 0; use-after-free.");
}

static void lkdtm_REFCOUNT_ADD_ZERO(void **state)
{
	refcount_t zero = REFCOUNT_INIT(0);

	assert_false(refcount_add_not_zero(3, &zero));
	assert_int_equal(refcount_read(&zero), 0);
	refcount_add(3, &zero);
	assert_string_equal(check_from_zero(&zero), "Zero detected: saturated");
	(void)state;
}

static void lkdtm_REFCOUNT_INC_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	refcount_inc(&sat);
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	assert_last_diag(state, "refcount-saturated", "refcount_t: saturated; leaking memory.");
}

static void lkdtm_REFCOUNT_DEC_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	refcount_dec(&sat);
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	assert_last_diag(state, "refcount-dec-hit-zero", "decrement hit 0; leaking memory.");
}

static void lkdtm_REFCOUNT_ADD_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	refcount_add(8, &sat);
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	(void)state;
}

static void lkdtm_REFCOUNT_INC_NOT_ZERO_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	assert_true(refcount_inc_not_zero(&sat)); /* not "Weird: reported zero" */
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	(void)state;
}

static void lkdtm_REFCOUNT_ADD_NOT_ZERO_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	assert_true(refcount_add_not_zero(7, &sat));
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	(void)state;
}

static void lkdtm_REFCOUNT_DEC_AND_TEST_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	assert_false(refcount_dec_and_test(&sat));
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
}

static void lkdtm_REFCOUNT_SUB_AND_TEST_SATURATED(void **state)
{
	refcount_t sat = REFCOUNT_INIT(REFCOUNT_SATURATED);

	assert_false(refcount_sub_and_test(8, &sat));
	assert_string_equal(check_saturated(&sat), "Saturation detected: still saturated");
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(kref_counts_and_releases_on_last_put),
		TEST(kref_init_static_and_get_unless_zero),
		TEST(kref_get_on_zero_warns_and_saturates),
		TEST(kref_put_below_zero_never_releases),
		TEST(refcount_dec_to_zero_leaks),
		TEST(refcount_overflow_saturates),
		TEST(refcount_dec_if_one_and_not_one),
		TEST(refcount_warn_saturate_reports_its_type),
		TEST(kref_works_without_a_current_world),
		TEST(lkdtm_REFCOUNT_INC_OVERFLOW),
		TEST(lkdtm_REFCOUNT_ADD_OVERFLOW),
		TEST(lkdtm_REFCOUNT_INC_NOT_ZERO_OVERFLOW),
		TEST(lkdtm_REFCOUNT_ADD_NOT_ZERO_OVERFLOW),
		TEST(lkdtm_REFCOUNT_DEC_ZERO),
		TEST(lkdtm_REFCOUNT_DEC_NEGATIVE),
		TEST(lkdtm_REFCOUNT_DEC_AND_TEST_NEGATIVE),
		TEST(lkdtm_REFCOUNT_SUB_AND_TEST_NEGATIVE),
		TEST(lkdtm_REFCOUNT_INC_ZERO),
		TEST(lkdtm_REFCOUNT_ADD_ZERO),
		TEST(lkdtm_REFCOUNT_INC_SATURATED),
		TEST(lkdtm_REFCOUNT_DEC_SATURATED),
		TEST(lkdtm_REFCOUNT_ADD_SATURATED),
		TEST(lkdtm_REFCOUNT_INC_NOT_ZERO_SATURATED),
		TEST(lkdtm_REFCOUNT_ADD_NOT_ZERO_SATURATED),
		TEST(lkdtm_REFCOUNT_DEC_AND_TEST_SATURATED),
		TEST(lkdtm_REFCOUNT_SUB_AND_TEST_SATURATED),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
