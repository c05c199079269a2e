/*
 * ksets and subsystems from Lua: constructors (new_kset, decl_subsys), the kernel-named
 * calls, and their handles' fields and methods.
 */
#include <ctype.h>
#include <string.h>

#include "lua_bindings/internal.h"

#define KSET(n) ((struct kset *)((n) ? kl_view((n), KL_KSET) : NULL))
#define SUBSYS(n) ((struct subsystem *)((n) ? kl_view((n), KL_SUBSYS) : NULL))
#define KOBJ(n) ((struct kobject *)kl_view((n), KL_KOBJECT))

/* ==================================================================== constructors */

/* [..., container, member] of an options table at @opts into the node's data. */
static void embed(lua_State *L, struct kl_node *n, int opts, int handle, const char *dflt)
{
	if (lua_getfield(L, opts, "container") == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	const char *member = dflt;
	if (lua_getfield(L, opts, "member") != LUA_TNIL)
		member = lua_tostring(L, -1);
	kl_data_table(L, n);                             /* [c m data] */
	lua_pushvalue(L, -3);
	lua_setfield(L, -2, "container");
	lua_pushstring(L, member);
	lua_setfield(L, -2, "member");
	lua_pop(L, 1);                                   /* [c m] */
	lua_pushvalue(L, handle);
	lua_setfield(L, -3, member);                     /* container[member] = handle */
	lua_pop(L, 2);
}

static const char *const kset_fields[] = {
	"name", "ktype", "subsys", "hotplug_ops", "uevent_ops", "parent", "container", "member",
	NULL,
};

/***
 * A new kset in zeroed memory, not yet initialised.
 * @function new_kset
 * @tparam[opt] table|string opts name, ktype (for its members), subsys, hotplug_ops
 *   {filter=, name=, hotplug=} (the article's), uevent_ops {filter=, name=, uevent=}
 *   (today's, see kset_create_and_add), parent (a kobject), container and member
 * @treturn kset
 */
static int l_new_kset(lua_State *L)
{
	const char *op = "new_kset";
	struct kl_ctx *ctx = kl_getctx(L);

	lua_settop(L, 1);
	if (lua_type(L, 1) == LUA_TSTRING) {
		lua_createtable(L, 0, 1);
		lua_pushvalue(L, 1);
		lua_setfield(L, -2, "name");
		lua_replace(L, 1);
	} else if (lua_isnil(L, 1)) {
		lua_newtable(L);
		lua_replace(L, 1);
	}
	luaL_checktype(L, 1, LUA_TTABLE);
	kl_check_fields(L, 1, kset_fields, op);
	lua_getfield(L, 1, "name");                      /* [opts name] */
	if (!lua_isnil(L, 2) && !lua_isstring(L, 2))
		return luaL_error(L, "new_kset: field 'name' must be a string, got %s",
				  kl_typename(L, 2));
	struct kl_node *kt = kl_field_handle(L, 1, "ktype", KL_KTYPE, op);
	struct kl_node *sub = kl_field_handle(L, 1, "subsys", KL_SUBSYS, op);
	struct kl_node *parent = kl_field_handle(L, 1, "parent", KL_KOBJECT, op);
	lua_getfield(L, 1, "hotplug_ops");               /* [opts name hp] */
	lua_getfield(L, 1, "uevent_ops");                /* [opts name hp uev] */
	if (lua_getfield(L, 1, "member") != LUA_TNIL && lua_type(L, -1) != LUA_TSTRING)
		return luaL_error(L, "new_kset: field 'member' must be a string");
	if (lua_getfield(L, 1, "container") != LUA_TNIL && !lua_istable(L, -1))
		return luaL_error(L, "new_kset: field 'container' must be a table");
	lua_settop(L, 4);

	struct kl_node *n = kl_node_new(L, ctx, KL_KSET);
	kl_map_add(L, ctx, n);
	struct kset *kset = KSET(n);
	kset->ktype = kt ? kl_view(kt, KL_KTYPE) : NULL;
	kset->subsys = SUBSYS(sub);
	kset->kobj.parent = parent ? KOBJ(parent) : NULL;
	kl_note_pointers(L, ctx, n);
	kl_set_hotplug(L, ctx, n, 3);
	kl_set_uevent_ops(L, n, 4);
	if (!lua_isnil(L, 2))
		kl_name_node(L, ctx, n, lua_tostring(L, 2), op);
	kl_push_handle(L, ctx, n, KL_KSET);              /* [opts name hp uev h] */
	embed(L, n, 1, 5, "kset");
	return 1;
}

/* decl_subsys makes <name>_subsys in C: the name must be an identifier. */
static bool is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

/***
 * decl_subsys(name, ktype, hotplug_ops): a subsystem as the C macro defines it: named,
 * with its kset's ktype and hotplug_ops set, not yet registered.
 * @treturn subsystem
 */
static int l_decl_subsys(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *name = luaL_checkstring(L, 1);
	if (!is_identifier(name))
		return luaL_argerror(L, 1, lua_pushfstring(L, "'%s' is not a C identifier (the "
							   "macro defines %s_subsys)", name,
							   name));
	struct kl_node *kt = kl_check_opt(L, 2, KL_KTYPE, "decl_subsys");
	if (!lua_isnoneornil(L, 3))
		luaL_checktype(L, 3, LUA_TTABLE);
	lua_settop(L, 3);

	struct kl_node *n = kl_node_new(L, ctx, KL_SUBSYS);
	kl_map_add(L, ctx, n);
	struct subsystem *s = SUBSYS(n);
	struct rw_semaphore unlocked = RWSEM_INITIALIZER;
	s->rwsem = unlocked;
	s->kset.ktype = kt ? kl_view(kt, KL_KTYPE) : NULL;
	kl_set_hotplug(L, ctx, n, 3);
	if (strlen(name) < KOBJ_NAME_LEN)
		strcpy(s->kset.kobj.name, name); /* .kobj = { .name = #_name } */
	else
		kl_name_node(L, ctx, n, name, "decl_subsys");
	kl_push_handle(L, ctx, n, KL_SUBSYS);
	return 1;
}

/* ======================================================================= kset calls */

static int l_kset_init(lua_State *L)
{
	return kl_call(L, KL_KSET_INIT);
}

static int l_kset_add(lua_State *L)
{
	return kl_call(L, KL_KSET_ADD);
}

static int l_kset_register(lua_State *L)
{
	return kl_call(L, KL_KSET_REGISTER);
}

static int l_kset_unregister(lua_State *L)
{
	return kl_call(L, KL_KSET_UNREGISTER);
}

static int l_kset_get(lua_State *L)
{
	return kl_getput(L, KL_KSET_GET);
}

static int l_kset_put(lua_State *L)
{
	return kl_getput(L, KL_KSET_PUT);
}

/* kset_find_obj(kset, name): the member named @name; without taking a reference for the
 * article's ksets (2.6.0), with one (kobject_get_unless_zero) for today's, as the kernel:
 * then a reference handle. */
static int l_kset_find_obj(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KSET, "kset_find_obj");
	const char *name = luaL_checkstring(L, 2);
	kl_enter(L, ctx);
	unsigned long long before = kobj_last_ref(ctx->world);
	struct kobject *found = kset_find_obj(KSET(n), name);
	unsigned long long token = kobj_last_ref(ctx->world);
	kl_leave(ctx);
	struct kl_node *m = kl_node_of(L, ctx, found, KL_KOBJECT);
	if (m)
		kl_push_ref(L, ctx, m, KL_KOBJECT, token != before ? token : 0);
	else
		lua_pushnil(L);
	return 1;
}

