/*
 * Today's uevents from Lua (lib/kobject_uevent.c): kobject_uevent and kobject_uevent_env
 * with the KOBJ_* actions, a kset's uevent_ops written in Lua (filter, name, uevent), and
 * the env a uevent() callback fills within add_uevent_var's limits.
 *
 * The core asks the nearest kset's uevent_ops (the object's kset, else its parents'); the
 * trampolines ask the core which kset that is (kobj_uevent_kset) and find its node from
 * the ops pointer. Like the article's hotplug_ops, the Lua functions are looked up when
 * the event happens.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lua_bindings/internal.h"

#define ENV_META "kobj_uevent_env"

static const char *const action_constants[] = {
	"KOBJ_ADD", "KOBJ_REMOVE", "KOBJ_CHANGE", "KOBJ_MOVE",
	"KOBJ_ONLINE", "KOBJ_OFFLINE", "KOBJ_BIND", "KOBJ_UNBIND",
};
#define NACTIONS ((int)(sizeof(action_constants) / sizeof(action_constants[0])))

static const char *const uevent_fields[] = { "filter", "name", "uevent", NULL };

/* An env lent to a uevent() callback; valid while ctx->uevent_token is @token. */
struct kl_env {
	struct kl_ctx *ctx;
	struct kobj_uevent_env *env;
	unsigned long token;
};

/* ============================================================================ actions */

/* The action at @arg: KOBJ_ADD..KOBJ_UNBIND (0..7) or its name ("add", ...). */
static enum kobject_action check_action(lua_State *L, int arg)
{
	int isint;
	lua_Integer a = lua_tointegerx(L, arg, &isint);

	if (lua_type(L, arg) == LUA_TSTRING) {
		const char *s = lua_tostring(L, arg);
		for (int i = 0; i < NACTIONS; i++)
			if (strcmp(s, kobject_action_name((enum kobject_action)i)) == 0)
				return (enum kobject_action)i;
	} else if (isint && a >= 0 && a < NACTIONS) {
		return (enum kobject_action)a;
	}
	luaL_argerror(L, arg, "a KOBJ_* action (KOBJ_ADD ... KOBJ_UNBIND) or its name (\"add\", "
			 "\"remove\", \"change\", \"move\", \"online\", \"offline\", \"bind\", "
			 "\"unbind\")");
	return KOBJ_ADD;
}

/***
 * kobject_uevent(kobj, action): tell user space, as udev would see it (hotplug_events()).
 * @tparam kobject kobj
 * @tparam int|string action KOBJ_ADD ... KOBJ_UNBIND, or "add" ... "unbind"
 * @treturn int 0 (sent, or dropped by the kset's filter or name), -EINVAL (no kset on the
 *   way up), -ENOENT, -ENOMEM, or what uevent() returned
 */
