/*
 * A kset's hotplug_ops written in Lua: filter, name and hotplug, called through C
 * trampolines. The functions are looked up when the event happens, as the C struct's
 * pointers would be read then; a missing one behaves as a NULL pointer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lua_bindings/internal.h"

static const char *const hotplug_fields[] = { "filter", "name", "hotplug", NULL };

static int filter_tramp(struct kset *kset, struct kobject *kobj);
static const char *name_tramp(struct kset *kset, struct kobject *kobj);
static int hotplug_tramp(struct kset *kset, struct kobject *kobj, char **envp, int num_envp,
			 char *buffer, int buffer_size);

void kl_set_hotplug(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, int idx)
{
	struct kset *kset = kl_view(n, KL_KSET);

	idx = lua_absindex(L, idx);
	(void)ctx;
	if (lua_isnoneornil(L, idx)) {
		kset->hotplug_ops = NULL;
		kl_push_data(L, n);
		if (lua_istable(L, -1)) {
			lua_pushnil(L);
			lua_setfield(L, -2, "hotplug_ops");
		}
		lua_pop(L, 1);
		return;
	}
	if (!lua_istable(L, idx))
		luaL_error(L, "hotplug_ops must be a table {filter=, name=, hotplug=}, got %s",
			   kl_typename(L, idx));
	kl_check_fields(L, idx, hotplug_fields, "hotplug_ops");
	for (const char *const *f = hotplug_fields; *f; f++) {
		int t = lua_getfield(L, idx, *f);
		if (t != LUA_TNIL && t != LUA_TFUNCTION)
			luaL_error(L, "hotplug_ops.%s must be a function, got %s", *f,
				   kl_typename(L, -1));
		lua_pop(L, 1);
	}
	kl_data_table(L, n);
	lua_pushvalue(L, idx);
	lua_setfield(L, -2, "hotplug_ops");
	lua_pop(L, 1);
	n->hp.ops.filter = filter_tramp;
	n->hp.ops.name = name_tramp;
	n->hp.ops.hotplug = hotplug_tramp;
	kset->hotplug_ops = &n->hp.ops;
}

/* ===================================================================== trampolines */

struct hotplug_call {
	struct kl_ctx *ctx;
	struct kl_node *node;   /* the kset whose hotplug_ops these are */
	struct kset *kset;
	struct kobject *kobj;
	char **envp;
	int num_envp;
	char *buffer;
	int buffer_size;
	int result;
};

static struct kl_node *ops_node(struct kset *kset)
{
	return container_of(kset->hotplug_ops, struct kl_node, hp.ops);
}

/* [] -> [fn kset kobj] for method @name; Return: false (nothing pushed) if absent. */
static bool push_method(lua_State *L, struct hotplug_call *c, const char *name)
{
	int top = lua_gettop(L);
	kl_push_data(L, c->node);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, "hotplug_ops") != LUA_TTABLE ||
	    lua_getfield(L, -1, name) != LUA_TFUNCTION) {
		lua_settop(L, top);
		return false;
	}
	kl_push_addr(L, c->ctx, c->kset, KL_KSET);
	kl_push_addr(L, c->ctx, c->kobj, KL_KOBJECT);
	return true;
}

/* "hotplug_ops.filter() of kset 'bus' for 'foo'" */
static const char *describe(struct hotplug_call *c, const char *method, unsigned *id,
			    char buf[300])
{
	const struct kobj_record *r = kobj_record_of(c->ctx->world, c->kobj);
	*id = r ? r->id : 0;
	snprintf(buf, 300, "kset '%.80s': hotplug_ops.%s() for '%.80s'",
		 kobject_name(&c->kset->kobj), method, r ? r->name : kobject_name(c->kobj));
	return buf;
}

static int filter_body(lua_State *L)
{
	struct hotplug_call *c = lua_touserdata(L, 1);
	if (!push_method(L, c, "filter"))
		return 0;
	lua_call(L, 2, 1);
	c->result = lua_toboolean(L, -1);
	return 0;
}

static int filter_tramp(struct kset *kset, struct kobject *kobj)
{
	struct kl_node *n = ops_node(kset);
	struct hotplug_call c = { n->ctx, n, kset, kobj, NULL, 0, NULL, 0, 1 };
	char what[300];
	unsigned id;

	describe(&c, "filter", &id, what);
	if (!kl_callback(n->ctx, filter_body, &c, id, what,
			 "The event was not sent (a failing filter counts as 0)."))
		return 0;
	return c.result;
}

