/*
 * The model's state in a world, the call in progress, and the link between an object
 * and its record: the record's id kept in the object (kobj_id), checked against the
 * record's address, so that finding a record costs no lookup.
 */
#include <stdlib.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

#define DEFAULT_SEED 0x6b6f626a656374ull /* "kobject" */

static void free_model(struct kobj_world *w, void *state)
{
	struct kobj_model *m = state;
	kobj_delayed_teardown(w); /* delayed releases run while the world still works */
	for (size_t i = 0; i < m->nktype_names; i++)
		kobj_xfree(m->ktype_names[i].name);
	kobj_xfree(m->ktype_names);
	kobj_owned_teardown(w); /* /sys/kernel, leaked objects the core made, live names */
	kobj_modules_free(w);
	kobj_trackers_free(w);
	kobj_events_free(w);
	kobj_trace_free(w);
	kobj_quarantine_free(w);
	kobj_sched_free(w);
	kobj_xfree(m);
	w->layers[KOBJ_LAYER_MODEL] = NULL;
}

static void dir_gone(struct kobj_world *w, unsigned obj, struct sysfs_dirent *d)
{
	struct kobj_record *r = kobj_rec(w, obj);
	if (!r || r->dir != d)
		return;
	r->dir = NULL;
	if (!r->released)
		kobj_of(r)->dentry = NULL;
}

struct kobj_model *kobj_model(struct kobj_world *w)
{
	struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	if (!m) {
		m = kobj_xcalloc(1, sizeof(*m));
		m->rng = DEFAULT_SEED;
		kobj_set_layer(w, KOBJ_LAYER_MODEL, m, free_model);
		kobj_sysfs_on_dir_gone(w, dir_gone);
	}
	return m;
}

bool kobj_debugging(const struct kobj_world *w, unsigned flag)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m && (m->debug & flag);
}

/* ====================================================================== the call */

/* Every kernel-named call begins at a scheduling point: another CPU may run first. */
struct kcall kobj_call(const char *op)
{
	struct kobj_world *w = kobj_world_current();
	unsigned site = kobj_take_site(w);
	struct kcall c = { .w = w, .site = site, .op = op, .lua = !w->site_from_c };
	kobj_sched_point(&c, KOBJ_SCHED_CALL);
	return c;
}

struct kcall kobj_call_in(struct kobj_world *w, unsigned site, const char *op)
{
	return (struct kcall){ .w = w, .site = site, .op = op };
}

unsigned long kobj_log_call(struct kcall *c, enum kobj_event_kind kind,
			    const struct kobj_record *r, unsigned aux)
{
	const struct kobj_ev_args a = { .op = c->op, .step = c->step, .aux = aux };
	int count = r ? r->refcount : 0;
	return kobj_log(c->w, kind, r ? r->id : 0, count, count, c->site, &a);
}

/* ====================================================================== records */

const struct kobj_record *kobj_record_of(const struct kobj_world *w, const void *ptr)
{
	return kobj_rec_of(w, ptr);
}

void kobj_mirror(struct kobject *kobj, const struct kobj_record *r)
{
	kobj->refcount = r->refcount;
	kobj->state_initialized = 1; /* kobject_cleanup() leaves it set, in Linux 6.1 too */
	kobj->state_in_sysfs = r->in_sysfs;
	kobj->state_add_uevent_sent = r->add_uevent_sent;
	kobj->state_remove_uevent_sent = r->remove_uevent_sent;
	kobj->dentry = r->dir;
	kobj->kobj_id = r->id;
}

const char *kobj_ptr(struct kobj_world *w, const void *kobj, char buf[17])
{
	const struct kobj_record *r = kobj_rec_of(w, kobj);
	return r ? kobj_fake_pointer(r->id, buf) : kobj_unknown_pointer(w, kobj, buf);
}

const char *kobject_name(const struct kobject *kobj)
{
	if (!kobj)
		return "";
	return kobj->k_name ? kobj->k_name : kobj->name;
}

const char *kobj_name_of(const struct kobject *kobj)
{
	return kobject_name(kobj);
}

const struct kobj_type *get_ktype(const struct kobject *kobj)
{
	const struct kobj_record *r = kobj_rec_of(kobj_world_current(), kobj);
	bool kset_gives = !r || kobj_era_of(r)->kset_gives_ktype;
	if (kset_gives && kobj->kset && kobj->kset->ktype)
		return kobj->kset->ktype;
	return kobj->ktype;
}

int kobject_refcount(const struct kobject *kobj)
{
	const struct kobj_record *r = kobj_live_of(kobj_world_current(), kobj);
	return r ? r->refcount : 0;
}

/* ==================================================================== ktype names */

void kobj_world_name_ktype(struct kobj_world *w, const struct kobj_type *ktype,
			   const char *name)
{
	struct kobj_model *m = kobj_model(w);
	for (size_t i = 0; i < m->nktype_names; i++) {
		if (m->ktype_names[i].ktype == ktype) {
			kobj_xfree(m->ktype_names[i].name);
			m->ktype_names[i].name = kobj_xstrdup(name);
			return;
		}
	}
	kobj_grow((void **)&m->ktype_names, &m->ktype_names_cap, m->nktype_names + 1,
		  sizeof(*m->ktype_names));
	m->ktype_names[m->nktype_names].ktype = ktype;
	m->ktype_names[m->nktype_names++].name = kobj_xstrdup(name);
}

const char *kobj_ktype_name(const struct kobj_world *w, const struct kobj_type *ktype)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	for (size_t i = 0; ktype && m && i < m->nktype_names; i++)
		if (m->ktype_names[i].ktype == ktype)
			return m->ktype_names[i].name;
	return NULL;
}

bool kobj_world_in_callback(const struct kobj_world *w)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m && m->in_callback;
}
