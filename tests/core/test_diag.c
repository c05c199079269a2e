/* Every misuse the kernel warns about: its text, its origin, and a model left consistent. */
#include <errno.h>

#include "tests/core/fixture.h"

/* The explanation names this file and a line. */
static void assert_explained_here(void **state)
{
	const struct kobj_diag *d = last_diag(state);
	assert_non_null(d);
	assert_non_null(d->origin.file);
	assert_non_null(strstr(d->origin.file, "test_diag.c"));
	assert_true(d->origin.line > 0);
	char where[64];
	snprintf(where, sizeof(where), "test_diag.c:%d", d->origin.line);
	assert_non_null(strstr(d->explanation, where));
}

static void get_before_init(void **state)
{
	struct my_object *o = new_object("early");
	assert_null(kobject_get(&o->kobj));
	assert_last_diag(state, "get-uninitialized",
			 "kobject: 'early' (");
	assert_non_null(strstr(last_diag(state)->message,
			       "): is not initialized, yet kobject_get() is being called."));
	assert_explained_here(state);
	assert_int_equal(o->kobj.refcount, 0);
	free(o);
}

static void put_before_init(void **state)
{
	struct my_object *o = new_object("early");
	kobject_put(&o->kobj);
	assert_last_diag(state, "put-uninitialized",
			 "): is not initialized, yet kobject_put() is being called.");
	assert_explained_here(state);
	assert_int_equal(released, 0);
	free(o);
}

static void init_twice_is_refused(void **state)
{
	struct my_object *o = new_object("twice");
	kobject_init(&o->kobj);
	kobject_get(&o->kobj);
	kobject_init(&o->kobj);
	assert_last_diag(state, "init-twice",
			 "tried to init an initialized object, something is seriously wrong.");
	assert_explained_here(state);
	assert_int_equal(kobject_refcount(&o->kobj), 2); /* not reset to 1 */
	assert_int_equal(kobj_record_count(*state), 1);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

static void init_null(void **state)
{
	kobject_init(NULL);
	assert_last_diag(state, "invalid-pointer",
			 "kobject (0000000000000000): invalid kobject pointer!");
}

static void missing_release_is_reported_at_release(void **state)
{
	static struct kobj_type no_release_type = { 0 };
	struct kobject *k = calloc(1, sizeof(*k));
	k->ktype = &no_release_type;
	kobject_set_name(k, "broken");
	kobject_init(k);
	assert_int_equal(kobj_diag_count(*state), 0);
	kobject_put(k);
	assert_last_diag(state, "no-release",
			 "kobject: 'broken' (");
	assert_non_null(strstr(last_diag(state)->message,
			       "does not have a release() function, it is broken and must be "
			       "fixed. See Documentation/core-api/kobject.rst."));
	assert_explained_here(state);
	const struct kobj_record *r = kobj_record_of(*state, k);
	assert_true(r->released && r->no_release);
	free(k); /* nobody else would */
}

static void empty_name_is_refused(void **state)
{
	struct my_object *o = new_object(NULL);
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), -EINVAL);
	assert_last_diag(state, "empty-name", "attempted to be registered with empty name!");
	assert_explained_here(state);
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

static void double_put_is_one_too_many(void **state)
{
	struct my_object *o = new_object("dp");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_explained_here(state);
	/* the explanation also says where the release happened */
	const struct kobj_record *r = kobj_record_by_id(*state, 1);
	char where[64];
	snprintf(where, sizeof(where), "test_diag.c:%d", site(*state, r->release_at).line);
	assert_non_null(strstr(last_diag(state)->explanation, where));
	assert_int_equal(released, 1);
	assert_int_equal(r->refcount, 0);
}

static void add_without_init(void **state)
{
	struct my_object *o = new_object("uninit");
	assert_int_equal(kobject_add(&o->kobj), -EINVAL);
	assert_last_diag(state, "add-uninitialized",
			 "kobject 'uninit' (");
	assert_non_null(strstr(last_diag(state)->message,
			       "tried to add an uninitialized object, something is seriously "
			       "wrong."));
	assert_explained_here(state);
	assert_null(sysfs_lookup(*state, "/sys/uninit"));
	free(o);
}

