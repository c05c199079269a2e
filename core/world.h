/*
 * The world: all state of one sandbox. Every object ever initialised has a record here,
 * every operation is an event in the log, every misuse a diagnostic. The kernel-named
 * calls act on the current world; tests and the REPL make fresh ones.
 */
#ifndef KOBJ_WORLD_H
#define KOBJ_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kobject;
struct sysfs_dirent;

/* Where a call was made: a C file:line, or a Lua script line. */
struct kobj_origin {
	const char *file; /* NULL when unknown; interned by the world, never freed early */
	int line;
};

/* kobj_note_origin() - the origin of the next kernel-named call on this thread. */
void kobj_note_origin(const char *file, int line);

/* ------------------------------------------------------------------------------ world */

struct kobj_world;

struct kobj_world *kobj_world_new(void);
/* Frees the world's records, log and sysfs; objects in caller memory are not touched,
 * except that releases still delayed by KOBJ_DEBUG_RELEASE (debug.h) run first. */
void kobj_world_free(struct kobj_world *w);
/* The current world, made on first use if none was set. */
struct kobj_world *kobj_world_current(void);
/* Make @w current (NULL: none); Return: the previous one. */
struct kobj_world *kobj_world_use(struct kobj_world *w);

/* Fault injection: the @nth simulated kernel allocation from now fails (1 = the next). */
void kobj_world_fail_alloc(struct kobj_world *w, unsigned nth);

/*
 * kobj_set_alloc_gate() - a process-wide check on the core's own allocations, so a host
 * with a memory cap can count them. @gate is called with the size of each allocation the
 * core is about to make (kobj_xmalloc and friends, kmalloc); returning false makes a
 * simulated kernel allocation (kmalloc) fail as under memory pressure, while the
 * core's bookkeeping, which cannot fail, is only counted. NULL removes the gate.
 */
void kobj_set_alloc_gate(bool (*gate)(size_t bytes, void *ud), void *ud);

/*
 * kobj_charge_work() - note @units of work done in C on behalf of a script (a walk over
 * every record, a report, a callback's traceback), for a host that budgets scripts;
 * kobj_take_work() returns what was noted since its last call and starts again at 0.
 * Process-wide, like the gate; neither can fail.
 */
void kobj_charge_work(size_t units);
size_t kobj_take_work(void);


/* ---------------------------------------------------------------------------- records */

enum kobj_kind { KOBJ_KIND_KOBJECT, KOBJ_KIND_KSET, KOBJ_KIND_SUBSYSTEM, KOBJ_KIND_MODULE };

/* What the world knows of one object, kept after it is released. Read-only for users. */
struct kobj_record {
	unsigned id;               /* 1, 2, ... in order of init */
	enum kobj_kind kind;
	const void *ptr;           /* the object's address (not to be used after release) */
	char *name;                /* a copy of the current name */
	int refcount;
	bool in_sysfs;             /* added and not yet deleted */
	bool was_added;            /* added at least once */
	bool released;             /* count reached zero; the memory may be gone */
	bool no_release;           /* released with no release() method: leaked memory */
	bool diagnosed;            /* named by at least one diagnostic */
	unsigned parent;           /* id of the parent whose reference it holds, or 0 */
	unsigned kset;             /* id of the kset whose reference it holds, or 0 */
	struct kobj_origin init_at, added_at, release_at;
	const struct kobj_type *ktype; /* as get_ktype() saw it at init, add and release */
	/* Today's API (modern.h): the era decides the bookkeeping of every later call. */
	bool modern;               /* initialised by kobject_init(kobj, ktype) and friends */
	bool release_pending;      /* count reached 0, release delayed (KOBJ_DEBUG_RELEASE) */
	bool add_uevent_sent;      /* the kernel's state_add_uevent_sent */
	bool remove_uevent_sent;   /* the kernel's state_remove_uevent_sent */
	bool builtin;              /* made by the sandbox (/sys/kernel): never a leak */
	/* internal */
	struct kobject *held_parent;
	struct kset *held_kset;
	struct kset *nearest_kset; /* own kset, else the parent's nearest: where hotplug asks */
	struct sysfs_dirent *dir;
};

size_t kobj_record_count(const struct kobj_world *w);
/* kobj_record_by_id() - Return: the record with id @id (1-based), or NULL. */
const struct kobj_record *kobj_record_by_id(const struct kobj_world *w, unsigned id);
/* kobj_record_of() - Return: the latest record for an address, released or not, or NULL. */
const struct kobj_record *kobj_record_of(const struct kobj_world *w, const void *ptr);
/* kobj_fake_pointer() - the stable, hashed-looking "%p" the messages print for @id. */
const char *kobj_fake_pointer(unsigned id, char buf[17]);

