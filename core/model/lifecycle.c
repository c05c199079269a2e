/*
 * The lifecycle of a kobject, written once for both eras: init, get, put, add, del and
 * the release tail. Where the eras differ, the object's rules (era.c) say how.
 *
 * Every reference is a ledger entry. A get takes one; a put drops one specific entry:
 * the one a reference handle or a ref_tracker names, else the one the ledger's rules
 * pick among the caller's; a put by a caller who holds none is refused. References an
 * object holds (its parent, its kset, its own sysfs registration) are dropped only by
 * that object's del or release. So nothing a caller does can release an object another
 * object still holds, and no C pointer the core keeps outlives what it points to.
 */
#include <errno.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

/* ============================================================================== init */

struct kobj_record *kobj_init_as(struct kcall *c, struct kobject *kobj, enum kobj_kind kind,
				 const struct kobj_type *ktype, enum kobj_era era)
{
	struct kobj_world *w = c->w;

	if (!kobj) {
		kobj_report_invalid_pointer(c);
		return NULL;
	}
	if (era == KOBJ_ERA_TODAY && !ktype) { /* 2.6.0's init takes no ktype: the kset may */
		kobj_report_no_ktype(c, kobj);
		return NULL;
	}
	const struct kobj_record *old = kobj_live_of(w, kobj);
	if (old) {
		kobj_report_init_twice(c, old);
		return NULL;
	}
	kobj_model(w); /* the model's hooks on the world are set before any object exists */
	struct kobj_record *r = kobj_record_new(w, kind, era, kobj, kobj_name_of(kobj), c->site);
	const struct kobj_holder creator = { KOBJ_REF_CREATOR, 0, c->site, c->op };
	unsigned long serial;
	unsigned e = kobj_ledger_take(w, r, &creator, &serial);

	r->refcount = 1;
	if (era == KOBJ_ERA_TODAY)
		kobj->ktype = ktype;
	INIT_LIST_HEAD(&kobj->entry);
	r->ktype = kobj_ktype_of_rec(r);
	kobj_mirror(kobj, r);
	w->last_take = kobj_ledger_token(w, e);
	const struct kobj_ev_args a = { .op = c->op, .step = c->step, .ref = serial,
					.ref_kind = KOBJ_REF_CREATOR };
	kobj_log(w, KOBJ_EV_INIT, r->id, 0, 1, c->site, &a);
	return r;
}

const struct kobj_type *kobj_ktype_of_rec(const struct kobj_record *r)
{
	const struct kobject *kobj = kobj_of(r);
	if (kobj_era_of(r)->kset_gives_ktype && kobj->kset && kobj->kset->ktype)
		return kobj->kset->ktype;
	return kobj->ktype;
}

/* =============================================================================== get */

/* The count goes up by one under @r's era's rules; Return: false if the era refuses. */
static bool count_up(struct kcall *c, struct kobj_record *r, int *event)
{
	*event = -1;
	if (r->released) {
		kobj_report_get_released(c, r);
		return false;
	}
	if (kobj_era_of(r)->refcount_t)
		*event = kobj_rc_add(&r->refcount, 1);
	else
		r->refcount++;
	return true;
}

struct kobject *kobj_get_as(struct kcall *c, struct kobject *kobj, enum kobj_ref_kind kind,
			    unsigned holder, unsigned *entry)
{
	struct kobj_world *w = c->w;
	int event;

	if (!kobj)
		return NULL;
	struct kobj_record *r = kobj_rec_of(w, kobj);
	if (!r) {
		kobj_report_get_uninit(c, kobj);
		return NULL;
	}
	int before = r->refcount;
	if (!count_up(c, r, &event))
		return NULL;
	const struct kobj_holder h = { kind, holder, c->site, c->op };
	unsigned long serial;
	unsigned e = kobj_ledger_take(w, r, &h, &serial);
	w->last_take = kobj_ledger_token(w, e);
	const struct kobj_ev_args a = { .op = c->op, .step = c->step, .holder = holder,
					.ref = serial, .ref_kind = kind };
	kobj_log(w, KOBJ_EV_GET, r->id, before, r->refcount, c->site, &a);
	if (event >= 0)
		kobj_report_saturation(c, r, event, before);
	kobj_mirror(kobj, r);
	if (entry)
		*entry = e;
	return kobj;
}

