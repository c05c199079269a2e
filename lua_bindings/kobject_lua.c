/*
 * kobjects from Lua: the constructor, the kernel-named calls, container_of, and the
 * handle's fields and methods.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lua_bindings/internal.h"

#define KOBJ(n) ((struct kobject *)((n) ? kl_view((n), KL_KOBJECT) : NULL))

/* ========================================================================== helpers */

void kl_format(lua_State *L, int first, const char *op)
{
	int top = lua_gettop(L);
	const char *fmt = luaL_checkstring(L, first);

	if (top == first && !strchr(fmt, '%')) {
		lua_pushvalue(L, first);
		return;
	}
	luaL_checkstack(L, top - first + 3, "too many arguments");
	kl_push_slot(L, KL_SLOT_FORMAT);
	for (int i = first; i <= top; i++)
		lua_pushvalue(L, i);
	if (lua_pcall(L, top - first + 1, 1, 0) == LUA_OK)
		return;
	/* "bad argument #2 to 'format' (...)" names format's arguments: renumber them. */
	const char *msg = lua_tostring(L, -1);
	const char *paren = msg ? strchr(msg, '(') : NULL;
	int argn;
	if (msg && paren && sscanf(msg, "bad argument #%d", &argn) == 1)
		luaL_error(L, "bad argument #%d to '%s' %s", argn + first - 1, op, paren);
	luaL_error(L, "%s: %s", op, msg ? msg : "string.format failed");
}

bool kl_common_field(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *key)
{
	if (strcmp(key, "name") == 0)
		lua_pushstring(L, kobject_name(KOBJ(n)));
	else if (strcmp(key, "refcount") == 0)
		lua_pushinteger(L, kobject_refcount(KOBJ(n)));
	else if (strcmp(key, "state") == 0)
		lua_pushstring(L, kl_state_name(ctx, n));
	else if (strcmp(key, "path") == 0)
		kl_push_path(L, ctx, n);
	else if (strcmp(key, "id") == 0) {
		unsigned id = kl_node_id(ctx, n, KL_KOBJECT);
		if (id)
			lua_pushinteger(L, id);
		else
			lua_pushnil(L);
	} else
		return false;
	return true;
}

void kl_name_node(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *name,
		  const char *op)
{
	kl_enter(L, ctx);
	int err = (kobject_set_name)(KOBJ(n), "%s", name);
	kl_leave(ctx);
	if (err)
		luaL_error(L, "%s: kobject_set_name failed (%d)", op, err);
}

void kl_assign_name(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, int vidx)
{
	kl_name_node(L, ctx, n, luaL_checkstring(L, vidx), "setting name");
}

int kl_set_name(lua_State *L, enum kl_type type)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, type, "kobject_set_name");
	kl_format(L, 2, "kobject_set_name");
	const char *name = lua_tostring(L, -1);
	kl_enter(L, ctx);
	int err = (kobject_set_name)(KOBJ(n), "%s", name);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* Reads of a released or reset handle: only state and id answer; the rest raise. */
struct kl_node *kl_read_node(lua_State *L, struct kl_ctx *ctx, enum kl_type type,
			     const char *key)
{
	struct kl_handle *h = kl_tohandle(L, 1);
	if (h && h->gen == ctx->gen && h->node && h->node->released) {
		if (strcmp(key, "state") == 0) {
			lua_pushliteral(L, "released");
			return NULL;
		}
		if (strcmp(key, "id") == 0) {
			lua_pushinteger(L, h->node->id);
			return NULL;
		}
	}
	return kl_check(L, 1, type, lua_pushfstring(L, "reading %s", key));
}

/* ====================================================================== constructor */

/***
 * A new kobject in zeroed memory (uninitialised, like kzalloc).
 * @function new_kobject
 * @tparam[opt] table container the structure that embeds it: container[member] = kobj
 * @tparam[opt="kobj"] string member
 * @treturn kobject
 */