/* ---------------------------------------------------------------------------- the log */

enum kobj_event_kind {
	KOBJ_EV_INIT,
	KOBJ_EV_SET_NAME,
	KOBJ_EV_GET,
	KOBJ_EV_PUT,
	KOBJ_EV_ADD,
	KOBJ_EV_DEL,
	KOBJ_EV_RELEASE,
	KOBJ_EV_HOTPLUG,
	KOBJ_EV_DIAG,
	KOBJ_EV_MODULE_LOAD,
	KOBJ_EV_MODULE_UNLOAD,
};

struct kobj_event {
	unsigned long seq;         /* 1, 2, ... */
	enum kobj_event_kind kind;
	const char *op;            /* the call that did it: "kobject_get", "kset_register"... */
	unsigned obj;              /* record id (0 if the call named no known object) */
	unsigned holder;           /* for GET/PUT: the object holding that reference
				    * (a child holds its parent and kset), 0 = the caller */
	int before, after;         /* the count around the event */
	unsigned aux;              /* DIAG: diagnostic index; HOTPLUG: event index */
	struct kobj_origin origin;
};

size_t kobj_log_count(const struct kobj_world *w);
const struct kobj_event *kobj_log_event(const struct kobj_world *w, size_t i);
const char *kobj_event_kind_name(enum kobj_event_kind kind);
/* One line: "12 demo.c:40 kobject_get 'foo' 1 -> 2". */
void kobj_event_print(const struct kobj_world *w, const struct kobj_event *ev, FILE *out);
/* The last @n events (all when @n is 0). */
void kobj_log_print(const struct kobj_world *w, size_t n, FILE *out);

/* ------------------------------------------------------------------------ diagnostics */

enum kobj_diag_kind {
	KOBJ_DIAG_INVALID_POINTER,   /* kobject_init(NULL) and the like */
	KOBJ_DIAG_INIT_TWICE,
	KOBJ_DIAG_GET_UNINIT,
	KOBJ_DIAG_PUT_UNINIT,
	KOBJ_DIAG_GET_ZERO,          /* get of a released object */
	KOBJ_DIAG_PUT_ZERO,          /* put below zero: a double put */
	KOBJ_DIAG_NO_RELEASE,
	KOBJ_DIAG_EMPTY_NAME,
	KOBJ_DIAG_DUPLICATE_NAME,
	KOBJ_DIAG_ADD_FAILED,
	KOBJ_DIAG_ADD_UNINIT,
	KOBJ_DIAG_ADD_TWICE,
	KOBJ_DIAG_DEL_NOT_ADDED,
	KOBJ_DIAG_REGISTER_FAILED,
	KOBJ_DIAG_SET_NAME_FAILED,
	KOBJ_DIAG_NO_SUBSYSTEM,
	KOBJ_DIAG_RECURSIVE_LOCK,
	KOBJ_DIAG_MODULE_IN_USE,
	KOBJ_DIAG_MODULE_PUT_ZERO,
	KOBJ_DIAG_MODULE_GONE,
	KOBJ_DIAG_CALLBACK_ERROR,    /* a release or hotplug method written in Lua failed */
	KOBJ_DIAG_USE_AFTER_FREE,    /* add, del or set_name on a released object */
	KOBJ_DIAG_AUTO_DEL,          /* released while still in sysfs */
	/* Today's API (modern.h, kref.h, sysfs_attr.h, debug.h) */
	KOBJ_DIAG_NO_KTYPE,          /* kobject_init(kobj, NULL) */
	KOBJ_DIAG_REFCOUNT_SATURATED, /* refcount_t: saturated; leaking memory. */
	KOBJ_DIAG_REFCOUNT_DEC_ZERO, /* refcount_t: decrement hit 0; leaking memory. */
	KOBJ_DIAG_NOT_IN_SYSFS,      /* a file, group or link on an object with no directory */
	KOBJ_DIAG_NO_SYSFS_OPS,      /* an attribute file for a ktype without sysfs_ops */
	KOBJ_DIAG_EMPTY_GROUP,       /* an attribute_group with no attrs */
	KOBJ_DIAG_BAD_PERMISSIONS,   /* an attribute mode outside 0664 */
	KOBJ_DIAG_GROUP_NOT_FOUND,   /* sysfs_remove_group of a group that is not there */
	KOBJ_DIAG_BAD_COUNT,         /* show() returned PAGE_SIZE or more */
	KOBJ_DIAG_BAD_SYSFS_EMIT,    /* sysfs_emit() on a buffer that is not the sysfs page */
	KOBJ_DIAG_UEVENT_ENV_FULL,   /* add_uevent_var: too many keys / buffer too small */
	KOBJ_DIAG_FREED_BEFORE_RELEASE, /* kfree of an object whose release is delayed */
	KOBJ_DIAG_KIND_COUNT
};

