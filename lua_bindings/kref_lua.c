/*
 * struct kref from Lua (include/linux/kref.h on refcount_t): a kref box and the kernel's
 * kref_init/get/put/read/get_unless_zero. The arithmetic and the warnings are the core's
 * (refcount_t saturates instead of wrapping or going below 0); they are recorded in the
 * current world's diagnostics.
 *
 * A kref box is plain memory owned by Lua, like a kref in a structure the script made:
 * it belongs to no world, so it works before and after reset(). It starts at 0, as in
 * kzalloc'd memory: kref_init() gives it its first reference.
 *
 * Registry: registry[&boxes_key] is a weak-valued table, box address -> box, from which
 * the release trampoline (which the core gives only the struct kref) finds the box.
 */
#include <string.h>

#include "lua_bindings/internal.h"

#define KREF_META "kref"

static const char boxes_key = 'k';

/* A release in progress: kref_put's function is in the box's user value 3. */
struct kref_call {
	struct kl_ctx *ctx;
	bool ran;
};

struct kl_kref {
	struct kref kref;
	struct kref_call *call; /* set while kref_put runs */
};

static struct kl_kref *check_kref(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, KREF_META);
}

/***
 * new_kref([container [, member]]): a kref in zeroed memory (count 0); with @container,
 * container[member or "kref"] = the kref, and container_of(kref) gives the container.
 * @treturn kref
 */
static int l_new_kref(lua_State *L)
{
	bool embedded = !lua_isnoneornil(L, 1);
	if (embedded)
		luaL_checktype(L, 1, LUA_TTABLE);
	const char *member = luaL_optstring(L, 2, "kref");
	struct kl_kref *b = lua_newuserdatauv(L, sizeof(*b), 3); /* container, member, fn */
	memset(b, 0, sizeof(*b));
	luaL_setmetatable(L, KREF_META);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &boxes_key);
	lua_pushvalue(L, -2);
	lua_rawsetp(L, -2, b);                                   /* boxes[b] = box */
	lua_pop(L, 1);
	if (embedded) {
		lua_pushvalue(L, 1);
		lua_setiuservalue(L, -2, 1);
		lua_pushstring(L, member);
		lua_setiuservalue(L, -2, 2);
		lua_pushvalue(L, -1);
		lua_setfield(L, 1, member);                      /* container[member] = box */
	}
	return 1;
}

bool kl_kref_container(lua_State *L, int idx, const char *member)
{
	if (!luaL_testudata(L, idx, KREF_META))
		return false;
	lua_getiuservalue(L, idx, 2);
	const char *m = lua_tostring(L, -1);
	if (m && member && strcmp(m, member) != 0)
		luaL_error(L, "container_of: the kref is embedded as '%s', not '%s'", m, member);
	lua_pop(L, 1);
	lua_getiuservalue(L, idx, 1);
	return true;
}

/* kref_init(kref): the count is 1, the creator's reference. */
static int l_kref_init(lua_State *L)
{
	kref_init(&check_kref(L, 1)->kref);
	return 0;
}

/* kref_read(kref): the count; 3221225472 once saturated. */
static int l_kref_read(lua_State *L)
{
	lua_pushinteger(L, kref_read(&check_kref(L, 1)->kref));
	return 1;
}

/* kref_get(kref): from 0 it warns "refcount_t: addition on 0; use-after-free." */
static int l_kref_get(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_kref *b = check_kref(L, 1);
	kl_enter(L, ctx);
	(kref_get)(&b->kref);
	kl_leave(ctx);
	return 0;
}

/* kref_get_unless_zero(kref): true if a reference was taken; false (quietly) at 0. */
static int l_kref_get_unless_zero(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_kref *b = check_kref(L, 1);
	kl_enter(L, ctx);
	int got = (kref_get_unless_zero)(&b->kref);
	kl_leave(ctx);
	lua_pushboolean(L, got);
	return 1;
}

