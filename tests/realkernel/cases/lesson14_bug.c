/*
 * Lesson 14 (the kobject example, today) in C, the exercise as shipped: store() parses
 * like sscanf() and returns the count whatever it found, so junk "succeeds".
 *
 * It makes /sys/kernel/kobject_example with three files, foo, baz and bar, each holding
 * an integer that can be written and read back. One show() and one store() serve all
 * three: the attribute passed in says which variable is meant.
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>

//! write /sys/kernel/kobject_example/foo 42
//! write /sys/kernel/kobject_example/foo abc
//! read /sys/kernel/kobject_example/foo
//! write /sys/kernel/kobject_example/bar 12abc
//! read /sys/kernel/kobject_example/bar
//! write /sys/kernel/kobject_example/baz  -3
//! read /sys/kernel/kobject_example/baz

static int foo;
static int baz;
static int bar;

static ssize_t number_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf);
static ssize_t number_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count);

/* 0664: the group may write too; sysfs refuses world-writable modes at build time. */
static struct kobj_attribute foo_attribute = __ATTR(foo, 0664, number_show, number_store);
static struct kobj_attribute baz_attribute = __ATTR(baz, 0664, number_show, number_store);
static struct kobj_attribute bar_attribute = __ATTR(bar, 0664, number_show, number_store);

/* The variable behind a file. */
static int *number_of(struct kobj_attribute *attr)
{
	if (attr == &foo_attribute)
		return &foo;
	return attr == &baz_attribute ? &baz : &bar;
}

static ssize_t number_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", *number_of(attr));
}

static ssize_t number_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	int value;

	if (sscanf(buf, "%d", &value) == 1)
		*number_of(attr) = value;
	return count; /* whatever was found: the bug */
}

/* All three files go up and come down together, in the object's own directory
 * (the group has no name, so no subdirectory). */
static struct attribute *number_attrs[] = {
	&foo_attribute.attr,
	&baz_attribute.attr,
	&bar_attribute.attr,
	NULL,
};

static struct attribute_group number_group = {
	.attrs = number_attrs,
};

static struct kobject *example_kobj;

static int __init example_init(void)
{
	int retval;

	/* A plain directory: kobject_create_and_add() sends no uevent, which suits an
	 * object whose name is fixed and known in advance. */
	example_kobj = kobject_create_and_add("kobject_example", kernel_kobj);
	if (!example_kobj)
		return -ENOMEM;

	retval = sysfs_create_group(example_kobj, &number_group);
	if (retval)
		kobject_put(example_kobj);
	return retval;
}

static void __exit example_exit(void)
{
	/* The one reference create_and_add gave us: the files and directory go with it. */
	kobject_put(example_kobj);
}

module_init(example_init);
module_exit(example_exit);
MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("lesson 14, the kobject example, today");
