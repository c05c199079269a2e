/*
 * The types the pool's objects use, and their callbacks. Every callback first asks the
 * input what to do to the object it was handed (nothing, delete it, put it, get it, or
 * run a nested operation), so that the core meets code that changes the model under it.
 */
#include <errno.h>
#include <string.h>

#include "tests/fuzz/core_fuzz.h"
#include "tests/fuzz/core_types.h"

/* ============================================================== hostile callbacks */

void fz_hostile(struct kobject *kobj, const char *who)
{
	static const char *const acts[8] = { [4] = "kobject_del", [5] = "kobject_put",
					     [6] = "kobject_get", [7] = "another operation" };
	if (fz.depth >= FZ_MAX_DEPTH || !fz_more())
		return;
	uint8_t b = fz_byte();
	if (fz.trace && acts[b % 8])
		fprintf(fz.trace, "%*s/* %s calls %s */\n", 2 * (int)fz.depth + 2, "", who,
			acts[b % 8]);
	fz.depth++;
	switch (b % 8) {
	case 4:
		kobject_del(kobj);
		break;
	case 5:
		kobject_put(kobj);
		break;
	case 6:
		kobject_get(kobj);
		break;
	case 7:
		fz_op();
		break;
	default:
		break;
	}
	fz.depth--;
}

/* ======================================================================= releases */

/* Gives back the block that holds @kobj, as the object's release() does. Found by the
 * kobject, not by container_of(): a 2.6.0 kset's ktype can reach a member of another kind
 * (a kset in a kset of things), and freeing the wrong container is the caller's bug, not
 * the core's. */
static void release_block(struct kobject *kobj)
{
	for (size_t i = fz.nblocks; i-- > 0;) {
		struct fz_block *b = &fz.blocks[i];
		if (b->kobj != kobj || b->freed || b->core)
			continue;
		kfree(b->mem);
		fz_block_freed(b->mem);
		return;
	}
}

static void thing_release(struct kobject *kobj)
{
	fz_hostile(kobj, "release");
	release_block(kobj);
}

static void kset_release(struct kobject *kobj)
{
	fz_hostile(kobj, "kset release");
	release_block(kobj);
}

/* ========================================================================= files */

static ssize_t thing_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	(void)attr;
	fz_hostile(kobj, "show");
	return fz_byte() % 16 == 0 ? PAGE_SIZE : snprintf(buf, PAGE_SIZE, "%d\n", 1);
}

static ssize_t thing_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			   size_t count)
{
	(void)attr;
	(void)buf;
	fz_hostile(kobj, "store");
	return fz_byte() % 4 == 0 ? -EINVAL : (ssize_t)count;
}

static const struct sysfs_ops thing_sysfs_ops = { .show = thing_show, .store = thing_store };

static ssize_t kattr_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	(void)attr;
	fz_hostile(kobj, "kobj_attribute show");
	return sysfs_emit(buf, "%s\n", kobject_name(kobj));
}

static ssize_t kattr_store(struct kobject *kobj, struct kobj_attribute *attr, const char *buf,
			   size_t count)
{
	int v;
	(void)attr;
	fz_hostile(kobj, "kobj_attribute store");
	return kstrtoint(buf, 10, &v) ? -EINVAL : (ssize_t)count;
}

struct kobj_attribute fz_kattrs[FZ_ATTRS] = {
	__ATTR(alpha, 0644, kattr_show, kattr_store),
	__ATTR(beta, 0444, kattr_show, NULL),
	__ATTR(alpha, 0200, NULL, kattr_store), /* a second file named alpha */
	{ .attr = { .name = "gamma", .mode = 0775 }, .show = kattr_show }, /* bad mode */
};

static umode_t visible(struct kobject *kobj, struct attribute *attr, int n)
{
	static const umode_t modes[4] = { 0, 0444, 0644, 0777 };
	(void)n;
	fz_hostile(kobj, "is_visible");
	return fz_more() ? modes[fz_byte() % 4] : attr->mode;
}

static struct attribute *group_attrs[] = { &fz_kattrs[0].attr, &fz_kattrs[1].attr, NULL };
static struct attribute *clash_attrs[] = { &fz_kattrs[0].attr, &fz_kattrs[2].attr, NULL };

const struct attribute_group fz_groups[FZ_GROUPS] = {
	{ .attrs = group_attrs },
	{ .name = "grp", .attrs = group_attrs, .is_visible = visible },
	{ .attrs = clash_attrs, .is_visible = visible },
	{ .name = "empty" }, /* no attrs */
};

static const struct attribute_group *default_groups[] = { &fz_groups[1], NULL };
static struct attribute *default_attrs[] = { &fz_kattrs[1].attr, NULL };

/* ========================================================================= ktypes */

const struct kobj_type fz_ktypes[FZ_KTYPES] = {
	{ .release = thing_release, .sysfs_ops = &thing_sysfs_ops },
	{ .release = thing_release, .sysfs_ops = &kobj_sysfs_ops,
	  .default_groups = default_groups },
	{ .release = thing_release, .sysfs_ops = &kobj_sysfs_ops, .default_attrs = default_attrs },
	{ .release = NULL, .sysfs_ops = &thing_sysfs_ops }, /* no release: a mistake */
};

/* Today's ksets of the harness: their ktype frees them. */
const struct kobj_type fz_kset_ktype = { .release = kset_release, .sysfs_ops = &kobj_sysfs_ops };

/* ========================================================================== events */

static int hp_filter(struct kset *kset, struct kobject *kobj)
{
	(void)kset;
	fz_hostile(kobj, "hotplug filter");
	return fz_byte() % 4 != 0;
}

static const char *hp_name(struct kset *kset, struct kobject *kobj)
{
	(void)kset;
	fz_hostile(kobj, "hotplug name");
	return fz_byte() % 4 ? "fuzz" : NULL;
}

static int hp_hotplug(struct kset *kset, struct kobject *kobj, char **envp, int num_envp,
		      char *buffer, int buffer_size)
{
	static char outside[] = "OUTSIDE=1";
	(void)kset;
	fz_hostile(kobj, "hotplug");
	if (num_envp < 2 || buffer_size < 16)
		return -ENOMEM;
	envp[0] = buffer;
	snprintf(buffer, (size_t)buffer_size, "FUZZ=%u", fz.step);
	envp[1] = fz_byte() % 2 ? outside : NULL; /* not in the lent buffer: ignored */
	return fz_byte() % 8 == 0 ? -ENOMEM : 0;
}

struct kset_hotplug_ops fz_hotplug_ops = { hp_filter, hp_name, hp_hotplug };

static int ue_filter(struct kobject *kobj)
{
	fz_hostile(kobj, "uevent filter");
	return fz_byte() % 4 != 0;
}

static const char *ue_name(struct kobject *kobj)
{
	fz_hostile(kobj, "uevent name");
	return fz_byte() % 4 ? "fuzz" : NULL;
}

static int ue_uevent(struct kobject *kobj, struct kobj_uevent_env *env)
{
	fz_hostile(kobj, "uevent");
	int n = fz_byte() % 4 == 0 ? UEVENT_NUM_ENVP + 1 : 1;
	for (int i = 0; i < n; i++)
		if (add_uevent_var(env, "FUZZ%d=%u", i, fz.step))
			return -ENOMEM;
	return 0;
}

const struct kset_uevent_ops fz_uevent_ops = { ue_filter, ue_name, ue_uevent };
