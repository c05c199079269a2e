/*
 * The scheduler inside the model: scheduling points are SCHED events of their thread,
 * locks block and wake, threads that wait for each other are a deadlock, and a sysfs
 * read in progress holds off the removal of its object's directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "core/model/sched.h"
#include "tests/race/programs.h"

/* Naive enumeration goes depth first: bounded, it reaches early preemptions sooner. */
static struct kobj_race_result explore(struct scene *s, unsigned nthreads, bool naive)
{
	struct kobj_race_options o = { .naive = naive, .preemptions = naive ? 1 : -1 };
	struct kobj_race_program p = scene_program(s, nthreads);
	struct kobj_race_result res;
	if (kobj_race_explore(&p, &o, &res) != 0)
		fail_msg("explore: %s", res.error);
	return res;
}

/* ======================================================================= the log */

static unsigned sched_threads, waits, other_threads;

/* Counts, before the world goes, the threads of SCHED events and the waits. */
static char *count_events(void *ctx, const struct kobj_race_run *run)
{
	struct scene *s = ctx;
	struct kobj_event ev;
	sched_threads = waits = other_threads = 0;
	for (size_t i = 0; kobj_log_read(s->w, i, &ev); i++) {
		if (ev.kind == KOBJ_EV_SCHED) {
			sched_threads |= 1u << ev.thread;
			waits += ev.aux == KOBJ_SCHED_WAIT;
		} else if (ev.thread) {
			other_threads |= 1u << ev.thread;
		}
	}
	return scene_verdict(ctx, run);
}

static void points_are_events_of_their_thread(void **state)
{
	struct scene s = { .threads = { find_obj, last_put } };
	struct kobj_race_program p = scene_program(&s, 2);
	char *failure, err[256];

	p.verdict = count_events;
	assert_int_equal(kobj_race_replay(&p, "", &failure, err, sizeof(err)), 0);
	assert_null(failure);
	assert_int_equal(sched_threads, (1u << 1) | (1u << 2));
	assert_int_equal(other_threads, (1u << 1) | (1u << 2));
}

/* ===================================================================== locks */

static DEFINE_SPINLOCK(a_lock);
static DEFINE_SPINLOCK(b_lock);

/* Holds a lock across a kernel call, where the other thread may run. */
static void hold_a_across_a_call(struct scene *s)
{
	spin_lock(&a_lock);
	kobject_put(kobject_get(&s->kset->kobj));
	spin_unlock(&a_lock);
}

static void take_a(struct scene *s)
{
	spin_lock(&a_lock);
	spin_unlock(&a_lock);
	last_put(s);
}

static void a_held_lock_makes_the_other_thread_wait(void **state)
{
	struct scene s = { .threads = { hold_a_across_a_call, take_a } };
	struct kobj_race_program p = scene_program(&s, 2);
	char *failure, err[256];

	p.verdict = count_events;
	/* thread 1 takes the lock, thread 2 starts and waits for it */
	assert_int_equal(kobj_race_replay(&p, "1122", &failure, err, sizeof(err)), 0);
	assert_null(failure);
	assert_int_equal(waits, 1);
	struct kobj_race_result res = explore(&s, 2, false);
	if (res.failing)
		fail_msg("%s: %s", res.schedule, res.failure);
	assert_false(spin_is_locked(&a_lock));
	kobj_race_result_free(&res);
}

static void a_then_b(struct scene *s)
{
	spin_lock(&a_lock);
	spin_lock(&b_lock);
	spin_unlock(&b_lock);
	spin_unlock(&a_lock);
	last_put(s);
}

static void b_then_a(struct scene *s)
{
	spin_lock(&b_lock);
	spin_lock(&a_lock);
	spin_unlock(&a_lock);
	spin_unlock(&b_lock);
}

static void locks_taken_in_two_orders_deadlock(void **state)
{
	struct scene s = { .threads = { a_then_b, b_then_a } };
	struct kobj_race_result res = explore(&s, 2, false), all = explore(&s, 2, true);

	assert_int_equal(res.failing, 1);
	assert_non_null(strstr(res.failure, "[deadlock] INFO: task thread"));
	assert_non_null(strstr(res.failure, "blocked for more than 120 seconds."));
	assert_non_null(strstr(res.failure, "waits for a lock that thread"));
	assert_int_equal(all.failing, 1);
	assert_non_null(strstr(all.failure, "[deadlock]"));
	/* the waits failed, and every thread ran to its end */
	assert_false(spin_is_locked(&a_lock));
	assert_false(spin_is_locked(&b_lock));
	kobj_race_result_free(&res);
	kobj_race_result_free(&all);
}

/* ========================================================== sysfs reads and removal */

static char value_read[32];

/* Two steps: a kernel call between the prefix and the value, where others may run. */
static ssize_t value_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	int n = sysfs_emit(buf, "v=");
	return n + sysfs_emit_at(buf, n, "%d\n", container_of(kobj, struct thing, kobj)->value);
}

static struct kobj_attribute value_attr = __ATTR_RO(value);

/* The release leaves a mark a late reader would see (kfree keeps the memory a while). */
static void marking_release(struct kobject *kobj)
{
	struct thing *t = container_of(kobj, struct thing, kobj);
	t->value = -1;
	kfree(t);
}

static const struct kobj_type marking_ktype = { .release = marking_release,
						.sysfs_ops = &kobj_sysfs_ops };

static int file_setup(void *ctx, char *err, size_t size)
{
	struct scene *s = ctx;
	scene_setup(ctx, err, size);
	s->thing->value = 7;
	sysfs_create_file(&s->thing->kobj, &value_attr.attr);
	value_read[0] = '\0';
	s->diags = kobj_diag_count(s->w);
	return 0;
}

static void read_value(struct scene *s)
{
	sysfs_read(s->w, "/sys/things/thing/value", value_read, sizeof(value_read));
}

static char *value_verdict(void *ctx, const struct kobj_race_run *run)
{
	char *v = scene_verdict(ctx, run);
	if (v || strcmp(value_read, "v=-1\n") != 0)
		return v;
	return strdup("show() read the object after its release");
}

static void removal_waits_for_show_in_progress(void **state)
{
	struct scene s = { .ktype = &marking_ktype, .threads = { read_value, last_put } };
	struct kobj_race_program p = scene_program(&s, 2);
	struct kobj_race_options o = { .naive = true, .preemptions = -1, .keep_going = true };
	struct kobj_race_result res;

	p.setup = file_setup;
	p.verdict = value_verdict;
	assert_int_equal(kobj_race_explore(&p, &o, &res), 0);
	assert_int_equal(res.failing, 0);
	assert_true(res.schedules > 2);
	kobj_race_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(points_are_events_of_their_thread),
		cmocka_unit_test(a_held_lock_makes_the_other_thread_wait),
		cmocka_unit_test(locks_taken_in_two_orders_deadlock),
		cmocka_unit_test(removal_waits_for_show_in_progress),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
