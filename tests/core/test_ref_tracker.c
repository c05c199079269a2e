/*
 * ref_tracker: lib/test_ref_tracker.c ported, the kernel's messages (catalogue 39-43),
 * and trackers carrying kobject references in the ledger.
 */
#include <errno.h>

#include "tests/core/fixture.h"
#include "core/model/ref_tracker.h"

/* The diagnostics of the world, as one text. Not inlined: GCC 12 at -O2 then takes the
 * stream's hold on &text for a dangling pointer. */
__attribute__((noinline)) static char *diags_text(void **state)
{
	char *text;
	CAPTURE(text, for (size_t i = 0; i < kobj_diag_count(*state); i++)
			      kobj_diag_print(kobj_diag_at(*state, i), out));
	return text;
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* ============================================== lib/test_ref_tracker.c, ported */

static struct ref_tracker_dir ref_dir;
static struct ref_tracker *tracker[20];

#define TRT_ALLOC(X)                                                                      \
	static __attribute__((noinline)) void alloctest_ref_tracker_alloc##X(               \
		struct ref_tracker_dir *dir, struct ref_tracker **trackerp)               \
	{                                                                                 \
		ref_tracker_alloc(dir, trackerp, GFP_KERNEL);                             \
	}

TRT_ALLOC(1)
TRT_ALLOC(2)
TRT_ALLOC(3)
TRT_ALLOC(4)
TRT_ALLOC(5)
TRT_ALLOC(6)
TRT_ALLOC(7)
TRT_ALLOC(8)
TRT_ALLOC(9)
TRT_ALLOC(10)
TRT_ALLOC(11)
TRT_ALLOC(12)
TRT_ALLOC(13)
TRT_ALLOC(14)
TRT_ALLOC(15)
TRT_ALLOC(16)
TRT_ALLOC(17)
TRT_ALLOC(18)
TRT_ALLOC(19)

/* The selftest's timer allocates from interrupt context: GFP_ATOMIC. */
static void test_ref_tracker_timer_func(void)
{
	ref_tracker_alloc(&ref_dir, &tracker[19], GFP_ATOMIC);
}

static void the_kernel_selftest_reports_a_double_free_and_two_leaks(void **state)
{
	ref_tracker_dir_init(&ref_dir, 100, "selftest");
	test_ref_tracker_timer_func();
	alloctest_ref_tracker_alloc1(&ref_dir, &tracker[0]);
	alloctest_ref_tracker_alloc2(&ref_dir, &tracker[1]);
	alloctest_ref_tracker_alloc3(&ref_dir, &tracker[2]);
	alloctest_ref_tracker_alloc4(&ref_dir, &tracker[3]);
	alloctest_ref_tracker_alloc5(&ref_dir, &tracker[4]);
	alloctest_ref_tracker_alloc6(&ref_dir, &tracker[5]);
	alloctest_ref_tracker_alloc7(&ref_dir, &tracker[6]);
	alloctest_ref_tracker_alloc8(&ref_dir, &tracker[7]);
	alloctest_ref_tracker_alloc9(&ref_dir, &tracker[8]);
	alloctest_ref_tracker_alloc10(&ref_dir, &tracker[9]);
	alloctest_ref_tracker_alloc11(&ref_dir, &tracker[10]);
	alloctest_ref_tracker_alloc12(&ref_dir, &tracker[11]);
	alloctest_ref_tracker_alloc13(&ref_dir, &tracker[12]);
	alloctest_ref_tracker_alloc14(&ref_dir, &tracker[13]);
	alloctest_ref_tracker_alloc15(&ref_dir, &tracker[14]);
	alloctest_ref_tracker_alloc16(&ref_dir, &tracker[15]);
	alloctest_ref_tracker_alloc17(&ref_dir, &tracker[16]);
	alloctest_ref_tracker_alloc18(&ref_dir, &tracker[17]);
	alloctest_ref_tracker_alloc19(&ref_dir, &tracker[18]);

	/* free all trackers but first 0 and 1. */
	for (int i = 2; i < 20; i++)
		assert_int_equal(ref_tracker_free(&ref_dir, &tracker[i]), 0);
	assert_int_equal(kobj_diag_count(*state), 0);

	/* Attempt to free an already freed tracker. */
	assert_int_equal(ref_tracker_free(&ref_dir, &tracker[2]), -EINVAL);
	assert_last_diag(state, "ref-tracker",
			 "ref_tracker: reference already released.\n"
			 "ref_tracker: allocated in:\n"
			 "    alloctest_ref_tracker_alloc3() at tests/core/test_ref_tracker.c:");
	assert_non_null(strstr(last_diag(state)->message,
			       "ref_tracker: freed in:\n"
			       "    the_kernel_selftest_reports_a_double_free_and_two_leaks() at "));

	/* This should warn about tracker[0] & tracker[1] being not freed. */
	ref_tracker_dir_exit(&ref_dir);
	assert_int_equal(kobj_diag_count(*state), 2);
	const char *leak = last_diag(state)->message;
	assert_non_null(strstr(leak, "ref_tracker: selftest@"));
	assert_non_null(strstr(leak, " has 1/2 users at\n"
				     "    alloctest_ref_tracker_alloc1() at "));
	assert_non_null(strstr(leak, " has 1/2 users at\n"
				     "    alloctest_ref_tracker_alloc2() at "));
	assert_null(strstr(leak, "alloc3"));
	assert_non_null(strstr(last_diag(state)->explanation, "found 2 tracker(s)"));
}