static int l_kobject_uevent(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_uevent");
	enum kobject_action action = check_action(L, 2);
	kl_enter(L, ctx);
	int err = (kobject_uevent)(n ? kl_view(n, KL_KOBJECT) : NULL, action);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/***
 * kobject_uevent_env(kobj, action, envp): kobject_uevent with extra variables.
 * @tparam[opt] {string,...} envp "KEY=value" strings, added after SUBSYSTEM=
 * @treturn int as kobject_uevent
 */
static int l_kobject_uevent_env(lua_State *L)
{
	const char *op = "kobject_uevent_env";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, op);
	enum kobject_action action = check_action(L, 2);
	char **envp = NULL;

	if (!lua_isnoneornil(L, 3)) {
		luaL_checktype(L, 3, LUA_TTABLE);
		lua_Integer count = (lua_Integer)lua_rawlen(L, 3);
		luaL_argcheck(L, count < 100000, 3, "too many variables");
		envp = lua_newuserdatauv(L, ((size_t)count + 1) * sizeof(*envp), 0);
		for (lua_Integer i = 1; i <= count; i++) {
			/* The table keeps each string alive while the call runs. */
			if (lua_rawgeti(L, 3, i) != LUA_TSTRING)
				return luaL_error(L, "%s: envp[%d] must be a \"KEY=value\" string, "
						  "got %s", op, (int)i, kl_typename(L, -1));
			envp[i - 1] = (char *)lua_tostring(L, -1);
			lua_pop(L, 1);
		}
		envp[count] = NULL;
	}
	kl_enter(L, ctx);
	int err = (kobject_uevent_env)(n ? kl_view(n, KL_KOBJECT) : NULL, action, envp);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* ================================================================= the env value */

/* The live env at @idx; raises for one whose callback returned. */
static struct kobj_uevent_env *check_env(lua_State *L, int idx)
{
	struct kl_env *e = luaL_checkudata(L, idx, ENV_META);
	if (!e->ctx->uevent_env || e->token != e->ctx->uevent_token)
		luaL_error(L, "kobj_uevent_env: used after its uevent() callback returned (the "
			   "kernel frees the env when the event is sent)");
	return e->env;
}

/* add_uevent_var(env, "%s", @var) with the script's origin; Return: 0 or -ENOMEM. */
static int add_var(lua_State *L, struct kobj_uevent_env *env, const char *var)
{
	struct kl_ctx *ctx = kl_getctx(L);
	kl_enter(L, ctx);
	int err = (add_uevent_var)(env, "%s", var);
	kl_leave(ctx);
	return err;
}

/***
 * env:add(fmt, ...): add_uevent_var with string.format's formatting.
 * @treturn int 0, or -ENOMEM when the event already has 64 variables ("add_uevent_var:
 *   too many keys") or 2048 bytes ("buffer size too small"); uevent() should return it
 */
static int l_env_add(lua_State *L)
{
	struct kobj_uevent_env *env = check_env(L, 1);
	kl_format(L, 2, "add_uevent_var");
	lua_pushinteger(L, add_var(L, env, lua_tostring(L, -1)));
	return 1;
}

/* env.KEY: the value of the newest KEY=, or nil; env.add: the method. */
static int env_index(lua_State *L)
{
	struct kobj_uevent_env *env = check_env(L, 1);
	size_t len;

	if (lua_type(L, 2) != LUA_TSTRING)
		return luaL_error(L, "kobj_uevent_env: variables are named by strings");
	const char *key = lua_tolstring(L, 2, &len);
	if (strcmp(key, "add") == 0) {
		lua_pushcfunction(L, l_env_add);
		return 1;
	}
	for (int i = env->envp_idx - 1; i >= 0; i--)
		if (strncmp(env->envp[i], key, len) == 0 && env->envp[i][len] == '=') {
			lua_pushstring(L, env->envp[i] + len + 1);
			return 1;
		}
	lua_pushnil(L);
	return 1;
}

/*
 * env.KEY = value: add_uevent_var(env, "KEY=%s", value). An assignment cannot return the
 * -ENOMEM of a full env, so that raises: the callback fails and the event is cancelled.
 */
static int env_newindex(lua_State *L)
{
	struct kobj_uevent_env *env = check_env(L, 1);
	if (lua_type(L, 2) != LUA_TSTRING)
		return luaL_error(L, "kobj_uevent_env: variables are named by strings");
	const char *key = lua_tostring(L, 2);
	if (!key[0] || strchr(key, '='))
		return luaL_error(L, "kobj_uevent_env: '%s' is not a variable name", key);
	int t = lua_type(L, 3);
	if (t != LUA_TSTRING && t != LUA_TNUMBER)
		return luaL_error(L, "setting env.%s: the value must be a string or a number, got "
				  "%s", key, kl_typename(L, 3));
	const char *var = lua_pushfstring(L, "%s=%s", key, lua_tostring(L, 3));
	if (add_var(L, env, var) != 0)
		return luaL_error(L, "setting env.%s: add_uevent_var returned -ENOMEM (the "
				  "event's 64 variables or 2048 bytes are used up); env:add() "
				  "returns the error instead of raising", key);
	return 0;
}

static int env_len(lua_State *L)
{
	lua_pushinteger(L, check_env(L, 1)->envp_idx);
	return 1;
}

static int env_tostring(lua_State *L)
{
	struct kl_env *e = luaL_checkudata(L, 1, ENV_META);
	if (!e->ctx->uevent_env || e->token != e->ctx->uevent_token)
		lua_pushliteral(L, "kobj_uevent_env (its callback returned)");
	else
		lua_pushfstring(L, "kobj_uevent_env (%d variables, %d bytes)", e->env->envp_idx,
				e->env->buflen);
	return 1;
}

/* ======================================================================= uevent_ops */

static int filter_tramp(struct kobject *kobj);
static const char *name_tramp(struct kobject *kobj);
static int uevent_tramp(struct kobject *kobj, struct kobj_uevent_env *env);

static const struct kset_uevent_ops tramp_ops = {
	.filter = filter_tramp,
	.name = name_tramp,
	.uevent = uevent_tramp,
};

void kl_set_uevent_ops(lua_State *L, struct kl_node *n, int idx)
{
	struct kset *kset = kl_view(n, KL_KSET);

	idx = lua_absindex(L, idx);
	if (lua_isnoneornil(L, idx)) {
		kset->uevent_ops = NULL;
		kl_push_data(L, n);
		if (lua_istable(L, -1)) {
			lua_pushnil(L);
			lua_setfield(L, -2, "uevent_ops");
		}
		lua_pop(L, 1);
		return;
	}
	if (!lua_istable(L, idx))
		luaL_error(L, "uevent_ops must be a table {filter=, name=, uevent=}, got %s",
			   kl_typename(L, idx));
	kl_check_fields(L, idx, uevent_fields, "uevent_ops");
	for (const char *const *f = uevent_fields; *f; f++) {
		int t = lua_getfield(L, idx, *f);
		if (t != LUA_TNIL && t != LUA_TFUNCTION)
			luaL_error(L, "uevent_ops.%s must be a function, got %s", *f,
				   kl_typename(L, -1));
		lua_pop(L, 1);
	}
	kl_data_table(L, n);
	lua_pushvalue(L, idx);
	lua_setfield(L, -2, "uevent_ops");
	lua_pop(L, 1);
	/* The struct's members are const, as the kernel's: filled once, in place. */
	memcpy((void *)&n->uev.ops, &tramp_ops, sizeof(tramp_ops));
	kset->uevent_ops = &n->uev.ops;
}

struct uevent_call {
	struct kl_ctx *ctx;
	struct kl_node *node;   /* the kset whose uevent_ops these are */
	struct kset *kset;
	struct kobject *kobj;
	struct kobj_uevent_env *env;
	unsigned long token;
	int result;
	const char *name;       /* name(): the SUBSYSTEM= value, or NULL */
};

/* The call for @kobj, to the kset the core is asking. Return: false when that kset's
 * uevent_ops are not these trampolines (C code called one for another kset's object). */
static bool make_call(struct kobject *kobj, struct uevent_call *c)
{
	struct kset *kset = kobj_uevent_kset(kobj);
	if (!kset || !kset->uevent_ops || kset->uevent_ops->filter != filter_tramp)
		return false;
	struct kl_node *n = container_of(kset->uevent_ops, struct kl_node, uev.ops);
	*c = (struct uevent_call){ .ctx = n->ctx, .node = n, .kset = kset, .kobj = kobj };
	return true;
}

/* [] -> [fn kobj] for method @name; Return: false (nothing pushed) if absent. */
static bool push_method(lua_State *L, struct uevent_call *c, const char *name)
{
	int top = lua_gettop(L);
	kl_push_data(L, c->node);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, "uevent_ops") != LUA_TTABLE ||
	    lua_getfield(L, -1, name) != LUA_TFUNCTION) {
		lua_settop(L, top);
		return false;
	}
	kl_push_addr(L, c->ctx, c->kobj, KL_KOBJECT);
	return true;
}

