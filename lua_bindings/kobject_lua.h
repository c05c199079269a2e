/*
 * The Lua 5.4 module "kobject": the kobject model of core/ with the kernel's names, for
 * lesson scripts, the kobj REPL, and `require "kobject"` from a stock lua5.4.
 *
 * Lifetime rules (the module's contract):
 * - A Lua value for a kobject, kset, subsystem, ktype or module is a handle. A handle
 *   holds no reference: the refcount a script sees is exactly what its code did.
 * - Objects live by their refcount, never by Lua's garbage collector. Collecting a handle
 *   (or the table that embeds a kobject) never frees a live object.
 * - Once an object is released, every handle to it is stale. kobject_get/kobject_put (and
 *   the kset_ and subsys_ variants) through a stale handle record the kernel's refcount
 *   diagnostic and change nothing; any other use raises a Lua error naming the object,
 *   the operation and the script line where it was released.
 * - reset() (or kobj_lua_reset) replaces the world: every older handle raises.
 * - The memory of Lua-created objects belongs to the module: it is returned when the
 *   world is reset or the Lua state is closed, never while a C pointer could reach it.
 */
#ifndef KOBJ_LUA_BINDINGS_H
#define KOBJ_LUA_BINDINGS_H

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
 * kobj_lua_allow_files() - whether dot("tree.svg") may write a picture (the default).
 * Graders turn it off for students' code, which then may write nothing at all.
 */
void kobj_lua_allow_files(lua_State *L, int allow);

#endif
