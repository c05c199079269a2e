/*
 * Lesson 18 (then and now) in C, the exercise as shipped: widget_remove() keeps
 * kobject_unregister()'s arithmetic, kobject_del() and two puts, on a today's object.
 *
 * A driver written for 2.6.0 and ported to today's API: widgets in the kset
 * /sys/kernel/widgets, whose uevent() adds WIDGET_COLOR. Init adds w0 and removes it,
 * then adds w1, opens it (a user's reference), removes it and closes it, printing the
 * counts with kref_read(). The widgets live in a static pool, so a put too many finds a
 * count of 0 (refcount_t warns and saturates) instead of freed memory.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/version.h>

/* 6.2 made kset_uevent_ops' callbacks take a const kobject; the sandbox follows it. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define uevent_kobject const struct kobject
#else
#define uevent_kobject struct kobject
#endif

struct widget {
	struct kobject kobj;
	const char *color;
};

static struct widget pool[2];

static void widget_release(struct kobject *kobj)
{
	pr_info("widget_release %s\n", kobject_name(kobj));
}

static const struct kobj_type widget_ktype = {
	.release = widget_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static int widget_uevent(uevent_kobject *kobj, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "WIDGET_COLOR=%s",
			      container_of(kobj, struct widget, kobj)->color);
}

static const struct kset_uevent_ops widget_uevent_ops = {
	.uevent = widget_uevent,
};

static struct kset *widgets_kset;

static struct widget *widget_add(struct widget *w, const char *name, const char *color)
{
	w->color = color;
	w->kobj.kset = widgets_kset;
	if (kobject_init_and_add(&w->kobj, &widget_ktype, NULL, "%s", name)) {
		kobject_put(&w->kobj);
		return NULL;
	}
	kobject_uevent(&w->kobj, KOBJ_ADD);
	return w;
}

static void widget_remove(struct widget *w)
{
	kobject_del(&w->kobj);
	kobject_put(&w->kobj);
	kobject_put(&w->kobj); /* the bug: 2.6.0's add took a reference; today's does not */
}

static int __init widgets_init(void)
{
	struct widget *w0, *w1;

	widgets_kset = kset_create_and_add("widgets", &widget_uevent_ops, kernel_kobj);
	if (!widgets_kset)
		return -ENOMEM;
	w0 = widget_add(&pool[0], "w0", "red");
	if (!w0)
		return 0;
	pr_info("kref w0 %u\n", kref_read(&w0->kobj.kref));
	widget_remove(w0);
	w1 = widget_add(&pool[1], "w1", "blue");
	if (!w1)
		return 0;
	if (kobject_get_unless_zero(&w1->kobj))
		pr_info("kref w1 %u (opened)\n", kref_read(&w1->kobj.kref));
	widget_remove(w1);
	pr_info("kref w1 %u (removed)\n", kref_read(&w1->kobj.kref));
	kobject_put(&w1->kobj);
	return 0;
}

static void __exit widgets_exit(void)
{
	kset_unregister(widgets_kset);
}

module_init(widgets_init);
module_exit(widgets_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lesson 18, then and now");
