/*
 * The explorer over the core's own lookups: kset_find_obj against the last put, as the
 * kernel had it before 2013 (the reference taken after unlocking) and as it is today
 * (kobject_get_unless_zero under the lock); partial-order reduction against naive
 * enumeration; preemption bounds; replays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "tests/race/programs.h"

static struct kobj_race_result explore(struct scene *s, unsigned nthreads,
				       const struct kobj_race_options *o)
{
	struct kobj_race_program p = scene_program(s, nthreads);
	struct kobj_race_result res;
	int rc = kobj_race_explore(&p, o, &res);
	if (rc != 0)
		fail_msg("explore: %s", res.error);
	return res;
}

/* The first line of a failure: its diagnostic's tag and the kernel's message. */
static void assert_failure(const struct kobj_race_result *res, const char *start)
{
	assert_non_null(res->failure);
	if (strncmp(res->failure, start, strlen(start)) != 0)
		fail_msg("failure '%s' does not start with '%s'", res->failure, start);
}

static void lookup_then_get_fails_after_the_last_decrement(void **state)
{
	struct scene s = { .threads = { lookup_then_get, last_put } };
	struct kobj_race_result res = explore(&s, 2, NULL);

	assert_int_equal(res.failing, 1);
	assert_failure(&res, "[get-released] refcount_t: addition on 0; "
			     "use-after-free.");
	/* thread 1 looks it up and unlocks; thread 2's last put; thread 1's get */
	assert_non_null(res.schedule);
	assert_true(strchr(res.schedule, '2') != NULL);
	assert_true(res.schedules > 1);
	kobj_race_result_free(&res);
}

static void today_kset_find_obj_passes_every_schedule(void **state)
{
	struct scene s = { .threads = { find_obj, last_put } };
	struct kobj_race_options naive = { .naive = true, .preemptions = -1 };
	struct kobj_race_result res = explore(&s, 2, NULL), all = explore(&s, 2, &naive);

	assert_int_equal(res.failing, 0);
	assert_null(res.schedule);
	assert_true(res.complete);
	assert_int_equal(all.failing, 0);
	assert_true(all.complete);
	assert_true(res.schedules < all.schedules);
	kobj_race_result_free(&res);
	kobj_race_result_free(&all);
}

static void old_kset_find_obj_returns_a_dying_object(void **state)
{
	struct scene s = { .old = true, .threads = { find_obj_then_get, unregister } };
	struct kobj_race_result res = explore(&s, 2, NULL);

	assert_int_equal(res.failing, 1);
	assert_failure(&res, "[get-released]");
	kobj_race_result_free(&res);
}

/* The tags of the distinct failures, sorted, as one string. */
static void tags(const struct kobj_race_result *res, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t i = 0; i < res->nfailures; i++) {
		char tag[64];
		if (sscanf(res->failures[i], "[%63[^]]]", tag) == 1 && !strstr(buf, tag))
			snprintf(buf + strlen(buf), size - strlen(buf), "%s ", tag);
	}
}

static void reduction_finds_what_naive_enumeration_finds(void **state)
{
	struct scene s = { .threads = { lookup_then_get, last_put } };
	struct kobj_race_options reduce = { .keep_going = true, .preemptions = -1 };
	struct kobj_race_options naive = { .keep_going = true, .naive = true,
					   .preemptions = -1 };
	struct kobj_race_result por = explore(&s, 2, &reduce), all = explore(&s, 2, &naive);
	char por_tags[256], all_tags[256];

	tags(&por, por_tags, sizeof(por_tags));
	tags(&all, all_tags, sizeof(all_tags));
	assert_true(all.nfailures > 0);
	assert_string_equal(por_tags, all_tags);
	assert_true(por.complete && all.complete);
	assert_true(por.schedules < all.schedules);
	assert_true(por.failing > 0 && por.failing < all.failing);
	/* a naive enumeration runs about the interleavings of the first run's steps */
	assert_true(all.schedules >= 100);
	assert_true(all.naive >= 100);
	kobj_race_result_free(&por);
	kobj_race_result_free(&all);
}

