/*
 * The article's examples run against the sandbox: a subsystem declared with
 * decl_subsys(), a kset inside it, objects embedding kobjects with a release method,
 * the cdev with its module owner, hotplug events, then two classic mistakes. Prints the
 * sysfs tree, the event log, the diagnostics and the leak report.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/model/cdev.h"
#include "core/model/kobject.h"
#include "core/report/report.h"

struct my_object {
	int stuff;
	struct kobject kobj;
};

#define to_my_object(k) container_of(k, struct my_object, kobj)

static void my_object_release(struct kobject *kobj)
{
	struct my_object *mine = to_my_object(kobj);

	printf("  release: '%s' freed\n", kobject_name(kobj));
	kfree(mine);
}

static struct kobj_type my_object_type = { .release = my_object_release };

static int my_hotplug(struct kset *kset, struct kobject *kobj, char **envp, int num_envp,
		      char *buffer, int buffer_size)
{
	(void)kset;
	if (num_envp < 1)
		return -1;
	envp[0] = buffer;
	snprintf(buffer, (size_t)buffer_size, "STUFF=%d", to_my_object(kobj)->stuff);
	return 0;
}

static struct kset_hotplug_ops my_hotplug_ops = { .hotplug = my_hotplug };

static decl_subsys(demo, &my_object_type, &my_hotplug_ops);

static struct my_object *my_object_create(struct kset *kset, const char *name, int stuff)
{
	struct my_object *mine = kzalloc(sizeof(*mine), GFP_KERNEL);

	if (!mine)
		return NULL;
	mine->stuff = stuff;
	kobject_init(&mine->kobj);
	if (kobject_set_name(&mine->kobj, "%s", name) != 0)
		goto put;
	mine->kobj.kset = kset;
	if (kobject_add(&mine->kobj) != 0)
		goto put;
	return mine;
put:
	kobject_put(&mine->kobj);
	return NULL;
}

static void print_diagnostic(const struct kobj_diag *d, void *ctx)
{
	(void)ctx;
	printf("\n");
	kobj_diag_print(d, stdout);
	printf("\n");
}

static void section(const char *title)
{
	printf("\n== %s\n", title);
}

int main(void)
{
	struct kobj_world *w = kobj_world_current();
	kobj_world_on_diag(w, print_diagnostic, NULL);

	section("a subsystem, a kset, two objects");
	subsystem_register(&demo_subsys);
	static struct kset drivers;
	kobject_set_name(&drivers.kobj, "drivers");
	drivers.subsys = &demo_subsys;
	drivers.ktype = &my_object_type;
	drivers.hotplug_ops = &my_hotplug_ops;
	kset_register(&drivers);
	struct my_object *a = my_object_create(&drivers, "e1000", 1);
	struct my_object *b = my_object_create(&drivers, "tg3", 2);
	sysfs_print_tree(w, "/sys", stdout);

	section("hotplug events, as udevadm monitor --env shows them");
	for (size_t i = 0; i < kobj_hotplug_count(w); i++)
		kobj_hotplug_print(kobj_hotplug_at(w, i), stdout);

	section("the article's cdev_get(): a module reference and a kobject reference");
	int err;
	struct module *owner = module_load("chardrv", &err);
	struct cdev *cdev = cdev_alloc();
	kobject_set_name(&cdev->kobj, "c0");
	cdev->owner = owner;
	struct kobject *got = cdev_get(cdev);
	printf("  cdev_get: %s, module count %d, kobject count %d\n", got ? "ok" : "NULL",
	       module_refcount(owner), kobject_refcount(&cdev->kobj));
	printf("  module_unload while in use: %d\n", module_unload(owner));
	cdev_put(cdev);
	kobject_put(&cdev->kobj);
	printf("  module_unload after cdev_put: %d\n", module_unload(owner));

	section("two mistakes: a double put and a leak");
	kobject_unregister(&a->kobj);
	kobject_put(&a->kobj); /* one put too many */
	kobject_get(&b->kobj); /* a reference never dropped */
	kobject_unregister(&b->kobj);
	kset_unregister(&drivers);
	subsystem_unregister(&demo_subsys);

	section("the event log");
	kobj_log_print(w, 0, stdout);

	section("leaks at exit");
	kobj_leak_report(w, stdout);
	return 0;
}
