/*
 * The article's code, compiled as written. One change: the article's
 * kobject_set_name(my_set->kobj, ...) passes the embedded struct itself, which does not
 * compile in the kernel either; the address is meant.
 */
#include <errno.h>

#include "core/model/cdev.h"
#include "tests/core/fixture.h"

/* "Usually such a method has a form like:" */
struct my_object_article {
	int stuff;
	struct kobject kobj;
};

static int article_releases;

void my_object_article_release(struct kobject *kobj);
void my_object_article_release(struct kobject *kobj)
{
        struct my_object_article *mine = container_of(kobj, struct my_object_article, kobj);

        /* Perform any additional cleanup on this object, then... */
        article_releases++;
        kfree (mine);
}

static struct kobj_type my_object_type = {
	.release = my_object_article_release,
	.sysfs_ops = NULL,
	.default_attrs = NULL,
};

static decl_subsys(article, &my_object_type, NULL);

/* The signatures the article lists, checked by assignment. */
static void signatures_match_the_article(void **state)
{
	void (*init)(struct kobject *) = kobject_init;
	int (*set_name)(struct kobject *, const char *, ...) = kobject_set_name;
	struct kobject *(*get)(struct kobject *) = kobject_get;
	void (*put)(struct kobject *) = kobject_put;
	int (*add)(struct kobject *) = kobject_add;
	void (*del)(struct kobject *) = kobject_del;
	void (*ks_init)(struct kset *) = kset_init;
	int (*ks_add)(struct kset *) = kset_add;
	int (*ks_reg)(struct kset *) = kset_register;
	void (*ks_unreg)(struct kset *) = kset_unregister;
	struct kset *(*ks_get)(struct kset *) = kset_get;
	void (*ks_put)(struct kset *) = kset_put;
	void (*ss_init)(struct subsystem *) = subsystem_init;
	int (*ss_reg)(struct subsystem *) = subsystem_register;
	void (*ss_unreg)(struct subsystem *) = subsystem_unregister;
	struct subsystem *(*ss_get)(struct subsystem *) = subsys_get;
	void (*ss_put)(struct subsystem *) = subsys_put;
	void *all[] = { init, set_name, get, put, add, del, ks_init, ks_add, ks_reg,
			ks_unreg, ks_get, ks_put, ss_init, ss_reg, ss_unreg, ss_get, ss_put };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		assert_non_null(all[i]);

	/* Called through the pointers, the calls still work (with no origin). */
	struct my_object_article *o = kzalloc(sizeof(*o), GFP_KERNEL);
	o->kobj.ktype = &my_object_type;
	init(&o->kobj);
	assert_int_equal(set_name(&o->kobj, "via-%s", "pointer"), 0);
	assert_ptr_equal(get(&o->kobj), &o->kobj);
	put(&o->kobj);
	assert_null(event_at(*state, 1)->origin.file);
	put(&o->kobj);
	assert_int_equal(article_releases, 1);
}

static void the_article_walkthrough(void **state)
{
	article_releases = 0;
	assert_int_equal(subsystem_register(&article_subsys), 0);

	struct kset *my_set = kzalloc(sizeof(*my_set), GFP_KERNEL);
	kobject_set_name(&my_set->kobj, "The name");
	my_set->subsys = &article_subsys;
	my_set->ktype = &my_object_type; /* the kset supplies its members' type */
	assert_int_equal(kset_register(my_set), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/article/The name"));

	struct my_object_article *mine = kzalloc(sizeof(*mine), GFP_KERNEL);
	kobject_init(&mine->kobj);
	if (kobject_set_name(&mine->kobj, "mine%d", 0) != 0)
		fail();
	mine->kobj.kset = my_set;
	assert_int_equal(kobject_add(&mine->kobj), 0);
	assert_ptr_equal(mine->kobj.parent, &my_set->kobj);
	struct kobject *kp = kset_find_obj(my_set, "mine0");
	assert_ptr_equal(container_of(kp, struct my_object_article, kobj), mine);

	kobject_del(&mine->kobj);
	kobject_put(&mine->kobj);
	assert_int_equal(article_releases, 1);
	kset_unregister(my_set);
	/* 2.6.0's ksets were static and had no release: not reported, freed by the owner */
	kfree(my_set);
	subsystem_unregister(&article_subsys);
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void kmalloc_honours_fault_injection(void **state)
{
	kobj_world_fail_alloc(*state, 1);
	assert_null(kmalloc(16, GFP_KERNEL));
	void *p = kmalloc(16, GFP_KERNEL);
	assert_non_null(p);
	kfree(p);
}

static void the_cdev_example(void **state)
{
	int err;
	struct module *owner = module_load("chardrv", &err);
	struct cdev *p = cdev_alloc();
	p->owner = owner;
	kobject_set_name(&p->kobj, "c0");

	struct kobject *kobj = cdev_get(p);
	assert_ptr_equal(kobj, &p->kobj);
	assert_int_equal(module_refcount(owner), 1);
	assert_int_equal(module_unload(owner), -EBUSY);
	cdev_put(p);
	assert_int_equal(module_refcount(owner), 0);
	kobject_put(&p->kobj);
	assert_int_equal(module_unload(owner), 0);
	assert_int_equal(kobj_leak_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(signatures_match_the_article),
		TEST(the_article_walkthrough),
		TEST(kmalloc_honours_fault_injection),
		TEST(the_cdev_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
