/*
 * ktypes from Lua: a release method and sysfs_ops written in Lua (or today's
 * kobj_sysfs_ops), default attributes and default groups, and the C trampolines the core
 * calls for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "lua_bindings/internal.h"

#define KTYPE(n) ((struct kobj_type *)kl_view((n), KL_KTYPE))

/*
 * The node of the ktype whose method the core is calling for @kobj: the one the core
 * chose, by the object's era (today's objects use their own ktype; the article's, their
 * kset's if it has one). Only Lua ktypes have these trampolines, so it is a node.
 */
static struct kl_node *tramp_node(struct kobject *kobj)
{
	const struct kobj_type *kt = get_ktype(kobj); /* the core's choice, by the era */
	return container_of(kt, struct kl_node, u.ktype.kt);
}

/* ========================================================================= release */

struct release_call {
	struct kl_ctx *ctx;
	struct kl_node *kt;     /* the ktype node */
	struct kl_node *obj;    /* the object's node, or NULL */
};

static int release_body(lua_State *L)
{
	struct release_call *c = lua_touserdata(L, 1);
	kl_push_data(L, c->kt);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, "release") != LUA_TFUNCTION)
		return 0;
	if (c->obj)
		kl_push_handle(L, c->ctx, c->obj, KL_KOBJECT);
	else
		lua_pushnil(L);
	lua_call(L, 1, 0);
	return 0;
}

static void release_tramp(struct kobject *kobj)
{
	struct kl_node *kt = tramp_node(kobj);
	struct kl_ctx *ctx = kt->ctx;
	struct release_call c = { ctx, kt, kl_map_get(&ctx->map, kobj) };
	char what[200], who[160];
	unsigned id;

	if (c.obj && kl_view(c.obj, KL_KOBJECT) != kobj)
		c.obj = NULL;
	if (c.obj)
		c.obj->release_ran = true;
	snprintf(what, sizeof(what), "%s: release()", kl_describe(ctx, kobj, &id, who));
	kl_callback(ctx, release_body, &c, id, what,
		    "The object counts as released all the same: its handles are stale and the "
		    "references it held on its parent and kset are dropped, so the model stays "
		    "consistent. Whatever the method meant to do after the error did not "
		    "happen.");
}

/* ====================================================================== show/store */

/* [] -> [fn kobj attr_name] for method @name; Return: false if there is no such method. */
static bool push_method(lua_State *L, struct kl_file_call *c, const char *name)
{
	kl_push_data(L, c->node);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, name) != LUA_TFUNCTION)
		return false;
	kl_push_addr(L, c->ctx, c->kobj, KL_KOBJECT);
	lua_pushstring(L, c->attr && c->attr->name ? c->attr->name : "");
	return true;
}

static int show_body(lua_State *L)
{
	struct kl_file_call *c = lua_touserdata(L, 1);
	size_t len;

	if (!push_method(L, c, "show"))
		return luaL_error(L, "the ktype has no show method");
	lua_call(L, 2, 1);
	if (lua_isnil(L, -1)) {
		c->result = 0;
		return 0;
	}
	if (kl_show_errno(L, &c->result))
		return 0;
	if (!lua_isstring(L, -1))
		return luaL_error(L, "show() must return a string or a negative errno, got %s",
				  kl_typename(L, -1));
	const char *s = lua_tolstring(L, -1, &len);
	if (len >= KL_PAGE_SIZE)
		len = KL_PAGE_SIZE - 1; /* a page, as sysfs lends */
	memcpy(c->page, s, len);
	c->page[len] = '\0';
	c->result = (ssize_t)len;
	return 0;
}

static ssize_t show_tramp(struct kobject *kobj, struct attribute *attr, char *page)
{
	struct kl_node *kt = tramp_node(kobj);
	struct kl_file_call c = { kt->ctx, kt, kobj, attr, page, NULL, 0, -EIO };

	return kl_file_method(&c, "show", "attribute", attr && attr->name ? attr->name : "",
			      show_body);
}

