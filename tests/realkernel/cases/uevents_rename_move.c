/*
 * uevents from a kset with filter(), name() and uevent(), extra variables passed with
 * kobject_uevent_env(), an event dropped by the filter and one by uevent_suppress, then
 * kobject_rename() and kobject_move() with their "move" events.
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define uevent_kobject const struct kobject
#else
#define uevent_kobject struct kobject
#endif

static struct kset *bus;
static struct kobject *dev, *quiet, *other;

static int bus_filter(uevent_kobject *kobj)
{
	return strcmp(kobject_name(kobj), "quiet") != 0;
}

static const char *bus_name(uevent_kobject *kobj)
{
	return "rkbus";
}

static int bus_uevent(uevent_kobject *kobj, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "RK_NAME=%s", kobject_name(kobj));
}

static const struct kset_uevent_ops bus_ops = {
	.filter = bus_filter,
	.name = bus_name,
	.uevent = bus_uevent,
};

static struct kobject *member(const char *name, struct kobject *parent)
{
	struct kobject *k = kobject_create_and_add(name, parent);

	pr_info("create %s: %s\n", name, k ? "ok" : "failed");
	return k;
}

static int __init ev_init(void)
{
	char *envp[] = { "RK_EXTRA=1", "RK_MORE=two", NULL };

	bus = kset_create_and_add("rk_bus", &bus_ops, kernel_kobj);
	if (!bus)
		return -ENOMEM;
	dev = member("dev0", &bus->kobj);
	quiet = member("quiet", &bus->kobj);
	other = member("other", &bus->kobj);
	if (!dev || !quiet || !other)
		return 0;
	pr_info("add: %d\n", kobject_uevent(dev, KOBJ_ADD));
	pr_info("change: %d\n", kobject_uevent_env(dev, KOBJ_CHANGE, envp));
	pr_info("filtered: %d\n", kobject_uevent(quiet, KOBJ_ADD));
	dev->uevent_suppress = 1;
	pr_info("suppressed: %d\n", kobject_uevent(dev, KOBJ_CHANGE));
	dev->uevent_suppress = 0;
	pr_info("rename: %d\n", kobject_rename(dev, "dev1"));
	pr_info("rename taken: %d\n", kobject_rename(dev, "other"));
	pr_info("move: %d\n", kobject_move(dev, other));
	return 0;
}

static void __exit ev_exit(void)
{
	kobject_put(dev);
	kobject_put(quiet);
	kobject_put(other);
	kset_unregister(bus);
}

module_init(ev_init);
module_exit(ev_exit);
MODULE_LICENSE("GPL");
