/*
 * The world: all state of one sandbox. Every object ever initialised has a record here,
 * every reference it holds or is held by is an entry of the ledger, every operation is an
 * event in the log, every misuse a diagnostic. The kernel-named calls (core/model) act on
 * the current world; tests and the REPL make fresh ones.
 *
 * Threading contract: a world belongs to one host thread at a time, and so does the
 * core's process-wide state (the current world, the origin noted for the next call, the
 * table of call names, the count of memory in use, the scheduler's hooks); none of it
 * takes a host lock. Between core calls a world may move to another thread. The race
 * explorer (core/race) keeps the contract inside calls too: each simulated kernel thread
 * runs on a host thread of its own, but only the one holding the simulated CPU runs; the
 * others wait at a scheduling point (core/model/sched.h), and the handover, a semaphore
 * that orders memory, carries the world with it, the noted origin and the world's notes
 * about the call in progress included (core/race/threads.c). Kernel locks are simulated
 * (core/model/rwsem.h), never host locks.
 *
 * Memory contract: the world owns everything it records (names, origins, texts). Records
 * outlive the objects they describe; a record never points into an object's memory after
 * the object is released.
 */
#ifndef KOBJ_WORLD_H
#define KOBJ_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kobj_type;
struct sysfs_dirent;
struct kobj_world;

/* ============================================================================ origins */

/* Where a call was made: a C file:line in a function, or a Lua script line. */
struct kobj_origin {
	const char *file; /* NULL when unknown; owned by the world */
	int line;
	const char *func; /* the calling function, or NULL when unknown */
};

/* A C call site, noted by the macros of kernel-named calls (static storage, one per site).
 * It remembers its id in the last world that interned it, so that a call made again and
 * again from one line costs no lookup. */
struct kobj_site_note {
	const char *file;
	int line;
	const char *func;
	unsigned world; /* the tag of that world (0: none yet) */
	unsigned id;    /* its site id there */
};

/* The origin of the next kernel-named call; the call takes it (and clears it) first. */
struct kobj_note {
	struct kobj_site_note *c;       /* a C call site */
	unsigned site;                  /* or a site already interned in the current world */
	const char *file;               /* or a place given as text */
	int line;
	const char *func;
};
extern struct kobj_note kobj_noted;

/* kobj_note_site() - the next call comes from the C call site @site. */
static inline void kobj_note_site(struct kobj_site_note *site)
{
	kobj_noted.c = site;
	kobj_noted.site = 0;
	kobj_noted.file = NULL;
}

/* kobj_note_origin() - the next call comes from @file:@line (copied when the call runs). */
void kobj_note_origin(const char *file, int line);
/* kobj_note_origin_in() - the same, inside the function @func (NULL: unknown). */
void kobj_note_origin_in(const char *file, int line, const char *func);
/* kobj_note_site_id() - the next call comes from a site interned with kobj_site(). */
static inline void kobj_note_site_id(unsigned site)
{
	kobj_noted.site = site;
	kobj_noted.c = NULL;
	kobj_noted.file = NULL;
}

/**
 * kobj_site() - the id of the site @file:@line in @func (NULL: none) in @w, interned
 * Return: a site id (1, 2, ...), stable for the world's life; 0 for an unknown place.
 */
unsigned kobj_site(struct kobj_world *w, const char *file, int line, const char *func);
/**
 * kobj_site_in() - the site @file:@line in @func, called from the site @caller (0: none),
 * interned in @w: a site id then stands for a whole call stack.
 * Return: a site id, stable for the world's life; 0 for an unknown place.
 */
unsigned kobj_site_in(struct kobj_world *w, const char *file, int line, const char *func,
		      unsigned caller);
/* kobj_site_caller() - the site that called @site's function, or 0. */
unsigned kobj_site_caller(const struct kobj_world *w, unsigned site);
/* kobj_site_origin() - the place a site id stands for ({NULL, 0, NULL} for 0). */
struct kobj_origin kobj_site_origin(const struct kobj_world *w, unsigned site);
/* kobj_where() - "demo.c:12", "kernel/ksysfs.c:ksysfs_init()" for what boot made, or
 * "an unknown place"; @buf holds 256 bytes. */