struct kobject *kobj_get_unless_zero_as(struct kcall *c, struct kobject *kobj,
					enum kobj_ref_kind kind)
{
	const struct kobj_record *r = kobj_rec_of(c->w, kobj);
	if (!r || r->released || r->refcount == 0)
		return NULL; /* dying or gone: the lookup fails quietly */
	return kobj_get_as(c, kobj, kind, 0, NULL);
}

/* =============================================================================== put */

/* One step of letting go: an entry to drop. */
struct drop {
	unsigned obj, e;
	bool chosen;
};

struct drops {
	struct drop *items;
	size_t n, cap;
};

static void push(struct drops *d, unsigned obj, unsigned e)
{
	if (!e)
		return;
	kobj_grow((void **)&d->items, &d->cap, d->n + 1, sizeof(*d->items));
	d->items[d->n++] = (struct drop){ obj, e, false };
}

static void release_tail(struct kcall *c, struct kobj_record *r, bool call_release,
			 struct drops *next);

/* The count goes down by one as @r's era counts; Return: true if it reached zero. */
static bool count_down(struct kcall *c, struct kobj_record *r, int before)
{
	bool zero;
	if (!kobj_era_of(r)->refcount_t)
		return --r->refcount == 0;
	int event = kobj_rc_sub_and_test(&r->refcount, 1, &zero);
	if (event >= 0)
		kobj_report_saturation(c, r, event, before);
	return zero;
}

/* Drops one entry; a release it causes adds what the object held to @todo. */
static void drop_one(struct kcall *c, const struct drop *d, struct drops *todo)
{
	struct kobj_world *w = c->w;
	struct kobj_record *r = kobj_rec(w, d->obj);
	struct kobj_ref ref;

	kobj_ledger_ref(w, d->e, &ref);
	kobj_ledger_drop(w, r, d->e, c->site);
	int before = r->refcount;
	bool zero = count_down(c, r, before);
	const struct kobj_ev_args a = { .op = c->op, .step = c->step, .holder = ref.holder,
					.ref = ref.serial, .ref_kind = ref.kind,
					.chosen = d->chosen };
	kobj_log(w, KOBJ_EV_PUT, r->id, before, r->refcount, c->site, &a);
	kobj_mirror(kobj_of(r), r);
	if (!zero)
		return;
	/* Another CPU may find the object now, its count 0, before the release unlinks it. */
	kobj_sched_point_on(c, KOBJ_SCHED_DECREMENT, r->id);
	if (kobj_era_of(r)->may_delay_release && kobj_debugging(w, KOBJ_DEBUG_RELEASE))
		kobj_release_later(c, r);
	else
		release_tail(c, r, true, todo);
}

void kobj_drop(struct kcall *c, unsigned obj, unsigned e, bool chosen)
{
	struct drops todo = { 0 };
	struct drop d = { obj, e, chosen };

	/* A loop, not recursion: a long chain of parents cannot exhaust the stack. */
	for (;;) {
		drop_one(c, &d, &todo);
		if (!todo.n)
			break;
		d = todo.items[--todo.n];
	}
	kobj_xfree(todo.items);
}

void kobj_put_as(struct kcall *c, struct kobject *kobj)
{
	struct kobj_world *w = c->w;
	unsigned long long token = w->next_put;
	unsigned token_obj = w->next_put_obj;
	unsigned e;

	w->next_put = 0;
	w->next_put_obj = 0;
	if (!kobj)
		return;
	struct kobj_record *r = kobj_rec_of(w, kobj);
	if (r && token_obj && token_obj != r->id)
		token = 0; /* a tracker freed for another object: this put picks its own */
	if (!r) {
		kobj_report_put_uninit(c, kobj);
		return;
	}
	if (r->released) {
		kobj_report_put_released(c, r);
		return;
	}
	if (r->release_pending) { /* the count is 0: the kernel saturates it */
		kobj_report_saturation(c, r, REFCOUNT_SUB_UAF, r->refcount);
		return;
	}
	if (token) {
		e = kobj_ledger_entry_of(w, token, r->id);
		if (e)
			kobj_drop(c, r->id, e, false);
		else
			kobj_report_ref_put_twice(c, r, (unsigned long)(uint32_t)token);
		return;
	}
	if (c->teardown && (e = kobj_ledger_creator(w, r))) {
		kobj_drop(c, r->id, e, false);
		return;
	}
	switch (kobj_ledger_pick(w, r, c->site, c->lua, &e)) {
	case KOBJ_PICK_FOUND:
		kobj_drop(c, r->id, e, false);
		break;
	case KOBJ_PICK_CHOSEN:
		kobj_drop(c, r->id, e, true);
		break;
	case KOBJ_PICK_NONE:
		kobj_report_put_not_owned(c, r);
		break;
	case KOBJ_PICK_EMPTY:
		/* a count the ledger does not explain: a saturated one */
		kobj_report_saturation(c, r, REFCOUNT_SUB_UAF, r->refcount);
		break;
	}
}

