/*
 * The kobject model: the article's (2.6.0) API and today's (Linux 6.1) side by side, as
 * kernel code calls it. Including this header gives the whole API: kobjects, ktypes,
 * ksets, subsystems, modules, sysfs attributes, uevents, kref and refcount_t (kref.h,
 * sysfs_attr.h, modern.h, debug.h), acting on the current world (world.h).
 *
 * Every kernel-named call records where it was made: the macros below note the caller's
 * file, line and function before calling the function of the same name. Taking a
 * function's address (&kobject_get) still works; such calls are recorded with an
 * unknown origin.
 *
 * An object follows the rules of the call that initialised it, whichever era's name is
 * used on it later (era.h): kobject_init(kobj) gives the article's, kobject_init(kobj,
 * ktype) and the *_create_and_add calls today's. The two calls whose names the eras share
 * but whose signatures differ are chosen by the number of arguments:
 *
 *     kobject_init(kobj)                    the article's: count 1
 *     kobject_init(kobj, ktype)             today's, also named kobject_init_ktype()
 *     kobject_add(kobj)                     the article's: name and parent set before
 *     kobject_add(kobj, parent, fmt, ...)   today's, also named kobject_add_named()
 *
 * The bare names kobject_init and kobject_add (no call, as in &kobject_init or a function
 * pointer) are always the article's functions. Today's kobject_add() takes at most 13
 * arguments after fmt.
 *
 * Every reference is an entry of the world's ledger (world.h): a put drops one specific
 * reference, and a put by code that holds none of the object's references is refused
 * with a diagnostic, so that a reference an object holds (a child's on its parent, a
 * member's on its kset) cannot be dropped by anyone else. Memory the core frees (kfree, a
 * dynamic object's release) waits in a quarantine before it is returned, so that a late
 * put through a stale pointer is reported instead of reading freed memory.
 */
#ifndef KOBJ_KOBJECT_H
#define KOBJ_KOBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/model/kref.h"
#include "core/model/list.h"
#include "core/model/rwsem.h"
#include "core/model/slab.h"
#include "core/sysfs/sysfs.h"
#include "core/world/world.h"

#define KOBJ_NAME_LEN 20

struct kobject;
struct kset;
struct subsystem;
struct module;
struct attribute_group;
struct kset_uevent_ops;

/* --------------------------------------------------------------- attributes and ktypes */

struct attribute {
	const char *name;
	struct module *owner;
	mode_t mode;
};

struct sysfs_ops {
	ssize_t (*show)(struct kobject *kobj, struct attribute *attr, char *buf);
	ssize_t (*store)(struct kobject *kobj, struct attribute *attr, const char *buf,
			 size_t count);
};

struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
	struct attribute **default_attrs; /* NULL-terminated; the article's field */
	/* Today's field (default_attrs was removed in 5.18): NULL-terminated groups whose
	 * files kobject_add() creates; a named group gets a subdirectory. */
	const struct attribute_group **default_groups;
};

/* --------------------------------------------------------------------------- kobject */

struct kernfs_node;

/*
 * Both eras' fields. The world's record is what counts; the fields mirror it after every
 * call, so kernel code may read them (kobj->kref, kobj->state_in_sysfs, kobj->sd...).
 * name[] holds at most KOBJ_NAME_LEN - 1 characters, as in 2.6.0: kobject_name() (or
 * k_name) is the whole name, also for today's objects.
 */
struct kobject {
	char *k_name;                /* the name in use: name[] or a longer allocated copy */
	char name[KOBJ_NAME_LEN];    /* the first characters of the name, NUL-terminated */
	union {
		int refcount;        /* the article's count */
		struct kref kref;    /* today's */
	};
	struct list_head entry;      /* link in kset->list */
	struct kobject *parent;
	struct kset *kset;
	const struct kobj_type *ktype;
	union {
		struct sysfs_dirent *dentry; /* the article's name for its sysfs directory */
		struct kernfs_node *sd;      /* today's */
	};
	unsigned int state_initialized:1;
	unsigned int state_in_sysfs:1;
	unsigned int state_add_uevent_sent:1;
	unsigned int state_remove_uevent_sent:1;
	unsigned int uevent_suppress:1; /* today's: set it to drop this object's uevents */
	unsigned int kobj_id;           /* the sandbox's record of this object */
};