const char *kobj_where(struct kobj_origin o, char buf[256]);
/* kobj_site_where() - kobj_where() of a site id. */
const char *kobj_site_where(const struct kobj_world *w, unsigned site, char buf[256]);

/* ============================================================================= world */

struct kobj_world *kobj_world_new(void);
/* Frees the world: the layers above finish first (delayed releases run, /sys/kernel goes),
 * then its records, ledger, log and sysfs. Objects in caller memory are not touched. */
void kobj_world_free(struct kobj_world *w);
/* The current world without making one (NULL if there is none). */
struct kobj_world *kobj_world_peek(void);
/* kobj_world_make() - a new current world, when there is none; kobj_world_current()'s
 * slow path. */
struct kobj_world *kobj_world_make(void);
/* The current world, set by kobj_world_use(); read it through kobj_world_current(). */
extern struct kobj_world *kobj_current_world;
/* The current world, made on first use if none was set. */
static inline struct kobj_world *kobj_world_current(void)
{
	return kobj_current_world ? kobj_current_world : kobj_world_make();
}
/* Make @w current (NULL: none); Return: the previous one. */
struct kobj_world *kobj_world_use(struct kobj_world *w);

/* Fault injection: the @nth simulated kernel allocation from now fails (1 = the next). */
void kobj_world_fail_alloc(struct kobj_world *w, unsigned nth);

/*
 * kobj_world_set_logging() - keep the event log (the default) or not. Without it, counts,
 * the ledger, diagnostics and reports work as before; only the log and what is drawn from
 * it (the timeline, log queries) stay empty.
 */
void kobj_world_set_logging(struct kobj_world *w, bool on);
bool kobj_world_logging(const struct kobj_world *w);

/* ============================================================= memory the core holds */

/* kobj_mem_in_use() - bytes the core holds for all worlds (records, log, sysfs, names...). */
size_t kobj_mem_in_use(void);
/* kobj_mem_peak() - the most kobj_mem_in_use() ever was. */
size_t kobj_mem_peak(void);
/*
 * kobj_mem_set_limit() - a cap on kobj_mem_in_use() (0: none). Simulated kernel
 * allocations (kmalloc, names, sysfs entries) fail with -ENOMEM beyond it; the core's own
 * bookkeeping still succeeds, and kobj_mem_over_limit() tells the layer above to stop.
 */
void kobj_mem_set_limit(size_t bytes);
bool kobj_mem_over_limit(void);

/* =========================================================================== records */

enum kobj_kind { KOBJ_KIND_KOBJECT, KOBJ_KIND_KSET, KOBJ_KIND_SUBSYSTEM, KOBJ_KIND_MODULE };

/* The rules an object follows, chosen by the call that initialised it. */
enum kobj_era {
	KOBJ_ERA_2_6_0, /* the article's: kobject_init(kobj), kobject_register() ... */
	KOBJ_ERA_TODAY, /* kobject_init(kobj, ktype), kobject_create_and_add() ... */
};

/* What the world knows of one object, kept after it is released. Read-only for users. */
struct kobj_record {
	unsigned id;               /* 1, 2, ... in order of init */
	unsigned char kind;        /* enum kobj_kind */
	unsigned char era;         /* enum kobj_era */
	unsigned in_sysfs : 1;     /* added and not yet deleted */
	unsigned was_added : 1;    /* added at least once */
	unsigned released : 1;     /* count reached zero and cleanup ran; memory may be gone */
	unsigned release_pending : 1; /* count reached 0, release delayed (KOBJ_DEBUG_RELEASE) */
	unsigned no_release : 1;   /* released with no release() method: leaked memory */
	unsigned diagnosed : 1;    /* named by at least one diagnostic */
	unsigned builtin : 1;      /* made by the sandbox (/sys/kernel): never a leak */
	unsigned add_uevent_sent : 1;    /* the kernel's state_add_uevent_sent */
	unsigned remove_uevent_sent : 1; /* the kernel's state_remove_uevent_sent */
	unsigned memory_gone : 1;  /* its memory was freed (kfree, a release): never read */
	unsigned freed_live : 1;   /* kfree() of its memory while it was live: kept, reported */
	int refcount;              /* the count the kernel would read */
	unsigned parent;           /* id of the parent whose reference it holds, or 0 */
	unsigned kset;             /* id of its kset (a reference held while kset_ref), or 0 */
	unsigned nearest_kset;     /* its kset, else its parent's nearest: where events go */
	unsigned init_at, added_at, release_at; /* sites (kobj_site_origin) */
	unsigned release_order;    /* 1, 2, ... in order of release; 0 while not released */
	const void *ptr;           /* the object's address: identity only, never read here */
	const char *name;          /* the current name, owned by the world: in short_name
				    * when it fits there, else allocated */
	char short_name[16];
	const struct kobj_type *ktype; /* as it was at init, add and release */
	struct sysfs_dirent *dir;  /* its sysfs directory while in sysfs */
	/* the ledger (ledger.c): outstanding references on this object, and those it holds */
	unsigned callers, holders; /* heads: references held by callers / by objects */
	unsigned parent_ref, kset_ref, sysfs_ref; /* entries it holds (0: none) */
};

