/*
 * Attribute groups and links: an unnamed group in the object's directory, a named one
 * in a subdirectory with is_visible() hiding one file and making another read-only, a
 * link to a second object, and kobject_get_path(). Exit removes the link and the groups,
 * then puts both objects.
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/init.h>

//! write /sys/kernel/rk_box/level 3
//! read /sys/kernel/rk_box/level
//! write /sys/kernel/rk_box/limits/max 10
//! read /sys/kernel/rk_box/limits/max

static int level, max = 100, min;

static ssize_t level_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", level);
}

static ssize_t level_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	int ret = kstrtoint(buf, 0, &level);

	return ret < 0 ? ret : (ssize_t)count;
}

static ssize_t limit_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", attr->attr.name[1] == 'a' ? max : min);
}

static ssize_t limit_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	return -EPERM;
}

static struct kobj_attribute level_attr = __ATTR(level, 0644, level_show, level_store);
static struct kobj_attribute max_attr = __ATTR(max, 0644, limit_show, limit_store);
static struct kobj_attribute min_attr = __ATTR(min, 0644, limit_show, limit_store);
static struct kobj_attribute hidden_attr = __ATTR(hidden, 0644, limit_show, limit_store);

static struct attribute *box_attrs[] = { &level_attr.attr, NULL };
static const struct attribute_group box_group = { .attrs = box_attrs };

static struct attribute *limit_attrs[] = {
	&max_attr.attr, &min_attr.attr, &hidden_attr.attr, NULL,
};

static umode_t limit_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	if (attr == &hidden_attr.attr)
		return 0;
	return attr == &min_attr.attr ? 0444 : attr->mode;
}

static const struct attribute_group limit_group = {
	.name = "limits",
	.attrs = limit_attrs,
	.is_visible = limit_visible,
};

static struct kobject *box, *shelf;

static int __init box_init(void)
{
	char *path;
	int err;

	box = kobject_create_and_add("rk_box", kernel_kobj);
	if (!box)
		return -ENOMEM;
	shelf = kobject_create_and_add("shelf", box);
	if (!shelf)
		goto put_box;
	err = sysfs_create_group(box, &box_group);
	pr_info("group: %d\n", err);
	err = sysfs_create_group(box, &limit_group);
	pr_info("named group: %d\n", err);
	err = sysfs_create_link(shelf, box, "owner");
	pr_info("link: %d\n", err);
	pr_info("link again: %d\n", sysfs_create_link(shelf, box, "owner"));
	path = kobject_get_path(shelf, GFP_KERNEL);
	pr_info("path: %s\n", path ? path : "(none)");
	kfree(path);
	pr_info("kref rk_box %u\n", kref_read(&box->kref));
	return 0;

put_box:
	kobject_put(box);
	return -ENOMEM;
}

static void __exit box_exit(void)
{
	sysfs_remove_link(shelf, "owner");
	sysfs_remove_group(box, &limit_group);
	sysfs_remove_group(box, &box_group);
	kobject_put(shelf);
	kobject_put(box);
}

module_init(box_init);
module_exit(box_exit);
MODULE_LICENSE("GPL");
