/* kobjects: init, names, reference counts and release. */
#include <errno.h>

#include "tests/core/fixture.h"

static void init_sets_count_to_one(void **state)
{
	struct my_object *o = new_object("one");
	kobject_init(&o->kobj);
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	assert_int_equal(o->kobj.refcount, 1);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	(void)state;
}

static void get_and_put_pair_up(void **state)
{
	struct my_object *o = new_object("pair");
	kobject_init(&o->kobj);
	assert_ptr_equal(kobject_get(&o->kobj), &o->kobj);
	assert_ptr_equal(kobject_get(&o->kobj), &o->kobj);
	assert_int_equal(kobject_refcount(&o->kobj), 3);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(released, 0);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void null_is_harmless(void **state)
{
	assert_null(kobject_get(NULL));
	kobject_put(NULL);
	kobject_del(NULL);
	kobject_unregister(NULL);
	assert_int_equal(kobject_add(NULL), -EINVAL);
	assert_int_equal(kobject_register(NULL), -EINVAL);
	assert_int_equal(kobject_refcount(NULL), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void short_name_lives_inline(void **state)
{
	struct my_object *o = new_object(NULL);
	kobject_init(&o->kobj);
	assert_int_equal(kobject_set_name(&o->kobj, "dev%d", 7), 0);
	assert_ptr_equal(o->kobj.k_name, o->kobj.name);
	assert_string_equal(kobject_name(&o->kobj), "dev7");
	assert_string_equal(kobj_record_of(*state, o)->name, "dev7");
	kobject_put(&o->kobj);
}

static void long_name_is_allocated_whole(void **state)
{
	struct my_object *o = new_object(NULL);
	kobject_init(&o->kobj);
	assert_int_equal(kobject_set_name(&o->kobj, "%s-%s", "a-very-long-name",
					  "that-does-not-fit-in-twenty"), 0);
	assert_ptr_not_equal(o->kobj.k_name, o->kobj.name);
	assert_string_equal(kobject_name(&o->kobj),
			    "a-very-long-name-that-does-not-fit-in-twenty");
	/* renaming frees the old allocation (ASan would see a leak otherwise) */
	assert_int_equal(kobject_set_name(&o->kobj, "short"), 0);
	assert_ptr_equal(o->kobj.k_name, o->kobj.name);
	assert_int_equal(kobject_set_name(&o->kobj, "%040d", 0), 0);
	kobject_put(&o->kobj);
	(void)state;
}

static void slash_in_name_becomes_bang(void **state)
{
	struct my_object *o = new_object("cciss/c0d0");
	assert_string_equal(kobject_name(&o->kobj), "cciss!c0d0");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	(void)state;
}

static void set_name_can_fail(void **state)
{
	struct my_object *o = new_object("before");
	kobject_init(&o->kobj);
	kobj_world_fail_alloc(*state, 1);
	assert_int_equal(kobject_set_name(&o->kobj, "after"), -ENOMEM);
	assert_string_equal(kobject_name(&o->kobj), "before");
	/* only the one allocation fails */
	assert_int_equal(kobject_set_name(&o->kobj, "after"), 0);
	assert_string_equal(kobject_name(&o->kobj), "after");
	kobject_put(&o->kobj);
}

static void set_name_without_format(void **state)
{
	struct my_object *o = new_object(NULL);
	kobject_init(&o->kobj);
	assert_int_equal(kobject_set_name(&o->kobj, NULL), -EINVAL);
	assert_last_diag(state, "set-name-failed", "kobject: can not set name properly!");
	kobject_set_name(&o->kobj, "named");
	assert_int_equal(kobject_set_name(&o->kobj, NULL), 0);
	assert_string_equal(kobject_name(&o->kobj), "named");
	kobject_put(&o->kobj);
}

static void name_set_before_init_is_kept(void **state)
{
	struct my_object *o = new_object("early");
	kobject_init(&o->kobj);
	assert_string_equal(kobj_record_of(*state, o)->name, "early");
	kobject_put(&o->kobj);
}

static void get_after_release_returns_null(void **state)
{
	struct my_object *o = new_object("gone");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	/* o is freed: the world answers from its record without reading it */
	assert_null(kobject_get(&o->kobj));
	assert_last_diag(state, "get-released", "Badness in kobject_get at lib/kobject.c:431");
	assert_int_equal(kobject_refcount(&o->kobj), 0);
}

static void release_runs_once_and_last(void **state)
{
	struct my_object *o = new_object("last");
	kobject_init(&o->kobj);
	kobject_get(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(released, 0);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	const struct kobj_record *r = kobj_record_by_id(*state, 1);
	assert_true(r->released);
	assert_int_equal(r->refcount, 0);
}

static void register_holds_two_and_unregister_releases(void **state)
{
	struct my_object *o = new_object("reg");
	assert_int_equal(kobject_register(&o->kobj), 0);
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	assert_non_null(sysfs_lookup(*state, "/sys/reg"));
	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
	assert_null(sysfs_lookup(*state, "/sys/reg"));
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void del_keeps_creator_reference(void **state)
{
	struct my_object *o = new_object("two-stage");
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), 0);
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	kobject_del(&o->kobj);
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	assert_int_equal(released, 0);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void child_keeps_parent_alive(void **state)
{
	struct my_object *parent = new_object("parent");
	struct my_object *child = new_object("child");
	kobject_register(&parent->kobj);
	child->kobj.parent = &parent->kobj;
	kobject_register(&child->kobj);
	assert_int_equal(kobject_refcount(&parent->kobj), 3);
	assert_non_null(sysfs_lookup(*state, "/sys/parent/child"));

	kobject_unregister(&parent->kobj);
	assert_int_equal(released, 0); /* the child still holds it */
	kobject_unregister(&child->kobj);
	assert_int_equal(released, 2);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void parent_released_after_child(void **state)
{
	struct my_object *parent = new_object("p");
	struct my_object *child = new_object("c");
	kobject_init(&parent->kobj);
	kobject_add(&parent->kobj);
	child->kobj.parent = &parent->kobj;
	kobject_register(&child->kobj);
	kobject_del(&parent->kobj);
	kobject_put(&parent->kobj);
	kobject_unregister(&child->kobj);

	size_t child_release = 0, parent_release = 0;
	for (size_t i = 0; i < kobj_log_count(*state); i++) {
		const struct kobj_event *ev = event_at(*state, i);
		if (ev->kind != KOBJ_EV_RELEASE)
			continue;
		if (ev->obj == 1)
			parent_release = i;
		else
			child_release = i;
	}
	assert_true(child_release && parent_release > child_release);
}

static void deep_chain_releases_without_recursion(void **state)
{
	enum { DEPTH = 100000 };
	struct my_object **chain = calloc(DEPTH, sizeof(*chain));
	for (int i = 0; i < DEPTH; i++) {
		chain[i] = new_object("n");
		chain[i]->kobj.parent = i ? &chain[i - 1]->kobj : NULL;
		assert_int_equal(kobject_register(&chain[i]->kobj), 0);
	}
	/* Leave each object held only by its child; the deepest by its creator. */
	for (int i = 0; i < DEPTH; i++) {
		kobject_del(&chain[i]->kobj);
		if (i < DEPTH - 1)
			kobject_put(&chain[i]->kobj);
	}
	assert_int_equal(released, 0);
	kobject_put(&chain[DEPTH - 1]->kobj);
	assert_int_equal(released, DEPTH);
	assert_int_equal(kobj_diag_count(*state), 0);
	free(chain);
}

static void get_ktype_prefers_the_ksets(void **state)
{
	static struct kobj_type kset_type = { .release = my_object_release };
	struct kset ks = { .ktype = &kset_type };
	struct kobject k = { .ktype = &my_ktype };
	assert_ptr_equal(get_ktype(&k), &my_ktype);
	k.kset = &ks;
	assert_ptr_equal(get_ktype(&k), &kset_type);
	ks.ktype = NULL;
	assert_ptr_equal(get_ktype(&k), &my_ktype);
	(void)state;
}

static void container_of_finds_the_container(void **state)
{
	struct my_object o;
	struct kobject *kp = &o.kobj;
	assert_ptr_equal(container_of(kp, struct my_object, kobj), &o);
	(void)state;
}

static void world_use_switches_worlds(void **state)
{
	struct kobj_world *other = kobj_world_new();
	struct my_object *o = new_object("elsewhere");
	kobj_world_use(other);
	kobject_register(&o->kobj);
	assert_non_null(sysfs_lookup(other, "/sys/elsewhere"));
	assert_null(sysfs_lookup(*state, "/sys/elsewhere"));
	kobject_unregister(&o->kobj);
	kobj_world_use(*state);
	assert_int_equal(kobj_record_count(*state), 0);
	kobj_world_free(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(init_sets_count_to_one),
		TEST(get_and_put_pair_up),
		TEST(null_is_harmless),
		TEST(short_name_lives_inline),
		TEST(long_name_is_allocated_whole),
		TEST(slash_in_name_becomes_bang),
		TEST(set_name_can_fail),
		TEST(set_name_without_format),
		TEST(name_set_before_init_is_kept),
		TEST(get_after_release_returns_null),
		TEST(release_runs_once_and_last),
		TEST(register_holds_two_and_unregister_releases),
		TEST(del_keeps_creator_reference),
		TEST(child_keeps_parent_alive),
		TEST(parent_released_after_child),
		TEST(deep_chain_releases_without_recursion),
		TEST(get_ktype_prefers_the_ksets),
		TEST(container_of_finds_the_container),
		TEST(world_use_switches_worlds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