/* ====================================================================== release tail */

/* "(null)" for a name never set, as printk shows a NULL %s. */
static const char *traced_name(const struct kobj_record *r)
{
	return r->name[0] ? r->name : "(null)";
}

static void trace_cleanup(struct kcall *c, const struct kobj_record *r,
			  const struct kobj_type *t)
{
	char p[17], pp[17];
	const struct kobj_record *parent = kobj_rec(c->w, r->parent);

	kobj_trace(c->w, KOBJ_LOGLEVEL_DEBUG, r->id, 0, "kobject: '%s' (%s): kobject_cleanup, "
		   "parent %s", traced_name(r), kobj_fake_pointer(r->id, p),
		   parent ? kobj_fake_pointer(parent->id, pp) : "0000000000000000");
	if (t && !t->release)
		kobj_trace_obj(c, r, "does not have a release() function, it is broken and "
			       "must be fixed. See Documentation/core-api/kobject.rst.");
}

/* Released while still in sysfs: today's kernel cleans up by itself; 2.6.0 did not. */
static void auto_del(struct kcall *c, struct kobj_record *r)
{
	char p[17], where[256];
	const char *step = c->step;

	if (kobj_era_of(r)->traces)
		kobj_trace_obj(c, r, "auto cleanup kobject_del");
	else
		kobj_diagnose(c, KOBJ_DIAG_AUTO_DEL, r->id,
			    kobj_xasprintf("kobject: '%s' (%s): auto cleanup kobject_del", r->name,
					   kobj_fake_pointer(r->id, p)),
			    kobj_xasprintf("The last reference to '%s' was dropped at %s while it "
					   "was still in sysfs. 2.6.0 printed nothing and left the "
					   "directory behind (the line above is today's kernel, "
					   "which removes it itself). The sandbox removed it before "
					   "releasing it.", r->name,
					   kobj_site_where(c->w, c->site, where)));
	c->step = "kobject_cleanup";
	kobj_unlink(c, r);
	c->step = step;
}

/* What the object held goes after it: 2.6.0 its kset then its parent, today its parent. */
static void let_go(struct kobj_record *r, struct drops *next)
{
	push(next, r->parent, r->parent_ref);
	push(next, r->kset, r->kset_ref);
	r->parent_ref = r->kset_ref = 0;
}

/* The one release tail: cleanup traces, auto del, the record released, release() (not
 * when the memory is being freed by its owner right now), the name, then what it held. */
static void release_tail(struct kcall *c, struct kobj_record *r, bool call_release,
			 struct drops *next)
{
	struct kobj_world *w = c->w;
	const struct kobj_era_rules *rules = kobj_era_of(r);
	struct kobject *kobj = kobj_of(r);
	const struct kobj_type *t = kobj_ktype_of_rec(r);
	void (*release)(struct kobject *) = t ? t->release : NULL;

