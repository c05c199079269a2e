/* ksets and subsystems: mostly the kobject calls applied to the embedded kobject. */
#include <errno.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

/* A kset of today's era is one whose kobject has a ktype (today's kset_register needs
 * one); the article's ksets give their ktype to members and keep none themselves. */
static enum kobj_era kset_era(const struct kset *kset)
{
	return kset->kobj.ktype ? KOBJ_ERA_TODAY : KOBJ_ERA_2_6_0;
}

static struct kobj_record *kset_init_as(struct kcall *c, struct kset *kset, enum kobj_kind kind,
					enum kobj_era era)
{
	struct kobj_record *r = kobj_init_as(c, kset ? &kset->kobj : NULL, kind,
					     kset ? kset->kobj.ktype : NULL, era);
	if (r)
		INIT_LIST_HEAD(&kset->list);
	return r;
}

void (kset_init)(struct kset *kset)
{
	struct kcall c = kobj_call("kset_init");
	kset_init_as(&c, kset, KOBJ_KIND_KSET, kset ? kset_era(kset) : KOBJ_ERA_2_6_0);
}

static int kset_add_as(struct kcall *c, struct kset *kset)
{
	if (!kset)
		return -EINVAL;
	/* A released kset's memory may be freed, and one never initialised may be too: both
	 * are refused or reported before anything is written there. */
	struct kobj_record *r = kobj_rec_of(c->w, &kset->kobj);
	if (kobj_refuse_released(c, r))
		return -EINVAL;
	/* A 2.6.0 kset with no parent of its own goes under its subsystem's directory. */
	if (r && !kset->kobj.parent && !kset->kobj.kset && kset->subsys && &kset->subsys->kset != kset)
		kset->kobj.parent = &kset->subsys->kset.kobj;
	return kobj_add_as(c, &kset->kobj);
}

int (kset_add)(struct kset *kset)
{
	struct kcall c = kobj_call("kset_add");
	return kset_add_as(&c, kset);
}

int (kset_register)(struct kset *kset)
{
	struct kcall c = kobj_call("kset_register");

	if (!kset)
		return -EINVAL;
	enum kobj_era era = kset_era(kset);
	c.step = "kset_init";
	if (!kset_init_as(&c, kset, KOBJ_KIND_KSET, era))
		return -EINVAL;
	c.step = "kobject_add";
	int err = kset_add_as(&c, kset);
	c.step = NULL;
	if (!err && era == KOBJ_ERA_TODAY)
		kobj_uevent_as(&c, &kset->kobj, KOBJ_ADD, NULL);
	return err;
}

void (kset_unregister)(struct kset *kset)
{
	struct kcall c = kobj_call("kset_unregister");

	if (!kset)
		return;
	c.step = "kobject_del";
	kobj_del_as(&c, &kset->kobj);
	c.step = "kobject_put";
	c.teardown = true;
	kobj_put_as(&c, &kset->kobj);
}

struct kset *(kset_get)(struct kset *kset)
{
	struct kcall c = kobj_call("kset_get");
	return kset ? to_kset(kobj_get_as(&c, &kset->kobj, KOBJ_REF_GET, 0, NULL)) : NULL;
}

void (kset_put)(struct kset *kset)
{
	struct kcall c = kobj_call("kset_put");
	if (kset)
		kobj_put_as(&c, &kset->kobj);
}

/* The first member named @name, walking the list (the caller holds the list's lock). */
static struct kobject *member_named(struct kset *kset, const char *name)
{
	struct list_head *pos;
	list_for_each(pos, &kset->list) {
		struct kobject *k = list_entry(pos, struct kobject, entry);
		if (strcmp(kobject_name(k), name) == 0)
			return k;
	}
	return NULL;
}

/* 2.6.0: under the subsystem's rwsem, no reference. */
static struct kobject *find_2_6_0(struct kcall *c, struct kset *kset, const char *name)
{
	struct subsystem *subsys = kset->subsys;

	if (subsys) {
		kobj_note_site_id(c->site);
		if ((down_read)(&subsys->rwsem))
			return NULL;
	}
	struct kobject *found = member_named(kset, name);
	if (found)
		kobj_sched_point_on(c, KOBJ_SCHED_LOOKUP, found->kobj_id);
	if (subsys) {
		kobj_note_site_id(c->site);
		(up_read)(&subsys->rwsem);
	}
	return found;
}

/* Today: the reference is taken with get_unless_zero while the list is still locked, so a
 * member whose last put runs elsewhere is skipped rather than returned. */
static struct kobject *find_today(struct kcall *c, struct kset *kset, const char *name)
{
	kobj_note_site_id(c->site);
	(spin_lock)(&kset->list_lock);
	struct kobject *found = member_named(kset, name);
	if (found) {
		kobj_sched_point_on(c, KOBJ_SCHED_LOOKUP, found->kobj_id);
		found = kobj_get_unless_zero_as(c, found, KOBJ_REF_LOOKUP);
	}
	kobj_note_site_id(c->site);
	(spin_unlock)(&kset->list_lock);
	return found;
}

struct kobject *(kset_find_obj)(struct kset *kset, const char *name)
{
	struct kcall c = kobj_call("kset_find_obj");
	struct kobj_record *kr = kset ? kobj_live_of(c.w, &kset->kobj) : NULL;

	/* A kset whose kobject was initialised as a plain kobject has no list yet. */
	if (!name || !kr || kr->kind == KOBJ_KIND_KOBJECT)
		return NULL;
	struct kobject *found = kobj_era_of(kr)->find_takes_ref ? find_today(&c, kset, name)
								: find_2_6_0(&c, kset, name);
	if (found) /* the caller's line, with or without a reference */
		kobj_log_call(&c, KOBJ_EV_LOOKUP, kobj_rec_of(c.w, found), 0);
	return found;
}

/* ========================================================================= subsystems */

static struct kobj_record *subsystem_init_as(struct kcall *c, struct subsystem *s)
{
	/* Re-initialising the rwsem of a registered subsystem could break a holder. */
	if (s && !kobj_live_of(c->w, &s->kset.kobj))
		init_rwsem(&s->rwsem);
	return kset_init_as(c, s ? &s->kset : NULL, KOBJ_KIND_SUBSYSTEM, KOBJ_ERA_2_6_0);
}

void (subsystem_init)(struct subsystem *s)
{
	struct kcall c = kobj_call("subsystem_init");
	subsystem_init_as(&c, s);
}

int (subsystem_register)(struct subsystem *s)
{
	struct kcall c = kobj_call("subsystem_register");

	if (!s)
		return -EINVAL;
	c.step = "subsystem_init";
	subsystem_init_as(&c, s);
	c.step = "kset_add";
	int err = kset_add_as(&c, &s->kset);
	if (!err && !s->kset.subsys)
		s->kset.subsys = s;
	return err;
}

void (subsystem_unregister)(struct subsystem *s)
{
	struct kcall c = kobj_call("subsystem_unregister");

	if (!s)
		return;
	c.step = "kobject_del";
	kobj_del_as(&c, &s->kset.kobj);
	c.step = "kobject_put";
	c.teardown = true;
	kobj_put_as(&c, &s->kset.kobj);
}

struct subsystem *(subsys_get)(struct subsystem *s)
{
	struct kcall c = kobj_call("subsys_get");
	if (!s || !kobj_get_as(&c, &s->kset.kobj, KOBJ_REF_SUBSYS, 0, NULL))
		return NULL;
	return s;
}

void (subsys_put)(struct subsystem *s)
{
	struct kcall c = kobj_call("subsys_put");
	if (s)
		kobj_put_as(&c, &s->kset.kobj);
}
