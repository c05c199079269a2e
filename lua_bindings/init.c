/*
 * The module's entry: the per-state context (world, nodes, registry store), reset, the
 * lesson environment, and the world's hooks.
 *
 * Registry layout: registry[&ctx_key] is the context userdata (its __gc frees the world
 * and every node); registry[&store_key] is the store table (see the KL_SLOT_* slots).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "lua_bindings/internal.h"

static const char ctx_key = 'c';
static const char store_key = 's';

#define CTX_META "kobject.context"

/* =========================================================================== context */

struct kl_ctx *kl_findctx(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
	struct kl_ctx *ctx = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return ctx && ctx->open ? ctx : NULL;
}

/*
 * The module's functions carry the context as their upvalue 1 (see with_context), so
 * the calls a script makes again and again find it without a registry lookup. Others
 * (methods, callbacks' bodies) have another upvalue 1 or none: the size and the mark
 * tell, then the registry answers.
 */
struct kl_ctx *kl_ctx_quick(lua_State *L)
{
	struct kl_ctx *ctx = lua_touserdata(L, lua_upvalueindex(1));
	if (ctx && lua_rawlen(L, lua_upvalueindex(1)) == sizeof(*ctx) && ctx->mark == &ctx_key)
		return ctx->open ? ctx : NULL;
	return kl_findctx(L);
}

struct kl_ctx *kl_getctx(lua_State *L)
{
	struct kl_ctx *ctx = kl_ctx_quick(L);
	if (!ctx)
		luaL_error(L, "the kobject module is not open in this Lua state");
	return ctx;
}

void kl_push_slot(lua_State *L, int slot)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &store_key);
	lua_rawgeti(L, -1, slot);
	lua_remove(L, -2);
}

void kl_push_data(lua_State *L, struct kl_node *n)
{
	kl_push_slot(L, KL_SLOT_DATA);
	lua_rawgetp(L, -1, n);
	lua_remove(L, -2);
}

void kl_data_table(lua_State *L, struct kl_node *n)
{
	kl_push_slot(L, KL_SLOT_DATA);                 /* [data] */
	if (lua_rawgetp(L, -1, n) == LUA_TNIL) {       /* [data t] */
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, -3, n);
	}
	lua_remove(L, -2);                             /* [t] */
}

void kl_set_function(lua_State *L, struct kl_node *n, const char *key, int vidx)
{
	if (!lua_isnil(L, vidx))
		luaL_checktype(L, vidx, LUA_TFUNCTION);
	kl_data_table(L, n);                           /* [t] */
	lua_pushvalue(L, vidx);
	lua_setfield(L, -2, key);                      /* t[key] = fn */
}

/*
 * Frees every node (the memory of the Lua-made objects). The world, freed first, gave
 * back what the core allocated: heap names and the objects kobject_create_and_add or
 * kset_create_and_add made that were never released.
 */
static void free_nodes(struct kl_ctx *ctx)
{
	for (struct kl_node *n = ctx->nodes, *next; n; n = next) {
		next = n->next;
		free(n->extra);
		free(n->extra2);
		free(n->pointed_by);
		free(n);
	}
	ctx->nodes = NULL;
	kl_map_free(&ctx->map);
}

/*
 * Frees the world with no Lua callback: releases still delayed by DEBUG_KOBJECT_RELEASE
 * run now (their Lua release methods do not: the objects go with the world), and the
 * diagnostics they record go to no hook.
 */
static void free_world(struct kl_ctx *ctx)
{
	if (!ctx->world)
		return;
	ctx->tearing_down = true;
	kobj_world_on_diag(ctx->world, NULL, NULL);
	kobj_world_free(ctx->world); /* also stops being current */
	ctx->world = NULL;
	ctx->tearing_down = false;
}

static void on_release(const struct kobj_record *r, void *p)
{
	kl_node_released(p, r);
}

static struct kobj_world *new_world(struct kl_ctx *ctx)
{
	struct kobj_world *w = kobj_world_new();
	kobj_world_on_release(w, on_release, ctx);
	if (ctx->on_diag)
		kobj_world_on_diag(w, ctx->on_diag, ctx->on_diag_ctx);
	return w;
}

/* __gc of the context: no Lua calls, no errors; safe to run twice. */
static int ctx_gc(lua_State *L)
{
	struct kl_ctx *ctx = lua_touserdata(L, 1);
	if (!ctx)
		return 0;
	ctx->open = false;
	free_world(ctx);
	free_nodes(ctx);
	for (struct kl_string *s = ctx->strings, *next; s; s = next) {
		next = s->next;
		free(s);
	}
	ctx->strings = NULL;
	return 0;
}

/* ============================================================================= reset */

/* [] -> []: names every cached handle for its error messages after the reset, then
 * installs fresh caches and data. Raises only on memory errors, before installing. */