	if (rules->traces && call_release)
		trace_cleanup(c, r, t);
	if (r->in_sysfs)
		auto_del(c, r);
	/* released by a callback in the middle of its add: it leaves the kset's list now,
	 * before release() frees the memory the list points to */
	if (!list_empty(&kobj->entry))
		list_del_init(&kobj->entry);
	char *heap_name = kobj->k_name != kobj->name ? kobj->k_name : NULL;
	bool named = kobj_name_of(kobj)[0] != '\0';
	r->ktype = t;
	r->refcount = 0;
	/* a delayed release that runs although callers took it again meanwhile (reported
	 * then): their references point at freed memory from now on, as in the kernel */
	kobj_ledger_clear(w, r, c->site);
	kobj_rec_mark_released(w, r, c->site);
	kobj_mirror(kobj, r);
	kobj_log_op(w, KOBJ_EV_RELEASE, call_release ? "release" : "kfree", r->id, 0, 0, 0,
		    c->site);
	/* 2.6.0's static ksets and subsystems had no release; that was correct there. */
	if (!release && r->kind == KOBJ_KIND_KOBJECT)
		kobj_report_no_release(c, r);
	if (release && call_release) {
		if (rules->traces)
			kobj_trace_obj(c, r, "calling ktype release");
		kobj_callback_enter(w);
		release(kobj); /* may kfree kobj, which keeps it readable a while */
		kobj_callback_leave(w);
	}
	/* memory that outlives its release (no kfree) must not keep pointing at the name
	 * freed below; kfree() already turned a freed one to its inline name */
	if (heap_name && kobj->k_name == heap_name)
		kobj->k_name = kobj->name;
	if (rules->traces && named)
		kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, 0, "kobject: '%s': free name", r->name);
	kobj_owned_free(w, heap_name);
	if (w->on_release)
		w->on_release(r, w->on_release_ctx);
	let_go(r, next);
}

static void cleanup(struct kcall *c, struct kobj_record *r, bool call_release)
{
	struct drops todo = { 0 };
	release_tail(c, r, call_release, &todo);
	while (todo.n) {
		struct drop d = todo.items[--todo.n];
		kobj_drop(c, d.obj, d.e, false);
	}
	kobj_xfree(todo.items);
}

void kobj_cleanup(struct kcall *c, struct kobj_record *r)
{
	cleanup(c, r, true);
}

void kobj_release_without(struct kcall *c, struct kobj_record *r)
{
	cleanup(c, r, false);
}

/* =============================================================================== del */

/* How a kset's list is locked for a change. */
enum list_lock { LIST_UNLOCKED, LIST_RWSEM, LIST_SPINLOCK };

/*
 * lock_list() - take the lock that guards @kset's list: 2.6.0's subsystem rwsem, today's
 * list_lock. Return: the lock taken; LIST_UNLOCKED if none could be (the caller already
 * holds it, reported, or a deadlock), and the change goes on without.
 */
static enum list_lock lock_list(struct kcall *c, struct kset *kset,
				const struct kobj_era_rules *rules)
{
	if (rules->locks_subsystem) {
		struct subsystem *subsys = kset->subsys;
		kobj_note_site_id(c->site);
		return subsys && !rwsem_is_held(&subsys->rwsem) &&
		       (down_write)(&subsys->rwsem) == 0 ? LIST_RWSEM : LIST_UNLOCKED;
	}
	bool held = kset->list_lock.holder == c->w->thread + 1;
	kobj_note_site_id(c->site);
	(spin_lock)(&kset->list_lock);
	return !held && kset->list_lock.holder == c->w->thread + 1 ? LIST_SPINLOCK
								     : LIST_UNLOCKED;
}

static void unlock_list(struct kcall *c, struct kset *kset, enum list_lock locked)
{
	kobj_note_site_id(c->site);
	if (locked == LIST_RWSEM)
		(up_write)(&kset->subsys->rwsem);
	else
		(spin_unlock)(&kset->list_lock);
}