/* The release: release_fn(kref) on the main thread, protected. */
static int release_body(lua_State *L)
{
	struct kl_kref *b = lua_touserdata(L, 1);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &boxes_key);
	if (lua_rawgetp(L, -1, b) != LUA_TUSERDATA)
		return 0;                                        /* [boxes box] */
	lua_getiuservalue(L, -1, 3);                             /* [boxes box fn] */
	lua_insert(L, -2);
	lua_call(L, 1, 0);
	return 0;
}

static void release_tramp(struct kref *kref)
{
	struct kl_kref *b = container_of(kref, struct kl_kref, kref);
	struct kref_call *c = b->call;

	c->ran = true;
	kl_callback(c->ctx, release_body, b, 0, "kref_put: release()",
		    "The count reached 0 all the same: kref_put returned 1, and whatever the "
		    "release function meant to do after the error did not happen.");
}

/***
 * kref_put(kref, release): drop a reference; the last one calls release(kref) (under
 * pcall: an error becomes a diagnostic). A put at 0 warns "refcount_t: underflow;
 * use-after-free.", saturates and calls nothing.
 * @treturn int 1 if release was called, else 0
 */
static int l_kref_put(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_kref *b = check_kref(L, 1);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	struct kref_call c = { ctx, false }, *outer = b->call;

	lua_settop(L, 2);
	kl_enter(L, ctx);                                        /* the last step that raises */
	lua_getiuservalue(L, 1, 3);                              /* a release in progress */
	lua_pushvalue(L, 2);
	lua_setiuservalue(L, 1, 3);                              /* allocates nothing */
	b->call = &c;
	int released = (kref_put)(&b->kref, release_tramp);
	kl_leave(ctx);
	b->call = outer;
	lua_setiuservalue(L, 1, 3);                              /* the outer one's, back */
	lua_pushinteger(L, released);
	return 1;
}

/* ========================================================================== the box */

/* __index: refcount, or a method from the table in upvalue 1. */
static int kref_index(lua_State *L)
{
	struct kl_kref *b = check_kref(L, 1);
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";

	if (strcmp(key, "refcount") == 0) {
		lua_pushinteger(L, kref_read(&b->kref));
		return 1;
	}
	if (lua_getfield(L, lua_upvalueindex(1), key) == LUA_TFUNCTION)
		return 1;
	return luaL_error(L, "kref has no field %s (fields: refcount; methods: init, get, put, "
			  "read, get_unless_zero)", luaL_tolstring(L, 2, NULL));
}

static int kref_newindex(lua_State *L)
{
	return luaL_error(L, "kref fields are read-only: kref_init(), kref_get() and "
			  "kref_put() change the count");
}

static int kref_tostring(lua_State *L)
{
	unsigned int count = kref_read(&check_kref(L, 1)->kref);
	if (count == (unsigned int)REFCOUNT_SATURATED)
		lua_pushfstring(L, "kref refcount=%I (saturated)", (lua_Integer)count);
	else
		lua_pushfstring(L, "kref refcount=%I", (lua_Integer)count);
	return 1;
}

static const luaL_Reg functions[] = {
	{ "new_kref", l_new_kref },
	{ "kref_init", l_kref_init },
	{ "kref_read", l_kref_read },
	{ "kref_get", l_kref_get },
	{ "kref_put", l_kref_put },
	{ "kref_get_unless_zero", l_kref_get_unless_zero },
	{ NULL, NULL },
};

static const luaL_Reg methods[] = {
	{ "init", l_kref_init },
	{ "read", l_kref_read },
	{ "get", l_kref_get },
	{ "put", l_kref_put },
	{ "get_unless_zero", l_kref_get_unless_zero },
	{ NULL, NULL },
};

static const char *const fields[] = { "refcount", NULL };

void kl_open_kref(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	lua_newtable(L);                                          /* boxes, weak-valued */
	lua_createtable(L, 0, 1);
	lua_pushliteral(L, "v");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &boxes_key);
	luaL_newmetatable(L, KREF_META);
	luaL_newlib(L, methods);
	lua_pushcclosure(L, kref_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, kref_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pushcfunction(L, kref_tostring);
	lua_setfield(L, -2, "__tostring");
	kl_set_fields(L, fields);
	lua_pop(L, 1);
}