/* ================================================================== subsystem calls */

static int l_subsystem_init(lua_State *L)
{
	return kl_call(L, KL_SUBSYSTEM_INIT);
}

static int l_subsystem_register(lua_State *L)
{
	return kl_call(L, KL_SUBSYSTEM_REGISTER);
}

static int l_subsystem_unregister(lua_State *L)
{
	return kl_call(L, KL_SUBSYSTEM_UNREGISTER);
}

static int l_subsys_get(lua_State *L)
{
	return kl_getput(L, KL_SUBSYS_GET);
}

static int l_subsys_put(lua_State *L)
{
	return kl_getput(L, KL_SUBSYS_PUT);
}

/* kset.name = "x" / subsys.name = "x" */
static int l_set_name(lua_State *L)
{
	struct kl_handle *h = kl_tohandle(L, 1);
	return kl_set_name(L, h && h->type == KL_SUBSYS ? KL_SUBSYS : KL_KSET);
}

/* ========================================================================== fields */

/* Pushes the kset's members in list order (as handles). */
static void push_list(lua_State *L, struct kl_ctx *ctx, struct kset *kset)
{
	lua_newtable(L);
	if (!kset->list.next)
		return; /* never initialised */
	lua_Integer i = 0;
	for (struct list_head *pos = kset->list.next; pos && pos != &kset->list && i < 10000000;
	     pos = pos->next) {
		kl_push_addr(L, ctx, list_entry(pos, struct kobject, entry), KL_KOBJECT);
		if (lua_isnil(L, -1))
			lua_pop(L, 1);
		else
			lua_rawseti(L, -2, ++i);
	}
}

/* Reads shared by kset and subsystem handles; Return: false if @key is not one. */
static bool kset_field(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *key)
{
	struct kset *kset = KSET(n);
	if (kl_common_field(L, ctx, n, key))
		return true;
	if (strcmp(key, "ktype") == 0)
		kl_push_addr(L, ctx, kset->ktype, KL_KTYPE);
	else if (strcmp(key, "hotplug_ops") == 0 || strcmp(key, "uevent_ops") == 0) {
		kl_push_data(L, n);
		if (lua_istable(L, -1))
			lua_getfield(L, -1, key);
		else
			lua_pushnil(L);
	} else
		return false;
	return true;
}