void kobj_unlink(struct kcall *c, struct kobj_record *r)
{
	struct kobj_world *w = c->w;
	const struct kobj_era_rules *rules = kobj_era_of(r);
	struct kobject *kobj = kobj_of(r);

	if (rules->add_sends_hotplug)
		kobj_hotplug(c, r, "remove");
	if (rules->traces && r->add_uevent_sent && !r->remove_uevent_sent) {
		kobj_trace_obj(c, r, "auto cleanup 'remove' event");
		kobj_uevent_as(c, kobj, KOBJ_REMOVE, NULL);
	}
	/* an event callback, or another thread while show() calls finished, may have
	 * deleted or released it meanwhile */
	while (!r->released && r->in_sysfs && kobj_sched_drain(c, r->id))
		;
	if (r->released || !r->in_sysfs)
		return;
	if (r->dir)
		kobj_sysfs_remove(w, r->dir); /* its files and default groups go with it */
	r->dir = NULL;
	r->in_sysfs = false;
	/* the tree changed now, though the DEL event comes after the kset's unlink */
	kobj_sched_touch(KOBJ_RES_SYSFS, 0, true);
	kobj_sched_touch(KOBJ_RES_OBJECT, r->id, true);
	kobj_sched_point_on(c, KOBJ_SCHED_UNLINK, r->id);
	struct kobj_record *kr = kobj_rec(w, r->kset);
	struct kset *kset = kr ? container_of(kobj_of(kr), struct kset, kobj) : NULL;
	/* a removal cannot be refused: without the lock (reported), it goes on */
	enum list_lock locked = kset ? lock_list(c, kset, rules) : LIST_UNLOCKED;
	if (kset)
		list_del_init(&kobj->entry);
	if (locked)
		unlock_list(c, kset, locked);
	kobj_log_call(c, KOBJ_EV_DEL, r, 0);
	kobj_mirror(kobj, r);
	if (rules->del_drops_holds) { /* today's __kobject_del leaves the kset */
		unsigned e = r->kset_ref;
		r->kset_ref = 0; /* r->kset stays: kobj->kset still names it, held or not */
		if (e)
			kobj_drop(c, r->kset, e, false);
		kobj->parent = NULL;
	}
}

void kobj_del_as(struct kcall *c, struct kobject *kobj)
{
	char where[256];
	struct kobj_world *w = c->w;

	if (!kobj)
		return;
	struct kobj_record *r = kobj_rec_of(w, kobj);
	if (kobj_refuse_released(c, r))
		return;
	if (!r || !r->in_sysfs) {
		bool today = r && r->era == KOBJ_ERA_TODAY;
		kobj_diagnose(c, KOBJ_DIAG_DEL_NOT_ADDED, r ? r->id : 0,
			    kobj_xasprintf("kernfs: can not remove '%s', no directory",
					   kobj_name_of(kobj)),
			    kobj_xasprintf("%s() at %s: '%s' is not in sysfs (%s). %s The sandbox "
					   "changed nothing.", kcall_now(c),
					   kobj_site_where(w, c->site, where), kobj_name_of(kobj),
					   !r ? "it was never initialised"
					   : r->was_added ? "it was already deleted"
							  : "it was never added",
					   today ? "Today's kobject_del() then drops a kset "
						   "reference it never took."
						 : "2.6.0's kobject_del() dropped a reference "
						   "anyway, the one its creator holds, so the "
						   "object could be freed under its owner."));
		return;
	}
	unsigned parent = r->parent, parent_ref = r->parent_ref;
	kobj_unlink(c, r);
	if (kobj_era_of(r)->del_drops_holds) {
		r->parent_ref = 0;
		r->parent = 0;
		if (parent_ref)
			kobj_drop(c, parent, parent_ref, false);
	} else if (r->sysfs_ref && !r->released) {
		unsigned e = r->sysfs_ref;
		r->sysfs_ref = 0;
		kobj_drop(c, r->id, e, false);
	}
}

/* =============================================================================== add */

/* The kset's subsystem lock for a 2.6.0 add: reported if missing or already held.
 * Return: 0 (*@subsys set or NULL), or -EDEADLK. */
static int subsystem_of(struct kcall *c, const struct kobj_record *r, struct kset *kset,
			struct subsystem **subsys)
{
	char where[256];
	*subsys = kset->subsys;
	if (!*subsys) {
		kobj_diagnose(c, KOBJ_DIAG_NO_SUBSYSTEM, r->id,
			    kobj_xasprintf("Unable to handle kernel NULL pointer dereference at "
					   "virtual address %08zx",
					   offsetof(struct subsystem, rwsem)),
			    kobj_xasprintf("%s() at %s: '%s' joins kset '%s', which belongs to no "
					   "subsystem. kobject_add() takes the subsystem's rwsem to "
					   "change the kset's list; in 2.6.0 this oopses. Every kset "
					   "must belong to a subsystem. The sandbox went on without "
					   "the lock.", kcall_now(c),
					   kobj_site_where(c->w, c->site, where), r->name,
					   kobj_name_of(&kset->kobj)));
		return 0;
	}
	if (!rwsem_is_held(&(*subsys)->rwsem))
		return 0;
	kobj_diagnose(c, KOBJ_DIAG_RECURSIVE_LOCK, r->id,
		    kobj_xasprintf("WARNING: possible recursive locking detected\n%s() is trying "
				   "to acquire lock &%s->rwsem but task is already holding it.",
				   kcall_now(c), kobj_name_of(&(*subsys)->kset.kobj)),
		    kobj_xasprintf("%s() at %s needs the rwsem of subsystem '%s' to change the "
				   "kset's list, but this code already holds it: waiting would "
				   "deadlock. The add failed with -EDEADLK.", kcall_now(c),
				   kobj_site_where(c->w, c->site, where),
				   kobj_name_of(&(*subsys)->kset.kobj)));
	return -EDEADLK;
}

