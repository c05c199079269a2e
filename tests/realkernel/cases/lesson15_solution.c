/*
 * Lesson 15 (the kset example, today) in C, the reference solution: a failed
 * kobject_init_and_add() leaves an initialised object, and create_foo_obj() puts it.
 *
 * The kernel's samples/kobject/kset-example.c: the kset /sys/kernel/kset_example with
 * three objects, foo, bar and baz, each a struct foo_obj with the files foo, baz and bar,
 * announced by "add" uevents. After loading, init asks create_foo_obj() for "foo" again,
 * as the lesson's checks do: kobject_init_and_add() fails with -EEXIST.
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/init.h>

//! write /sys/kernel/kset_example/foo/foo 42
//! write /sys/kernel/kset_example/bar/baz 7\n
//! read /sys/kernel/kset_example/foo/foo
//! write /sys/kernel/kset_example/baz/bar junk

struct foo_obj {
	struct kobject kobj;
	int foo;
	int baz;
	int bar;
};
#define to_foo_obj(x) container_of(x, struct foo_obj, kobj)

/* An attribute that knows it belongs to a foo_obj. */
struct foo_attribute {
	struct attribute attr;
	ssize_t (*show)(struct foo_obj *foo, struct foo_attribute *attr, char *buf);
	ssize_t (*store)(struct foo_obj *foo, struct foo_attribute *attr, const char *buf,
			 size_t count);
};
#define to_foo_attr(x) container_of(x, struct foo_attribute, attr)

/*
 * sysfs knows only struct kobject and struct attribute; these two ops of the ktype turn
 * them back into the foo_obj and foo_attribute they are part of. A file without the
 * method asked for reads or writes as -EIO.
 */
static ssize_t foo_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct foo_attribute *attribute = to_foo_attr(attr);

	if (!attribute->show)
		return -EIO;
	return attribute->show(to_foo_obj(kobj), attribute, buf);
}

static ssize_t foo_attr_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			      size_t len)
{
	struct foo_attribute *attribute = to_foo_attr(attr);

	if (!attribute->store)
		return -EIO;
	return attribute->store(to_foo_obj(kobj), attribute, buf, len);
}

static const struct sysfs_ops foo_sysfs_ops = {
	.show = foo_attr_show,
	.store = foo_attr_store,
};

/*
 * The release method frees the whole foo_obj, and nothing else may: after
 * kobject_init_and_add() the last kobject_put() decides when that happens.
 */
static void foo_release(struct kobject *kobj)
{
	kfree(to_foo_obj(kobj));
}

/* The field of @foo_obj that the file @attr stands for. */
static int *field_of(struct foo_obj *foo_obj, struct foo_attribute *attr)
{
	if (strcmp(attr->attr.name, "foo") == 0)
		return &foo_obj->foo;
	return strcmp(attr->attr.name, "baz") == 0 ? &foo_obj->baz : &foo_obj->bar;
}

static ssize_t field_show(struct foo_obj *foo_obj, struct foo_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", *field_of(foo_obj, attr));
}

static ssize_t field_store(struct foo_obj *foo_obj, struct foo_attribute *attr,
			   const char *buf, size_t count)
{
	int value;
	int ret = kstrtoint(buf, 10, &value);

	if (ret < 0)
		return ret;
	*field_of(foo_obj, attr) = value;
	return count;
}

static struct foo_attribute foo_attribute = __ATTR(foo, 0664, field_show, field_store);
static struct foo_attribute baz_attribute = __ATTR(baz, 0664, field_show, field_store);
static struct foo_attribute bar_attribute = __ATTR(bar, 0664, field_show, field_store);

static struct attribute *foo_default_attrs[] = {
	&foo_attribute.attr,
	&baz_attribute.attr,
	&bar_attribute.attr,
	NULL,
};
ATTRIBUTE_GROUPS(foo_default);

/* kobject_add() makes the default groups' files of every object of this type. */
static const struct kobj_type foo_ktype = {
	.sysfs_ops = &foo_sysfs_ops,
	.release = foo_release,
	.default_groups = foo_default_groups,
};

static struct kset *example_kset;
static struct foo_obj *foo_obj;
static struct foo_obj *bar_obj;
static struct foo_obj *baz_obj;

static struct foo_obj *create_foo_obj(const char *name)
{
	struct foo_obj *foo;
	int retval;

	foo = kzalloc(sizeof(*foo), GFP_KERNEL);
	if (!foo)
		return NULL;

	/* The kset before the kobject core sees it: with no parent given, the object's
	 * directory goes in the kset's. */
	foo->kobj.kset = example_kset;
	retval = kobject_init_and_add(&foo->kobj, &foo_ktype, NULL, "%s", name);
	if (retval) {
		kobject_put(&foo->kobj); /* initialised: only a put may free it now */
		return NULL;
	}

	/* Its files exist: now tell user space. */
	kobject_uevent(&foo->kobj, KOBJ_ADD);
	return foo;
}

static void destroy_foo_obj(struct foo_obj *foo)
{
	kobject_put(&foo->kobj);
}

static int __init example_init(void)
{
	example_kset = kset_create_and_add("kset_example", NULL, kernel_kobj);
	if (!example_kset)
		return -ENOMEM;

	foo_obj = create_foo_obj("foo");
	if (!foo_obj)
		goto unregister_kset;
	bar_obj = create_foo_obj("bar");
	if (!bar_obj)
		goto destroy_foo;
	baz_obj = create_foo_obj("baz");
	if (!baz_obj)
		goto destroy_bar;
	if (create_foo_obj("foo"))
		pr_info("a second foo was created\n");
	return 0;

destroy_bar:
	destroy_foo_obj(bar_obj);
destroy_foo:
	destroy_foo_obj(foo_obj);
unregister_kset:
	kset_unregister(example_kset);
	return -EINVAL;
}

static void __exit example_exit(void)
{
	destroy_foo_obj(baz_obj);
	destroy_foo_obj(bar_obj);
	destroy_foo_obj(foo_obj);
	kset_unregister(example_kset);
}

module_init(example_init);
module_exit(example_exit);
MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("lesson 15, the kset example, today");