size_t kobj_record_count(const struct kobj_world *w);
/* kobj_record_by_id() - Return: the record with id @id (1-based), or NULL. */
const struct kobj_record *kobj_record_by_id(const struct kobj_world *w, unsigned id);
/* kobj_fake_pointer() - the stable, hashed-looking "%p" the messages print for @id. */
const char *kobj_fake_pointer(unsigned id, char buf[17]);
/* kobj_unknown_pointer() - a stable "%p" for an address the world never initialised. */
const char *kobj_unknown_pointer(struct kobj_world *w, const void *ptr, char buf[17]);
const char *kobj_kind_name(enum kobj_kind kind);

/* ========================================================================= the ledger */

/* Why a reference exists. */
enum kobj_ref_kind {
	KOBJ_REF_CREATOR, /* init: the creator's reference */
	KOBJ_REF_SYSFS,   /* 2.6.0's add: the object's own sysfs registration */
	KOBJ_REF_PARENT,  /* held by a child (the holder) as its parent */
	KOBJ_REF_KSET,    /* held by a member (the holder) of the kset */
	KOBJ_REF_GET,     /* an explicit get: kobject_get, kset_get, kref_get ... */
	KOBJ_REF_LOOKUP,  /* a lookup's result: kset_find_obj, get_unless_zero */
	KOBJ_REF_SUBSYS,  /* subsys_get() */
	KOBJ_REF_MODULE,  /* try_module_get(): a user of a module */
	KOBJ_REF_CALL,    /* held by a kernel call while it runs (kobject_move, rename) */
	KOBJ_REF_PENDING, /* a delayed release in flight; not counted */
	KOBJ_REF_KIND_COUNT
};

/* kobj_ref_kind_name() - "creator", "sysfs", "parent of", "kset of", "get", ... */
const char *kobj_ref_kind_name(enum kobj_ref_kind kind);
/* kobj_ref_held_by_object() - the kinds whose holder is an object, not a caller. */
bool kobj_ref_held_by_object(enum kobj_ref_kind kind);

/* One outstanding reference (or one just dropped), as data. */
struct kobj_ref {
	unsigned long serial;      /* 1, 2, ... its identity; never reused */
	enum kobj_ref_kind kind;
	unsigned obj;              /* the object referenced */
	unsigned holder;           /* the holding object (parent of, kset of, sysfs), or 0 */
	unsigned site;             /* where it was taken: a caller's file:line and function */
	const char *op;            /* the call that took it: "kobject_get", "kobject_add" ... */
	bool tracked;              /* carried by a reference handle or a ref_tracker */
};

/* kobj_refs_count() - outstanding references on @obj (callers' and objects'). */
size_t kobj_refs_count(const struct kobj_world *w, unsigned obj);
/*
 * kobj_refs_of() - the outstanding references on @obj, oldest first, into @out (at most
 * @max); Return: how many there are (which may be more than @max).
 */
size_t kobj_refs_of(const struct kobj_world *w, unsigned obj, struct kobj_ref *out, size_t max);
/* kobj_ref_text() - "kset of 'eth0', taken at demo.c:12 by kobject_add" and the like. */
void kobj_ref_text(const struct kobj_world *w, const struct kobj_ref *ref, char *buf,
		   size_t size);

