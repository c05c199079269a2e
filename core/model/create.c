/*
 * Objects the kernel allocates itself: kobject_create_and_add(), kset_create_and_add(),
 * and the top-level kobjects every kernel has (/sys/kernel and friends). Their memory is
 * the core's: their release frees it, through the quarantine (slab.c).
 */
#include <errno.h>
#include <string.h>

#include "core/model/model_internal.h"

/* The reference a creating call hands back is the creator's, not the last one its add
 * took: a reference handle made from kobj_last_ref() carries it. */
static void hand_back_creator(struct kcall *c, const struct kobj_record *r)
{
	unsigned e = r->released ? 0 : kobj_ledger_creator(c->w, r);
	c->w->last_take = e ? kobj_ledger_token(c->w, e) : 0;
}

static void dynamic_kobj_release(struct kobject *kobj)
{
	struct kobj_world *w = kobj_world_current();
	char p[17];
	const struct kobj_record *r = kobj_rec_of(w, kobj);
	if (r && kobj_debugging(w, KOBJ_DEBUG_KOBJECT))
		kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, 0, "kobject: (%s): dynamic_kobj_release",
			   kobj_fake_pointer(r->id, p));
	kobj_free_object_memory(w, kobj);
}

static const struct kobj_type dynamic_kobj_ktype = {
	.release = dynamic_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static struct kobject *create_and_add(struct kcall *c, const char *name,
				      struct kobject *parent)
{
	struct kobject *kobj = kobj_kmalloc(c->w, sizeof(*kobj));

	if (!kobj)
		return NULL;
	memset(kobj, 0, sizeof(*kobj));
	kobj_owned_add(c->w, kobj, KOBJ_OWNED_OBJECT);
	const char *step = c->step;
	c->step = "kobject_create";
	struct kobj_record *r = kobj_init_as(c, kobj, KOBJ_KIND_KOBJECT, &dynamic_kobj_ktype,
					     KOBJ_ERA_TODAY);
	c->step = "kobject_add";
	int err = kobj_set_name_as(c, kobj, r, name);
	kobj->parent = parent;
	if (!err)
		err = kobj_add_as(c, kobj);
	c->step = step;
	if (err) {
		kobj_trace(c->w, KOBJ_LOGLEVEL_WARNING, r->id, c->site,
			   "kobject_create_and_add: kobject_add error: %d", err);
		kobj_put_as(c, kobj);
		return NULL;
	}
	hand_back_creator(c, r);
	return kobj;
}

struct kobject *(kobject_create_and_add)(const char *name, struct kobject *parent)
{
	struct kcall c = kobj_call("kobject_create_and_add");
	return create_and_add(&c, name, parent);
}

/* ============================================================================== ksets */

static void kset_release(struct kobject *kobj)
{
	struct kobj_world *w = kobj_world_current();
	const struct kobj_record *r = kobj_rec_of(w, kobj);
	char p[17];

	if (r && kobj_debugging(w, KOBJ_DEBUG_KOBJECT))
		kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, 0, "kobject: '%s' (%s): kset_release",
			   r->name, kobj_fake_pointer(r->id, p));
	kobj_free_object_memory(w, container_of(kobj, struct kset, kobj));
}

static const struct kobj_type kset_ktype = {
	.release = kset_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

struct kset *(kset_create_and_add)(const char *name, const struct kset_uevent_ops *uevent_ops,
				   struct kobject *parent_kobj)
{
	struct kcall c = kobj_call("kset_create_and_add");
	struct kset *kset = kobj_kmalloc(c.w, sizeof(*kset));

	if (!kset)
		return NULL;
	memset(kset, 0, sizeof(*kset));
	kobj_owned_add(c.w, kset, KOBJ_OWNED_OBJECT);
	kset->uevent_ops = uevent_ops;
	kset->kobj.parent = parent_kobj;
	c.step = "kset_register";
	struct kobj_record *r = kobj_init_as(&c, &kset->kobj, KOBJ_KIND_KSET, &kset_ktype,
					     KOBJ_ERA_TODAY);
	INIT_LIST_HEAD(&kset->list);
	if (kobj_set_name_as(&c, &kset->kobj, r, name) || kobj_add_as(&c, &kset->kobj)) {
		/* The kernel frees it directly; the put releases it the same way, on record. */
		kobj_put_as(&c, &kset->kobj);
		return NULL;
	}
	kobj_uevent_as(&c, &kset->kobj, KOBJ_ADD, NULL);
	hand_back_creator(&c, r);
	return r->released ? NULL : kset; /* a uevent callback could have released it */
}

const char *kobj_ktype_kernel_name(const struct kobj_type *ktype)
{
	if (ktype == &dynamic_kobj_ktype)
		return "dynamic_kobj_ktype";
	return ktype == &kset_ktype ? "kset_ktype" : NULL;
}

/* ========================================================================= built-ins */

/* Each made where Linux makes it at boot, so logs and reports say where it came from. */
static const struct {
	const char *name;
	int parent; /* an enum kobj_builtin, or -1 for /sys */
	const char *file, *func;
} builtins[KOBJ_BUILTIN_COUNT] = {
	[KOBJ_BUILTIN_KERNEL] = { "kernel", -1, "kernel/ksysfs.c", "ksysfs_init" },
	[KOBJ_BUILTIN_MM] = { "mm", KOBJ_BUILTIN_KERNEL, "mm/mm_init.c", "mm_sysfs_init" },
	[KOBJ_BUILTIN_FS] = { "fs", -1, "fs/namespace.c", "mnt_init" },
	[KOBJ_BUILTIN_FIRMWARE] = { "firmware", -1, "drivers/base/firmware.c",
				    "firmware_init" },
	[KOBJ_BUILTIN_POWER] = { "power", -1, "kernel/power/main.c", "pm_init" },
	[KOBJ_BUILTIN_HYPERVISOR] = { "hypervisor", -1, "drivers/base/hypervisor.c",
				      "hypervisor_init" },
};

struct kobject *kobj_builtin_kobj(enum kobj_builtin which)
{
	struct kobj_world *w = kobj_world_current();
	struct kobj_model *m = kobj_model(w);
	const struct kobj_record *r = kobj_rec(w, m->builtin[which]);

	if ((unsigned)which >= KOBJ_BUILTIN_COUNT)
		return NULL;
	/* No site is taken: this runs inside another call's arguments. */
	if (r && !r->released)
		return kobj_of(r);
	struct kobject *parent = builtins[which].parent < 0
					 ? NULL
					 : kobj_builtin_kobj((enum kobj_builtin)builtins[which].parent);
	struct kcall c = kobj_call_in(w, kobj_site(w, builtins[which].file, 0,
						     builtins[which].func),
				      "kobject_create_and_add");
	struct kobject *kobj = create_and_add(&c, builtins[which].name, parent);
	struct kobj_record *made = kobj_rec_of(w, kobj);
	m->builtin[which] = made ? made->id : 0;
	if (made)
		made->builtin = true;
	return kobj;
}

struct kobject *kobj_kernel_kobj(void)
{
	return kobj_builtin_kobj(KOBJ_BUILTIN_KERNEL);
}