static int l_new_kobject(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	bool embedded = !lua_isnoneornil(L, 1);
	if (embedded)
		luaL_checktype(L, 1, LUA_TTABLE);
	luaL_optstring(L, 2, "kobj");
	lua_settop(L, 2);
	if (lua_isnil(L, 2)) {
		lua_pushliteral(L, "kobj");
		lua_replace(L, 2);
	}
	struct kl_node *n = kl_node_new(L, ctx, KL_KOBJECT);
	kl_map_add(L, ctx, n);
	kl_push_handle(L, ctx, n, KL_KOBJECT);          /* [c m h] */
	if (embedded) {
		kl_data_table(L, n);                    /* [c m h data] */
		lua_pushvalue(L, 1);
		lua_setfield(L, -2, "container");
		lua_pushvalue(L, 2);
		lua_setfield(L, -2, "member");
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_setfield(L, 1, lua_tostring(L, 2)); /* container[member] = h */
	}
	return 1;
}

/* =================================================================== kernel calls */

/***
 * kobject_init(kobj): the article's init (count 1, a reference on the kset).
 * kobject_init(kobj, ktype): today's (modern_lua.c); chosen by the number of arguments,
 * as the C macro chooses, so kobject_init(kobj, nil) is today's with no ktype.
 * @function kobject_init
 */
static int l_kobject_init(lua_State *L)
{
	if (lua_gettop(L) >= 2)
		return kl_kobject_init_ktype(L);
	return kl_call(L, KL_KOBJECT_INIT);
}

/***
 * kobject_set_name(kobj, fmt, ...): the name formatted as string.format does.
 * @treturn int 0 or a negative error (-ENOMEM under fail_alloc)
 */
static int l_kobject_set_name(lua_State *L)
{
	return kl_set_name(L, KL_KOBJECT);
}

static int l_kobject_name(lua_State *L)
{
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_name");
	lua_pushstring(L, kobject_name(KOBJ(n)));
	return 1;
}

/* kobject_get(kobj): kobj with its count raised, or nil (count already zero, stale). */
static int l_kobject_get(lua_State *L)
{
	return kl_getput(L, KL_KOBJECT_GET);
}

static int l_kobject_put(lua_State *L)
{
	return kl_getput(L, KL_KOBJECT_PUT);
}

/***
 * kobject_add(kobj): the article's add (name and parent set before).
 * kobject_add(kobj, parent, fmt, ...): today's (modern_lua.c), chosen by the number of
 * arguments. Both return 0 or a negative errno.
 * @function kobject_add
 */
static int l_kobject_add(lua_State *L)
{
	if (lua_gettop(L) >= 2)
		return kl_kobject_add_named(L);
	return kl_call(L, KL_KOBJECT_ADD);
}

static int l_kobject_del(lua_State *L)
{
	return kl_call(L, KL_KOBJECT_DEL);
}

static int l_kobject_register(lua_State *L)
{
	return kl_call(L, KL_KOBJECT_REGISTER);
}

static int l_kobject_unregister(lua_State *L)
{
	return kl_call(L, KL_KOBJECT_UNREGISTER);
}

static int l_kobject_refcount(lua_State *L)
{
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_refcount");
	lua_pushinteger(L, kobject_refcount(KOBJ(n)));
	return 1;
}

/* get_ktype(kobj): the kset's ktype if it has one, else the object's own; nil if none. */
static int l_get_ktype(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check(L, 1, KL_KOBJECT, "get_ktype");
	kl_push_addr(L, ctx, get_ktype(KOBJ(n)), KL_KTYPE);
	return 1;
}

/***
 * container_of(ptr [, type, member]): the table that embeds a kobject (or a kset); for a
 * kset's own kobject, the kset; for a subsystem's kset, the subsystem; else nil.
 * With @member, checks that the object is embedded under that name.
 */
static int l_container_of(lua_State *L)
{
	struct kl_handle *h = kl_tohandle(L, 1);
	if (kl_kref_container(L, 1, luaL_optstring(L, 3, NULL)))
		return 1;
	if (!h || (h->type != KL_KOBJECT && h->type != KL_KSET))
		return luaL_typeerror(L, 1, "kobject, kset or kref");
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check(L, 1, h->type, "container_of");
	const char *member = luaL_optstring(L, 3, NULL);
	bool direct = n->type == (h->type == KL_KOBJECT ? KL_KOBJECT : KL_KSET);

	if (direct) {
		kl_push_data(L, n);                            /* [data|nil] */
		if (lua_istable(L, -1) && lua_getfield(L, -1, "container") == LUA_TTABLE) {
			lua_getfield(L, -2, "member");
			const char *m = lua_tostring(L, -1);
			if (member && m && strcmp(member, m) != 0)
				return luaL_error(L, "container_of: the %s is embedded as '%s', "
						  "not '%s'", kl_type_names[h->type], m,
						  member);
			lua_pop(L, 1);
			return 1;
		}
		lua_pushnil(L);
		return 1;
	}
	/* A kset's kobject is embedded in the kset; a subsystem's kset in the subsystem. */
	if (member && strcmp(member, h->type == KL_KOBJECT ? "kobj" : "kset") != 0)
		return luaL_error(L, "container_of: the %s is embedded as '%s', not '%s'",
				  kl_type_names[h->type], h->type == KL_KOBJECT ? "kobj" : "kset",
				  member);
	kl_push_handle(L, ctx, n, h->type == KL_KOBJECT ? KL_KSET : KL_SUBSYS);
	return 1;
}