static int store_body(lua_State *L)
{
	struct kl_file_call *c = lua_touserdata(L, 1);

	if (!push_method(L, c, "store"))
		return luaL_error(L, "the ktype has no store method");
	kl_call_store(L, c, "a count (an integer)");
	return 0;
}

static ssize_t store_tramp(struct kobject *kobj, struct attribute *attr, const char *buf,
			   size_t count)
{
	struct kl_node *kt = tramp_node(kobj);
	struct kl_file_call c = { kt->ctx, kt, kobj, attr, NULL, buf, count, -EIO };

	return kl_file_method(&c, "store", "attribute", attr && attr->name ? attr->name : "",
			      store_body);
}

/* ==================================================================== constructor */

/* Checks entry @i of default_attrs (on top: the array) and adds its name's size. */
static void check_attr(lua_State *L, lua_Integer i, size_t *bytes)
{
	const char *name;
	size_t len;
	int t = lua_rawgeti(L, -1, i);                  /* [attrs e] */
	struct kl_handle *h = kl_tohandle(L, -1);

	if (h && h->type == KL_ATTR) {
		kl_check(L, lua_gettop(L), KL_ATTR, "new_ktype");
		lua_pop(L, 1);
		return; /* its own kobj_attribute is used: no copy, no name to store */
	}
	if (t == LUA_TTABLE) {
		lua_getfield(L, -1, "name");
		if (!lua_isstring(L, -1))
			luaL_error(L, "new_ktype: default_attrs[%d] needs a string name",
				   (int)i);
		name = lua_tolstring(L, -1, &len);
		lua_getfield(L, -2, "mode");
		if (!lua_isnil(L, -1)) {
			lua_Integer mode;
			if (!kl_to_mode(L, -1, &mode) || mode < 0 || mode > 0777)
				luaL_error(L, "new_ktype: default_attrs[%d].mode must be an "
					   "integer from 0 to 0777 (511) or an octal string such "
					   "as \"0644\"", (int)i);
		}
		lua_pop(L, 2);
	} else if (t == LUA_TSTRING) {
		name = lua_tolstring(L, -1, &len);
	} else {
		luaL_error(L, "new_ktype: default_attrs[%d] must be a name, {name=, mode=} or a "
			   "kobj_attribute, got %s", (int)i, kl_typename(L, -1));
		return;
	}
	if (len == 0 || strchr(name, '/') || strlen(name) != len)
		luaL_error(L, "new_ktype: default_attrs[%d]: '%s' is not a valid file name",
			   (int)i, name);
	*bytes += len + 1;
	lua_pop(L, 1);
}

/*
 * Fills the attribute block from the array on top (already checked): @n pointers and a
 * NULL, then @n kl_attr_refs (so kobj_sysfs_ops may look at any of them), then the names.
 * A kobj_attribute entry points at its own kobj_attribute instead.
 */
static struct attribute **fill_attrs(lua_State *L, void *block, lua_Integer n)
{
	struct attribute **ptrs = block;
	struct kl_attr_ref *refs = (struct kl_attr_ref *)(ptrs + n + 1);
	char *names = (char *)(refs + n);

	for (lua_Integer i = 1; i <= n; i++) {
		size_t len;
		lua_Integer mode = 0644;
		lua_rawgeti(L, -1, i);
		struct kl_handle *h = kl_tohandle(L, -1);
		if (h && h->type == KL_ATTR) {
			ptrs[i - 1] = &h->node->u.attr.ka.attr;
			lua_pop(L, 1);
			continue;
		}
		if (lua_istable(L, -1)) {
			lua_getfield(L, -1, "mode");
			if (!lua_isnil(L, -1))
				kl_to_mode(L, -1, &mode);
			lua_pop(L, 1);
			lua_getfield(L, -1, "name");
			lua_replace(L, -2);
		}
		const char *name = lua_tolstring(L, -1, &len);
		memcpy(names, name, len + 1);
		kl_attr_ref_init(&refs[i - 1], names, (mode_t)mode, NULL, NULL);
		ptrs[i - 1] = &refs[i - 1].ka.attr;
		names += len + 1;
		lua_pop(L, 1);
	}
	ptrs[n] = NULL;
	return ptrs;
}

