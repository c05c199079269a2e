/*
 * Today's attributes from Lua (include/linux/sysfs.h, kobject.h): struct kobj_attribute
 * with show/store written in Lua, kobj_sysfs_ops, and the modes the kernel's
 * VERIFY_OCTAL_PERMISSIONS accepts. Groups are in group_lua.c.
 *
 * The C structs live in nodes until the world is reset, since sysfs files keep pointers
 * to them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/internal.h"

#define SYSFS_OPS_META "sysfs_ops"

/* ============================================================================= modes */

bool kl_to_mode(lua_State *L, int idx, lua_Integer *mode)
{
	int isint;

	if (lua_type(L, idx) == LUA_TNUMBER) {
		*mode = lua_tointegerx(L, idx, &isint);
		return isint;
	}
	if (lua_type(L, idx) != LUA_TSTRING)
		return false;
	const char *s = lua_tostring(L, idx);
	if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
		s += 2;
	if (!*s || strlen(s) > 7)
		return false;
	lua_Integer v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '7')
			return false;
		v = v * 8 + (*s - '0');
	}
	*mode = v;
	return true;
}

/* The rule of VERIFY_OCTAL_PERMISSIONS that @m breaks, or NULL. */
static const char *verify_octal(lua_Integer m)
{
	if (m < 0 || m > 0777)
		return "sysfs modes are at most 0777";
	if (((m >> 6) & 4) < ((m >> 3) & 4) || ((m >> 3) & 4) < (m & 4))
		return "USER_READABLE >= GROUP_READABLE >= OTHER_READABLE";
	if (((m >> 6) & 2) < ((m >> 3) & 2))
		return "USER_WRITABLE >= GROUP_WRITABLE";
	if (m & 2)
		return "sysfs attributes cannot be world-writable";
	return NULL;
}

/* Whether the decimal digits of @m could be an octal mode written without quotes. */
static bool looks_octal(lua_Integer m)
{
	if (m < 8)
		return false;
	for (; m; m /= 10)
		if (m % 10 > 7)
			return false;
	return true;
}

mode_t kl_check_mode(lua_State *L, int idx, const char *what, const char *op)
{
	lua_Integer m;
	char shown[32], hint[128] = "";

	if (!kl_to_mode(L, idx, &m))
		luaL_error(L, "%s: the mode of %s must be an integer or an octal string such as "
			   "\"0644\", got %s", op, what,
			   lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx)
							   : kl_typename(L, idx));
	const char *why = verify_octal(m);
	if (!why)
		return (mode_t)m;
	if (m >= 0 && m <= 07777777)
		snprintf(shown, sizeof(shown), "0%03llo", (unsigned long long)m);
	else
		snprintf(shown, sizeof(shown), "%lld", (long long)m);
	if (lua_type(L, idx) == LUA_TNUMBER && looks_octal(m))
		snprintf(hint, sizeof(hint), "; Lua has no octal literals: %lld is decimal, write "
			 "\"0%lld\"", (long long)m, (long long)m);
	luaL_error(L, "%s: mode %s of %s: %s (VERIFY_OCTAL_PERMISSIONS: the kernel refuses it "
		   "at build time)%s", op, shown, what, why, hint);
	return 0;
}

/* ======================================================================= trampolines */

/* [] -> [fn kobj attr] for the attribute's function @name; Return: false (nothing pushed)
 * if it has none. */
static bool push_method(lua_State *L, struct kl_file_call *c, const char *name)
{
	int top = lua_gettop(L);
	kl_push_data(L, c->node);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, name) != LUA_TFUNCTION) {
		lua_settop(L, top);
		return false;
	}
	kl_push_addr(L, c->ctx, c->kobj, KL_KOBJECT);
	kl_push_handle(L, c->ctx, c->node, KL_ATTR);
	return true;
}

static int show_body(lua_State *L)
{
	struct kl_file_call *c = lua_touserdata(L, 1);
	size_t len;

	if (!push_method(L, c, "show"))
		return 0; /* no show(): -EIO, as kobj_sysfs_ops gives */
	lua_call(L, 2, 1);
	if (lua_isnil(L, -1)) {
		c->result = 0;
	} else if (kl_show_errno(L, &c->result)) {
		return 0;
	} else if (lua_isstring(L, -1)) {
		const char *s = lua_tolstring(L, -1, &len);
		memcpy(c->page, s, len < PAGE_SIZE ? len : PAGE_SIZE);
		/* A longer text is the bad count the core reports, as sysfs would. */
		c->result = (ssize_t)len;
	} else {
		return luaL_error(L, "show() must return a string or a negative errno, got %s",
				  kl_typename(L, -1));
	}
	return 0;
}