static int index_of(lua_State *L, enum kl_type type)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *key = kl_field_key(L, type);
	struct kl_node *n = kl_read_node(L, ctx, type, key);

	if (!n || kset_field(L, ctx, n, key))
		return 1;
	if (type == KL_KSET && strcmp(key, "kobj") == 0)
		kl_push_handle(L, ctx, n, KL_KOBJECT);
	else if (type == KL_KSET && strcmp(key, "subsys") == 0)
		kl_push_addr(L, ctx, KSET(n)->subsys, KL_SUBSYS);
	else if (type == KL_KSET && strcmp(key, "list") == 0)
		push_list(L, ctx, KSET(n));
	else if (type == KL_SUBSYS && strcmp(key, "kset") == 0)
		kl_push_handle(L, ctx, n, KL_KSET);
	else if (type == KL_KSET)
		return luaL_error(L, "kset has no field '%s' (fields: name, refcount, state, path, "
				  "id, kobj, ktype, subsys, hotplug_ops, uevent_ops, list)", key);
	else
		return luaL_error(L, "subsystem has no field '%s' (fields: name, refcount, state, "
				  "path, id, kset, ktype, hotplug_ops, uevent_ops)", key);
	return 1;
}

static int newindex_of(lua_State *L, enum kl_type type)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *key = kl_field_key(L, type);
	const char *op = lua_pushfstring(L, "setting %s", key);
	struct kl_node *n = kl_check(L, 1, type, op);
	struct kset *kset = KSET(n);

	if (strcmp(key, "ktype") == 0) {
		struct kl_node *t = kl_check_opt(L, 3, KL_KTYPE, op);
		kset->ktype = t ? kl_view(t, KL_KTYPE) : NULL;
	} else if (strcmp(key, "hotplug_ops") == 0) {
		if (!lua_isnil(L, 3))
			luaL_checktype(L, 3, LUA_TTABLE);
		kl_set_hotplug(L, ctx, n, 3);
	} else if (strcmp(key, "uevent_ops") == 0) {
		kl_set_uevent_ops(L, n, 3);
	} else if (strcmp(key, "name") == 0) {
		kl_assign_name(L, ctx, n, 3);
	} else if (type == KL_KSET && strcmp(key, "subsys") == 0) {
		struct kl_node *s = kl_check_opt(L, 3, KL_SUBSYS, op);
		kset->subsys = SUBSYS(s);
	} else {
		return luaL_error(L, "%s field '%s' cannot be assigned (assignable: name, ktype, "
				  "hotplug_ops, uevent_ops%s)", kl_type_names[type], key,
				  type == KL_KSET ? ", subsys" : "");
	}
	return 0;
}

static int kset_index(lua_State *L)
{
	return index_of(L, KL_KSET);
}

static int kset_newindex(lua_State *L)
{
	return newindex_of(L, KL_KSET);
}

static int subsys_index(lua_State *L)
{
	return index_of(L, KL_SUBSYS);
}

static int subsys_newindex(lua_State *L)
{
	return newindex_of(L, KL_SUBSYS);
}

/* ========================================================================= opening */

static const luaL_Reg functions[] = {
	{ "new_kset", l_new_kset },
	{ "decl_subsys", l_decl_subsys },
	{ "kset_init", l_kset_init },
	{ "kset_add", l_kset_add },
	{ "kset_register", l_kset_register },
	{ "kset_unregister", l_kset_unregister },
	{ "kset_get", l_kset_get },
	{ "kset_put", l_kset_put },
	{ "kset_find_obj", l_kset_find_obj },
	{ "subsystem_init", l_subsystem_init },
	{ "subsystem_register", l_subsystem_register },
	{ "subsystem_unregister", l_subsystem_unregister },
	{ "subsys_get", l_subsys_get },
	{ "subsys_put", l_subsys_put },
	{ NULL, NULL },
};

static const luaL_Reg kset_methods[] = {
	{ "init", l_kset_init },
	{ "add", l_kset_add },
	{ "register", l_kset_register },
	{ "unregister", l_kset_unregister },
	{ "get", l_kset_get },
	{ "put", l_kset_put },
	{ "find_obj", l_kset_find_obj },
	{ "set_name", l_set_name },
	{ NULL, NULL },
};

static const luaL_Reg subsys_methods[] = {
	{ "init", l_subsystem_init },
	{ "register", l_subsystem_register },
	{ "unregister", l_subsystem_unregister },
	{ "get", l_subsys_get },
	{ "put", l_subsys_put },
	{ "set_name", l_set_name },
	{ NULL, NULL },
};

static const char *const kset_handle_fields[] = {
	"name", "refcount", "state", "path", "id", "kobj", "ktype", "subsys", "hotplug_ops",
	"uevent_ops", "list", NULL,
};

static const char *const subsys_handle_fields[] = {
	"name", "refcount", "state", "path", "id", "kset", "ktype", "hotplug_ops", "uevent_ops",
	NULL,
};

void kl_open_kset(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_new_type(L, KL_KSET, kset_index, kset_newindex, kset_methods, kset_handle_fields,
		    kl_handle_tostring);
	kl_new_type(L, KL_SUBSYS, subsys_index, subsys_newindex, subsys_methods,
		    subsys_handle_fields, kl_handle_tostring);
}
