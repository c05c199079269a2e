/*
 * Modules from Lua: module_load/module_unload (insmod/rmmod), try_module_get and
 * module_put, as the article's cdev_get uses them. A module belongs to the world: its
 * handle stays valid (an unloaded module refuses try_module_get) until reset().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lua_bindings/internal.h"

/* [mod] -> []: the module's exit function, called with its handle. */
static int exit_body(lua_State *L)
{
	struct module *mod = lua_touserdata(L, 1);
	kl_push_slot(L, KL_SLOT_DATA);
	lua_rawgetp(L, -1, mod);
	kl_push_module(L, mod->data, mod);
	lua_call(L, 1, 0);
	return 0;
}

/* module_unload() runs the exit function given to module_load() while the module is
 * going: try_module_get() fails from then on. */
static void run_exit(struct module *mod)
{
	char what[128];
	snprintf(what, sizeof(what), "module '%s': exit()", mod->name);
	kl_callback(mod->data, exit_body, mod, mod->id, what,
		    "The module was unloaded all the same.");
}

/***
 * module_load(name [, exit]): a live module with no users; module_unload() calls
 * exit(module), if given, while the module is going.
 * @treturn module|nil
 * @treturn string the reason, on failure
 * @treturn int -EEXIST or -EINVAL
 */
static int l_module_load(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *name = luaL_checkstring(L, 1);
	int err = 0;

	lua_settop(L, 2); /* exit, or nil, stays at 2 under what is pushed next */
	if (!lua_isnil(L, 2))
		luaL_checktype(L, 2, LUA_TFUNCTION);
	kl_push_slot(L, KL_SLOT_DATA); /* before the module exists: this may raise */
	kl_enter(L, ctx);
	struct module *mod = (module_load)(name, &err);
	kl_leave(ctx);
	if (mod) {
		if (!lua_isnil(L, 2)) {
			mod->data = ctx;
			mod->exit = run_exit;
			lua_pushvalue(L, 2);
			lua_rawsetp(L, -2, mod);
		}
		kl_push_module(L, ctx, mod);
		return 1;
	}
	lua_pushnil(L);
	if (err == -EEXIST)
		lua_pushfstring(L, "module_load: a module named '%s' is already loaded", name);
	else
		lua_pushfstring(L, "module_load: '%s' is not a valid module name (1 to %d "
				"characters)", name, (int)sizeof(mod->name) - 1);
	lua_pushinteger(L, err);
	return 3;
}

/* module_unload(m): 0, -EBUSY while it has users, -ENOENT if it is not loaded. */
static int l_module_unload(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct module *mod = kl_check_module(L, 1, "module_unload", true);
	kl_enter(L, ctx);
	int err = (module_unload)(mod);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* try_module_get(m): true if m is nil or live (its count raised). */
static int l_try_module_get(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct module *mod = kl_check_module(L, 1, "try_module_get", true);
	kl_enter(L, ctx);
	bool ok = (try_module_get)(mod);
	kl_leave(ctx);
	lua_pushboolean(L, ok);
	return 1;
}

static int l_module_put(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct module *mod = kl_check_module(L, 1, "module_put", true);
	kl_enter(L, ctx);
	(module_put)(mod);
	kl_leave(ctx);
	return 0;
}

static int l_module_refcount(lua_State *L)
{
	struct module *mod = kl_check_module(L, 1, "module_refcount", true);
	lua_pushinteger(L, module_refcount(mod));
	return 1;
}

static const char *state_name(enum module_state s)
{
	switch (s) {
	case MODULE_STATE_LIVE:
		return "live";
	case MODULE_STATE_GOING:
		return "going";
	default:
		return "unloaded";
	}
}

static int module_index(lua_State *L)
{
	const char *key = kl_field_key(L, KL_MODULE);
	struct module *mod = kl_check_module(L, 1, lua_pushfstring(L, "reading %s", key), false);

	if (strcmp(key, "name") == 0)
		lua_pushstring(L, mod->name);
	else if (strcmp(key, "refcount") == 0)
		lua_pushinteger(L, mod->refcnt);
	else if (strcmp(key, "state") == 0)
		lua_pushstring(L, state_name(mod->state));
	else if (strcmp(key, "id") == 0)
		lua_pushinteger(L, mod->id);
	else
		return luaL_error(L, "module has no field '%s' (fields: name, refcount, state, id)",
				  key);
	return 1;
}

static int module_newindex(lua_State *L)
{
	return luaL_error(L, "module fields are read-only: try_module_get(), module_put() and "
			  "module_unload() change them");
}

static const luaL_Reg functions[] = {
	{ "module_load", l_module_load },
	{ "module_unload", l_module_unload },
	{ "try_module_get", l_try_module_get },
	{ "module_put", l_module_put },
	{ "module_refcount", l_module_refcount },
	{ NULL, NULL },
};

static const luaL_Reg methods[] = {
	{ "get", l_try_module_get },
	{ "put", l_module_put },
	{ "unload", l_module_unload },
	{ NULL, NULL },
};

static const char *const fields[] = { "name", "refcount", "state", "id", NULL };

void kl_open_module(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_new_type(L, KL_MODULE, module_index, module_newindex, methods, fields,
		    kl_handle_tostring);
}