static int name_body(lua_State *L)
{
	struct hotplug_call *c = lua_touserdata(L, 1);
	if (!push_method(L, c, "name"))
		return 0;
	lua_call(L, 2, 1);
	if (lua_isnil(L, -1))
		return 0;
	if (!lua_isstring(L, -1))
		return luaL_error(L, "name() must return a string or nil, got %s",
				  kl_typename(L, -1));
	snprintf(c->node->hp.name, sizeof(c->node->hp.name), "%s", lua_tostring(L, -1));
	c->result = 1;
	return 0;
}

static const char *name_tramp(struct kset *kset, struct kobject *kobj)
{
	struct kl_node *n = ops_node(kset);
	struct hotplug_call c = { n->ctx, n, kset, kobj, NULL, 0, NULL, 0, 0 };
	char what[300];
	unsigned id;

	describe(&c, "name", &id, what);
	if (!kl_callback(n->ctx, name_body, &c, id, what,
			 "The event uses the kset's own name as its subsystem.") || !c.result)
		return NULL;
	return n->hp.name;
}

/* Appends "KEY=value" to the lent envp/buffer; raises when it does not fit. */
static void add_var(lua_State *L, struct hotplug_call *c, int *i, size_t *used, const char *var)
{
	size_t len = strlen(var);
	if (*i >= c->num_envp || *used + len + 1 > (size_t)c->buffer_size)
		luaL_error(L, "hotplug(): the variables do not fit in the %d slots and %d bytes "
			   "the kernel lends (-ENOMEM)", c->num_envp, c->buffer_size);
	memcpy(c->buffer + *used, var, len + 1);
	c->envp[(*i)++] = c->buffer + *used;
	*used += len + 1;
}

/* Copies the env table at @env into envp: array entries first, then keys sorted. */
static void fill_env(lua_State *L, struct hotplug_call *c, int env)
{
	const char *keys[64];
	int nkeys = 0, i = 0;
	size_t used = 0;
	lua_Integer len = (lua_Integer)lua_rawlen(L, env);

	for (lua_Integer k = 1; k <= len; k++) {
		lua_rawgeti(L, env, k);
		const char *var = lua_tostring(L, -1);
		if (lua_type(L, -1) != LUA_TSTRING || !strchr(var, '='))
			luaL_error(L, "hotplug(): env[%d] must be a \"KEY=value\" string", (int)k);
		add_var(L, c, &i, &used, var);
		lua_pop(L, 1);
	}
	lua_pushnil(L);
	while (lua_next(L, env)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TSTRING)
			continue; /* the array part, read above */
		if (nkeys == (int)(sizeof(keys) / sizeof(keys[0])))
			luaL_error(L, "hotplug(): too many variables");
		keys[nkeys++] = lua_tostring(L, -1); /* kept alive by the table */
	}
	for (int a = 1; a < nkeys; a++) /* insertion sort: a stable, readable order */
		for (int b = a; b > 0 && strcmp(keys[b - 1], keys[b]) > 0; b--) {
			const char *t = keys[b];
			keys[b] = keys[b - 1];
			keys[b - 1] = t;
		}
	for (int k = 0; k < nkeys; k++) {
		lua_getfield(L, env, keys[k]);
		if (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER)
			luaL_error(L, "hotplug(): env.%s must be a string or a number, got %s",
				   keys[k], kl_typename(L, -1));
		const char *var = lua_pushfstring(L, "%s=%s", keys[k], lua_tostring(L, -1));
		add_var(L, c, &i, &used, var);
		lua_pop(L, 2);
	}
	if (i < c->num_envp)
		c->envp[i] = NULL;
}

static int hotplug_body(lua_State *L)
{
	struct hotplug_call *c = lua_touserdata(L, 1);
	if (!push_method(L, c, "hotplug"))
		return 0;
	lua_newtable(L);
	int env = lua_gettop(L);
	lua_pushvalue(L, env);
	lua_insert(L, env - 3);                 /* [.. env fn kset kobj env] */
	lua_call(L, 3, 1);
	if (!lua_isnil(L, -1)) {
		int ok;
		lua_Integer r = lua_tointegerx(L, -1, &ok);
		if (!ok)
			return luaL_error(L, "hotplug() must return an integer (0 to send the "
					  "event), got %s", kl_typename(L, -1));
		if (r != 0) {
			c->result = (int)r;
			return 0;
		}
	}
	fill_env(L, c, env - 3);
	return 0;
}

static int hotplug_tramp(struct kset *kset, struct kobject *kobj, char **envp, int num_envp,
			 char *buffer, int buffer_size)
{
	struct kl_node *n = ops_node(kset);
	struct hotplug_call c = { n->ctx, n, kset, kobj, envp, num_envp, buffer, buffer_size, 0 };
	char what[300];
	unsigned id;

	describe(&c, "hotplug", &id, what);
	if (!kl_callback(n->ctx, hotplug_body, &c, id, what,
			 "The event was cancelled, as when hotplug() returns an error."))
		return -EIO;
	return c.result;
}