/* Checks an add can start; Return: 0 or an error, reported. */
static int add_precheck(struct kcall *c, struct kobject *kobj, struct kobj_record *r)
{
	if (r->in_sysfs) {
		kobj_report_added_twice(c, r);
		return -EEXIST;
	}
	if (!kobj->k_name)
		kobj->k_name = kobj->name;
	kobj_rec_set_name(r, kobj->k_name);
	if (!kobj->k_name[0]) {
		kobj_report_empty_name(c, r);
		return -EINVAL;
	}
	return 0;
}

/* The references an added object holds: its parent's, its kset's, its own (2.6.0). */
static void hold(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		 struct kobject *parent, struct kset *kset)
{
	if (kobj_era_of(r)->add_takes_sysfs_ref)
		kobj_get_as(c, kobj, KOBJ_REF_SYSFS, r->id, &r->sysfs_ref);
	if (parent && kobj_get_as(c, parent, KOBJ_REF_PARENT, r->id, &r->parent_ref))
		r->parent = kobj_rec_of(c->w, parent)->id;
	if (kset && kobj_get_as(c, &kset->kobj, KOBJ_REF_KSET, r->id, &r->kset_ref))
		r->kset = kobj_rec_of(c->w, &kset->kobj)->id;
}

/* Gives back what hold() took, after a failed directory. */
static void unhold(struct kcall *c, struct kobj_record *r)
{
	const unsigned parent = r->parent, kset = r->kset;
	const unsigned pe = r->parent_ref, ke = r->kset_ref, se = r->sysfs_ref;

	r->parent = r->kset = 0;
	r->parent_ref = r->kset_ref = r->sysfs_ref = 0;
	if (ke)
		kobj_drop(c, kset, ke, false);
	if (pe)
		kobj_drop(c, parent, pe, false);
	if (se)
		kobj_drop(c, r->id, se, false);
}

int kobj_add_as(struct kcall *c, struct kobject *kobj)
{
	struct kobj_world *w = c->w;
	struct subsystem *subsys = NULL;
	int err;

	if (!kobj)
		return -EINVAL;
	struct kobj_record *r = kobj_rec_of(w, kobj);
	if (!r) {
		kobj_report_add_uninit(c, kobj);
		return -EINVAL;
	}
	if (kobj_refuse_released(c, r))
		return -EINVAL;
	const struct kobj_era_rules *rules = kobj_era_of(r);
	if ((err = add_precheck(c, kobj, r)))
		return err;
	struct kset *kset = kobj->kset;
	struct kobject *parent = kobj->parent;
	if (kset && ((err = kobj_check_kset(c, r, kset)) ||
		     (rules->locks_subsystem && (err = subsystem_of(c, r, kset, &subsys)))))
		return err;
	if (!parent && kset)
		parent = &kset->kobj; /* parent defaults to the kset */
	if (parent && (err = kobj_check_parent(c, r, parent))) {
		if (rules->del_drops_holds)
			kobj->parent = NULL; /* as today's error path leaves it */
		return err;
	}

	hold(c, kobj, r, parent, kset);
	if (subsys) {
		kobj_note_site_id(c->site);
		if ((down_write)(&subsys->rwsem)) { /* reported: a deadlock */
			unhold(c, r);
			return -EDEADLK;
		}
	}
	enum list_lock locked = kset && !subsys ? lock_list(c, kset, rules) : LIST_UNLOCKED;
	if (kset)
		list_add_tail(&kobj->entry, &kset->list);
	if (subsys) {
		kobj_note_site_id(c->site);
		(up_write)(&subsys->rwsem);
	}
	if (locked)
		unlock_list(c, kset, locked);
	kobj->parent = parent;
	if (rules->traces)
		kobj_trace_obj(c, r, "kobject_add_internal: parent: '%s', set: '%s'",
			       parent ? kobj_name_of(parent) : "<NULL>",
			       kset ? kobj_name_of(&kset->kobj) : "<NULL>");
	struct kobj_record *pr = kobj_rec(w, r->parent);
	err = kobj_create_dir(c, kobj, r, pr ? pr->dir : kobj_sysfs_root(w));
	if (err) {
		/* a callback (is_visible) may have released it: its memory is not ours then */
		if (!r->released) {
			list_del_init(&kobj->entry);
			kobj->parent = NULL;
		}
		unhold(c, r); /* may release it: not touched after this */
		return err;
	}
	r->nearest_kset = r->kset ? r->kset : pr ? pr->nearest_kset : 0;
	r->in_sysfs = true;
	r->was_added = true;
	r->added_at = c->site;
	r->ktype = kobj_ktype_of_rec(r);
	kobj_log_call(c, KOBJ_EV_ADD, r, 0);
	kobj_mirror(kobj, r);
	if (rules->add_sends_hotplug)
		kobj_hotplug(c, r, "add");
	return 0;
}