/**
 * kobject_init() - make a kobject ready for reference counting
 * @kobj: object in zeroed memory (fields the creator set, such as the name, are kept)
 *
 * Sets the count to one: the creator's reference, to be dropped with kobject_put().
 * A second init of a live object is refused with a diagnostic.
 */
void kobject_init(struct kobject *kobj);

/**
 * kobject_set_name() - set the name used in sysfs, printf-style, any length
 * @kobj: the object
 * @fmt: format of the name; a '/' in the result becomes '!', as sysfs needs
 *
 * Return: 0, -ENOMEM if the name could not be allocated (see kobj_world_fail_alloc), or
 * -EINVAL for a NULL @fmt. On failure the previous name is kept.
 */
int kobject_set_name(struct kobject *kobj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* kobject_name() - the object's name; never NULL ("" before a name is set). */
const char *kobject_name(const struct kobject *kobj);

/**
 * kobject_get() - take a reference
 * Return: @kobj with its count raised, or NULL for NULL, for an object never initialised,
 * and for one whose count already reached zero (the article's rule; a diagnostic records
 * the kernel's message). The result must be tested.
 */
struct kobject *kobject_get(struct kobject *kobj);

/**
 * kobject_put() - drop a reference; the last one releases the object
 * @kobj: the object, or NULL (no-op)
 *
 * On the last put the ktype's release() runs, then the object's kset and parent
 * references are dropped. A put on a released or uninitialised object is reported and
 * changes nothing.
 */
void kobject_put(struct kobject *kobj);

/**
 * kobject_add() - create the object's sysfs directory and join its kset
 * @kobj: an initialised, named object; set ->kset and ->parent first if wanted
 *
 * With no parent the kset's own kobject becomes the parent; with neither, the directory
 * goes to the top of /sys. The object takes a reference on itself (dropped by
 * kobject_del), on its parent and on its kset (both dropped when it is released).
 * Return: 0; -EINVAL (not initialised, empty name, kset not registered); -EEXIST (name
 * taken in that directory); -ENOENT (parent not in sysfs); -ENOMEM (fault injection).
 * On failure nothing was taken: the caller still owns its reference.
 */
int kobject_add(struct kobject *kobj);

/* kobject_del() - remove from sysfs and the kset, dropping the reference kobject_add took. */
void kobject_del(struct kobject *kobj);

/* kobject_register() - kobject_init() then kobject_add(); Return: as kobject_add(). */
int kobject_register(struct kobject *kobj);

/* kobject_unregister() - kobject_del() then kobject_put(). */
void kobject_unregister(struct kobject *kobj);

/* kobject_refcount() - the count as the world knows it; 0 once released or never inited. */
int kobject_refcount(const struct kobject *kobj);

/*
 * get_ktype() - the ktype that counts for @kobj: for the article's objects the kset's if
 * the object is in a kset that has one (2.6.0's rule), else its own.
 */
const struct kobj_type *get_ktype(const struct kobject *kobj);

/*
 * kobj_record_of() - the record of the object at @ptr, released or not, or NULL if the
 * world never initialised one there (modules: their record via module->id). Reads the
 * object's memory: only for pointers the caller knows are not freed.
 */
const struct kobj_record *kobj_record_of(const struct kobj_world *w, const void *ptr);

/* ------------------------------------------------------------------------------- kset */

struct kset_hotplug_ops {
	/* Return 0 to suppress the event. */
	int (*filter)(struct kset *kset, struct kobject *kobj);
	/* The subsystem name of the event; NULL means the kset's name. */
	const char *(*name)(struct kset *kset, struct kobject *kobj);
	/* Add "KEY=value" strings to envp (at most num_envp, text in buffer); non-zero
	 * return cancels the event. */
	int (*hotplug)(struct kset *kset, struct kobject *kobj, char **envp, int num_envp,
		       char *buffer, int buffer_size);
};

struct kset {
	struct subsystem *subsys;
	const struct kobj_type *ktype;
	struct list_head list;
	spinlock_t list_lock;      /* today's guard of the list */
	struct kobject kobj;
	struct kset_hotplug_ops *hotplug_ops;
	/* Today's: filter, name and uevent callbacks of kobject_uevent() (modern.h). A kset
	 * has these or the article's hotplug_ops, which 2.6.0's add and del use. */
	const struct kset_uevent_ops *uevent_ops;
};

static inline struct kset *to_kset(struct kobject *kobj)
{
	return kobj ? container_of(kobj, struct kset, kobj) : NULL;
}

void kset_init(struct kset *kset);
/* kset_add() - add the kset's kobject; with no parent, it goes under its subsystem. */
int kset_add(struct kset *kset);
int kset_register(struct kset *kset);
void kset_unregister(struct kset *kset);
struct kset *kset_get(struct kset *kset);
void kset_put(struct kset *kset);

/**
 * kset_find_obj() - the member of @kset named @name
 *
 * As the kset's era did it: a 2.6.0 kset takes the subsystem's rwsem for reading, finds
 * the member, and returns it without a reference. Today's takes the reference with
 * kobject_get_unless_zero() before it unlocks, so a member whose last put is running
 * elsewhere is not returned; the caller owns the reference and must kobject_put() it.
 * Return: the first match, or NULL.
 */
struct kobject *kset_find_obj(struct kset *kset, const char *name);

/* -------------------------------------------------------------------------- subsystem */

struct subsystem {
	struct kset kset;
	struct rw_semaphore rwsem; /* guards the lists of every kset of the subsystem */
};

/* decl_subsys() - define struct subsystem <name>_subsys at file scope. */
#define decl_subsys(_name, _type, _hotplug_ops)                                   \
	struct subsystem _name##_subsys = {                                       \
		.kset = { .kobj = { .name = #_name }, .ktype = (_type),           \
			  .hotplug_ops = (_hotplug_ops) },                        \
		.rwsem = RWSEM_INITIALIZER,                                       \
	}

void subsystem_init(struct subsystem *subsys);
int subsystem_register(struct subsystem *subsys);
void subsystem_unregister(struct subsystem *subsys);
struct subsystem *subsys_get(struct subsystem *subsys);
void subsys_put(struct subsystem *subsys);

/* ---------------------------------------------------------------------------- modules */

enum module_state { MODULE_STATE_LIVE, MODULE_STATE_GOING, MODULE_STATE_UNLOADED };

struct module {
	char name[56];
	int refcnt;
	enum module_state state;
	unsigned id;                     /* the module's record in the world */
	void (*exit)(struct module *mod); /* optional; runs while the module is GOING */
	void *data;                      /* for the code that loaded it */
};

/**
 * module_load() - simulate insmod: a live module with no references
 * Return: the module, owned by the world until it is freed, or NULL if a loaded module
 * already has that name (-EEXIST in *@err when @err is not NULL).
 */
struct module *module_load(const char *name, int *err);

/**
 * module_unload() - simulate rmmod
 * Return: 0, or -EBUSY (with a diagnostic) while references are held, -ENOENT if it is
 * not loaded. With no references the module goes GOING (try_module_get fails), its exit
 * runs, then it is UNLOADED. An unloaded module's pointer stays valid until the world is
 * freed; using it is reported.
 */
int module_unload(struct module *mod);

/* try_module_get() - true if @mod is NULL or live (its count is raised). */
bool try_module_get(struct module *mod);
void module_put(struct module *mod);
int module_refcount(const struct module *mod);


/* ------------------------------------------------------------------- files in sysfs */

/**
 * sysfs_read() - read an attribute file through its ktype's sysfs_ops->show
 *
 * show() writes into a page-aligned page of PAGE_SIZE bytes; a count of PAGE_SIZE or
 * more is reported ("fill_read_buffer: ... returned bad count") and cut to PAGE_SIZE - 1.
 * Return: the byte count (@buf NUL-terminated, at most @size - 1 bytes), what show()
 * returned if negative, or -ENOENT, -EISDIR, -EACCES (no read bit), -EIO (no show).
 */
ssize_t sysfs_read(const struct kobj_world *w, const char *path, char *buf, size_t size);
/* sysfs_write() - Return: what store() returns, or -ENOENT, -EISDIR, -EACCES (no write
 * bit in the file's mode), -EIO (no store method). */
ssize_t sysfs_write(const struct kobj_world *w, const char *path, const char *buf,
		    size_t count);

/* -------------------------------------------------------- origins of kernel-named calls */

/* KOBJ_CALL() is defined in kref.h, which every kernel-named call reaches first. */

/* The era by argument count: KOBJ_ERA(a, b, ...) is ONE for one argument, else MORE. */
#define KOBJ_ERA_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,  \
		  which, ...) which