static int fresh_tables(lua_State *L)
{
	struct kl_ctx *ctx = lua_touserdata(L, 1);
	int base = lua_gettop(L);

	for (int t = 0; t < KL_NTYPES; t++) {
		kl_push_slot(L, KL_SLOT_CACHE + t);
		lua_pushnil(L);
		while (lua_next(L, -2)) {        /* [cache key h] */
			struct kl_handle *h = lua_touserdata(L, -1);
			const char *name = NULL;
			if (h->mod) {
				name = h->mod->name;
			} else if (h->node && h->node->released) {
				const struct kobj_record *r =
					kobj_record_by_id(ctx->world, h->node->id);
				name = r ? r->name : NULL;
			} else if (h->node && kl_view(h->node, KL_KOBJECT)) {
				name = kobject_name(kl_view(h->node, KL_KOBJECT));
			}
			if (name) {
				lua_pushstring(L, name);
				lua_setiuservalue(L, -2, 1);
			}
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	for (int t = 0; t < KL_NTYPES; t++) {
		lua_newtable(L);
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
	}
	lua_newtable(L);                         /* [caches... data] */
	/* Nothing below allocates: the slots already exist in the store. */
	lua_rawgetp(L, LUA_REGISTRYINDEX, &store_key);
	lua_insert(L, base + 1);                 /* [store caches... data] */
	lua_rawseti(L, base + 1, KL_SLOT_DATA);
	for (int t = KL_NTYPES - 1; t >= 0; t--)
		lua_rawseti(L, base + 1, KL_SLOT_CACHE + t);
	lua_settop(L, base);
	return 0;
}

static int release_world(lua_State *L)
{
	struct kl_ctx *ctx = *(struct kl_ctx **)lua_touserdata(L, 1);
	ctx->busy--;
	return 0;
}

struct kobj_world *kl_hold_world(lua_State *L, struct kl_ctx *ctx)
{
	struct kl_ctx **p = lua_newuserdatauv(L, sizeof(*p), 0);
	*p = ctx;
	if (luaL_newmetatable(L, "kobject.world_hold")) {
		lua_pushcfunction(L, release_world);
		lua_setfield(L, -2, "__close");
	}
	lua_setmetatable(L, -2);
	ctx->busy++; /* only once nothing above can raise */
	lua_toclose(L, -1);
	return ctx->world; /* read now: an allocation above may have run a reset */
}

int kobj_lua_reset(lua_State *L)
{
	struct kl_ctx *ctx = kl_findctx(L);

	if (!ctx || ctx->busy)
		return -1;
	lua_pushcfunction(L, fresh_tables);
	lua_pushlightuserdata(L, ctx);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		lua_pop(L, 1);
		return -1;
	}
	free_world(ctx);
	free_nodes(ctx);
	ctx->gen++;
	ctx->world = new_world(ctx);
	kobj_world_use(ctx->world);
	return 0;
}

/***
 * Replace the world with a fresh one: no objects, an empty log, an empty /sys.
 * Every existing handle then raises "... belongs to a world that was reset".
 * @function reset
 */
static int l_reset(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	if (ctx->busy)
		return luaL_error(L, "reset: cannot reset the world while a kernel call or a query "
				  "is running (from a release, show, store, hotplug method or "
				  "finalizer)");
	if (kobj_lua_reset(L) != 0)
		return luaL_error(L, "reset: not enough memory");
	return 0;
}

/* ========================================================================== public C */

struct kobj_world *kobj_lua_world(lua_State *L)
{
	struct kl_ctx *ctx = kl_findctx(L);
	return ctx ? ctx->world : NULL;
}

void kobj_lua_on_diag(lua_State *L, void (*fn)(const struct kobj_diag *d, void *ctx),
		      void *c)
{
	struct kl_ctx *ctx = kl_findctx(L);
	if (!ctx)
		return;
	ctx->on_diag = fn;
	ctx->on_diag_ctx = c;
	kobj_world_on_diag(ctx->world, fn, c);
}

void kobj_lua_install(lua_State *L, int env_index)
{
	env_index = lua_absindex(L, env_index);
	luaL_requiref(L, "kobject", luaopen_kobject, 0);  /* [mod] */
	lua_pushnil(L);
	while (lua_next(L, -2)) {                         /* [mod k v] */
		lua_pushvalue(L, -2);
		lua_insert(L, -2);                        /* [mod k k v] */
		lua_settable(L, env_index);               /* [mod k] */
	}
	lua_setfield(L, env_index, "kobject");
}

/* ============================================================================ opening */

static void add_constants(lua_State *L)
{
	static const struct { const char *name; int value; } errs[] = {
		{ "EINVAL", EINVAL }, { "EEXIST", EEXIST }, { "ENOENT", ENOENT },
		{ "ENOMEM", ENOMEM }, { "EBUSY", EBUSY },   { "EIO", EIO },
		{ "EISDIR", EISDIR }, { "ENOTDIR", ENOTDIR }, { "EDEADLK", EDEADLK },
		{ "EFAULT", EFAULT }, { "ERANGE", ERANGE }, { "EPERM", EPERM },
		{ "EAGAIN", EAGAIN }, { "ENODEV", ENODEV },
	};
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		lua_pushinteger(L, errs[i].value);
		lua_setfield(L, -2, errs[i].name);
	}
}

