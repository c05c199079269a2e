/* The article's struct cdev and cdev_get(), as 2.6.0-test6 had them. */
#include <string.h>

#include "core/model/cdev.h"

static void cdev_dynamic_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct cdev, kobj));
}

/* A cdev inside someone else's structure is freed with that structure. */
static void cdev_default_release(struct kobject *kobj)
{
	(void)kobj;
}

static struct kobj_type ktype_cdev_dynamic = { .release = cdev_dynamic_release };
static struct kobj_type ktype_cdev_default = { .release = cdev_default_release };

struct cdev *cdev_alloc(void)
{
	struct cdev *p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (p) {
		p->kobj.ktype = &ktype_cdev_dynamic;
		INIT_LIST_HEAD(&p->list);
		kobject_init(&p->kobj);
	}
	return p;
}

void cdev_init(struct cdev *cdev, struct file_operations *fops)
{
	memset(cdev, 0, sizeof(*cdev));
	INIT_LIST_HEAD(&cdev->list);
	cdev->kobj.ktype = &ktype_cdev_default;
	kobject_init(&cdev->kobj);
	cdev->ops = fops;
}

struct kobject *cdev_get(struct cdev *p)
{
	struct module *owner = p->owner;
	struct kobject *kobj;

	if (owner && !try_module_get(owner))
		return NULL;
	kobj = kobject_get(&p->kobj);
	if (!kobj)
		module_put(owner);
	return kobj;
}

void cdev_put(struct cdev *p)
{
	if (p) {
		kobject_put(&p->kobj);
		module_put(p->owner);
	}
}