static void add_twice(void **state)
{
	struct my_object *o = new_object("again");
	kobject_register(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), -EEXIST);
	assert_last_diag(state, "add-twice", "sysfs: cannot create duplicate filename '/again'");
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

static void del_never_added(void **state)
{
	struct my_object *o = new_object("lonely");
	kobject_init(&o->kobj);
	kobject_del(&o->kobj);
	assert_last_diag(state, "del-not-added", "kernfs: can not remove 'lonely', no directory");
	assert_explained_here(state);
	assert_non_null(strstr(last_diag(state)->explanation, "never added"));
	assert_int_equal(kobject_refcount(&o->kobj), 1); /* the creator's ref is intact */
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

static void del_twice(void **state)
{
	struct my_object *o = new_object("del2");
	kobject_register(&o->kobj);
	kobject_del(&o->kobj);
	kobject_del(&o->kobj);
	assert_last_diag(state, "del-not-added", "no directory");
	assert_non_null(strstr(last_diag(state)->explanation, "already deleted"));
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	kobject_put(&o->kobj);
}

static void use_after_release(void **state)
{
	struct my_object *o = new_object("freed");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), -EINVAL);
	assert_last_diag(state, "use-after-free", "BUG: KASAN: slab-use-after-free in kobject_add");
	kobject_del(&o->kobj);
	assert_last_diag(state, "use-after-free", "in kobject_del");
	assert_int_equal(kobject_set_name(&o->kobj, "x"), -EINVAL);
	assert_last_diag(state, "use-after-free", "in kobject_set_name");
}

static void stale_handle_get_and_put(void **state)
{
	struct my_object *o = new_object("stale");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	kobj_note_origin("lesson.lua", 12);
	kobj_use_after_release(*state, 1, "kobject_put");
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_string_equal(last_diag(state)->origin.file, "lesson.lua");
	assert_int_equal(last_diag(state)->origin.line, 12);
	kobj_use_after_release(*state, 1, "kobject_get");
	assert_last_diag(state, "get-released", "Badness in kobject_get at lib/kobject.c:431");
	size_t n = kobj_diag_count(*state);
	kobj_use_after_release(*state, 99, "kobject_put"); /* no such record: nothing */
	assert_int_equal(kobj_diag_count(*state), n);
}

static void a_put_of_the_sysfs_reference_is_refused(void **state)
{
	struct my_object *o = new_object("stolen");
	kobject_register(&o->kobj);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj); /* would take the reference kobject_add holds for sysfs */
	assert_last_diag(state, "put-not-owned", "refcount_t: underflow; use-after-free.");
	assert_non_null(strstr(last_diag(state)->explanation, "its sysfs registration"));
	assert_int_equal(released, 0);
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	assert_non_null(sysfs_lookup(*state, "/sys/stolen"));
	kobject_unregister(&o->kobj); /* its del releases it: the put after is one too many */
	assert_int_equal(released, 1);
	assert_last_diag(state, "double-put", "underflow");
}

static void register_failure_is_reported(void **state)
{
	struct my_object *a = new_object("same");
	struct my_object *b = new_object("same");
	kobject_register(&a->kobj);
	assert_int_equal(kobject_register(&b->kobj), -EEXIST);
	assert_last_diag(state, "register-failed", "kobject_register failed for same (-17)");
	assert_int_equal(kobject_refcount(&b->kobj), 1);
	kobject_put(&b->kobj);
	kobject_unregister(&a->kobj);
	assert_int_equal(released, 2);
}

static void kset_without_subsystem(void **state)
{
	struct kset ks = { .ktype = &my_ktype };
	kobject_set_name(&ks.kobj, "bag");
	kset_register(&ks);
	struct my_object *o = new_object("item");
	o->kobj.kset = &ks;
	assert_int_equal(kobject_register(&o->kobj), 0);
	assert_last_diag(state, "no-subsystem",
			 "Unable to handle kernel NULL pointer dereference at virtual address");
	assert_ptr_equal(kset_find_obj(&ks, "item"), &o->kobj);
	kobject_unregister(&o->kobj);
	kset_unregister(&ks);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void add_to_unregistered_kset(void **state)
{
	struct kset ks = { 0 };
	struct my_object *o = new_object("orphan");
	o->kobj.kset = &ks;
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), -EINVAL);
	assert_last_diag(state, "get-uninitialized", "is not initialized, yet kobject_get()");
	assert_non_null(strstr(last_diag(state)->explanation, "not registered"));
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

