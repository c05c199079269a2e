/*
 * The kernel's kobject debug options as world settings: DEBUG_KOBJECT's pr_debug trace
 * of each lifecycle step, and DEBUG_KOBJECT_RELEASE's delayed release on a virtual clock,
 * with what it exposes: a get, a put or a kfree() after the last put.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"

struct thing {
	struct kobject kobj;
	int value;
};

static int thing_releases;

static void thing_release(struct kobject *kobj)
{
	thing_releases++;
	kfree(container_of(kobj, struct thing, kobj));
}

static const struct kobj_type thing_ktype = { .release = thing_release };

static int setup(void **state)
{
	thing_releases = 0;
	return world_setup(state);
}

#define DTEST(f) cmocka_unit_test_setup_teardown(f, setup, world_teardown)

static struct thing *new_thing(struct kset *set, struct kobject *parent, const char *name)
{
	struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
	t->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&t->kobj, &thing_ktype, parent, "%s", name), 0);
	return t;
}

/* The fake "%p" of @obj, as the messages print it. */
static const char *ptr(void **state, const void *obj, char buf[17])
{
	return kobj_fake_pointer(kobj_record_of(*state, obj)->id, buf);
}

/* All of the kernel log as one string. */
static char *dmesg(void **state)
{
	char *text = NULL;
	CAPTURE(text, kobj_trace_print(*state, out));
	return text;
}

/* -------------------------------------------------------------------- DEBUG_KOBJECT */

static void debug_kobject_traces_each_step(void **state)
{
	char p[17], s[17], expected[2048];

	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	assert_int_equal(kobj_world_debug(*state), KOBJ_DEBUG_KOBJECT);
	struct kset *set = kset_create_and_add("set", NULL, NULL);
	struct thing *t = new_thing(set, NULL, "t");
	kobject_uevent(&t->kobj, KOBJ_ADD);
	kobject_put(&t->kobj);
	ptr(state, t, p);
	ptr(state, &set->kobj, s);

	char *text = dmesg(state);
	snprintf(expected, sizeof(expected),
		 "[    0.000000] kobject: 'set' (%s): kobject_add_internal: parent: '<NULL>', "
		 "set: '<NULL>'\n"
		 "[    0.000000] kobject: 'set' (%s): kobject_uevent_env\n"
		 "[    0.000000] kobject: 'set' (%s): kobject_uevent_env: attempted to send "
		 "uevent without kset!\n"
		 "[    0.000000] kobject: 't' (%s): kobject_add_internal: parent: 'set', "
		 "set: 'set'\n"
		 "[    0.000000] kobject: 't' (%s): kobject_uevent_env\n"
		 "[    0.000000] kobject: 't' (%s): fill_kobj_path: path = '/set/t'\n"
		 "[    0.000000] kobject: 't' (%s): kobject_cleanup, parent %s\n"
		 "[    0.000000] kobject: 't' (%s): auto cleanup kobject_del\n"
		 "[    0.000000] kobject: 't' (%s): auto cleanup 'remove' event\n"
		 "[    0.000000] kobject: 't' (%s): kobject_uevent_env\n"
		 "[    0.000000] kobject: 't' (%s): fill_kobj_path: path = '/set/t'\n"
		 "[    0.000000] kobject: 't' (%s): calling ktype release\n"
		 "[    0.000000] kobject: 't': free name\n",
		 s, s, s, p, p, p, p, s, p, p, p, p, p);
	assert_string_equal(text, expected);
	free(text);

	size_t n = kobj_trace_count(*state);
	kset_unregister(set);
	text = dmesg(state);
	assert_non_null(strstr(text, "kobject: 'set' (")); /* and so on, then: */
	assert_non_null(strstr(text, "): kset_release\n"));
	assert_true(kobj_trace_count(*state) > n);
	assert_int_equal(kobj_trace_at(*state, n)->level, KOBJ_LOGLEVEL_DEBUG);
	free(text);
	assert_int_equal(thing_releases, 1);
}

static void without_debug_nothing_is_traced(void **state)
{
	struct thing *t = new_thing(NULL, NULL, "t");
	kobject_put(&t->kobj);
	assert_int_equal(kobj_trace_count(*state), 0);
	assert_int_equal(kobj_world_debug(*state), 0);
}

static void dynamic_objects_trace_their_release(void **state)
{
	char p[17];

	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	struct kobject *k = kobject_create_and_add("dyn", NULL);
	ptr(state, k, p);
	kobject_put(k);
	const struct kobj_trace *t = kobj_trace_at(*state, kobj_trace_count(*state) - 2);
	char expected[64];
	snprintf(expected, sizeof(expected), "kobject: (%s): dynamic_kobj_release", p);
	assert_string_equal(t->text, expected);
}

