/*
 * Kernel-style mistakes in C are reported, never undefined behaviour: each test is a
 * mistake that once read freed memory or misled, and what the sandbox says instead.
 * AddressSanitizer watches every one (bazel test --config=asan).
 */
#include <errno.h>

#include "tests/core/fixture.h"

/* For objects in static memory: nothing to free. */
static inline void my_static_release(struct kobject *kobj)
{
	(void)kobj;
	released++;
}

static const struct kobj_type my_ktype_static = { .release = my_static_release };

static void thing_release(struct kobject *kobj)
{
	released++;
	kfree(container_of(kobj, struct my_object, kobj));
}

static const struct kobj_type thing_ktype = { .release = thing_release,
					      .sysfs_ops = &kobj_sysfs_ops };

/* A today's object in @set, named @name, added (not yet announced). */
static struct my_object *member(struct kset *set, const char *name)
{
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);
	o->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&o->kobj, &thing_ktype, NULL, "%s", name), 0);
	return o;
}

/* kobject_del() leaves kobj->kset set; once that kset is freed, the member must not read
 * it: uevent and move report the use after free instead. */
static void a_deleted_member_of_a_freed_kset_is_reported(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *m = member(set, "m");

	kobject_del(&m->kobj);
	kset_unregister(set); /* its last reference: released and freed */
	assert_true(kobj_record_of(*state, &m->kobj)->kset != 0);

	assert_int_equal(kobject_uevent(&m->kobj, KOBJ_CHANGE), -ENOENT);
	assert_last_diag(state, "use-after-free",
			 "BUG: KASAN: slab-use-after-free in kobject_uevent");
	assert_non_null(strstr(last_diag(state)->explanation, "'bus', which was released"));
	assert_int_equal(kobject_move(&m->kobj, NULL), -ENOENT);
	assert_last_diag(state, "use-after-free", "slab-use-after-free in kobject_move");
	assert_int_equal(kobject_rename(&m->kobj, "n"), -EINVAL); /* no parent since del */
	kobject_put(&m->kobj);
	assert_int_equal(released, 1);
}

/* kset-example's destroy_foo_obj with kfree() in place of kobject_put(). */
static void kfree_of_a_live_kobject_is_reported_and_its_memory_kept(void **state)
{
	struct kset *set = kset_create_and_add("kset_example", NULL, NULL);
	struct my_object *foo = member(set, "foo");

	kfree(foo);
	assert_last_diag(state, "freed-while-live", "BUG: KASAN: slab-use-after-free");
	const struct kobj_diag *d = last_diag(state);
	assert_non_null(strstr(d->message, "kobject 'foo'"));
	assert_non_null(strstr(d->explanation, "the creator's, taken at "));
	assert_int_equal(d->origin.line, __LINE__ - 5);
	assert_true(kobj_record_of(*state, &foo->kobj)->freed_live);
	/* the model stays whole: the kset goes, the member's directory with it */
	kset_unregister(set);
	assert_null(sysfs_lookup(*state, "/sys/kset_example"));
	kobject_put(&foo->kobj); /* its memory was kept, so this is sound */
	assert_int_equal(released, 1);
}

/* Memory handed out again (kzalloc gives zeroed memory) is a new object to the world. */
static void fresh_memory_is_no_released_object(void **state)
{
	static struct my_object again;
	kobject_set_name(&again.kobj, "first");
	again.kobj.ktype = &my_ktype_static;
	assert_int_equal(kobject_register(&again.kobj), 0);
	kobject_unregister(&again.kobj);
	assert_true(kobj_record_of(*state, &again.kobj)->released);

	memset(&again, 0, sizeof(again)); /* as kzalloc() would return it */
	size_t before = kobj_diag_count(*state);
	assert_int_equal(kobject_set_name(&again.kobj, "second"), 0); /* named before init */
	again.kobj.ktype = &my_ktype_static;
	assert_int_equal(kobject_register(&again.kobj), 0);
	assert_int_equal(kobj_diag_count(*state), before);
	assert_non_null(sysfs_lookup(*state, "/sys/second"));
	kobject_unregister(&again.kobj);
}