struct kobj_diag {
	enum kobj_diag_kind kind;
	char *message;             /* the kernel's own text */
	char *explanation;         /* what went wrong and where, in plain words */
	unsigned obj;              /* record id, or 0 */
	unsigned long seq;         /* the DIAG event in the log */
	struct kobj_origin origin;
};

/* A short stable tag for a kind: "double-put", "no-release", ... (used by lesson checks). */
const char *kobj_diag_tag(enum kobj_diag_kind kind);
size_t kobj_diag_count(const struct kobj_world *w);
const struct kobj_diag *kobj_diag_at(const struct kobj_world *w, size_t i);
/* The kernel's line(s), then the explanation indented. */
void kobj_diag_print(const struct kobj_diag *d, FILE *out);
/**
 * kobj_diag_record() - record a diagnostic found by a layer above the core
 * @obj: record id or 0; @message: kernel-style text; @explanation: plain words
 * The origin is the one noted for the current call (kobj_note_origin).
 */
void kobj_diag_record(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		      const char *message, const char *explanation);
/**
 * kobj_use_after_release() - a get or put through a stale handle, reported as the kernel
 * would (refcount_t: addition on 0 / underflow) without touching the freed object
 * @op: "kobject_get" or "kobject_put" (or kset_/subsys_ variants)
 */
void kobj_use_after_release(struct kobj_world *w, unsigned id, const char *op);
/* Called for each diagnostic as it is recorded (the demo prints them). */
void kobj_world_on_diag(struct kobj_world *w,
			void (*fn)(const struct kobj_diag *d, void *ctx), void *ctx);
/* Called after an object's release has run (the Lua layer closes its handles). */
void kobj_world_on_release(struct kobj_world *w,
			   void (*fn)(const struct kobj_record *r, void *ctx), void *ctx);

/* --------------------------------------------------------------------------- hotplug */

struct kobj_hotplug_event {
	unsigned long seqnum;      /* 0, 1, ... as 2.6.0's /sbin/hotplug saw it; today's
				    * kobject_uevent() counts 1, 2, ... on its own (SEQNUM=) */
	const char *action;        /* "add", "remove"; today's uevents also "change", "move",
				    * "online", "offline", "bind", "unbind" */
	char *devpath;             /* "/subsys/kset/obj" */
	char *subsystem;
	char **envp;               /* "KEY=value", in the order the kernel builds them */
	int envc;
	unsigned obj;
	struct kobj_origin origin;
};

size_t kobj_hotplug_count(const struct kobj_world *w);
const struct kobj_hotplug_event *kobj_hotplug_at(const struct kobj_world *w, size_t i);
/* Like `udevadm monitor --env`: "KERNEL[seq] add /devpath (subsystem)" and the env. */
void kobj_hotplug_print(const struct kobj_hotplug_event *ev, FILE *out);

/* ---------------------------------------------------------------------------- leaks */

/**
 * kobj_leak_report() - objects not yet released, each with its count and the references
 * that explain it ("taken at demo.c:12 by kobject_get, never put")
 * Return: the number of leaked objects (0 prints "no leaks").
 */
size_t kobj_leak_report(const struct kobj_world *w, FILE *out);
/* kobj_leak_count() - objects not released, and modules whose users never put them. */
size_t kobj_leak_count(const struct kobj_world *w);

/* One object not released, and the references still outstanding, oldest first. */
struct kobj_leak {
	const struct kobj_record *record;
	const struct kobj_event **refs;
	size_t nrefs;
};

/**
 * kobj_leaks_find() - what kobj_leak_report() prints, as data
 * Return: an array of *@count leaks in order of initialisation; free it with
 * kobj_leaks_free(). Each put is paired with the reference it gives back: an unregister
 * returns the creator's, any other put the newest one of the same holder, else of anyone.
 */
struct kobj_leak *kobj_leaks_find(const struct kobj_world *w, size_t *count);
void kobj_leaks_free(struct kobj_leak *leaks, size_t count);
/* "taken at demo.c:12 by kobject_get, never put" for the reference @ev took on @r. */
void kobj_leak_ref_text(const struct kobj_world *w, const struct kobj_record *r,
			const struct kobj_event *ev, char *buf, size_t size);

#endif