static const char *const ktype_fields[] = { "name", "release", "sysfs_ops", "default_attrs",
					     "default_groups", NULL };
static const char *const ops_fields[] = { "show", "store", NULL };

/* Checks that field @name of the table at @idx is nil or a function. */
static void check_function(lua_State *L, int idx, const char *name, const char *where)
{
	int t = lua_getfield(L, idx, name);
	if (t != LUA_TNIL && t != LUA_TFUNCTION)
		luaL_error(L, "new_ktype: %s%s must be a function, got %s", where, name,
			   kl_typename(L, -1));
	lua_pop(L, 1);
}

/* Checks def.sysfs_ops at @idx: a table {show=, store=}, kobj_sysfs_ops, or nil. */
static void check_ops(lua_State *L, int idx)
{
	if (lua_istable(L, idx)) {
		kl_check_fields(L, idx, ops_fields, "new_ktype: sysfs_ops");
		check_function(L, idx, "show", "sysfs_ops.");
		check_function(L, idx, "store", "sysfs_ops.");
	} else if (!lua_isnil(L, idx) && !kl_is_kobj_sysfs_ops(L, idx)) {
		luaL_error(L, "new_ktype: sysfs_ops must be a table {show=, store=} or "
			   "kobj_sysfs_ops, got %s", kl_typename(L, idx));
	}
}

/* Checks def.default_groups at @idx (an array of attribute_group); Return: its length. */
static lua_Integer check_groups(lua_State *L, int idx)
{
	if (lua_isnil(L, idx))
		return 0;
	if (!lua_istable(L, idx))
		luaL_error(L, "new_ktype: default_groups must be an array of attribute_group, "
			   "got %s", kl_typename(L, idx));
	lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, idx, i);
		struct kl_handle *h = kl_tohandle(L, -1);
		if (!h || h->type != KL_GROUP)
			luaL_error(L, "new_ktype: default_groups[%d] must be an attribute_group "
				   "(new_attribute_group), got %s", (int)i, kl_typename(L, -1));
		kl_check(L, lua_gettop(L), KL_GROUP, "new_ktype");
		lua_pop(L, 1);
	}
	return n;
}

/* kt.default_groups from the checked array at @idx: NULL-terminated, in node @n. */
static void fill_groups(lua_State *L, struct kl_node *n, int idx, lua_Integer count)
{
	const struct attribute_group **groups;

	if (count == 0)
		return;
	groups = calloc((size_t)count + 1, sizeof(*groups));
	if (!groups)
		luaL_error(L, "not enough memory");
	n->extra2 = groups; /* owned by the node from here on */
	for (lua_Integer i = 1; i <= count; i++) {
		lua_rawgeti(L, idx, i);
		groups[i - 1] = &kl_tohandle(L, -1)->node->u.group;
		lua_pop(L, 1);
	}
	KTYPE(n)->default_groups = groups;
}

/* The data table (on top) gets the sysfs_ops of def (table at @ops, or kobj_sysfs_ops). */
static void set_ops(lua_State *L, struct kl_node *n, int ops)
{
	struct kobj_type *kt = KTYPE(n);

	lua_pushvalue(L, ops);
	lua_setfield(L, -2, "sysfs_ops");
	if (kl_is_kobj_sysfs_ops(L, ops)) {
		kt->sysfs_ops = &kobj_sysfs_ops;
		return;
	}
	if (!lua_istable(L, ops))
		return;
	lua_getfield(L, ops, "show");
	lua_setfield(L, -2, "show");
	lua_getfield(L, ops, "store");
	lua_setfield(L, -2, "store");
	kt->sysfs_ops = &n->u.ktype.ops;
	n->u.ktype.ops.show = lua_getfield(L, -1, "show") ? show_tramp : NULL;
	n->u.ktype.ops.store = lua_getfield(L, -2, "store") ? store_tramp : NULL;
	lua_pop(L, 2);
}

