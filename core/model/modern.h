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

#include "core/model/kobject.h"

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
 * The kernel's own top-level objects, made by the current world the first time one is
 * named: kernel_kobj (/sys/kernel), mm_kobj (/sys/kernel/mm), fs_kobj (/sys/fs),
 * firmware_kobj (/sys/firmware), power_kobj (/sys/power), hypervisor_kobj
 * (/sys/hypervisor). They belong to the world (never reported as leaks) and go with it.
 */
enum kobj_builtin {
	KOBJ_BUILTIN_KERNEL,
	KOBJ_BUILTIN_MM,
	KOBJ_BUILTIN_FS,
	KOBJ_BUILTIN_FIRMWARE,
	KOBJ_BUILTIN_POWER,
	KOBJ_BUILTIN_HYPERVISOR,
	KOBJ_BUILTIN_COUNT
};
struct kobject *kobj_builtin_kobj(enum kobj_builtin which);
#define kernel_kobj (kobj_builtin_kobj(KOBJ_BUILTIN_KERNEL))
#define mm_kobj (kobj_builtin_kobj(KOBJ_BUILTIN_MM))
#define fs_kobj (kobj_builtin_kobj(KOBJ_BUILTIN_FS))
#define firmware_kobj (kobj_builtin_kobj(KOBJ_BUILTIN_FIRMWARE))
#define power_kobj (kobj_builtin_kobj(KOBJ_BUILTIN_POWER))
#define hypervisor_kobj (kobj_builtin_kobj(KOBJ_BUILTIN_HYPERVISOR))
/* kobj_kernel_kobj() - kernel_kobj, for code that needs a function. */
struct kobject *kobj_kernel_kobj(void);

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

#endif