/* "kset 'bus': uevent_ops.filter() for 'foo'" */
static const char *describe(struct uevent_call *c, const char *method, unsigned *id,
			    char buf[300])
{
	const struct kobj_record *r = kobj_record_of(c->ctx->world, c->kobj);
	*id = r ? r->id : 0;
	snprintf(buf, 300, "kset '%.80s': uevent_ops.%s() for '%.80s'",
		 kobject_name(&c->kset->kobj), method, r ? r->name : kobject_name(c->kobj));
	return buf;
}

static int filter_body(lua_State *L)
{
	struct uevent_call *c = lua_touserdata(L, 1);
	if (!push_method(L, c, "filter"))
		return 0;
	lua_call(L, 1, 1);
	c->result = lua_toboolean(L, -1);
	return 0;
}

static int filter_tramp(struct kobject *kobj)
{
	struct uevent_call c;
	char what[300];
	unsigned id;

	if (!make_call(kobj, &c))
		return 1; /* as if there were no filter() */
	c.result = 1;
	describe(&c, "filter", &id, what);
	if (!kl_callback(c.ctx, filter_body, &c, id, what,
			 "The event was dropped (a failing filter counts as 0)."))
		return 0;
	return c.result;
}

static int name_body(lua_State *L)
{
	struct uevent_call *c = lua_touserdata(L, 1);
	if (!push_method(L, c, "name")) {
		c->name = kobject_name(&c->kset->kobj); /* no name(): the kset's name */
		return 0;
	}
	lua_call(L, 1, 1);
	if (lua_isnil(L, -1))
		return 0; /* NULL: the kernel drops the event */
	if (!lua_isstring(L, -1))
		return luaL_error(L, "name() must return a string or nil, got %s",
				  kl_typename(L, -1));
	snprintf(c->node->uev.name, sizeof(c->node->uev.name), "%s", lua_tostring(L, -1));
	c->name = c->node->uev.name;
	return 0;
}