/* to_kset(kobj): the kset whose embedded kobject this is (nil for nil). */
static int l_to_kset(lua_State *L)
{
	if (lua_isnoneornil(L, 1)) {
		lua_pushnil(L);
		return 1;
	}
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check(L, 1, KL_KOBJECT, "to_kset");
	if (n->type == KL_KOBJECT)
		return luaL_argerror(L, 1, "this kobject is not embedded in a kset");
	kl_push_handle(L, ctx, n, KL_KSET);
	return 1;
}

/* ========================================================================= fields */

bool kl_makes_cycle(const struct kobject *self, const struct kobject *parent)
{
	size_t steps = 0;
	for (const struct kobject *k = parent; k && steps < 1000000; k = k->parent, steps++)
		if (k == self)
			return true;
	return false;
}

static int kobject_index(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *key = kl_field_key(L, KL_KOBJECT);
	struct kl_node *n = kl_read_node(L, ctx, KL_KOBJECT, key);

	if (!n)
		return 1;
	struct kobject *kobj = KOBJ(n);
	if (kl_common_field(L, ctx, n, key))
		return 1;
	if (strcmp(key, "parent") == 0)
		kl_push_addr(L, ctx, kobj->parent, KL_KOBJECT);
	else if (strcmp(key, "kset") == 0)
		kl_push_addr(L, ctx, kobj->kset, KL_KSET);
	else if (strcmp(key, "ktype") == 0)
		kl_push_addr(L, ctx, kobj->ktype, KL_KTYPE);
	else
		return luaL_error(L, "kobject has no field '%s' (fields: name, refcount, parent, "
				  "kset, ktype, state, path, id)", key);
	return 1;
}

static const char *const kobject_fields[] = {
	"name", "refcount", "parent", "kset", "ktype", "state", "path", "id", NULL,
};

/* Refuses to move an object that sysfs shows where it is. */
static void check_movable(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *key)
{
	const struct kobj_record *r = kl_node_record(ctx, n);
	if (r && r->in_sysfs)
		luaL_error(L, "setting %s: '%s' is in sysfs; kobject_del() it before changing its "
			   "%s", key, r->name, key);
}

static int kobject_newindex(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *key = kl_field_key(L, KL_KOBJECT);
	const char *op = lua_pushfstring(L, "setting %s", key);
	struct kl_node *n = kl_check(L, 1, KL_KOBJECT, op);
	struct kobject *kobj = KOBJ(n);

	if (strcmp(key, "parent") == 0) {
		struct kl_node *p = kl_check_opt(L, 3, KL_KOBJECT, op);
		check_movable(L, ctx, n, key);
		if (p && kl_makes_cycle(kobj, KOBJ(p)))
			return luaL_error(L, "setting parent: '%s' would become its own ancestor",
					  kobject_name(kobj));
		kobj->parent = KOBJ(p);
		kl_note_pointers(L, ctx, n);
	} else if (strcmp(key, "kset") == 0) {
		struct kl_node *k = kl_check_opt(L, 3, KL_KSET, op);
		check_movable(L, ctx, n, key);
		kobj->kset = k ? kl_view(k, KL_KSET) : NULL;
		kl_note_pointers(L, ctx, n);
	} else if (strcmp(key, "ktype") == 0) {
		struct kl_node *t = kl_check_opt(L, 3, KL_KTYPE, op);
		if (n->ext)
			return luaL_error(L, "setting ktype: '%s' was made by the kernel (%s), whose "
					  "ktype frees it: it cannot be changed", kobject_name(kobj),
					  "kobject_create_and_add or kset_create_and_add");
		kobj->ktype = t ? kl_view(t, KL_KTYPE) : NULL;
	} else if (strcmp(key, "name") == 0) {
		kl_assign_name(L, ctx, n, 3);
	} else if (strcmp(key, "refcount") == 0) {
		return luaL_error(L, "kobject field 'refcount' is read-only: only kobject_get() "
				  "and kobject_put() change it");
	} else if (strcmp(key, "state") == 0 || strcmp(key, "path") == 0 ||
		   strcmp(key, "id") == 0) {
		return luaL_error(L, "kobject field '%s' is read-only", key);
	} else {
		return luaL_error(L, "kobject has no field '%s' (assignable: name, parent, kset, "
				  "ktype)", key);
	}
	return 0;
}