/***
 * A new ktype.
 * @function new_ktype
 * @tparam[opt] table def name = "my_ktype" (for trees and pictures);
 *   release = function(kobj) end; sysfs_ops = { show =
 *   function(kobj, attr) return "text\n" end, store = function(kobj, attr, value)
 *   return #value end } or kobj_sysfs_ops (each file's kobj_attribute answers);
 *   default_attrs = { "foo", { name = "bar", mode = "0644" }, a_kobj_attribute } (the
 *   article's); default_groups = { an_attribute_group, ... } (today's)
 * @treturn kobj_type
 */
static int l_new_ktype(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	size_t bytes = 0;
	lua_Integer nattrs = 0;

	lua_settop(L, 1);
	if (lua_isnil(L, 1)) {
		lua_newtable(L);
		lua_replace(L, 1);
	}
	luaL_checktype(L, 1, LUA_TTABLE);
	kl_check_fields(L, 1, ktype_fields, "new_ktype");
	check_function(L, 1, "release", "");
	if (lua_getfield(L, 1, "name") != LUA_TNIL && lua_type(L, -1) != LUA_TSTRING)
		return luaL_error(L, "new_ktype: name must be a string, got %s", kl_typename(L, -1));
	lua_pop(L, 1);
	lua_getfield(L, 1, "sysfs_ops");                    /* [def ops] */
	check_ops(L, 2);
	int t = lua_getfield(L, 1, "default_attrs");        /* [def ops attrs] */
	if (t == LUA_TTABLE) {
		nattrs = (lua_Integer)lua_rawlen(L, 3);
		for (lua_Integer i = 1; i <= nattrs; i++)
			check_attr(L, i, &bytes);
	} else if (t != LUA_TNIL) {
		return luaL_error(L, "new_ktype: default_attrs must be an array, got %s",
				  kl_typename(L, 3));
	}
	lua_getfield(L, 1, "default_groups");               /* [def ops attrs groups] */
	lua_Integer ngroups = check_groups(L, 4);

	struct kl_node *n = kl_node_new(L, ctx, KL_KTYPE);
	struct kobj_type *kt = KTYPE(n);
	if (nattrs > 0) {
		n->extra = calloc(1, (size_t)(nattrs + 1) * sizeof(struct attribute *) +
					     (size_t)nattrs * sizeof(struct kl_attr_ref) + bytes);
		if (!n->extra)
			return luaL_error(L, "not enough memory");
		lua_pushvalue(L, 3);
		kt->default_attrs = fill_attrs(L, n->extra, nattrs);
		lua_pop(L, 1);
	}
	fill_groups(L, n, 4, ngroups);
	kl_map_add(L, ctx, n);

	kl_data_table(L, n);                                /* [def ops attrs groups data] */
	lua_getfield(L, 1, "release");
	lua_setfield(L, -2, "release");
	lua_pushvalue(L, 4);
	lua_setfield(L, -2, "default_groups");
	set_ops(L, n, 2);
	if (lua_getfield(L, -1, "release") == LUA_TFUNCTION)
		kt->release = release_tramp;
	lua_pop(L, 2);
	if (lua_getfield(L, 1, "name") == LUA_TSTRING) /* what trees and pictures call it */
		kobj_world_name_ktype(ctx->world, kt, lua_tostring(L, -1));
	lua_pop(L, 1);
	kl_push_handle(L, ctx, n, KL_KTYPE);
	return 1;
}

/* ========================================================================== fields */