/* DEBUG_KOBJECT_RELEASE: a parent queued by its child's release counts from then. */
static void advance_steps_the_clock_to_each_deadline(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	kobj_world_set_release_delay(*state, 100);
	struct kobject *p = kobject_create_and_add("p", NULL);
	struct kobject *c = kobject_create_and_add("c", p);
	kobject_put(p);
	kobject_put(c); /* c due at 100; p queued then, due at 200 */
	assert_int_equal(kobj_world_advance(*state, 1000), 2);
	assert_int_equal(kobj_world_pending_releases(*state), 0);
	assert_int_equal(kobj_world_now(*state), 1000);

	p = kobject_create_and_add("p", NULL);
	c = kobject_create_and_add("c", p);
	kobject_put(p);
	kobject_put(c); /* at 1000: c due at 1100, p at 1200 */
	assert_int_equal(kobj_world_advance(*state, 150), 1);
	assert_int_equal(kobj_world_pending_releases(*state), 1);
	assert_int_equal(kobj_world_advance(*state, 50), 1);
}

static int hotplug_events_of(void **state, const char *action)
{
	int n = 0;
	for (size_t i = 0; i < kobj_hotplug_count(*state); i++)
		n += strcmp(kobj_hotplug_at(*state, i)->action, action) == 0;
	return n;
}

static struct kset_hotplug_ops every_event = { 0 };

/* 2.6.0's kobject_rename() sent no event; only today's objects get a "move" numbered by
 * today's counter. */
