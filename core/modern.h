/*
 * Today's (6.x) kobject API beside the article's, with today's semantics and messages
 * (lib/kobject.c, lib/kobject_uevent.c). Included by core/kobject.h.
 *
 * Eras are per object. An object initialised by kobject_init(kobj, ktype),
 * kobject_init_and_add(), kobject_create_and_add() or kset_create_and_add() keeps today's
 * bookkeeping for every later call, whichever era's name is used on it:
 *   - init: count 1 (the creator's); the kset is not touched;
 *   - add: a reference on the parent (the kset's kobject if none) and on the kset, none
 *     on the object itself; no uevent (the caller sends KOBJ_ADD when its files exist);
 *   - del: removes the directory, sends "remove" if "add" was sent, leaves the kset and
 *     drops the parent and kset references; the object's count is unchanged;
 *   - the last put: if still in sysfs it does the del itself ("auto cleanup", traced, not
 *     a mistake), then release(), then the name is freed, then the parent is put;
 *   - get and put follow refcount_t (kref.h): a get on a count of 0 or a put below 0
 *     saturates the count and warns; a saturated object is never released.
 * Objects initialised by the article's kobject_init(kobj) keep 2.6.0's rules (kobject.h).
 *
 * A today's call on an article-era object does the work with that object's rules: for
 * example kobject_add(kobj, parent, "name") on an object from kobject_init(kobj) sets the
 * name and parent, then adds it as 2.6.0 did (a reference on itself, a hotplug event).
 */
#ifndef KOBJ_MODERN_H
#define KOBJ_MODERN_H

#include "core/kobject.h"

/* ------------------------------------------------------------------------- lifecycle */

/**
 * kobject_init_ktype() - today's kobject_init(kobj, ktype)
 * @kobj: object in zeroed memory (its name may be set already)
 * @ktype: its type, with a release(); required
 *
 * Sets the count to 1 and makes the object follow today's rules. A NULL @kobj or @ktype
 * is reported ("invalid kobject pointer!", "must have a ktype to be initialized
 * properly!") and nothing is initialised. A second init of a live object is reported
 * and refused (the kernel re-initialises it, losing the references it held).
 */
void kobject_init_ktype(struct kobject *kobj, const struct kobj_type *ktype);

/**
 * kobject_add_named() - today's kobject_add(kobj, parent, fmt, ...)
 * @parent: the directory to appear in; NULL means the kset's directory, or /sys
 * @fmt: printf-style name ('/' becomes '!'); NULL keeps the name already set
 *
 * Return: 0; -EINVAL (NULL or uninitialised @kobj, empty name); -EEXIST (name taken);
 * -ENOENT (parent not in sysfs); -ENOMEM. The name is set even on failure: the caller
 * must still kobject_put() the object, which frees it.
 */