static void article_objects_stay_silent(void **state)
{
	struct my_object *o = new_object("old");

	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT | KOBJ_DEBUG_RELEASE);
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), 0);
	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);                  /* at once: 2.6.0 had no delay */
	assert_int_equal(kobj_trace_count(*state), 0);   /* nor these messages */
	assert_int_equal(kobj_world_pending_releases(*state), 0);
}

static void printk_levels(void **state)
{
	kobj_printk(KOBJ_LOGLEVEL_INFO, "hello %d", 1);
	kobj_printk(KOBJ_LOGLEVEL_DEBUG, "hidden");
	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	kobj_printk(KOBJ_LOGLEVEL_DEBUG, "shown");
	kobj_printk(KOBJ_LOGLEVEL_ERR, "bad");
	assert_int_equal(kobj_trace_count(*state), 3);
	assert_string_equal(kobj_trace_at(*state, 0)->text, "hello 1");
	assert_string_equal(kobj_trace_at(*state, 1)->text, "shown");
	assert_int_equal(kobj_trace_at(*state, 2)->level, KOBJ_LOGLEVEL_ERR);
	assert_null(kobj_trace_at(*state, 3));
}

/* ------------------------------------------------------------ DEBUG_KOBJECT_RELEASE */

static void the_last_put_only_queues_the_release(void **state)
{
	char p[17], pp[17], expected[256];

	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	kobj_world_set_release_delay(*state, 2 * HZ);
	struct thing *parent = new_thing(NULL, NULL, "parent");
	struct thing *t = new_thing(NULL, &parent->kobj, "t");
	ptr(state, t, p);
	ptr(state, parent, pp);
	kobject_put(&parent->kobj);

	kobject_put(&t->kobj);
	snprintf(expected, sizeof(expected),
		 "kobject: 't' (%s): kobject_release, parent %s (delayed 200)", p, pp);
	const struct kobj_trace *line = kobj_trace_at(*state, 0);
	assert_string_equal(line->text, expected);
	assert_int_equal(line->level, KOBJ_LOGLEVEL_INFO); /* printed without DEBUG_KOBJECT */
	const struct kobj_record *r = kobj_record_of(*state, t);
	assert_int_equal(r->refcount, 0);
	assert_true(r->release_pending);
	assert_false(r->released);
	assert_true(r->in_sysfs); /* the cleanup, auto del included, is what waits */
	assert_int_equal(thing_releases, 0);
	assert_int_equal(kobj_world_pending_releases(*state), 1);

	assert_int_equal(kobj_world_advance(*state, 2 * HZ - 1), 0);
	assert_int_equal(thing_releases, 0);
	assert_int_equal(kobj_world_advance(*state, 1), 1);
	assert_int_equal(thing_releases, 1);
	assert_true(r->released);
	assert_false(r->release_pending);
	assert_null(sysfs_lookup(*state, "/sys/parent/t"));

	/* the parent's last reference went with the child's cleanup: delayed in its turn */
	assert_int_equal(kobj_world_pending_releases(*state), 1);
	assert_int_equal(kobj_world_now(*state), 200);
	assert_int_equal(kobj_world_advance(*state, 2 * HZ), 1);
	assert_int_equal(thing_releases, 2);
	assert_int_equal(kobj_diag_count(*state), 0);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void delays_are_one_to_four_seconds_and_repeatable(void **state)
{
	long first[8];
	struct kobj_world *w2 = kobj_world_new();

	for (int round = 0; round < 2; round++) {
		struct kobj_world *w = round ? w2 : *state;
		kobj_world_use(w);
		kobj_world_set_debug(w, KOBJ_DEBUG_RELEASE);
		for (int i = 0; i < 8; i++) {
			struct thing *t = new_thing(NULL, NULL, "t");
			kobject_put(&t->kobj);
			const char *text = kobj_trace_at(w, (size_t)i)->text;
			long d = strtol(strstr(text, "(delayed ") + 9, NULL, 10);
			assert_in_range(d, HZ, 4 * HZ);
			assert_int_equal(d % HZ, 0);
			if (round)
				assert_int_equal(d, first[i]); /* the same sequence in every world */
			else
				first[i] = d;
			kobj_world_advance(w, 4 * HZ);
		}
	}
	kobj_world_use(*state);
	kobj_world_free(w2);
	int distinct = 0;
	for (int i = 1; i < 8; i++)
		distinct += first[i] != first[0];
	assert_true(distinct > 0);

	kobj_world_set_release_seed(*state, 12345);
	struct thing *t = new_thing(NULL, NULL, "t");
	kobject_put(&t->kobj);
	assert_int_equal(kobj_world_pending_releases(*state), 1);
	kobj_world_advance(*state, 4 * HZ);
	assert_int_equal(thing_releases, 17);
}

static void a_get_in_the_window_is_reported(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	kobj_world_set_release_delay(*state, HZ);
	struct thing *t = new_thing(NULL, NULL, "t");
	kobject_put(&t->kobj);

	assert_ptr_equal(kobject_get(&t->kobj), &t->kobj); /* today's get cannot fail */
	assert_last_diag(state, "get-released", "refcount_t: addition on 0; use-after-free.");
	assert_non_null(strstr(last_diag(state)->explanation, "DEBUG_KOBJECT_RELEASE"));
	assert_non_null(strstr(last_diag(state)->explanation, "test_debug.c:"));
	const struct kobj_record *r = kobj_record_of(*state, t);
	assert_int_equal(r->refcount, REFCOUNT_SATURATED);

	kobject_put(&t->kobj); /* saturated stays saturated */
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_int_equal(r->refcount, REFCOUNT_SATURATED);
	assert_ptr_equal(kobject_get_unless_zero(&t->kobj), &t->kobj); /* not 0: it "works" */
	assert_last_diag(state, "refcount-saturated", "refcount_t: saturated; leaking memory.");

	/* the queued release runs anyway: the holder of that pointer now holds freed memory */
	assert_int_equal(kobj_world_advance(*state, HZ), 1);
	assert_int_equal(thing_releases, 1);
	assert_true(r->released);
	assert_int_equal(r->refcount, 0);
}

static void get_unless_zero_in_the_window_fails_quietly(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	struct thing *t = new_thing(NULL, NULL, "t");
	kobject_put(&t->kobj);
	size_t diags = kobj_diag_count(*state);
	assert_null(kobject_get_unless_zero(&t->kobj));
	assert_int_equal(kobj_diag_count(*state), diags);
	kobj_world_advance(*state, 4 * HZ);
	assert_int_equal(thing_releases, 1);
}

static void a_put_in_the_window_is_one_too_many(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	struct thing *t = new_thing(NULL, NULL, "t");
	kobject_put(&t->kobj);
	kobject_put(&t->kobj);
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_non_null(strstr(last_diag(state)->explanation, "one too many"));
	assert_int_equal(kobj_world_pending_releases(*state), 1);
	kobj_world_advance(*state, 4 * HZ);
	assert_int_equal(thing_releases, 1);
}

static void kfree_in_the_window_is_caught(void **state)
{
	struct kset *set = kset_create_and_add("set", NULL, NULL);
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	kobj_world_set_release_delay(*state, HZ);
	struct thing *t = new_thing(set, NULL, "a-name-longer-than-twenty");
	unsigned id = kobj_record_of(*state, t)->id;
	char p[17], msg[256];

	kobject_put(&t->kobj);
	kfree(t); /* "the last put freed it", says the buggy code */
	snprintf(msg, sizeof(msg), "ODEBUG: free active (active state 0) object: %s object "
		 "type: timer_list hint: kobject_delayed_cleanup", kobj_fake_pointer(id, p));
	assert_last_diag(state, "freed-before-release", msg);
	assert_non_null(strstr(last_diag(state)->explanation, "test_debug.c:"));
	assert_null(sysfs_lookup(*state, "/sys/set/a-name-longer-than-twenty"));
	assert_ptr_equal(set->list.next, &set->list); /* out of the kset before it went */
	assert_true(kobj_record_by_id(*state, id)->released);
	assert_int_equal(thing_releases, 0); /* the ktype's release never ran */

	assert_int_equal(kobj_world_advance(*state, HZ), 1);
	assert_last_diag(state, "use-after-free",
			 "BUG: KASAN: slab-use-after-free in kobject_delayed_cleanup");
	assert_int_equal(thing_releases, 0);
	assert_int_equal(kobj_world_pending_releases(*state), 0);

	kset_unregister(set);
	kobj_world_advance(*state, 4 * HZ);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void world_teardown_runs_what_is_pending(void **state)
{
	struct kobj_world *w = kobj_world_new();
	struct kobj_world *was = kobj_world_use(w);

	kobj_world_set_debug(w, KOBJ_DEBUG_RELEASE);
	struct kobject *top = kobject_create_and_add("top", kernel_kobj);
	struct thing *t = new_thing(NULL, top, "t");
	kobject_put(top);
	kobject_put(&t->kobj);
	assert_int_equal(kobj_world_pending_releases(w), 1);
	kobj_world_use(was);
	kobj_world_free(w); /* runs t's release, then top's; LeakSanitizer checks the rest */
	assert_int_equal(thing_releases, 1);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DTEST(debug_kobject_traces_each_step),
		DTEST(without_debug_nothing_is_traced),
		DTEST(dynamic_objects_trace_their_release),
		DTEST(article_objects_stay_silent),
		DTEST(printk_levels),
		DTEST(the_last_put_only_queues_the_release),
		DTEST(delays_are_one_to_four_seconds_and_repeatable),
		DTEST(a_get_in_the_window_is_reported),
		DTEST(get_unless_zero_in_the_window_fails_quietly),
		DTEST(a_put_in_the_window_is_one_too_many),
		DTEST(kfree_in_the_window_is_caught),
		DTEST(world_teardown_runs_what_is_pending),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
