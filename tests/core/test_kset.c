/* ksets and subsystems: membership, default parents, the ktype rule, the rwsem. */
#include <errno.h>
#include <time.h>

#include "tests/core/fixture.h"

static decl_subsys(devices, &my_ktype, NULL);

static int bus_released;
static void bus_release(struct kobject *kobj)
{
	(void)kobj;
	bus_released++;
}
static struct kobj_type bus_ktype = { .release = bus_release };

/* A registered subsystem and a kset inside it, as most tests need. */
struct tree {
	struct subsystem sub;
	struct kset kset;
};

static void make_tree(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	kobject_set_name(&t->sub.kset.kobj, "bus");
	assert_int_equal(subsystem_register(&t->sub), 0);
	kobject_set_name(&t->kset.kobj, "drivers");
	t->kset.subsys = &t->sub;
	t->kset.ktype = &my_ktype;
	assert_int_equal(kset_register(&t->kset), 0);
}

static void unmake_tree(struct tree *t)
{
	kset_unregister(&t->kset);
	subsystem_unregister(&t->sub);
}

static void decl_subsys_names_the_subsystem(void **state)
{
	assert_string_equal(kobject_name(&devices_subsys.kset.kobj), "devices");
	assert_ptr_equal(devices_subsys.kset.ktype, &my_ktype);
	assert_int_equal(subsystem_register(&devices_subsys), 0);
	assert_ptr_equal(devices_subsys.kset.subsys, &devices_subsys);
	assert_non_null(sysfs_lookup(*state, "/sys/devices"));
	assert_int_equal(kobj_record_by_id(*state, 1)->kind, KOBJ_KIND_SUBSYSTEM);
	subsystem_unregister(&devices_subsys);
	assert_null(sysfs_lookup(*state, "/sys/devices"));
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void kset_goes_under_its_subsystem(void **state)
{
	struct tree t;
	make_tree(&t);
	assert_non_null(sysfs_lookup(*state, "/sys/bus/drivers"));
	assert_ptr_equal(t.kset.kobj.parent, &t.sub.kset.kobj);
	assert_int_equal(kobj_record_of(*state, &t.kset.kobj)->kind, KOBJ_KIND_KSET);
	unmake_tree(&t);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void member_defaults_to_kset_parent(void **state)
{
	struct tree t;
	make_tree(&t);
	struct my_object *o = new_object("e1000");
	o->kobj.kset = &t.kset;
	assert_int_equal(kobject_register(&o->kobj), 0);
	assert_ptr_equal(o->kobj.parent, &t.kset.kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/bus/drivers/e1000"));
	assert_ptr_equal(o->kobj.entry.prev, &t.kset.list);
	/* one reference as parent, one as kset, on top of its own two */
	assert_int_equal(kobject_refcount(&t.kset.kobj), 4);
	kobject_unregister(&o->kobj);
	assert_int_equal(kobject_refcount(&t.kset.kobj), 2);
	assert_true(list_empty(&t.kset.list));
	unmake_tree(&t);
}

static void explicit_parent_keeps_membership(void **state)
{
	struct tree t;
	make_tree(&t);
	struct my_object *elsewhere = new_object("elsewhere");
	kobject_register(&elsewhere->kobj);
	struct my_object *o = new_object("member");
	o->kobj.kset = &t.kset;
	o->kobj.parent = &elsewhere->kobj;
	kobject_register(&o->kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/elsewhere/member"));
	assert_null(sysfs_lookup(*state, "/sys/bus/drivers/member"));
	assert_ptr_equal(kset_find_obj(&t.kset, "member"), &o->kobj);
	kobject_unregister(&o->kobj);
	kobject_unregister(&elsewhere->kobj);
	unmake_tree(&t);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void kset_ktype_wins(void **state)
{
	struct tree t;
	make_tree(&t);
	t.kset.ktype = &bus_ktype;
	bus_released = 0;
	struct my_object *o = new_object("typed");
	o->kobj.kset = &t.kset; /* its own my_ktype is not used */
	kobject_register(&o->kobj);
	kobject_unregister(&o->kobj);
	assert_int_equal(bus_released, 1);
	assert_int_equal(released, 0);
	free(o);
	unmake_tree(&t);
}

static void kset_keeps_members_parent_alive(void **state)
{
	struct tree t;
	make_tree(&t);
	struct my_object *o = new_object("holder");
	o->kobj.kset = &t.kset;
	kobject_register(&o->kobj);
	kobject_del(&o->kobj); /* out of sysfs and the list, but still referenced */
	kset_unregister(&t.kset);
	assert_false(kobj_record_of(*state, &t.kset.kobj)->released);
	kobject_put(&o->kobj);
	assert_true(kobj_record_of(*state, &t.kset.kobj)->released);
	subsystem_unregister(&t.sub);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void find_obj_takes_no_reference(void **state)
{
	struct tree t;
	make_tree(&t);
	struct my_object *a = new_object("a"), *b = new_object("b");
	a->kobj.kset = b->kobj.kset = &t.kset;
	kobject_register(&a->kobj);
	kobject_register(&b->kobj);
	assert_ptr_equal(kset_find_obj(&t.kset, "b"), &b->kobj);
	assert_int_equal(kobject_refcount(&b->kobj), 2);
	assert_null(kset_find_obj(&t.kset, "c"));
	assert_null(kset_find_obj(NULL, "a"));
	assert_true(t.sub.rwsem.acquired >= 3); /* two adds wrote, the finds read */
	kobject_unregister(&a->kobj);
	kobject_unregister(&b->kobj);
	unmake_tree(&t);
}

static void find_obj_in_a_kset_never_kset_inited(void **state)
{
	struct kset ks = { 0 };
	kobject_set_name(&ks.kobj, "plain");
	kobject_init(&ks.kobj); /* not kset_init: its list was never set up */
	assert_null(kset_find_obj(&ks, "x"));
	kobject_put(&ks.kobj);
}

static void kset_and_subsys_get_put(void **state)
{
	struct tree t;
	make_tree(&t);
	assert_ptr_equal(kset_get(&t.kset), &t.kset);
	assert_ptr_equal(subsys_get(&t.sub), &t.sub);
	assert_int_equal(kobject_refcount(&t.kset.kobj), 3);
	kset_put(&t.kset);
	subsys_put(&t.sub);
	assert_null(kset_get(NULL));
	assert_null(subsys_get(NULL));
	kset_put(NULL);
	subsys_put(NULL);
	unmake_tree(&t);
	assert_null(kset_get(&t.kset)); /* released */
	assert_last_diag(state, "get-released", "Badness in kobject_get");
}

static void duplicate_names_across_ksets(void **state)
{
	struct tree t;
	make_tree(&t);
	struct kset other = { .subsys = &t.sub, .ktype = &my_ktype };
	kobject_set_name(&other.kobj, "devices");
	kset_register(&other);
	struct my_object *a = new_object("eth0"), *b = new_object("eth0");
	a->kobj.kset = &t.kset;
	b->kobj.kset = &other;
	assert_int_equal(kobject_register(&a->kobj), 0);
	assert_int_equal(kobject_register(&b->kobj), 0);
	kobject_unregister(&a->kobj);
	kobject_unregister(&b->kobj);
	kset_unregister(&other);
	unmake_tree(&t);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ------------------------------------------------------------ the lock is simulated */

/* The rwsem is simulated: one held by a thread that never runs again is a deadlock. */
static void waiting_for_a_lock_nobody_releases_is_a_deadlock(void **state)
{
	struct tree t;
	make_tree(&t);
	struct my_object *late = new_object("late");
	late->kobj.kset = &t.kset;
	kobject_init(&late->kobj);

	t.sub.rwsem.readers = 1u << 3; /* a reader that will never let go */
	assert_int_equal(kobject_add(&late->kobj), -EDEADLK);
	assert_last_diag(state, "deadlock", "INFO: task blocked for more than 120 seconds.");
	assert_null(sysfs_lookup(*state, "/sys/bus/drivers/late"));
	assert_int_equal(kobject_refcount(&late->kobj), 1); /* what add took, it gave back */
	t.sub.rwsem.readers = 0;
	assert_int_equal(kobject_add(&late->kobj), 0);
	assert_ptr_equal(kset_find_obj(&t.kset, "late"), &late->kobj);

	kobject_unregister(&late->kobj);
	unmake_tree(&t);
}

static void rwsem_trylocks(void **state)
{
	struct rw_semaphore sem = RWSEM_INITIALIZER;
	assert_int_equal(down_write_trylock(&sem), 1);
	assert_int_equal(down_read_trylock(&sem), 0);
	up_write(&sem);
	assert_int_equal(down_read_trylock(&sem), 1);
	assert_int_equal(rwsem_is_held(&sem), 1);
	up_read(&sem);
	assert_int_equal(rwsem_is_held(&sem), 0);
	up_read(&sem); /* not held: ignored */
	assert_int_equal(sem.readers, 0);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(decl_subsys_names_the_subsystem),
		TEST(kset_goes_under_its_subsystem),
		TEST(member_defaults_to_kset_parent),
		TEST(explicit_parent_keeps_membership),
		TEST(kset_ktype_wins),
		TEST(kset_keeps_members_parent_alive),
		TEST(find_obj_takes_no_reference),
		TEST(find_obj_in_a_kset_never_kset_inited),
		TEST(kset_and_subsys_get_put),
		TEST(duplicate_names_across_ksets),
		TEST(waiting_for_a_lock_nobody_releases_is_a_deadlock),
		TEST(rwsem_trylocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