static int kobject_tostring(lua_State *L)
{
	struct kl_ctx *ctx = kl_findctx(L);
	struct kl_handle *h = kl_tohandle(L, 1);
	const char *type = h ? kl_type_names[h->type] : "kobject";

	if (!ctx || !h || h->gen != ctx->gen) {
		const char *name = NULL;
		if (h && lua_getiuservalue(L, 1, 1) == LUA_TSTRING)
			name = lua_tostring(L, -1);
		lua_pushfstring(L, "%s '%s' (from a world that was reset)", type, name ? name : "?");
		return 1;
	}
	if (h->type == KL_MODULE) {
		lua_pushfstring(L, "module '%s' refcount=%d %s", h->mod->name, h->mod->refcnt,
				h->mod->state == MODULE_STATE_LIVE ? "live"
				: h->mod->state == MODULE_STATE_GOING ? "going" : "unloaded");
		return 1;
	}
	struct kl_node *n = h->node;
	const struct kobj_record *rec = kobj_record_by_id(ctx->world, kl_node_id(ctx, n, h->type));
	const char *name = rec ? rec->name : kobject_name(kl_view(n, KL_KOBJECT));
	const char *label = name[0] ? lua_pushfstring(L, "'%s'", name) : "(no name)";
	if (n->released) {
		const struct kobj_record *r = kobj_record_by_id(ctx->world, n->id);
		struct kobj_origin at = r ? kobj_site_origin(ctx->world, r->release_at)
					  : (struct kobj_origin){ 0 };
		if (at.file)
			lua_pushfstring(L, "%s %s released at %s:%d", type, label, at.file, at.line);
		else
			lua_pushfstring(L, "%s %s released", type, label);
		return 1;
	}
	const char *state = kl_state_name(ctx, n);
	if (strcmp(state, "uninitialized") == 0) {
		lua_pushfstring(L, "%s %s uninitialized", type, label);
		return 1;
	}
	kl_push_path(L, ctx, n);
	if (lua_isnil(L, -1))
		lua_pushfstring(L, "%s %s refcount=%d %s", type, label,
				kobject_refcount(KOBJ(n)), state);
	else
		lua_pushfstring(L, "%s %s refcount=%d %s %s", type, label,
				kobject_refcount(KOBJ(n)), state, lua_tostring(L, -1));
	return 1;
}

/* ========================================================================== opening */

static const luaL_Reg functions[] = {
	{ "new_kobject", l_new_kobject },
	{ "kobject_init", l_kobject_init },
	{ "kobject_set_name", l_kobject_set_name },
	{ "kobject_name", l_kobject_name },
	{ "kobject_get", l_kobject_get },
	{ "kobject_put", l_kobject_put },
	{ "kobject_add", l_kobject_add },
	{ "kobject_del", l_kobject_del },
	{ "kobject_register", l_kobject_register },
	{ "kobject_unregister", l_kobject_unregister },
	{ "kobject_refcount", l_kobject_refcount },
	{ "get_ktype", l_get_ktype },
	{ "container_of", l_container_of },
	{ "to_kset", l_to_kset },
	{ NULL, NULL },
};

static const luaL_Reg methods[] = {
	{ "init", l_kobject_init },
	{ "set_name", l_kobject_set_name },
	{ "get", l_kobject_get },
	{ "put", l_kobject_put },
	{ "add", l_kobject_add },
	{ "del", l_kobject_del },
	{ "register", l_kobject_register },
	{ "unregister", l_kobject_unregister },
	{ NULL, NULL },
};

void kl_open_kobject(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_new_type(L, KL_KOBJECT, kobject_index, kobject_newindex, methods, kobject_fields,
		    kobject_tostring);
}

int kl_handle_tostring(lua_State *L)
{
	return kobject_tostring(L);
}