/* [] -> [store]: a new store table in the registry. */
static void new_store(lua_State *L)
{
	lua_createtable(L, KL_SLOT_COUNT, 0);
	for (int t = 0; t < KL_NTYPES; t++) {
		lua_newtable(L);
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		lua_rawseti(L, -2, KL_SLOT_CACHE + t);
	}
	lua_newtable(L);
	lua_rawseti(L, -2, KL_SLOT_DATA);
	lua_newtable(L);
	lua_rawseti(L, -2, KL_SLOT_STRINGS);
	/* string.format as opened now: scripts that replace it do not change names. */
	luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 0);
	lua_getfield(L, -1, "format");
	lua_rawseti(L, -3, KL_SLOT_FORMAT);
	lua_pop(L, 1);
	lua_pushvalue(L, -1);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &store_key);
}

/* [mod] -> [mod]: each C function of the module table that has no upvalue becomes a
 * closure over the context (kl_ctx_quick). */
static void with_context(lua_State *L, struct kl_ctx *ctx)
{
	ctx->mark = &ctx_key;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);    /* [mod ctx] */
	lua_pushnil(L);
	while (lua_next(L, -3)) {                       /* [mod ctx k v] */
		lua_CFunction f = lua_tocfunction(L, -1);
		if (f && !lua_getupvalue(L, -1, 1)) {
			lua_pushvalue(L, -3);
			lua_pushcclosure(L, f, 1);      /* [mod ctx k v closure] */
			lua_pushvalue(L, -3);
			lua_insert(L, -2);              /* [mod ctx k v k closure] */
			lua_rawset(L, -6);              /* an existing key: lua_next goes on */
		} else if (f) {
			lua_pop(L, 1);                  /* the upvalue */
		}
		lua_pop(L, 1);                          /* [mod ctx k] */
	}
	lua_pop(L, 1);                                  /* [mod] */
}

/***
 * Open the module. The first call in a state creates its world and makes it current.
 * @function luaopen_kobject
 */
int luaopen_kobject(lua_State *L)
{
	if (kl_findctx(L)) {
		kl_push_slot(L, KL_SLOT_MODULE);
		return 1;
	}
	luaL_checkversion(L);
	new_store(L);                                   /* [store] */

	/* The context, closed until the world exists (its __gc copes with that). */
	struct kl_ctx *ctx = lua_newuserdatauv(L, sizeof(*ctx), 0);
	memset(ctx, 0, sizeof(*ctx));
	if (luaL_newmetatable(L, CTX_META)) {
		lua_pushcfunction(L, ctx_gc);
		lua_setfield(L, -2, "__gc");
	}
	lua_setmetatable(L, -2);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &ctx_key);    /* [store] */
	lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
	ctx->L = lua_tothread(L, -1);
	lua_pop(L, 1);
	ctx->gen = 1;
	ctx->world = new_world(ctx);
	kobj_world_use(ctx->world);

	lua_newtable(L);                                /* [store mod] */
	kl_open_kobject(L);
	kl_open_kset(L);
	kl_open_ktype(L);
	kl_open_module(L);
	kl_open_query(L);
	kl_open_sysfs(L);
	kl_open_modern(L);
	kl_open_uevent(L);
	kl_open_attr(L);
	kl_open_group(L);
	kl_open_sysfs_attr(L);
	kl_open_kref(L);
	kl_open_debug(L);
	kl_open_kernel(L);
	kl_open_race(L);
	add_constants(L);
	lua_pushcfunction(L, l_reset);
	lua_setfield(L, -2, "reset");
	with_context(L, ctx);
	for (int t = 0; t < KL_NTYPES; t++) {
		luaL_getmetatable(L, kl_type_names[t]);
		ctx->meta[t] = lua_topointer(L, -1);
		lua_pop(L, 1);
	}
	lua_pushvalue(L, -1);
	lua_rawseti(L, -3, KL_SLOT_MODULE);
	lua_remove(L, -2);                              /* [mod] */
	ctx->open = true; /* until here a failed open leaves a context that __gc frees */
	return 1;
}

void kobj_lua_allow_files(lua_State *L, int allow)
{
	struct kl_ctx *ctx = kl_findctx(L);
	if (ctx)
		ctx->no_files = !allow;
}
