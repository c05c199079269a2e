/*
 * ktypes from Lua: a release method and sysfs_ops written in Lua, default attributes,
 * and the C trampolines the core calls for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dot.h"
#include "lua_bindings/internal.h"

#define KTYPE(n) ((struct kobj_type *)kl_view((n), KL_KTYPE))

/* The node of a ktype whose methods are these trampolines (only Lua ktypes have them). */
static struct kl_node *tramp_node(struct kobj_type *kt)
{
	return container_of(kt, struct kl_node, u.ktype.kt);
}

/* "kobject 'foo' (00000000c0ffee00)" for diagnostics; @buf holds 160 bytes. */
static const char *describe(struct kl_ctx *ctx, struct kobject *kobj, unsigned *id,
			    char buf[160])
{
	const struct kobj_record *r = kobj_record_of(ctx->world, kobj);
	char p[17];
	*id = r ? r->id : 0;
	snprintf(buf, 160, "kobject '%.80s' (%s)", r ? r->name : kobject_name(kobj),
		 kobj_fake_pointer(*id, p));
	return buf;
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
	struct kl_node *kt = tramp_node(get_ktype(kobj));
	struct kl_ctx *ctx = kt->ctx;
	struct release_call c = { ctx, kt, kl_map_get(&ctx->map, kobj) };
	char what[200], who[160];
	unsigned id;

	if (c.obj && kl_view(c.obj, KL_KOBJECT) != kobj)
		c.obj = NULL;
	if (c.obj)
		c.obj->release_ran = true;
	snprintf(what, sizeof(what), "%s: release()", describe(ctx, kobj, &id, who));
	kl_callback(ctx, release_body, &c, id, what,
		    "The object counts as released all the same: its handles are stale and the "
		    "references it held on its parent and kset are dropped, so the model stays "
		    "consistent. Whatever the method meant to do after the error did not "
		    "happen.");
}

/* ====================================================================== show/store */

struct attr_call {
	struct kl_ctx *ctx;
	struct kl_node *kt;
	struct kobject *kobj;
	struct attribute *attr;
	char *page;             /* show: the page to fill */
	const char *buf;        /* store: what was written */
	size_t count;
	ssize_t result;
};

/* [] -> [fn kobj attr_name] for method @name; Return: false if there is no such method. */
static bool push_method(lua_State *L, struct attr_call *c, const char *name)
{
	kl_push_data(L, c->kt);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, name) != LUA_TFUNCTION)
		return false;
	kl_push_addr(L, c->ctx, c->kobj, KL_KOBJECT);
	lua_pushstring(L, c->attr && c->attr->name ? c->attr->name : "");
	return true;
}

static int show_body(lua_State *L)
{
	struct attr_call *c = lua_touserdata(L, 1);
	size_t len;

	if (!push_method(L, c, "show"))
		return luaL_error(L, "the ktype has no show method");
	lua_call(L, 2, 1);
	if (lua_isnil(L, -1)) {
		c->result = 0;
		return 0;
	}
	if (!lua_isstring(L, -1))
		return luaL_error(L, "show() must return a string, got %s", kl_typename(L, -1));
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
	struct kl_node *kt = tramp_node(get_ktype(kobj));
	struct attr_call c = { kt->ctx, kt, kobj, attr, page, NULL, 0, -EIO };
	char what[400], who[160];
	unsigned id;

	snprintf(what, sizeof(what), "%s: show() of attribute '%.100s'",
		 describe(kt->ctx, kobj, &id, who), attr && attr->name ? attr->name : "");
	if (!kl_callback(kt->ctx, show_body, &c, id, what, "The read failed with -EIO."))
		return -EIO;
	return c.result;
}

static int store_body(lua_State *L)
{
	struct attr_call *c = lua_touserdata(L, 1);

	if (!push_method(L, c, "store"))
		return luaL_error(L, "the ktype has no store method");
	lua_pushlstring(L, c->buf, c->count);
	lua_call(L, 3, 1);
	if (lua_isnil(L, -1)) {
		c->result = (ssize_t)c->count; /* all of it was taken */
		return 0;
	}
	int ok;
	lua_Integer n = lua_tointegerx(L, -1, &ok);
	if (!ok)
		return luaL_error(L, "store() must return a count (an integer), got %s",
				  kl_typename(L, -1));
	c->result = (ssize_t)n;
	return 0;
}

