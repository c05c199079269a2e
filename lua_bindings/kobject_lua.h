/*
 * The Lua 5.4 module "kobject": the kobject model of core/ with the kernel's names, for
 * lesson scripts, the kobj REPL, and `require "kobject"` from a stock lua5.4.
 *
 * Lifetime rules (the module's contract):
 * - A Lua value for a kobject, kset, subsystem, ktype, module, kobj_attribute or
 *   attribute_group is a handle. A handle holds no reference: the refcount a script sees
 *   is exactly what its code did.
 * - Objects live by their refcount, never by Lua's garbage collector. Collecting a handle
 *   (or the table that embeds a kobject) never frees a live object.
 * - Once an object is released, every handle to it is stale. kobject_get/kobject_put (and
 *   the kset_ and subsys_ variants) through a stale handle record the kernel's refcount
 *   diagnostic and change nothing; kobject_get_unless_zero gives nil; any other use
 *   raises a Lua error naming the object, the operation and the script line where it was
 *   released.
 * - With debug_kobject_release(true) the last put of a today's object only queues its
 *   release: until advance() runs it, the handle stays usable, its state reads "release
 *   pending", and a get, put or add through it is reported as the core reports it. The
 *   handle goes stale when the release runs.
 * - reset() (or kobj_lua_reset) replaces the world: every older handle raises. Releases
 *   still queued then run without their Lua release methods; kernel_kobj() is a new
 *   /sys/kernel in the new world.
 * - The memory of Lua-created objects (new_kobject, new_kset, decl_subsys, new_ktype,
 *   new_kobj_attribute, new_attribute_group) belongs to the module: it is returned when
 *   the world is reset or the Lua state is closed, never while a C pointer could reach it.
 * - The memory of objects from kobject_create_and_add and kset_create_and_add belongs to
 *   the core, as in the kernel: their release frees it, and their handles go stale then.
 *   One never released is freed with the world (the leak report has named it). Pointers
 *   that Lua's objects hold to such an object without a reference (kobj.kset = kset
 *   before an add, kobj.parent = ...) are cleared when it is freed, so that nothing
 *   follows them into freed memory; the references that add takes keep it alive.
 * - A kref box (new_kref) is Lua memory that belongs to no world: it lives while Lua
 *   holds it, and its refcount warnings go to the current world's diagnostics.
 * - Lua callbacks (release, show, store, is_visible, hotplug and uevent ops, kref_put's
 *   release) run protected on the main thread; an error is a diagnostic, never a longjmp
 *   through the core. A uevent() callback's env is valid only while the callback runs.
 */
#ifndef KOBJ_LUA_BINDINGS_H
#define KOBJ_LUA_BINDINGS_H

#include <stddef.h>

#include <lua.h>

struct kobj_world;
struct kobj_diag;

/**
 * luaopen_kobject() - open the module: create this state's world, make it current
 * Return: 1, the module table pushed. Opening it again in the same state returns the
 * same table and keeps the world.
 */
int luaopen_kobject(lua_State *L);

/* kobj_lua_world() - this state's current world, or NULL if the module is not open. */
struct kobj_world *kobj_lua_world(lua_State *L);

/**
 * kobj_lua_install() - copy every lesson-facing name (kobject_init, new_kobject, ls, ...)
 * into the table at @env_index, and the module table itself as env.kobject. Opens the
 * module if needed. Net stack effect: none.
 */
void kobj_lua_install(lua_State *L, int env_index);

/**
 * kobj_lua_reset() - replace the world with a fresh one; all existing handles go stale
 * ("belongs to a world that was reset"). The callback set with kobj_lua_on_diag stays.
 * Return: 0, or -1 (nothing changed) if called from inside a callback of the model
 * (a release or sysfs or hotplug method), or if the module is not open.
 */
int kobj_lua_reset(lua_State *L);

/*
 * kobj_lua_on_diag() - call @fn for every diagnostic as it is recorded, in this world and
 * in every world that reset() makes (the core's kobj_world_on_diag lasts one world).
 */
void kobj_lua_on_diag(lua_State *L, void (*fn)(const struct kobj_diag *d, void *ctx),
		      void *ctx);

/*
 * kobj_lua_set_schedule() - the schedule ("1121": the thread of each step) that
 * run_threads() follows, and the only one explore() runs (kobj run --schedule); NULL:
 * none. Return: NULL, or what is wrong with @schedule (nothing changed then).
 */
const char *kobj_lua_set_schedule(lua_State *L, const char *schedule);

/*
 * kobj_lua_allow_files() - whether dot("tree.svg") may write a picture (the default).
 * Graders turn it off for students' code, which then may write nothing at all.
 */
void kobj_lua_allow_files(lua_State *L, int allow);

/*
 * kobj_lua_record_stacks() - note with every call the Lua call stack that made it (each
 * caller's line, as sites with callers), for a recording's call stacks; off by default,
 * so that ordinary calls note only their own line.
 */
void kobj_lua_record_stacks(lua_State *L, int on);

/*
 * kobj_lua_take_work() - the units of work done in C on behalf of scripts (walks over
 * every record, reports, failed callbacks' tracebacks) since the last call, for a host
 * that budgets scripts; it charges them, then may raise from its registry field
 * "kobject.charge", which the module calls where raising is safe. Process-wide.
 */
size_t kobj_lua_take_work(void);

#endif
