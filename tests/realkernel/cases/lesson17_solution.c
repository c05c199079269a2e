/*
 * Lesson 17 (delayed release) in C, the reference solution: slot_destroy() takes the
 * slot out of sysfs with kobject_del(), then drops its reference with kobject_put().
 *
 * A hotplug slot driver: each slot is an object in the kset /sys/kernel/slots,
 * announced with an "add" uevent; slot_replace() destroys a slot and makes a new one
 * with the same name. Linux 6.1 as Debian builds it has no CONFIG_DEBUG_KOBJECT_RELEASE,
 * so releases run at the last put and the exercise's bug (a bare kobject_put()) does not
 * show: both versions must behave alike here, in the kernel and in the sandbox.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/init.h>

struct slot {
	struct kobject kobj;
};

static void slot_release(struct kobject *kobj)
{
	pr_info("slot_release %s\n", kobject_name(kobj));
	kfree(container_of(kobj, struct slot, kobj));
}

static const struct kobj_type slot_ktype = {
	.release = slot_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static struct kset *slots_kset;

static struct slot *slot_create(const char *name)
{
	struct slot *slot = kzalloc(sizeof(*slot), GFP_KERNEL);

	if (!slot)
		return NULL;
	slot->kobj.kset = slots_kset;
	if (kobject_init_and_add(&slot->kobj, &slot_ktype, NULL, "%s", name)) {
		kobject_put(&slot->kobj);
		return NULL;
	}
	kobject_uevent(&slot->kobj, KOBJ_ADD);
	return slot;
}

static void slot_destroy(struct slot *slot)
{
	kobject_del(&slot->kobj);
	kobject_put(&slot->kobj);
}

static struct slot *slot_replace(struct slot *slot, const char *name)
{
	slot_destroy(slot);
	return slot_create(name);
}

static struct slot *slot1;

static int __init slots_init(void)
{
	struct slot *slot0;

	slots_kset = kset_create_and_add("slots", NULL, kernel_kobj);
	if (!slots_kset)
		return -ENOMEM;
	slot0 = slot_create("slot0");
	if (slot0)
		slot0 = slot_replace(slot0, "slot0");
	pr_info("slot_replace: %s\n", slot0 ? "ok" : "failed");
	if (slot0)
		slot_destroy(slot0);
	slot1 = slot_create("slot1");
	return 0;
}

static void __exit slots_exit(void)
{
	if (slot1)
		slot_destroy(slot1);
	kset_unregister(slots_kset);
}

module_init(slots_init);
module_exit(slots_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lesson 17, delayed release");