/* ======================================================== trackers of kobjects */

/* A net_device in miniature: a kobject, and a tracker directory for its references. */
struct netdev {
	struct kobject kobj;
	struct ref_tracker_dir refcnt_tracker;
};

static void netdev_release(struct kobject *kobj)
{
	released++;
	kfree(container_of(kobj, struct netdev, kobj));
}

static const struct kobj_type netdev_ktype = { .release = netdev_release };

static struct netdev *netdev_new(const char *name)
{
	struct netdev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	kobject_init(&dev->kobj, &netdev_ktype);
	assert_int_equal(kobject_add(&dev->kobj, NULL, "%s", name), 0);
	ref_tracker_dir_init(&dev->refcnt_tracker, 16, name);
	return dev;
}

/* netdev_hold() and netdev_put(), as include/linux/netdevice.h pairs them. */
static int get_line;

static void netdev_hold(struct netdev *dev, struct ref_tracker **trackerp)
{
	get_line = __LINE__ + 1;
	kobject_get(&dev->kobj);
	ref_tracker_alloc(&dev->refcnt_tracker, trackerp, GFP_KERNEL);
}

static void netdev_put(struct netdev *dev, struct ref_tracker **trackerp)
{
	ref_tracker_free(&dev->refcnt_tracker, trackerp);
	kobject_put(&dev->kobj);
}