/* Two threads that share nothing: one order is enough; naive runs every one. */
static void get_put_own(struct scene *s)
{
	struct kobject *k = kobject_get(&s->kset->kobj);
	kobject_put(k);
}

static void independent_steps_are_run_once(void **state)
{
	struct scene s = { .threads = { get_put_own, last_put } };
	struct kobj_race_options naive = { .naive = true, .preemptions = -1 };
	struct kobj_race_result res = explore(&s, 2, NULL), all = explore(&s, 2, &naive);

	assert_int_equal(res.failing, 0);
	assert_int_equal(all.schedules, (unsigned long)all.naive);
	assert_true(res.schedules < all.schedules);
	kobj_race_result_free(&res);
	kobj_race_result_free(&all);
}

static void a_preemption_bound_of_zero_misses_the_race(void **state)
{
	struct scene s = { .threads = { lookup_then_get, last_put } };
	struct kobj_race_options none = { .preemptions = 0 }, one = { .preemptions = 1 };
	struct kobj_race_result r0 = explore(&s, 2, &none), r1 = explore(&s, 2, &one);

	assert_int_equal(r0.failing, 0);
	assert_true(r0.complete);
	assert_int_equal(r1.failing, 1);
	kobj_race_result_free(&r0);
	kobj_race_result_free(&r1);
}

/* ============================================================================ replay */

static char *verdict_kept;

static char *keep_verdict(void *ctx, const struct kobj_race_run *run)
{
	char *v = scene_verdict(ctx, run);
	free(verdict_kept);
	verdict_kept = v ? strdup(v) : NULL;
	return v;
}

static void a_failing_schedule_replays(void **state)
{
	struct scene s = { .threads = { lookup_then_get, last_put } };
	struct kobj_race_result res = explore(&s, 2, NULL);
	struct kobj_race_program p = scene_program(&s, 2);
	char *failure, err[256];

	p.verdict = keep_verdict;
	assert_int_equal(kobj_race_replay(&p, res.schedule, &failure, err, sizeof(err)), 0);
	assert_non_null(failure);
	assert_string_equal(failure, res.failure);
	free(failure);
	/* the default schedule: thread 1 runs to its end first, and all is well */
	assert_int_equal(kobj_race_replay(&p, "", &failure, err, sizeof(err)), 0);
	assert_null(failure);
	assert_null(verdict_kept);
	kobj_race_result_free(&res);
}

static void bad_schedules_are_refused(void **state)
{
	struct scene s = { .threads = { lookup_then_get, last_put } };
	struct kobj_race_program p = scene_program(&s, 2);
	char err[256];

	assert_int_equal(kobj_race_replay(&p, "12x", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schedule '12x' has a character that is not a thread "
				    "number"));
	assert_int_equal(kobj_race_replay(&p, "13", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "names a thread that does not exist"));
	assert_null(kobj_race_check_schedule("1212", 2));
}

static void a_setup_that_varies_is_reported(void **state)
{
	struct scene s = { .vary = true, .threads = { find_obj, last_put } };
	struct kobj_race_program p = scene_program(&s, 2);
	struct kobj_race_result res;

	/* every other run the lookup finds nothing: the replayed steps differ */
	assert_int_equal(kobj_race_explore(&p, NULL, &res), -1);
	assert_non_null(res.error);
	assert_non_null(strstr(res.error, "did not repeat"));
	assert_int_equal(res.schedules, 2);
	kobj_race_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_then_get_fails_after_the_last_decrement),
		cmocka_unit_test(today_kset_find_obj_passes_every_schedule),
		cmocka_unit_test(old_kset_find_obj_returns_a_dying_object),
		cmocka_unit_test(reduction_finds_what_naive_enumeration_finds),
		cmocka_unit_test(independent_steps_are_run_once),
		cmocka_unit_test(a_preemption_bound_of_zero_misses_the_race),
		cmocka_unit_test(a_failing_schedule_replays),
		cmocka_unit_test(bad_schedules_are_refused),
		cmocka_unit_test(a_setup_that_varies_is_reported),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	free(verdict_kept);
	return failed;
}