static void a_2_6_0_rename_sends_no_event(void **state)
{
	static struct subsystem sub;
	static struct my_object o;
	memset(&sub, 0, sizeof(sub));
	memset(&o, 0, sizeof(o));
	kobject_set_name(&sub.kset.kobj, "bus");
	sub.kset.hotplug_ops = &every_event;
	subsystem_register(&sub);
	kobject_set_name(&o.kobj, "old");
	o.kobj.kset = &sub.kset;
	o.kobj.ktype = &my_ktype_static;
	kobject_register(&o.kobj);
	assert_int_equal(hotplug_events_of(state, "add"), 1);
	assert_int_equal(kobject_rename(&o.kobj, "new"), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/bus/new"));
	assert_int_equal(hotplug_events_of(state, "move"), 0);
	kobject_unregister(&o.kobj);
	/* 2.6.0's counter only: 0, 1 */
	assert_int_equal(kobj_hotplug_at(*state, 0)->seqnum, 0);
	assert_int_equal(kobj_hotplug_at(*state, 1)->seqnum, 1);
	subsystem_unregister(&sub);
}

/* A link shows where its target is now, as readlink does. */
static void readlink_follows_a_rename_and_a_move(void **state)
{
	struct kobject *a = kobject_create_and_add("a", NULL);
	struct kobject *b = kobject_create_and_add("b", NULL);
	struct kobject *t = kobject_create_and_add("t", a);
	char target[256];

	assert_int_equal(sysfs_create_link(b, t, "link"), 0);
	const struct sysfs_dirent *l = sysfs_lookup(*state, "/sys/b");
	const struct sysfs_dirent **list;
	assert_int_equal(sysfs_list(*state, "/sys/b", &list), 1);
	assert_int_equal(kobject_rename(t, "u"), 0);
	sysfs_dirent_link_path(*state, list[0], target, sizeof(target));
	assert_string_equal(target, "/sys/a/u");
	assert_int_equal(kobject_move(t, b), 0);
	sysfs_dirent_link_path(*state, list[0], target, sizeof(target));
	assert_string_equal(target, "/sys/b/u");
	free(list);
	(void)l;
	kobject_put(t);
	kobject_put(b);
	kobject_put(a);
}

/* 2.6.0 kept the first 19 characters in name[] and the whole name in k_name. */
static void a_long_2_6_0_name_keeps_its_first_characters_in_name(void **state)
{
	struct my_object *o = new_object("a-name-of-twenty-five-chars");
	assert_string_equal(o->kobj.name, "a-name-of-twenty-fi");
	assert_string_equal(kobject_name(&o->kobj), "a-name-of-twenty-five-chars");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	(void)state;
}

/* kset_find_obj() follows the kset's era, and both eras record the caller's line. */
static void kset_find_obj_follows_the_era(void **state)
{
	struct kset *today = kset_create_and_add("today", NULL, NULL);
	struct my_object *m = member(today, "m");
	struct kobject *found = kset_find_obj(today, "m"); const int line = __LINE__;

	assert_ptr_equal(found, &m->kobj);
	assert_int_equal(kobject_refcount(&m->kobj), 2); /* today's: a reference */
	struct kobj_ref refs[4];
	size_t n = kobj_refs_of(*state, kobj_record_of(*state, found)->id, refs, 4);
	assert_int_equal(n, 2);
	assert_int_equal(refs[1].kind, KOBJ_REF_LOOKUP);
	assert_int_equal(site(*state, refs[1].site).line, line);
	const struct kobj_event *ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(ev->kind, KOBJ_EV_LOOKUP);
	assert_int_equal(ev->origin.line, line);
	kobject_put(found);
	kobject_put(&m->kobj);
	kset_unregister(today);

	static struct subsystem sub;
	static struct kset old;
	static struct my_object o;
	memset(&sub, 0, sizeof(sub));
	memset(&old, 0, sizeof(old));
	memset(&o, 0, sizeof(o));
	kobject_set_name(&sub.kset.kobj, "bus");
	subsystem_register(&sub);
	kobject_set_name(&old.kobj, "old");
	old.subsys = &sub;
	kset_register(&old);
	kobject_set_name(&o.kobj, "o");
	o.kobj.kset = &old;
	o.kobj.ktype = &my_ktype_static;
	kobject_register(&o.kobj);
	int count = kobject_refcount(&o.kobj);
	assert_ptr_equal(kset_find_obj(&old, "o"), &o.kobj); const int line2 = __LINE__;
	assert_int_equal(kobject_refcount(&o.kobj), count); /* 2.6.0's: none */
	ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(ev->kind, KOBJ_EV_LOOKUP);
	assert_int_equal(ev->origin.line, line2);
	kobject_unregister(&o.kobj);
	kset_unregister(&old);
	subsystem_unregister(&sub);
}

/* Each era's words: 2.6.0's own line where it had one, 6.1's elsewhere. */
static void each_era_says_it_in_its_own_words(void **state)
{
	struct my_object *o = new_object("once");
	kobject_init(&o->kobj);
	kobject_put(&o->kobj);
	assert_null(kobject_get(&o->kobj));
	assert_last_diag(state, "get-released", "Badness in kobject_get at lib/kobject.c:431");

	struct kobject *a = kobject_create_and_add("dup", NULL);
	assert_null(kobject_create_and_add("dup", NULL));
	size_t n = kobj_diag_count(*state);
	const struct kobj_diag *d = kobj_diag_at(*state, n - 1);
	assert_non_null(strstr(d->message, "sysfs: cannot create duplicate filename '//dup'"));
	assert_null(strstr(d->explanation, "must still kobject_put"));
	assert_non_null(strstr(d->explanation, "dropped the object itself and returns NULL"));
	kobject_put(a);
}

/* pr_debug of today's cleanup, as 6.1 prints it: an unnamed object is "(null)" and has no
 * "free name" line; the missing release() is said before the auto cleanup. */
static void debug_lines_of_an_unnamed_object_without_release(void **state)
{
	static const struct kobj_type no_release = { 0 };
	static struct kobject k;
	memset(&k, 0, sizeof(k));
	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	kobject_init(&k, &no_release);
	kobject_put(&k);
	char *text = NULL;
	CAPTURE(text, kobj_trace_print(*state, out));
	assert_non_null(strstr(text, "kobject: '(null)' ("));
	assert_null(strstr(text, "free name"));
	free(text);

	static struct kobject j;
	memset(&j, 0, sizeof(j));
	kobject_init(&j, &no_release);
	kobject_add(&j, NULL, "named");
	kobject_put(&j);
	CAPTURE(text, kobj_trace_print(*state, out));
	const char *broken = strstr(text, "'named' (");
	broken = broken ? strstr(broken, "does not have a release() function") : NULL;
	const char *auto_del = strstr(text, "'named' (");
	auto_del = auto_del ? strstr(auto_del, "auto cleanup kobject_del") : NULL;
	assert_non_null(broken);
	assert_non_null(auto_del);
	assert_true(broken < auto_del);
	assert_non_null(strstr(text, "kobject: 'named': free name"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(a_deleted_member_of_a_freed_kset_is_reported),
		TEST(kfree_of_a_live_kobject_is_reported_and_its_memory_kept),
		TEST(fresh_memory_is_no_released_object),
		TEST(advance_steps_the_clock_to_each_deadline),
		TEST(a_2_6_0_rename_sends_no_event),
		TEST(readlink_follows_a_rename_and_a_move),
		TEST(a_long_2_6_0_name_keeps_its_first_characters_in_name),
		TEST(kset_find_obj_follows_the_era),
		TEST(each_era_says_it_in_its_own_words),
		TEST(debug_lines_of_an_unnamed_object_without_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