/* ================================================================ the article's API */

void (kobject_init)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_init");
	kobj_init_as(&c, kobj, KOBJ_KIND_KOBJECT, NULL, KOBJ_ERA_2_6_0);
}

struct kobject *(kobject_get)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_get");
	return kobj_get_as(&c, kobj, KOBJ_REF_GET, 0, NULL);
}

void (kobject_put)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_put");
	kobj_put_as(&c, kobj);
}

int (kobject_add)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_add");
	return kobj_add_as(&c, kobj);
}

void (kobject_del)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_del");
	kobj_del_as(&c, kobj);
}

int (kobject_register)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_register");
	char where[256];

	if (!kobj)
		return -EINVAL;
	c.step = "kobject_init";
	struct kobj_record *r = kobj_init_as(&c, kobj, KOBJ_KIND_KOBJECT, NULL, KOBJ_ERA_2_6_0);
	if (!r)
		return -EINVAL;
	c.step = "kobject_add";
	int err = kobj_add_as(&c, kobj);
	c.step = NULL;
	if (err)
		kobj_diagnose(&c, KOBJ_DIAG_REGISTER_FAILED, r->id,
			    kobj_xasprintf("kobject_register failed for %s (%d)", r->name, err),
			    kobj_xasprintf("kobject_register() at %s: the add step failed (see the "
					   "diagnostic before this one). The object is initialised, "
					   "so the caller must still kobject_put() it to release it.",
					   kobj_site_where(c.w, c.site, where)));
	return err;
}

void (kobject_unregister)(struct kobject *kobj)
{
	struct kcall c = kobj_call("kobject_unregister");

	if (!kobj)
		return;
	c.step = "kobject_del";
	kobj_del_as(&c, kobj);
	c.step = "kobject_put";
	c.teardown = true;
	kobj_put_as(&c, kobj);
}

/* =============================================================== sandbox extensions */

void kobj_next_put(struct kobj_world *w, unsigned long long token)
{
	w->next_put = token;
	w->next_put_obj = 0;
}

unsigned long long kobj_last_ref(const struct kobj_world *w)
{
	return w->last_take;
}

void kobj_ref_track(struct kobj_world *w, unsigned long long token, unsigned obj, bool on)
{
	unsigned e = kobj_ledger_entry_of(w, token, obj);
	if (e)
		kobj_ledger_track(w, e, on);
}

bool kobj_ref_outstanding(const struct kobj_world *w, unsigned long long token, unsigned obj)
{
	return kobj_ledger_entry_of(w, token, obj) != 0;
}

void kobj_use_after_release(struct kobj_world *w, unsigned id, const char *op)
{
	struct kobj_record *r = kobj_rec(w, id);
	struct kcall c = kobj_call_in(w, kobj_take_site(w), op);

	unsigned long long token = w->next_put;

	w->next_put = 0;
	c.lua = !w->site_from_c;
	if (!r || !r->released)
		return;
	/* The address is never read: the record alone says the object is gone. */
	if (strstr(op, "put") && token)
		kobj_report_ref_put_twice(&c, r, (unsigned long)(uint32_t)token);
	else if (strstr(op, "put"))
		kobj_report_put_released(&c, r);
	else
		kobj_report_get_released(&c, r);
}