static void a_tracker_carries_the_get_it_was_allocated_after(void **state)
{
	struct netdev *dev = netdev_new("eth0");
	struct ref_tracker *a, *b;
	const struct kobj_record *r = kobj_record_of(*state, &dev->kobj);

	netdev_hold(dev, &a);
	netdev_hold(dev, &b);
	struct kobj_ref refs[4];
	assert_int_equal(kobj_refs_of(*state, r->id, refs, 4), 3);
	assert_false(refs[0].tracked); /* the creator's */
	assert_true(refs[1].tracked);
	assert_true(refs[2].tracked);

	/* The put after a's free drops a's reference, not b's (the newest). */
	unsigned long a_serial = refs[1].serial, b_serial = refs[2].serial;
	netdev_put(dev, &a);
	assert_int_equal(kobj_refs_of(*state, r->id, refs, 4), 2);
	assert_int_equal(refs[1].serial, b_serial);
	assert_int_not_equal(refs[1].serial, a_serial);
	netdev_put(dev, &b);
	ref_tracker_dir_exit(&dev->refcnt_tracker);
	kobject_put(&dev->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* The bug only a tracker finds: a second put through the same reference while another
 * holder keeps the count up. The count says nothing is wrong; the tracker says which. */
static void a_second_put_through_the_same_tracker_is_caught_while_the_count_is_up(void **state)
{
	struct netdev *dev = netdev_new("eth0");
	struct ref_tracker *opener, *route;

	netdev_hold(dev, &opener);
	netdev_hold(dev, &route);
	netdev_put(dev, &opener);
	netdev_put(dev, &opener); /* the bug: route's reference is the one that goes */
	assert_int_equal(dev->kobj.kref.refcount.refs, 1);
	assert_int_equal(released, 0);
	assert_last_diag(state, "ref-tracker", "ref_tracker: reference already released.");
	const struct kobj_diag *d = last_diag(state);
	assert_non_null(strstr(d->message, "allocated in:\n    netdev_hold() at "));
	assert_non_null(strstr(d->message, "freed in:\n    netdev_put() at "));
	assert_non_null(strstr(d->explanation, "only the tracker can tell"));
	kobject_put(&dev->kobj);
	assert_int_equal(released, 1);
}

static void a_tracker_never_freed_names_its_get_at_exit(void **state)
{
	struct netdev *dev = netdev_new("eth0");
	struct ref_tracker *t;

	netdev_hold(dev, &t);
	ref_tracker_dir_print(&dev->refcnt_tracker, 16);
	char *text;
	CAPTURE(text, kobj_trace_print(*state, out));
	assert_non_null(strstr(text, "ref_tracker: eth0@"));
	assert_non_null(strstr(text, " has 1/1 users at\n    netdev_hold() at "));
	free(text);
	assert_int_equal(kobj_diag_count(*state), 0); /* printing is not a warning */

	ref_tracker_dir_exit(&dev->refcnt_tracker);
	assert_last_diag(state, "ref-tracker", " has 1/1 users at\n    netdev_hold() at ");
	char taken[96];
	snprintf(taken, sizeof(taken), "taken at tests/core/test_ref_tracker.c:%d by kobject_get, "
		 "still held", get_line);
	assert_non_null(strstr(last_diag(state)->explanation, taken));
	kobject_put(&dev->kobj);
	kobject_put(&dev->kobj);
	assert_int_equal(released, 1);
}

static void groups_beyond_the_limit_are_counted_as_skipped(void **state)
{
	ref_tracker_dir_init(&ref_dir, 4, "lo");
	alloctest_ref_tracker_alloc1(&ref_dir, &tracker[0]);
	alloctest_ref_tracker_alloc1(&ref_dir, &tracker[1]);
	alloctest_ref_tracker_alloc2(&ref_dir, &tracker[2]);
	alloctest_ref_tracker_alloc3(&ref_dir, &tracker[3]);
	ref_tracker_dir_print(&ref_dir, 1);
	char *text;
	CAPTURE(text, kobj_trace_print(*state, out));
	assert_non_null(strstr(text, " has 2/4 users at\n    alloctest_ref_tracker_alloc1() at "));
	assert_null(strstr(text, "alloctest_ref_tracker_alloc2"));
	assert_non_null(strstr(text, "ref_tracker: lo@"));
	assert_non_null(strstr(text, " skipped reports about 2/4 users."));
	free(text);
	for (int i = 0; i < 4; i++)
		ref_tracker_free(&ref_dir, &tracker[i]);
	ref_tracker_dir_exit(&ref_dir);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ================================================ the counters and the edges */

static void a_failed_allocation_is_said_once_and_its_free_returns_eexist(void **state)
{
	struct ref_tracker *t[2];
	ref_tracker_dir_init(&ref_dir, 4); /* 6.1's two arguments */
	assert_string_equal(ref_dir.name, "");
	kobj_world_fail_alloc(*state, 1);
	assert_int_equal(ref_tracker_alloc(&ref_dir, &t[0], GFP_KERNEL), -ENOMEM);
	assert_null(t[0]);
	kobj_world_fail_alloc(*state, 1);
	assert_int_equal(ref_tracker_alloc(&ref_dir, &t[1], GFP_KERNEL), -ENOMEM);
	assert_int_equal(kobj_diag_count(*state), 1); /* pr_err_once */
	assert_last_diag(state, "ref-tracker",
			 "ref_tracker: memory allocation failure, unreliable refcount tracker.");
	assert_int_equal(refcount_read(&ref_dir.untracked), 3);
	assert_int_equal(ref_tracker_free(&ref_dir, &t[0]), -EEXIST);
	assert_int_equal(ref_tracker_free(&ref_dir, &t[1]), -EEXIST);
	ref_tracker_dir_exit(&ref_dir);
	assert_int_equal(kobj_diag_count(*state), 1); /* balanced: no warning at exit */
}

static void unbalanced_untracked_references_and_a_dead_directory_warn_once(void **state)
{
	struct ref_tracker *t;
	ref_tracker_dir_init(&ref_dir, 4, "veth");
	ref_tracker_alloc(&ref_dir, NULL, GFP_KERNEL);
	ref_tracker_alloc(&ref_dir, NULL, GFP_KERNEL);
	ref_tracker_free(&ref_dir, NULL);
	ref_tracker_dir_exit(&ref_dir);
	assert_true(ref_dir.dead);
	assert_last_diag(state, "ref-tracker",
			 "WARNING: at lib/ref_tracker.c, ref_tracker_dir_exit(): "
			 "WARN_ON_ONCE(refcount_read(&dir->no_tracker) != 1)");

	ref_tracker_alloc(&ref_dir, &t, GFP_KERNEL);
	assert_last_diag(state, "ref-tracker", "ref_tracker_alloc(): WARN_ON_ONCE(dir->dead)");
	size_t n = kobj_diag_count(*state);
	ref_tracker_alloc(&ref_dir, &t, GFP_KERNEL);
	assert_int_equal(kobj_diag_count(*state), n); /* once */
}

static void a_tracker_pushed_out_of_the_quarantine_is_a_use_after_free(void **state)
{
	ref_tracker_dir_init(&ref_dir, 1, "tiny");
	alloctest_ref_tracker_alloc1(&ref_dir, &tracker[0]);
	alloctest_ref_tracker_alloc2(&ref_dir, &tracker[1]);
	ref_tracker_free(&ref_dir, &tracker[0]);
	ref_tracker_free(&ref_dir, &tracker[1]); /* the quarantine of 1 lets tracker[0] go */
	assert_int_equal(ref_tracker_free(&ref_dir, &tracker[1]), -EINVAL);
	assert_last_diag(state, "ref-tracker", "ref_tracker: reference already released.");
	assert_int_equal(ref_tracker_free(&ref_dir, &tracker[0]), -EINVAL);
	assert_last_diag(state, "ref-tracker",
			 "BUG: KASAN: slab-use-after-free in ref_tracker_free");
	assert_non_null(strstr(last_diag(state)->explanation, "later frees pushed it out"));
	ref_tracker_dir_exit(&ref_dir);
}

static void a_directory_never_initialised_or_a_foreign_tracker_is_refused(void **state)
{
	struct ref_tracker_dir never = { 0 };
	struct ref_tracker *t, *made_up = (struct ref_tracker *)&never;

	assert_int_equal(ref_tracker_alloc(&never, &t, GFP_KERNEL), -EINVAL);
	assert_last_diag(state, "ref-tracker", "BUG: kernel NULL pointer dereference");
	ref_tracker_dir_init(&ref_dir, 4, "a");
	assert_int_equal(ref_tracker_free(&ref_dir, &made_up), -EINVAL);
	assert_last_diag(state, "ref-tracker", "list_del corruption");
	ref_tracker_dir_exit(&ref_dir);
}

/* Reports read every tracker message the kernel prints in the catalogue's words. */
static void the_report_prints_each_message_once(void **state)
{
	struct netdev *dev = netdev_new("eth1");
	struct ref_tracker *t;
	netdev_hold(dev, &t);
	netdev_put(dev, &t);
	netdev_put(dev, &t);
	char *text = diags_text(state);
	assert_int_equal(count_of(text, "ref_tracker: reference already released."), 1);
	free(text);
	kobject_put(&dev->kobj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(the_kernel_selftest_reports_a_double_free_and_two_leaks),
		TEST(a_tracker_carries_the_get_it_was_allocated_after),
		TEST(a_second_put_through_the_same_tracker_is_caught_while_the_count_is_up),
		TEST(a_tracker_never_freed_names_its_get_at_exit),
		TEST(groups_beyond_the_limit_are_counted_as_skipped),
		TEST(a_failed_allocation_is_said_once_and_its_free_returns_eexist),
		TEST(unbalanced_untracked_references_and_a_dead_directory_warn_once),
		TEST(a_tracker_pushed_out_of_the_quarantine_is_a_use_after_free),
		TEST(a_directory_never_initialised_or_a_foreign_tracker_is_refused),
		TEST(the_report_prints_each_message_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