static void add_under_parent_not_in_sysfs(void **state)
{
	struct my_object *p = new_object("p");
	struct my_object *c = new_object("c");
	kobject_init(&p->kobj);
	c->kobj.parent = &p->kobj;
	kobject_init(&c->kobj);
	assert_int_equal(kobject_add(&c->kobj), -ENOENT);
	assert_last_diag(state, "add-failed",
			 "kobject_add_internal failed for c (error: -2 parent: p)");
	assert_int_equal(kobject_refcount(&p->kobj), 1);
	kobject_put(&c->kobj);
	kobject_put(&p->kobj);
	assert_int_equal(released, 2);
}

static int seen;
static void count_diag(const struct kobj_diag *d, void *ctx)
{
	(void)d;
	(void)ctx;
	seen++;
}

static void diagnostics_are_announced_and_logged(void **state)
{
	seen = 0;
	kobj_world_on_diag(*state, count_diag, NULL);
	struct my_object *o = new_object("x");
	kobject_put(&o->kobj);
	assert_int_equal(seen, 1);
	const struct kobj_diag *d = last_diag(state);
	const struct kobj_event *ev = event_at(*state, d->seq - 1);
	assert_int_equal(ev->kind, KOBJ_EV_DIAG);
	assert_int_equal(ev->aux, 0);
	free(o);
}

static void diag_prints_message_then_explanation(void **state)
{
	struct my_object *o = new_object("pp");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	kobj_note_origin("demo.c", 7);
	kobj_use_after_release(*state, 1, "kobject_put");
	char *text = NULL;
	CAPTURE(text, kobj_diag_print(last_diag(state), out));
	assert_non_null(strstr(text, "refcount_t: underflow; use-after-free.\n  -> demo.c:7: "
				     "2.6.0 printed nothing here"));
	assert_non_null(strstr(text, "kobject_put() at demo.c:7 dropped a reference to 'pp'"));
	free(text);
}

static void diag_tags_are_distinct(void **state)
{
	for (int i = 0; i < KOBJ_DIAG_KIND_COUNT; i++) {
		assert_string_not_equal(kobj_diag_tag(i), "?");
		for (int j = 0; j < i; j++)
			assert_string_not_equal(kobj_diag_tag(i), kobj_diag_tag(j));
	}
	assert_string_equal(kobj_diag_tag(KOBJ_DIAG_KIND_COUNT), "?");
	(void)state;
}

static void recursive_lock_is_refused(void **state)
{
	static decl_subsys(locky, &my_ktype, NULL);
	subsystem_register(&locky_subsys);
	struct my_object *o = new_object("inside");
	o->kobj.kset = &locky_subsys.kset;
	kobject_init(&o->kobj);
	assert_int_equal(down_read(&locky_subsys.rwsem), 0);
	assert_int_equal(kobject_add(&o->kobj), -EDEADLK);
	assert_last_diag(state, "recursive-lock", "WARNING: possible recursive locking detected");
	assert_int_equal(down_read(&locky_subsys.rwsem), -EDEADLK);
	up_read(&locky_subsys.rwsem);
	assert_int_equal(kobject_add(&o->kobj), 0);
	kobject_unregister(&o->kobj);
	subsystem_unregister(&locky_subsys);
	assert_int_equal(kobj_leak_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(get_before_init),
		TEST(put_before_init),
		TEST(init_twice_is_refused),
		TEST(init_null),
		TEST(missing_release_is_reported_at_release),
		TEST(empty_name_is_refused),
		TEST(double_put_is_one_too_many),
		TEST(add_without_init),
		TEST(add_twice),
		TEST(del_never_added),
		TEST(del_twice),
		TEST(use_after_release),
		TEST(stale_handle_get_and_put),
		TEST(a_put_of_the_sysfs_reference_is_refused),
		TEST(register_failure_is_reported),
		TEST(kset_without_subsystem),
		TEST(add_to_unregistered_kset),
		TEST(add_under_parent_not_in_sysfs),
		TEST(diagnostics_are_announced_and_logged),
		TEST(diag_prints_message_then_explanation),
		TEST(diag_tags_are_distinct),
		TEST(recursive_lock_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