static const char *name_tramp(struct kobject *kobj)
{
	struct uevent_call c;
	char what[300];
	unsigned id;

	if (!make_call(kobj, &c))
		return NULL;
	describe(&c, "name", &id, what);
	if (!kl_callback(c.ctx, name_body, &c, id, what,
			 "The event was dropped, as when name() returns NULL."))
		return NULL;
	return c.name;
}

static int uevent_body(lua_State *L)
{
	struct uevent_call *c = lua_touserdata(L, 1);
	if (!push_method(L, c, "uevent"))
		return 0;
	struct kl_env *e = lua_newuserdatauv(L, sizeof(*e), 0);
	e->ctx = c->ctx;
	e->env = c->env;
	e->token = c->token;
	luaL_setmetatable(L, ENV_META);
	lua_call(L, 2, 1);
	if (lua_isnil(L, -1))
		return 0;
	int ok;
	lua_Integer r = lua_tointegerx(L, -1, &ok);
	if (!ok)
		return luaL_error(L, "uevent() must return 0 or a negative errno (an integer), "
				  "got %s", kl_typename(L, -1));
	c->result = (int)r;
	return 0;
}

static int uevent_tramp(struct kobject *kobj, struct kobj_uevent_env *env)
{
	struct uevent_call c;
	char what[300];
	unsigned id;

	if (!make_call(kobj, &c))
		return 0;
	struct kl_ctx *ctx = c.ctx;
	struct kobj_uevent_env *outer_env = ctx->uevent_env;
	unsigned long outer_token = ctx->uevent_token;
	c.env = env;
	c.token = ++ctx->uevent_tokens;
	ctx->uevent_env = env;
	ctx->uevent_token = c.token;
	describe(&c, "uevent", &id, what);
	bool ok = kl_callback(ctx, uevent_body, &c, id, what,
			      "The event was cancelled with -EIO, as when uevent() returns an "
			      "error.");
	ctx->uevent_env = outer_env; /* the env goes with the event */
	ctx->uevent_token = outer_token;
	return ok ? c.result : -EIO;
}

/* =========================================================================== opening */

static const luaL_Reg functions[] = {
	{ "kobject_uevent", l_kobject_uevent },
	{ "kobject_uevent_env", l_kobject_uevent_env },
	{ NULL, NULL },
};

static const luaL_Reg env_meta[] = {
	{ "__index", env_index },
	{ "__newindex", env_newindex },
	{ "__len", env_len },
	{ "__tostring", env_tostring },
	{ NULL, NULL },
};

static const char *const env_fields[] = { "add", NULL };

void kl_open_uevent(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	for (int i = 0; i < NACTIONS; i++) {
		lua_pushinteger(L, i);
		lua_setfield(L, -2, action_constants[i]);
	}
	luaL_newmetatable(L, ENV_META);
	luaL_setfuncs(L, env_meta, 0);
	kl_set_fields(L, env_fields);
	lua_pop(L, 1);
}