static ssize_t show_tramp(struct kobject *kobj, struct kobj_attribute *ka, char *buf)
{
	struct kl_node *an = container_of(ka, struct kl_attr_ref, ka)->attr;
	struct kl_file_call c = { .ctx = an->ctx, .node = an, .kobj = kobj, .page = buf,
				  .result = -EIO };

	return kl_file_method(&c, "show", "kobj_attribute", an->u.attr.ka.attr.name, show_body);
}

static int store_body(lua_State *L)
{
	struct kl_file_call *c = lua_touserdata(L, 1);

	if (!push_method(L, c, "store"))
		return 0; /* no store(): -EIO */
	kl_call_store(L, c, "a count or a negative errno (an integer)");
	return 0;
}

static ssize_t store_tramp(struct kobject *kobj, struct kobj_attribute *ka, const char *buf,
			   size_t count)
{
	struct kl_node *an = container_of(ka, struct kl_attr_ref, ka)->attr;
	struct kl_file_call c = { .ctx = an->ctx, .node = an, .kobj = kobj, .buf = buf,
				  .count = count, .result = -EIO };

	return kl_file_method(&c, "store", "kobj_attribute", an->u.attr.ka.attr.name,
			      store_body);
}

void kl_attr_ref_init(struct kl_attr_ref *ref, const char *name, mode_t mode,
		      struct kl_node *attr, struct kl_node *group)
{
	ref->ka.attr.name = name;
	ref->ka.attr.mode = mode;
	ref->ka.show = attr ? show_tramp : NULL;   /* NULL: kobj_sysfs_ops says -EIO */
	ref->ka.store = attr ? store_tramp : NULL;
	ref->attr = attr;
	ref->group = group;
}

/* ==================================================================== kobj_attribute */

#define ATTR_NAME(n) ((n)->u.attr.ka.attr.name)

static const char *const attr_fields[] = { "name", "mode", "show", "store", NULL };

const char *kl_check_file_name(lua_State *L, int idx, const char *what, const char *op)
{
	size_t len;
	if (lua_type(L, idx) != LUA_TSTRING)
		luaL_error(L, "%s: %s must be a string, got %s", op, what, kl_typename(L, idx));
	const char *s = lua_tolstring(L, idx, &len);
	if (len == 0 || len > 255 || strlen(s) != len || strchr(s, '/') || !strcmp(s, ".") ||
	    !strcmp(s, ".."))
		luaL_error(L, "%s: '%s' is not a valid file name", op, s);
	return s;
}

void kl_push_function_field(lua_State *L, int idx, const char *name, const char *op)
{
	int t = lua_getfield(L, idx, name);
	if (t != LUA_TNIL && t != LUA_TFUNCTION)
		luaL_error(L, "%s: %s must be a function, got %s", op, name, kl_typename(L, -1));
}

/* A copy of @s owned by node @n (its extra); raises on memory errors. */
static char *node_string(lua_State *L, struct kl_node *n, const char *s)
{
	n->extra = malloc(strlen(s) + 1);
	if (!n->extra)
		luaL_error(L, "not enough memory");
	return strcpy(n->extra, s);
}

/***
 * A struct kobj_attribute: a file whose show and store are its own, through
 * kobj_sysfs_ops (the ktype of kobject_create_and_add's objects, or any ktype given
 * sysfs_ops = kobj_sysfs_ops).
 * @function new_kobj_attribute
 * @tparam table def name = "foo"; show = function(kobj, attr) return "text\n" end;
 *   store = function(kobj, attr, value) return #value end (or a negative errno such as
 *   -EINVAL, which the writer gets); mode = "0644" or an integer (Lua has no octal
 *   literals: 420 is 0644). Without a mode: 0644 with show and store, 0444 with show
 *   only, 0200 with store only, as __ATTR_RW/_RO/_WO. Modes the kernel's
 *   VERIFY_OCTAL_PERMISSIONS refuses (world-writable, group above user...) raise.
 * @treturn kobj_attribute
 */