#define KOBJ_ERA(...) KOBJ_ERA_(__VA_ARGS__, MORE, MORE, MORE, MORE, MORE, MORE, MORE,  \
				MORE, MORE, MORE, MORE, MORE, MORE, MORE, MORE, ONE, ONE)
#define KOBJ_CAT_(a, b) a##b
#define KOBJ_CAT(a, b) KOBJ_CAT_(a, b)

#define kobject_init(...)  KOBJ_CAT(kobject_init_, KOBJ_ERA(__VA_ARGS__))(__VA_ARGS__)
#define kobject_init_ONE(k)        KOBJ_CALL((kobject_init)(k))
#define kobject_init_MORE(k, ...)  KOBJ_CALL((kobject_init_ktype)(k, __VA_ARGS__))
#define kobject_add(...)   KOBJ_CAT(kobject_add_, KOBJ_ERA(__VA_ARGS__))(__VA_ARGS__)
#define kobject_add_ONE(k)         KOBJ_CALL((kobject_add)(k))
#define kobject_add_MORE(k, ...)   KOBJ_CALL((kobject_add_named)(k, __VA_ARGS__))
#define kobject_set_name(k, ...)   KOBJ_CALL((kobject_set_name)(k, __VA_ARGS__))
#define kobject_get(k)             KOBJ_CALL((kobject_get)(k))
#define kobject_put(k)             KOBJ_CALL((kobject_put)(k))
#define kobject_del(k)             KOBJ_CALL((kobject_del)(k))
#define kobject_register(k)        KOBJ_CALL((kobject_register)(k))
#define kobject_unregister(k)      KOBJ_CALL((kobject_unregister)(k))
#define kset_init(k)               KOBJ_CALL((kset_init)(k))
#define kset_add(k)                KOBJ_CALL((kset_add)(k))
#define kset_register(k)           KOBJ_CALL((kset_register)(k))
#define kset_unregister(k)         KOBJ_CALL((kset_unregister)(k))
#define kset_get(k)                KOBJ_CALL((kset_get)(k))
#define kset_put(k)                KOBJ_CALL((kset_put)(k))
#define subsystem_init(s)          KOBJ_CALL((subsystem_init)(s))
#define subsystem_register(s)      KOBJ_CALL((subsystem_register)(s))
#define subsystem_unregister(s)    KOBJ_CALL((subsystem_unregister)(s))
#define kset_find_obj(k, n)        KOBJ_CALL((kset_find_obj)(k, n))
#define subsys_get(s)              KOBJ_CALL((subsys_get)(s))
#define subsys_put(s)              KOBJ_CALL((subsys_put)(s))
#define module_load(n, e)          KOBJ_CALL((module_load)(n, e))
#define module_unload(m)           KOBJ_CALL((module_unload)(m))
#define try_module_get(m)          KOBJ_CALL((try_module_get)(m))
#define module_put(m)              KOBJ_CALL((module_put)(m))
#define kfree(p)                   KOBJ_CALL((kfree)(p))

/* ------------------------------------------------------------------------ today's API */

#include "core/model/sysfs_attr.h"
#include "core/model/uevent.h"
#include "core/model/modern.h"
#include "core/model/debug.h"
#include "core/model/sandbox.h"

#endif
