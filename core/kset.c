/* ksets and subsystems: mostly the kobject calls applied to the embedded kobject. */
#include <errno.h>
#include <string.h>

#include "core/modern_internal.h"

#define W() kobj_world_current()

static struct kobj_record *kset_init_as(struct kobj_world *w, struct kset *kset,
					enum kobj_kind kind, struct kobj_origin o, const char *op)
{
	struct kobj_record *r = kobj_init_as(w, kset ? &kset->kobj : NULL, kind, o, op);
	if (r)
		INIT_LIST_HEAD(&kset->list);
	return r;
}

void (kset_init)(struct kset *kset)
{
	struct kobj_world *w = W();
	kset_init_as(w, kset, KOBJ_KIND_KSET, kobj_take_origin(w), "kset_init");
}

static int kset_add_as(struct kobj_world *w, struct kset *kset, struct kobj_origin o,
		       const char *op)
{
	if (!kset)
		return -EINVAL;
	/* A kset with no parent of its own goes under its subsystem's directory. */
	if (!kset->kobj.parent && !kset->kobj.kset && kset->subsys &&
	    &kset->subsys->kset != kset)
		kset->kobj.parent = &kset->subsys->kset.kobj;
	return kobj_add_as(w, &kset->kobj, o, op);
}

int (kset_add)(struct kset *kset)
{
	struct kobj_world *w = W();
	return kset_add_as(w, kset, kobj_take_origin(w), "kset_add");
}

int (kset_register)(struct kset *kset)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);

	if (!kset)
		return -EINVAL;
	if (!kset_init_as(w, kset, KOBJ_KIND_KSET, o, "kset_register"))
		return -EINVAL;
	return kset_add_as(w, kset, o, "kset_register");
}

void (kset_unregister)(struct kset *kset)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);

	if (!kset)
		return;
	kobj_del_as(w, &kset->kobj, o, "kset_unregister");
	kobj_put_ref(w, &kset->kobj, o, "kset_unregister", 0);
}

struct kset *(kset_get)(struct kset *kset)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	return kset ? to_kset(kobj_get_ref(w, &kset->kobj, o, "kset_get", 0)) : NULL;
}

void (kset_put)(struct kset *kset)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	if (kset)
		kobj_put_ref(w, &kset->kobj, o, "kset_put", 0);
}

struct kobject *kset_find_obj(struct kset *kset, const char *name)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct kobject *found = NULL;
	struct list_head *pos;

	struct kobj_record *kr = kset ? kobj_live(w, &kset->kobj) : NULL;
	/* A kset whose kobject was initialised as a plain kobject has no list yet. */
	if (!name || !kr || kr->kind == KOBJ_KIND_KOBJECT)
		return NULL;
	struct subsystem *subsys = kset->subsys;
	if (subsys) {
		kobj_note_origin(o.file, o.line);
		if (down_read(&subsys->rwsem))
			return NULL;
	}
	list_for_each(pos, &kset->list) {
		struct kobject *k = list_entry(pos, struct kobject, entry);
		if (strcmp(kobject_name(k), name) == 0) {
			found = k;
			break;
		}
	}
	if (subsys)
		up_read(&subsys->rwsem);
	/* Today's kset_find_obj() hands the caller a reference, unless the object is dying. */
	if (found && kr->modern)
		found = kobj_get_unless_zero_as(w, found, o, "kset_find_obj");
	return found;
}

/* ========================================================================= subsystems */

static struct kobj_record *subsystem_init_as(struct kobj_world *w, struct subsystem *s,
					     struct kobj_origin o, const char *op)
{
	/* Re-initialising the rwsem of a registered subsystem could break a holder. */
	if (s && !kobj_live(w, &s->kset.kobj))
		init_rwsem(&s->rwsem);
	return kset_init_as(w, s ? &s->kset : NULL, KOBJ_KIND_SUBSYSTEM, o, op);
}

void (subsystem_init)(struct subsystem *s)
{
	struct kobj_world *w = W();
	subsystem_init_as(w, s, kobj_take_origin(w), "subsystem_init");
}

int (subsystem_register)(struct subsystem *s)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);

	if (!s)
		return -EINVAL;
	subsystem_init_as(w, s, o, "subsystem_register");
	int err = kset_add_as(w, &s->kset, o, "subsystem_register");
	if (!err && !s->kset.subsys)
		s->kset.subsys = s;
	return err;
}

void (subsystem_unregister)(struct subsystem *s)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);

	if (!s)
		return;
	kobj_del_as(w, &s->kset.kobj, o, "subsystem_unregister");
	kobj_put_ref(w, &s->kset.kobj, o, "subsystem_unregister", 0);
}

struct subsystem *(subsys_get)(struct subsystem *s)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	if (!s || !kobj_get_ref(w, &s->kset.kobj, o, "subsys_get", 0))
		return NULL;
	return s;
}

void (subsys_put)(struct subsystem *s)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	if (s)
		kobj_put_ref(w, &s->kset.kobj, o, "subsys_put", 0);
}
