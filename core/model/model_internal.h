/*
 * What the model's files share: the call in progress, the era rules an object follows,
 * the lifecycle steps both eras are made of, and the model's state in a world.
 */
#ifndef KOBJ_MODEL_INTERNAL_H
#define KOBJ_MODEL_INTERNAL_H

#include <stdarg.h>

#include "core/model/kobject.h"
#include "core/model/sched.h"
#include "core/sysfs/sysfs_tree.h"
#include "core/world/world_internal.h"

/* ====================================================================== the call */

/* A kernel-named call in progress: its world, where it was called from, its name. */
struct kcall {
	struct kobj_world *w;
	unsigned site;
	const char *op;   /* the call made: "kobject_unregister" */
	const char *step; /* the kernel function doing the current step: "kobject_del" */
	bool lua;         /* called from a script: the ledger's rules for scripts */
	bool teardown;    /* an unregister's put: it gives back what register took */
};

/* kobj_call() - begin @op in the current world from the noted site. */
struct kcall kobj_call(const char *op);
/* kobj_call_in() - begin @op in @w at @site (work the sandbox does on its own). */
struct kcall kobj_call_in(struct kobj_world *w, unsigned site, const char *op);
/* An event of the call in progress about @r (its count unchanged); Return: its seq. */
unsigned long kobj_log_call(struct kcall *c, enum kobj_event_kind kind,
			    const struct kobj_record *r, unsigned aux);
/* The name of what is being done now: the step, else the call. */
static inline const char *kcall_now(const struct kcall *c)
{
	return c->step ? c->step : c->op;
}

/* ====================================================================== records */

/* The record of @kobj if the world initialised it, released or not; NULL otherwise. The
 * object's memory is read (its kobj_id): only for pointers not known to be freed. The id
 * is checked against the record's address, so a stale or forged id finds nothing. */
static inline struct kobj_record *kobj_rec_of(const struct kobj_world *w,
					      const struct kobject *kobj)
{
	if (!kobj)
		return NULL;
	struct kobj_record *r = kobj_rec(w, kobj->kobj_id);
	if (!r || r->ptr != kobj || r->memory_gone || r->kind == KOBJ_KIND_MODULE)
		return NULL;
	kobj_sched_touch(KOBJ_RES_OBJECT, r->id, false); /* the explorer sees the read */
	return r;
}

/* The same, only if it is not released. */
static inline struct kobj_record *kobj_live_of(const struct kobj_world *w,
					       const struct kobject *kobj)
{
	struct kobj_record *r = kobj_rec_of(w, kobj);
	return r && !r->released ? r : NULL;
}
/* The object of a live record (its memory is known to be there). */
static inline struct kobject *kobj_of(const struct kobj_record *r)
{
	return (struct kobject *)r->ptr;
}
/* Copies the record's state into the object's fields (refcount, kref, state bits, sd). */
void kobj_mirror(struct kobject *kobj, const struct kobj_record *r);
/* The "%p" the kernel would print for @kobj: its record's, or a stable unknown one. */
const char *kobj_ptr(struct kobj_world *w, const void *kobj, char buf[17]);

/* ====================================================================== era rules */

struct kobj_era_rules {
	enum kobj_era id;
	const char *name;          /* "2.6.0", "6.1" */
	bool get_zero_fails;       /* a get of a count of 0 returns NULL (the article) */
	bool refcount_t;           /* counts saturate as refcount_t does (kref.h) */
	bool add_takes_sysfs_ref;  /* add takes a reference on the object itself */
	bool add_sends_hotplug;    /* add and del call the kset's hotplug_ops */
	bool del_drops_holds;      /* del drops the parent and kset references */
	bool kset_gives_ktype;     /* get_ktype() prefers the kset's ktype */
	bool find_takes_ref;       /* kset_find_obj() returns a reference */
	bool locks_subsystem;      /* kset lists are guarded by the subsystem's rwsem */
	bool traces;               /* pr_debug lines with KOBJ_DEBUG_KOBJECT */
	bool may_delay_release;    /* KOBJ_DEBUG_RELEASE applies */
	bool unchecked_init;       /* init of a live object re-initialises it (today) */
};

