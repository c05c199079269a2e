/*
 * A module in the style of the kernel's samples/kobject/kset-example.c, built against
 * the sandbox as kernel code is (see sample_kobject_example.c for the boilerplate).
 *
 * It makes the kset /sys/kernel/kset_example and three objects in it, foo, bar and baz.
 * Each object is a struct foo_obj with its own ktype: a release() that frees it, its own
 * sysfs_ops, and default groups holding three files, foo, baz and bar, each an integer of
 * that object. The module announces each object with a KOBJ_ADD uevent once its files
 * exist; the kset's name becomes the events' SUBSYSTEM.
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/init.h>

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
MODULE_DESCRIPTION("kset_example written for the kobject sandbox");