static ssize_t store_tramp(struct kobject *kobj, struct attribute *attr, const char *buf,
			   size_t count)
{
	struct kl_node *kt = tramp_node(get_ktype(kobj));
	struct attr_call c = { kt->ctx, kt, kobj, attr, NULL, buf, count, -EIO };
	char what[400], who[160];
	unsigned id;

	snprintf(what, sizeof(what), "%s: store() of attribute '%.100s'",
		 describe(kt->ctx, kobj, &id, who), attr && attr->name ? attr->name : "");
	if (!kl_callback(kt->ctx, store_body, &c, id, what, "The write failed with -EIO."))
		return -EIO;
	return c.result;
}

/* ==================================================================== constructor */

/* Checks entry @i of default_attrs (on top: the array) and adds its name's size. */
static void check_attr(lua_State *L, lua_Integer i, size_t *bytes)
{
	const char *name;
	size_t len;
	int t = lua_rawgeti(L, -1, i);                  /* [attrs e] */
	if (t == LUA_TTABLE) {
		lua_getfield(L, -1, "name");
		if (!lua_isstring(L, -1))
			luaL_error(L, "new_ktype: default_attrs[%d] needs a string name",
				   (int)i);
		name = lua_tolstring(L, -1, &len);
		lua_getfield(L, -2, "mode");
		if (!lua_isnil(L, -1)) {
			int ok;
			lua_Integer mode = lua_tointegerx(L, -1, &ok);
			if (!ok || mode < 0 || mode > 0777)
				luaL_error(L, "new_ktype: default_attrs[%d].mode must be an "
					   "integer from 0 to 0777 (511)", (int)i);
		}
		lua_pop(L, 2);
	} else if (t == LUA_TSTRING) {
		name = lua_tolstring(L, -1, &len);
	} else {
		luaL_error(L, "new_ktype: default_attrs[%d] must be a name or {name=, mode=}, "
			   "got %s", (int)i, kl_typename(L, -1));
		return;
	}
	if (len == 0 || strchr(name, '/') || strlen(name) != len)
		luaL_error(L, "new_ktype: default_attrs[%d]: '%s' is not a valid file name",
			   (int)i, name);
	*bytes += len + 1;
	lua_pop(L, 1);
}

/* Fills the attribute block from the array on top (already checked). */
static struct attribute **fill_attrs(lua_State *L, void *block, lua_Integer n)
{
	struct attribute **ptrs = block;
	struct attribute *attrs = (struct attribute *)(ptrs + n + 1);
	char *names = (char *)(attrs + n);

	for (lua_Integer i = 1; i <= n; i++) {
		struct attribute *a = &attrs[i - 1];
		size_t len;
		a->mode = 0644;
		if (lua_rawgeti(L, -1, i) == LUA_TTABLE) {
			lua_getfield(L, -1, "mode");
			if (!lua_isnil(L, -1))
				a->mode = (mode_t)lua_tointeger(L, -1);
			lua_pop(L, 1);
			lua_getfield(L, -1, "name");
			lua_replace(L, -2);
		}
		const char *name = lua_tolstring(L, -1, &len);
		memcpy(names, name, len + 1);
		a->name = names;
		names += len + 1;
		ptrs[i - 1] = a;
		lua_pop(L, 1);
	}
	ptrs[n] = NULL;
	return ptrs;
}

static const char *const ktype_fields[] = { "name", "release", "sysfs_ops", "default_attrs",
					     NULL };
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