extern const struct kobj_era_rules kobj_era_2_6_0, kobj_era_today;
static inline const struct kobj_era_rules *kobj_era_of(const struct kobj_record *r)
{
	return r->era == KOBJ_ERA_TODAY ? &kobj_era_today : &kobj_era_2_6_0;
}

/* ====================================================================== lifecycle */

/* kobject_init() of either era; Return: the record, or NULL (reported). */
struct kobj_record *kobj_init_as(struct kcall *c, struct kobject *kobj, enum kobj_kind kind,
				 const struct kobj_type *ktype, enum kobj_era era);
/* A reference of @kind taken by the caller (holder 0) or by object @holder. Return:
 * @kobj, or NULL if its era refuses (reported); the new entry in *@entry if wanted. */
struct kobject *kobj_get_as(struct kcall *c, struct kobject *kobj, enum kobj_ref_kind kind,
			    unsigned holder, unsigned *entry);
/* kobject_get_unless_zero(): NULL, without a report, for a count of 0. */
struct kobject *kobj_get_unless_zero_as(struct kcall *c, struct kobject *kobj,
					enum kobj_ref_kind kind);
/* A caller's put: the reference named by the next-put token, else the ledger's pick. */
void kobj_put_as(struct kcall *c, struct kobject *kobj);
/* Drops the entry @e on record @obj, and whatever its release lets go in turn. */
void kobj_drop(struct kcall *c, unsigned obj, unsigned e, bool chosen);
/* The article's kobject_add(kobj) and today's add of a named object. */
int kobj_add_as(struct kcall *c, struct kobject *kobj);
void kobj_del_as(struct kcall *c, struct kobject *kobj);
/* The cleanup once the count is 0, now or after a delay: the one release tail. */
void kobj_cleanup(struct kcall *c, struct kobj_record *r);
/* Out of sysfs and the kset list (both eras' del, and an auto cleanup). */
void kobj_unlink(struct kcall *c, struct kobj_record *r);

/* ======================================================================= diagnostics */

/* A diagnostic of the current call: the kernel's @message, then the explanation. */
void kobj_diagnose(struct kcall *c, enum kobj_diag_kind kind, unsigned obj, char *message,
		 char *explanation);
void kobj_report_invalid_pointer(struct kcall *c);
void kobj_report_no_ktype(struct kcall *c, struct kobject *kobj);
void kobj_report_init_twice(struct kcall *c, const struct kobj_record *r);
void kobj_report_get_uninit(struct kcall *c, struct kobject *kobj);
void kobj_report_put_uninit(struct kcall *c, struct kobject *kobj);
/* Refuses @op on a released record, reporting a use after free; Return: true if refused. */
bool kobj_refuse_released(struct kcall *c, const struct kobj_record *r);
void kobj_report_get_released(struct kcall *c, const struct kobj_record *r);
void kobj_report_put_released(struct kcall *c, const struct kobj_record *r);
void kobj_report_put_not_owned(struct kcall *c, const struct kobj_record *r);
void kobj_report_ref_put_twice(struct kcall *c, const struct kobj_record *r,
			       unsigned long serial);
void kobj_report_no_release(struct kcall *c, struct kobj_record *r);
void kobj_report_add_uninit(struct kcall *c, struct kobject *kobj);
void kobj_report_added_twice(struct kcall *c, const struct kobj_record *r);
void kobj_report_empty_name(struct kcall *c, const struct kobj_record *r);
int kobj_check_kset(struct kcall *c, const struct kobj_record *r, struct kset *kset);
int kobj_check_parent(struct kcall *c, const struct kobj_record *r, struct kobject *parent);
void kobj_report_dir_failed(struct kcall *c, const struct kobj_record *r,
			    const char *parent_name, const char *ppath, int err);