static int ktype_index(lua_State *L)
{
	const char *key = kl_field_key(L, KL_KTYPE);
	struct kl_node *n = kl_check(L, 1, KL_KTYPE, "kobj_type");
	struct kobj_type *kt = KTYPE(n);

	if (strcmp(key, "name") == 0) {
		struct kl_ctx *ctx = kl_getctx(L);
		const char *name = kobj_ktype_name(ctx->world, kt);
		if (name)
			lua_pushstring(L, name);
		else
			lua_pushnil(L);
	} else if (strcmp(key, "release") == 0 || strcmp(key, "sysfs_ops") == 0) {
		kl_push_data(L, n);
		lua_getfield(L, -1, key);
	} else if (strcmp(key, "default_attrs") == 0) {
		lua_newtable(L);
		for (int i = 0; kt->default_attrs && kt->default_attrs[i]; i++) {
			lua_pushstring(L, kt->default_attrs[i]->name);
			lua_rawseti(L, -2, i + 1);
		}
	} else if (strcmp(key, "default_groups") == 0) {
		lua_newtable(L);
		for (int i = 0; kt->default_groups && kt->default_groups[i]; i++) {
			struct attribute_group *g = (struct attribute_group *)kt->default_groups[i];
			kl_push_handle(L, kl_getctx(L), container_of(g, struct kl_node, u.group),
				       KL_GROUP);
			lua_rawseti(L, -2, i + 1);
		}
	} else {
		return luaL_error(L, "kobj_type has no field '%s' (fields: name, release, "
				  "sysfs_ops, default_attrs, default_groups)", key);
	}
	return 1;
}

static int ktype_newindex(lua_State *L)
{
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
	struct kl_node *n = kl_check(L, 1, KL_KTYPE, "setting a kobj_type field");

	if (lua_type(L, 2) != LUA_TSTRING || strcmp(key, "release") != 0)
		return luaL_error(L, "kobj_type field %s cannot be assigned (assignable: release)",
				  luaL_tolstring(L, 2, NULL));
	kl_set_function(L, n, "release", 3);
	KTYPE(n)->release = lua_isnil(L, 3) ? NULL : release_tramp;
	return 0;
}

static int ktype_tostring(lua_State *L)
{
	struct kl_ctx *ctx = kl_findctx(L);
	struct kl_handle *h = kl_tohandle(L, 1);
	if (!ctx || !h || h->gen != ctx->gen) {
		lua_pushliteral(L, "kobj_type (from a world that was reset)");
		return 1;
	}
	struct kobj_type *kt = KTYPE(h->node);
	int nattrs = 0, ngroups = 0;
	while (kt->default_attrs && kt->default_attrs[nattrs])
		nattrs++;
	while (kt->default_groups && kt->default_groups[ngroups])
		ngroups++;
	const struct sysfs_ops *ops = kt->sysfs_ops;
	const char *name = kobj_ktype_name(ctx->world, kt);
	const char *groups = ngroups ? lua_pushfstring(L, ", %d default group%s", ngroups,
						       ngroups == 1 ? "" : "s") : "";
	lua_pushfstring(L, "kobj_type%s%s%s (release: %s, sysfs_ops: %s, %d default attribute%s%s)",
			name ? " '" : "", name ? name : "", name ? "'" : "",
			kt->release ? "yes" : "none",
			!ops ? "none" : ops == &kobj_sysfs_ops ? "kobj_sysfs_ops"
				: ops->show && ops->store ? "show/store"
				: ops->show ? "show" : ops->store ? "store" : "empty",
			nattrs, nattrs == 1 ? "" : "s", groups);
	return 1;
}

/* ========================================================================= opening */

static const luaL_Reg functions[] = {
	{ "new_ktype", l_new_ktype },
	{ NULL, NULL },
};

void kl_open_ktype(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_new_type(L, KL_KTYPE, ktype_index, ktype_newindex, NULL, ktype_fields,
		    ktype_tostring);
}