int kobject_add_named(struct kobject *kobj, struct kobject *parent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kobject_init_and_add() - kobject_init(kobj, ktype) then kobject_add(kobj, parent, ...)
 * Return: as kobject_add_named(); on failure (and on success) kobject_put() frees it.
 * A NULL @ktype fails with -EINVAL (the kernel adds the object with a count of 0).
 */
int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
			 struct kobject *parent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * kobject_create_and_add() - a plain kobject, allocated, named @name, under @parent
 * Return: the object, whose one reference the caller owns (kobject_put() frees it), or
 * NULL if the allocation or the add failed ("kobject_create_and_add: kobject_add error").
 * Its ktype's sysfs_ops are kobj_sysfs_ops, so struct kobj_attribute files work on it.
 */
struct kobject *kobject_create_and_add(const char *name, struct kobject *parent);

/**
 * kobject_get_unless_zero() - a reference, unless the count already reached 0
 * Return: @kobj with its count raised, or NULL (no warning) for NULL, for an object that
 * was never initialised, or whose last reference is gone (its release may be pending).
 */
struct kobject *kobject_get_unless_zero(struct kobject *kobj);

/**
 * kobject_get_path() - "/a/b/c" from the names of @kobj and its parents
 * Return: a kmalloc'd string the caller kfree()s, or NULL if a name is missing or the
 * allocation failed.
 */
char *kobject_get_path(const struct kobject *kobj, gfp_t gfp);

/**
 * kobject_rename() - give an object in sysfs a new name and tell user space (KOBJ_MOVE
 * with DEVPATH_OLD=)
 * Return: 0; -EINVAL for NULL, an object with no parent (top-level objects cannot be
 * renamed) or a released one; -EEXIST if the name is taken; -ENOMEM.
 */
int kobject_rename(struct kobject *kobj, const char *new_name);

/**
 * kobject_move() - move an object in sysfs under @new_parent (NULL: its kset's directory,
 * or /sys) and send KOBJ_MOVE with DEVPATH_OLD=
 * Return: 0; -EINVAL (NULL, released, uninitialised, or into its own subtree); -ENOENT
 * (the object or the new parent is not in sysfs); -EEXIST; -ENOMEM. The parent references
 * are swapped only on success.
 */
int kobject_move(struct kobject *kobj, struct kobject *new_parent);

/**
 * kset_create_and_add() - an allocated kset named @name under @parent_kobj (NULL: /sys)
 * @uevent_ops: filter, name and uevent for the events of its members, or NULL
 *
 * The kset is registered (its directory made, a KOBJ_ADD uevent attempted). Return: the
 * kset, freed by kset_unregister(), or NULL on failure.
 */
struct kset *kset_create_and_add(const char *name, const struct kset_uevent_ops *uevent_ops,
				 struct kobject *parent_kobj);

/*
 * kernel_kobj - /sys/kernel, made by the current world the first time it is named. It
 * belongs to the world (it is never reported as a leak) and goes with it.
 */
struct kobject *kobj_kernel_kobj(void);
#define kernel_kobj (kobj_kernel_kobj())

/* --------------------------------------------------------------------------- uevents */

enum kobject_action {
	KOBJ_ADD,
	KOBJ_REMOVE,
	KOBJ_CHANGE,
	KOBJ_MOVE,
	KOBJ_ONLINE,
	KOBJ_OFFLINE,
	KOBJ_BIND,
	KOBJ_UNBIND,
};

#define UEVENT_NUM_ENVP 64
#define UEVENT_BUFFER_SIZE 2048

struct kobj_uevent_env {
	char *argv[3];
	char *envp[UEVENT_NUM_ENVP];
	int envp_idx;
	char buf[UEVENT_BUFFER_SIZE];
	int buflen;
};

struct kset_uevent_ops {
	/* Return 0 to drop the event. */
	int (*const filter)(const struct kobject *kobj);
	/* The SUBSYSTEM= value; NULL drops the event. Without name(), the kset's name. */
	const char *(*const name)(const struct kobject *kobj);
	/* Add variables with add_uevent_var(); non-zero return cancels the event. */
	int (*const uevent)(const struct kobject *kobj, struct kobj_uevent_env *env);
};

/* kobject_action_name() - "add", "remove", ... ; NULL for an unknown action. */
const char *kobject_action_name(enum kobject_action action);

/**
 * kobject_uevent_env() - tell user space about @kobj, as udev would see it
 * @envp_ext: extra "KEY=value" strings, NULL-terminated, or NULL
 *
 * The event goes to the nearest kset (the object's, else its parents'); it carries
 * ACTION=, DEVPATH=, SUBSYSTEM=, @envp_ext, the kset's uevent() variables and SEQNUM=
 * (1, 2, ..., a counter of its own). It is recorded with the world's hotplug events.
 * Return: 0 (sent, or dropped by uevent_suppress, filter() or a NULL name()); -EINVAL
 * with no kset ("attempted to send uevent without kset!"); -ENOENT (unnamed ancestor);
 * -ENOMEM (too many variables); or what uevent() returned.
 */
int kobject_uevent_env(struct kobject *kobj, enum kobject_action action, char *envp_ext[]);
/* kobject_uevent() - kobject_uevent_env() with no extra variables. */
int kobject_uevent(struct kobject *kobj, enum kobject_action action);

/**
 * add_uevent_var() - append "KEY=value" (printf-style) to @env
 * Return: 0, or -ENOMEM with the kernel's warning when there are already UEVENT_NUM_ENVP
 * variables ("too many keys") or the text does not fit UEVENT_BUFFER_SIZE ("buffer size
 * too small").
 */
int add_uevent_var(struct kobj_uevent_env *env, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------- origins of today's calls */

#define kobject_init_ktype(k, t)        KOBJ_CALL((kobject_init_ktype)(k, t))
#define kobject_add_named(...)          KOBJ_CALL((kobject_add_named)(__VA_ARGS__))
#define kobject_init_and_add(...)       KOBJ_CALL((kobject_init_and_add)(__VA_ARGS__))
#define kobject_create_and_add(n, p)    KOBJ_CALL((kobject_create_and_add)(n, p))
#define kobject_get_unless_zero(k)      KOBJ_CALL((kobject_get_unless_zero)(k))
#define kobject_get_path(k, gfp)        KOBJ_CALL((kobject_get_path)(k, gfp))
#define kobject_rename(k, n)            KOBJ_CALL((kobject_rename)(k, n))
#define kobject_move(k, p)              KOBJ_CALL((kobject_move)(k, p))
#define kset_create_and_add(n, u, p)    KOBJ_CALL((kset_create_and_add)(n, u, p))
#define kobject_uevent(k, a)            KOBJ_CALL((kobject_uevent)(k, a))
#define kobject_uevent_env(k, a, e)     KOBJ_CALL((kobject_uevent_env)(k, a, e))
#define add_uevent_var(...)             KOBJ_CALL((add_uevent_var)(__VA_ARGS__))

#endif