/* "the caller must still kobject_put() it", or what a creating call did itself. */
const char *kobj_after_failed_add(const struct kcall *c);
/* A refcount_t saturation event of an object's count (kref.h's events). */
void kobj_report_saturation(struct kcall *c, struct kobj_record *r, int event, int before);

/* ======================================================================== names */

/* The name @fmt makes, each '/' turned into '!' as sysfs needs; Return: kmalloc'd (free
 * with kobj_xfree), or NULL (no memory). */
char *kobj_format_name(struct kobj_world *w, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Installs @name (taken over) as the object's name, the record's following. */
void kobj_install_name(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		       char *name);
/* A plain string as the name ('/' becomes '!'); Return: 0, or -ENOMEM (reported). */
int kobj_set_name_as(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		     const char *name);
/* "DEVPATH_OLD=/a/b" for a move event; Return: kmalloc'd, or NULL (-ENOMEM). */
char *kobj_devpath_old(struct kcall *c, struct kobject *kobj);
/* The name as a call sees it ("" before any). */
const char *kobj_name_of(const struct kobject *kobj);

/* ======================================================================== sysfs */

/* The directory and default files of an object being added; Return: 0 or an error. */
int kobj_create_dir(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		    struct sysfs_dirent *pdir);
int kobj_create_default_attrs(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
			      struct sysfs_dirent *dir, struct attribute **attrs);
int kobj_create_default_groups(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
			       struct sysfs_dirent *dir, const struct attribute_group **groups);
/* The ktype whose sysfs_ops serve @r's files. */
const struct kobj_type *kobj_ktype_of_rec(const struct kobj_record *r);

/* ======================================================================== events */

/* 2.6.0's /sbin/hotplug call for @r's nearest kset with hotplug_ops. */
void kobj_hotplug(struct kcall *c, struct kobj_record *r, const char *action);
int kobj_uevent_as(struct kcall *c, struct kobject *kobj, enum kobject_action action,
		   char *envp_ext[]);
/* kobject_get_path() with its debug line; Return: kmalloc'd (kobj_xfree), or NULL. */
char *kobj_get_path_as(struct kcall *c, const struct kobject *kobj);
/* Appends a finished event to the world's list and the log. */
void kobj_events_add(struct kcall *c, struct kobj_record *r, struct kobj_hotplug_event *ev);

/* ======================================================================= refcount_t */

/* The arithmetic of refcount_t on a plain int, as include/linux/refcount.h does it.
 * Return: the refcount_saturation_type to report, or -1 when all is well. */
int kobj_rc_add(int *refs, int i);
int kobj_rc_add_not_zero(int *refs, int i, bool *added);
int kobj_rc_sub_and_test(int *refs, int i, bool *zero);
/* The kernel's line for a saturation event: "refcount_t: underflow; use-after-free." */
const char *kobj_rc_message(int event);
enum kobj_diag_kind kobj_rc_diag_kind(int event);

/* ============================================================== the model's state */

struct kobj_pending;
struct kobj_trace;
struct kobj_quarantine;
struct kobj_trackers;

struct kobj_model {
	/* DEBUG_KOBJECT and DEBUG_KOBJECT_RELEASE */
	unsigned debug;
	unsigned long now;
	long release_delay;
	unsigned long long rng;
	unsigned long next_order;
	struct kobj_pending *pending;
	size_t npending, pending_cap;
	/* the kernel log */
	struct kobj_trace *trace;
	size_t ntrace, trace_cap;
	/* uevents (today's, counted from 1) and /sbin/hotplug calls (2.6.0's, from 0) */
	struct kobj_hotplug_event *events;
	size_t nevents, events_cap;
	unsigned long long uevent_seqnum;
	unsigned long hotplug_seqnum;
	/* modules */
	struct module **modules;
	size_t nmodules, modules_cap;
	/* the sandbox's own objects: /sys/kernel and friends, by record id */
	unsigned builtin[8];
	/* names given to ktypes for pictures */
	struct { const struct kobj_type *ktype; char *name; } *ktype_names;
	size_t nktype_names, ktype_names_cap;
	/* memory kfree() gave back, held a while before it is really freed */
	struct kobj_quarantine *quarantine;
	/* memory the model gave objects (heap names, objects it allocated), still out */
	struct kobj_map owned;
	/* callbacks (release, show, filter...) running now */
	unsigned in_callback;
	/* the uevent whose kset's uevent_ops are being asked now (kobj_uevent_kset) */
	struct kobj_uevent_asking {
		unsigned obj, kset; /* record ids; 0: none */
	} asking;
	/* the simulated threads (sched.h), or NULL */
	struct kobj_sched *sched;
	/* ref_tracker directories and trackers, or NULL */
	struct kobj_trackers *trackers;
};

/* The world's model state, made if missing. */
struct kobj_model *kobj_model(struct kobj_world *w);
bool kobj_debugging(const struct kobj_world *w, unsigned flag);

/* A kernel log line; KOBJ_LOGLEVEL_DEBUG lines only with KOBJ_DEBUG_KOBJECT. */
void kobj_trace(struct kobj_world *w, enum kobj_loglevel level, unsigned obj, unsigned site,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A pr_debug line of today's lifecycle about @r: "kobject: '%s' (%p): ..." */
void kobj_trace_obj(struct kcall *c, const struct kobj_record *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ======================================================================= delays */

/* Queues the cleanup of @r for later (KOBJ_DEBUG_RELEASE). */
void kobj_release_later(struct kcall *c, struct kobj_record *r);
/* kfree() of @r's memory while its release is queued: reported, cleaned up now. */
void kobj_release_freed(struct kcall *c, struct kobj_record *r);
/* The release tail without release(): the memory is being freed by its owner. */
void kobj_release_without(struct kcall *c, struct kobj_record *r);
/* Runs every delayed release and frees the queue (the world is going). */
void kobj_delayed_teardown(struct kobj_world *w);

/* ====================================================================== memory */

/* kfree() of memory that may hold kobjects: reported, and kept if one is live.
 * Return: true if the memory may really be freed. */
bool kobj_may_free(struct kcall *c, const void *p, size_t size);
/* Frees memory the core allocated for an object (a dynamic kobject, a kset), through the
 * quarantine; its records are marked gone when it is really freed. */
void kobj_free_object_memory(struct kobj_world *w, void *p);
void kobj_quarantine_free(struct kobj_world *w);

/* Memory the model gives an object (a heap name, an object it allocates itself) is noted
 * while it is out, so that the world gives back what is left when it goes, without
 * reading any object's memory. */
enum kobj_owned { KOBJ_OWNED_NAME = 1, KOBJ_OWNED_OBJECT = 2 };
void kobj_owned_add(struct kobj_world *w, void *p, enum kobj_owned what);
/* Frees an owned name (or any owned block) at once and forgets it; NULL is fine. */
void kobj_owned_free(struct kobj_world *w, void *p);
/* What is still out when the world goes: names freed, objects through the quarantine. */
void kobj_owned_teardown(struct kobj_world *w);

/* ======================================================================= modules */

void kobj_modules_free(struct kobj_world *w);
void kobj_trackers_free(struct kobj_world *w);
/* The scheduler's state in the model (sched.c): files being read or written. */
void kobj_sched_free(struct kobj_world *w);
void kobj_trace_free(struct kobj_world *w);
void kobj_events_free(struct kobj_world *w);

/* ===================================================================== callbacks */

/* Around a call into code outside the core (release, show, store, filter...): counted,
 * so that the layer above can refuse what must not happen meanwhile (a reset). */
static inline void kobj_callback_enter(struct kobj_world *w)
{
	kobj_model(w)->in_callback++;
}

static inline void kobj_callback_leave(struct kobj_world *w)
{
	kobj_model(w)->in_callback--;
}

#endif