static int l_new_kobj_attribute(lua_State *L)
{
	const char *op = "new_kobj_attribute";
	struct kl_ctx *ctx = kl_getctx(L);

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	kl_check_fields(L, 1, attr_fields, op);
	lua_getfield(L, 1, "name");                        /* [def name] */
	const char *name = kl_check_file_name(L, 2, "name", op);
	kl_push_function_field(L, 1, "show", op);          /* [def name show] */
	kl_push_function_field(L, 1, "store", op);         /* [def name show store] */
	mode_t mode = !lua_isnil(L, 4) ? 0644 : 0444;
	if (lua_isnil(L, 3) && !lua_isnil(L, 4))
		mode = 0200;
	if (lua_getfield(L, 1, "mode") != LUA_TNIL)        /* [def name show store mode] */
		mode = kl_check_mode(L, 5, lua_pushfstring(L, "'%s'", name), op);

	struct kl_node *n = kl_node_new(L, ctx, KL_ATTR);
	kl_attr_ref_init(&n->u.attr, node_string(L, n, name), mode, n, NULL);
	kl_data_table(L, n);
	lua_pushvalue(L, 3);
	lua_setfield(L, -2, "show");
	lua_pushvalue(L, 4);
	lua_setfield(L, -2, "store");
	lua_pop(L, 1);
	kl_push_handle(L, ctx, n, KL_ATTR);
	return 1;
}

static int attr_index(lua_State *L)
{
	const char *key = kl_field_key(L, KL_ATTR);
	struct kl_node *n = kl_check(L, 1, KL_ATTR, "kobj_attribute");

	if (strcmp(key, "name") == 0) {
		lua_pushstring(L, ATTR_NAME(n));
	} else if (strcmp(key, "mode") == 0) {
		lua_pushinteger(L, n->u.attr.ka.attr.mode);
	} else if (strcmp(key, "show") == 0 || strcmp(key, "store") == 0) {
		kl_push_data(L, n);
		lua_getfield(L, -1, key);
	} else {
		return luaL_error(L, "kobj_attribute has no field '%s' (fields: name, mode, show, "
				  "store)", key);
	}
	return 1;
}

static int attr_newindex(lua_State *L)
{
	struct kl_node *n = kl_check(L, 1, KL_ATTR, "setting a kobj_attribute field");
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";

	if (strcmp(key, "show") != 0 && strcmp(key, "store") != 0)
		return luaL_error(L, "kobj_attribute field %s cannot be assigned (assignable: "
				  "show, store)", luaL_tolstring(L, 2, NULL));
	kl_set_function(L, n, key, 3);
	return 0;
}

/* "0644" */
static const char *octal(mode_t mode, char buf[16])
{
	snprintf(buf, 16, "0%03o", (unsigned)mode);
	return buf;
}

static int attr_tostring(lua_State *L)
{
	struct kl_ctx *ctx = kl_findctx(L);
	struct kl_handle *h = kl_tohandle(L, 1);
	char m[16];

	if (!ctx || !h || h->gen != ctx->gen) {
		lua_pushliteral(L, "kobj_attribute (from a world that was reset)");
		return 1;
	}
	kl_push_data(L, h->node);
	bool show = lua_istable(L, -1) && lua_getfield(L, -1, "show") == LUA_TFUNCTION;
	bool store = lua_istable(L, -2) && lua_getfield(L, -2, "store") == LUA_TFUNCTION;
	lua_pushfstring(L, "kobj_attribute '%s' %s (%s)", ATTR_NAME(h->node),
			octal(h->node->u.attr.ka.attr.mode, m),
			show && store ? "show/store" : show ? "show" : store ? "store" : "no methods");
	return 1;
}

/* ==================================================================== kobj_sysfs_ops */

bool kl_is_kobj_sysfs_ops(lua_State *L, int idx)
{
	return luaL_testudata(L, idx, SYSFS_OPS_META) != NULL;
}

static int sysfs_ops_tostring(lua_State *L)
{
	lua_pushliteral(L, "kobj_sysfs_ops (show and store of each file's kobj_attribute)");
	return 1;
}

/* =========================================================================== opening */

static const luaL_Reg functions[] = {
	{ "new_kobj_attribute", l_new_kobj_attribute },
	{ NULL, NULL },
};

void kl_open_attr(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_new_type(L, KL_ATTR, attr_index, attr_newindex, NULL, attr_fields, attr_tostring);

	/* kobj_sysfs_ops: a value that stands for the C struct of that name. */
	lua_newuserdatauv(L, 1, 0);
	luaL_newmetatable(L, SYSFS_OPS_META);
	lua_pushcfunction(L, sysfs_ops_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushliteral(L, "sysfs_ops");
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
	lua_setfield(L, -2, "kobj_sysfs_ops");
}
