/* Today's calls around the lifecycle: init with a ktype, get_unless_zero, paths, move. */
#include <errno.h>
#include <string.h>

#include "core/model/model_internal.h"

void (kobject_init_ktype)(struct kobject *kobj, const struct kobj_type *ktype)
{
	struct kcall c = kobj_call("kobject_init");
	kobj_init_as(&c, kobj, KOBJ_KIND_KOBJECT, ktype, KOBJ_ERA_TODAY);
}

struct kobject *(kobject_get_unless_zero)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_get_unless_zero");
	return kobj_get_unless_zero_as(&c, kobj, KOBJ_REF_LOOKUP);
}

/* ============================================================================= paths */

/* The names of @kobj and its ancestors, from the records (never a freed parent). */
char *kobj_get_path_as(struct kcall *c, const struct kobject *kobj)
{
	const struct kobj_record *r = kobj_rec_of(c->w, kobj);
	size_t n = 0;
	char p[17];

	if (!r)
		return NULL;
	for (const struct kobj_record *a = r; a; a = kobj_rec(c->w, a->parent)) {
		if (!a->name[0])
			return NULL; /* an unnamed ancestor has no path */
		n += strlen(a->name) + 1;
	}
	char *path = kobj_kmalloc(c->w, n + 1);
	if (!path)
		return NULL;
	path[n] = '\0';
	for (const struct kobj_record *a = r; a; a = kobj_rec(c->w, a->parent)) {
		size_t len = strlen(a->name);
		n -= len;
		memcpy(path + n, a->name, len);
		path[--n] = '/';
	}
	if (kobj_era_of(r)->traces)
		kobj_trace(c->w, KOBJ_LOGLEVEL_DEBUG, r->id, c->site,
			   "kobject: '%s' (%s): fill_kobj_path: path = '%s'", r->name,
			   kobj_fake_pointer(r->id, p), path);
	return path;
}

char *(kobject_get_path)(const struct kobject *kobj, gfp_t gfp)
{
	struct kcall c = kobj_call("kobject_get_path");
	(void)gfp;
	struct kobj_record *r = kobj_rec_of(c.w, kobj);
	if (kobj_refuse_released(&c, r))
		return NULL;
	return kobj_get_path_as(&c, kobj);
}

/* ============================================================================== move */

/* The directory an object moves into: @np's, or /sys; NULL if @np is not in sysfs. */
static struct sysfs_dirent *dir_of(struct kobj_world *w, struct kobject *np)
{
	struct kobj_record *pr = np ? kobj_live_of(w, np) : NULL;
	return np ? (pr && pr->in_sysfs ? pr->dir : NULL) : kobj_sysfs_root(w);
}

/* Its kset's kobject, as kobject_move() falls back on: a kset an object deleted from it
 * no longer holds may be released, and is then not read but reported. */
static struct kobject *kset_kobj_of(struct kcall *c, struct kobj_record *r, struct kobject *kobj)
{
	char where[256], when[256];
	const struct kobj_record *kr = r->kset ? kobj_rec(c->w, r->kset) : NULL;

	if (!kr)
		return &kobj->kset->kobj; /* never added: the pointer its creator set */
	if (!kr->released)
		return kobj_of(kr);
	kobj_diagnose(c, KOBJ_DIAG_USE_AFTER_FREE, r->id,
		      kobj_xasprintf("BUG: KASAN: slab-use-after-free in %s", c->op),
		      kobj_xasprintf("%s() at %s: '%s' was deleted from its kset '%s', which was "
				     "released at %s; its kobj->kset still points there, and the "
				     "kernel would read freed memory to find the new parent. The "
				     "sandbox moved nothing.", c->op,
				     kobj_site_where(c->w, c->site, where), r->name, kr->name,
				     kobj_site_where(c->w, kr->release_at, when)));
	return NULL;
}

/* The object now holds @np (with the entry @e taken for it) as its parent. */
static void swap_parent(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
			struct kobject *np, unsigned e)
{
	const unsigned old = r->parent, old_e = r->parent_ref;
	const struct kobj_record *pr = kobj_rec_of(c->w, np);

	kobj->parent = np;
	r->parent = pr ? pr->id : 0;
	r->parent_ref = e;
	r->nearest_kset = r->kset ? r->kset : pr ? pr->nearest_kset : 0;
	if (old_e)
		kobj_drop(c, old, old_e, false);
}

int (kobject_move)(struct kobject *kobj, struct kobject *new_parent)
{
	struct kcall c = kobj_call("kobject_move");
	char *envp[2] = { NULL, NULL };
	unsigned held = 0, pe = 0;
	int err = -EINVAL;

	struct kobj_record *r = kobj_rec_of(c.w, kobj);
	if (kobj_refuse_released(&c, r) || !kobj_get_as(&c, kobj, KOBJ_REF_CALL, 0, &held))
		return -EINVAL;
	unsigned long long token = kobj_ledger_token(c.w, held);
	struct kobject *np = new_parent;
	if (!np && kobj->kset && !(np = kset_kobj_of(&c, r, kobj))) {
		err = -ENOENT;
		goto put_kobj;
	}
	/* The new parent's reference is taken for the object: it becomes what it holds. */
	if (np && !kobj_get_as(&c, np, KOBJ_REF_PARENT, r->id, &pe))
		goto put_kobj;
	err = -ENOMEM;
	envp[0] = kobj_devpath_old(&c, kobj);
	if (!envp[0])
		goto put_parent;
	struct sysfs_dirent *to = dir_of(c.w, np);
	err = !r->dir || !to ? -ENOENT : kobj_sysfs_rename(c.w, r->dir, to, kobject_name(kobj));
	if (err)
		goto put_parent;
	swap_parent(&c, kobj, r, np, pe);
	pe = 0;
	kobj_uevent_as(&c, kobj, KOBJ_MOVE, envp);
put_parent:
	if (pe)
		kobj_drop(&c, kobj_rec_of(c.w, np)->id, pe, false);
put_kobj:
	if (kobj_ledger_entry_of(c.w, token, r->id))
		kobj_drop(&c, r->id, held, false);
	kobj_xfree(envp[0]);
	return err;
}