/***
 * A new ktype.
 * @function new_ktype
 * @tparam[opt] table def name = "my_ktype" (for trees and pictures);
 *   release = function(kobj) end; sysfs_ops = { show =
 *   function(kobj, attr) return "text\n" end, store = function(kobj, attr, value)
 *   return #value end }; default_attrs = { "foo", { name = "bar", mode = 0644 } }
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
	int t = lua_getfield(L, 1, "sysfs_ops");            /* [def ops] */
	if (t == LUA_TTABLE) {
		kl_check_fields(L, 2, ops_fields, "new_ktype: sysfs_ops");
		check_function(L, 2, "show", "sysfs_ops.");
		check_function(L, 2, "store", "sysfs_ops.");
	} else if (t != LUA_TNIL) {
		return luaL_error(L, "new_ktype: sysfs_ops must be a table {show=, store=}, got %s",
				  kl_typename(L, 2));
	}
	t = lua_getfield(L, 1, "default_attrs");            /* [def ops attrs] */
	if (t == LUA_TTABLE) {
		nattrs = (lua_Integer)lua_rawlen(L, 3);
		for (lua_Integer i = 1; i <= nattrs; i++)
			check_attr(L, i, &bytes);
	} else if (t != LUA_TNIL) {
		return luaL_error(L, "new_ktype: default_attrs must be an array, got %s",
				  kl_typename(L, 3));
	}

	struct kl_node *n = kl_node_new(L, ctx, KL_KTYPE);
	struct kobj_type *kt = KTYPE(n);
	if (nattrs > 0) {
		n->extra = calloc(1, (size_t)(nattrs + 1) * sizeof(struct attribute *) +
					     (size_t)nattrs * sizeof(struct attribute) + bytes);
		if (!n->extra)
			return luaL_error(L, "not enough memory");
		kt->default_attrs = fill_attrs(L, n->extra, nattrs);
	}
	kl_map_add(L, ctx, n);

	kl_data_table(L, n);                                /* [def ops attrs data] */
	lua_getfield(L, 1, "release");
	lua_setfield(L, -2, "release");
	if (lua_istable(L, 2)) {
		lua_getfield(L, 2, "show");
		lua_setfield(L, -2, "show");
		lua_getfield(L, 2, "store");
		lua_setfield(L, -2, "store");
		lua_pushvalue(L, 2);
		lua_setfield(L, -2, "sysfs_ops");
		kt->sysfs_ops = &n->u.ktype.ops;
		n->u.ktype.ops.show = lua_getfield(L, -1, "show") ? show_tramp : NULL;
		n->u.ktype.ops.store = lua_getfield(L, -2, "store") ? store_tramp : NULL;
		lua_pop(L, 2);
	}
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
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
	if (lua_type(L, 2) != LUA_TSTRING)
		return luaL_error(L, "kobj_type has no field %s", luaL_tolstring(L, 2, NULL));
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
	} else {
		return luaL_error(L, "kobj_type has no field '%s' (fields: name, release, "
				  "sysfs_ops, default_attrs)", key);
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
	if (!lua_isnil(L, 3))
		luaL_checktype(L, 3, LUA_TFUNCTION);
	kl_data_table(L, n);
	lua_pushvalue(L, 3);
	lua_setfield(L, -2, "release");
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
	int nattrs = 0;
	while (kt->default_attrs && kt->default_attrs[nattrs])
		nattrs++;
	const struct sysfs_ops *ops = kt->sysfs_ops;
	const char *name = kobj_ktype_name(ctx->world, kt);
	lua_pushfstring(L, "kobj_type%s%s%s (release: %s, sysfs_ops: %s, %d default attribute%s)",
			name ? " '" : "", name ? name : "", name ? "'" : "",
			kt->release ? "yes" : "none",
			!ops ? "none" : ops->show && ops->store ? "show/store"
				: ops->show ? "show" : ops->store ? "store" : "empty",
			nattrs, nattrs == 1 ? "" : "s");
	return 1;
}

/* ========================================================================= opening */

static const luaL_Reg functions[] = {
	{ "new_ktype", l_new_ktype },
	{ NULL, NULL },
};

static const luaL_Reg methods[] = {
	{ NULL, NULL },
};

void kl_open_ktype(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	luaL_newmetatable(L, kl_type_names[KL_KTYPE]);
	kl_set_dispatch(L, KL_KTYPE, ktype_index, ktype_newindex, methods);
	lua_pushcfunction(L, ktype_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pop(L, 1);
}