/* ========================================================================= the log */

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
	KOBJ_EV_SYSFS,    /* a file, group or link made or removed (aux: what) */
	KOBJ_EV_SCHED,    /* a scheduling point of a simulated thread */
	KOBJ_EV_LOOKUP,   /* kset_find_obj() found a member (a reference or not, by era) */
	KOBJ_EV_KIND_COUNT
};

/* KOBJ_EV_SYSFS's what. */
enum kobj_sysfs_event {
	KOBJ_SYSFS_FILE_ADDED,
	KOBJ_SYSFS_FILE_REMOVED,
	KOBJ_SYSFS_GROUP_ADDED,
	KOBJ_SYSFS_GROUP_REMOVED,
	KOBJ_SYSFS_LINK_ADDED,
	KOBJ_SYSFS_LINK_REMOVED,
	KOBJ_SYSFS_NOTIFIED,      /* sysfs_notify() found its file or directory */
};

/* One event of the log, as read back (kobj_log_read). */
struct kobj_event {
	unsigned long seq;         /* 1, 2, ... */
	enum kobj_event_kind kind;
	const char *op;            /* the call made: "kobject_get", "kset_unregister" ... */
	const char *step;          /* the kernel function inside it that did this, or NULL:
				    * "kobject_del" inside "kobject_unregister" */
	unsigned obj;              /* record id (0 if the call named no known object) */
	/* GET, PUT and INIT: the reference taken or dropped */
	enum kobj_ref_kind ref_kind;
	unsigned holder;           /* the holding object, or 0 for a caller */
	unsigned long ref;         /* its serial */
	bool chosen;               /* PUT: no reference named; the sandbox picked this one */
	int before, after;         /* the count around the event */
	unsigned aux;              /* DIAG: diagnostic index; HOTPLUG: event index;
				    * SET_NAME: errno of a failure; SYSFS: enum kobj_sysfs_event;
				    * SCHED: what the thread does next (sched.h) */
	unsigned site;
	unsigned thread;           /* the simulated thread (0: the only one) */
	struct kobj_origin origin;
};

size_t kobj_log_count(const struct kobj_world *w);
/* kobj_log_read() - event @i (0-based) into @ev; Return: false past the end. */
bool kobj_log_read(const struct kobj_world *w, size_t i, struct kobj_event *ev);
const char *kobj_event_kind_name(enum kobj_event_kind kind);

/* ======================================================================== diagnostics */

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
	KOBJ_DIAG_PUT_NOT_OWNED,     /* a put by a caller who holds no reference: one too many */
	KOBJ_DIAG_REF_PUT_TWICE,     /* a put through a reference handle already put */
	KOBJ_DIAG_FREED_LIVE,        /* kfree() of memory that holds a live kobject */
	KOBJ_DIAG_REF_TRACKER,       /* ref_tracker: reference already released, leaks */
	KOBJ_DIAG_DEADLOCK,          /* simulated threads wait for each other */
	KOBJ_DIAG_KIND_COUNT
};

struct kobj_diag {
	enum kobj_diag_kind kind;
	char *message;             /* the kernel's own text */
	char *explanation;         /* what went wrong and where, in plain words */
	unsigned obj;              /* record id, or 0 */
	unsigned long seq;         /* the DIAG event in the log (0 with the log off) */
	unsigned site;
	struct kobj_origin origin;
};

/* A short stable tag for a kind: "double-put", "no-release", ... (used by lesson checks). */
const char *kobj_diag_tag(enum kobj_diag_kind kind);
size_t kobj_diag_count(const struct kobj_world *w);
const struct kobj_diag *kobj_diag_at(const struct kobj_world *w, size_t i);
/**
 * kobj_diag_record() - record a diagnostic found by a layer above the core
 * @obj: record id or 0; @message: kernel-style text; @explanation: plain words
 * The origin is the one noted for the current call (kobj_note_origin).
 */
void kobj_diag_record(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		      const char *message, const char *explanation);
/* Called for each diagnostic as it is recorded (the demo prints them). */
void kobj_world_on_diag(struct kobj_world *w,
			void (*fn)(const struct kobj_diag *d, void *ctx), void *ctx);
/* Called after an object's release has run (the Lua layer closes its handles). */
void kobj_world_on_release(struct kobj_world *w,
			   void (*fn)(const struct kobj_record *r, void *ctx), void *ctx);

#endif
