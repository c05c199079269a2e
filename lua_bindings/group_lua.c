/*
 * struct attribute_group from Lua (include/linux/sysfs.h): a name (a subdirectory), the
 * kobj_attributes, and an optional is_visible written in Lua.
 *
 * A group holds its own copy of each kobj_attribute (a kl_attr_ref that knows the group,
 * with the same show/store), because is_visible() is given only the attribute. The
 * copies live in the group's node until the world is reset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/internal.h"

#define ATTR_NAME(n) ((n)->u.attr.ka.attr.name)

/* ======================================================================== is_visible */

struct visible_call {
	struct kl_ctx *ctx;
	struct kl_node *group;
	struct kl_node *attr;   /* the kobj_attribute node */
	struct kobject *kobj;
	int index;              /* the attribute's position in attrs, from 1 */
	mode_t mode;            /* the attribute's own mode in, the result out */
};

static int visible_body(lua_State *L)
{
	struct visible_call *c = lua_touserdata(L, 1);
	lua_Integer mode;

	kl_push_data(L, c->group);
	if (!lua_istable(L, -1) || lua_getfield(L, -1, "is_visible") != LUA_TFUNCTION)
		return 0; /* keeps the attribute's mode */
	kl_push_addr(L, c->ctx, c->kobj, KL_KOBJECT);
	kl_push_handle(L, c->ctx, c->attr, KL_ATTR);
	lua_pushinteger(L, c->index);
	lua_call(L, 3, 1);
	if (lua_type(L, -1) == LUA_TBOOLEAN || lua_isnil(L, -1))
		c->mode = lua_toboolean(L, -1) ? c->mode : 0;
	else if (kl_to_mode(L, -1, &mode) && mode >= 0 && mode <= 07777)
		c->mode = (mode_t)mode;
	else
		return luaL_error(L, "is_visible() must return a mode (0 hides the file), true "
				  "or false, got %s", kl_typename(L, -1));
	return 0;
}

/* The group's is_visible: the core gives the attribute, whose copy knows its group. */
static umode_t visible_tramp(struct kobject *kobj, struct attribute *a, int i)
{
	struct kl_attr_ref *ref = container_of(a, struct kl_attr_ref, ka.attr);
	struct kl_node *g = ref->group;
	struct visible_call c = { g->ctx, g, ref->attr, kobj, i + 1, a->mode };
	char what[400], who[160];
	unsigned id;

	snprintf(what, sizeof(what), "%s: is_visible() of attribute '%.100s'",
		 kl_describe(c.ctx, kobj, &id, who), a->name);
	if (!kl_callback(c.ctx, visible_body, &c, id, what, "The file is hidden."))
		return 0;
	return (umode_t)c.mode;
}

/* =================================================================== attribute_group */

static const char *const group_fields[] = { "name", "attrs", "is_visible", NULL };

/* Checks def.attrs at @idx: nil, or an array of live kobj_attributes; Return: its length. */
static lua_Integer check_attrs(lua_State *L, int idx, const char *op)
{
	if (lua_isnil(L, idx))
		return 0;
	if (!lua_istable(L, idx))
		luaL_error(L, "%s: attrs must be an array of kobj_attribute, got %s", op,
			   kl_typename(L, idx));
	lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
	luaL_argcheck(L, n < 100000, 1, "too many attributes");
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, idx, i);
		struct kl_handle *h = kl_tohandle(L, -1);
		if (!h || h->type != KL_ATTR)
			luaL_error(L, "%s: attrs[%d] must be a kobj_attribute (new_kobj_attribute), "
				   "got %s", op, (int)i, kl_typename(L, -1));
		kl_check(L, lua_gettop(L), KL_ATTR, op);
		lua_pop(L, 1);
	}
	return n;
}

/*
 * The group's block: @n attribute pointers and a NULL, then the group's @n copies of the
 * kobj_attributes (array at @idx), then the name. Owned by node @g.
 */
static void fill_group(lua_State *L, struct kl_node *g, int idx, lua_Integer n,
		       const char *name)
{
	size_t namelen = name ? strlen(name) + 1 : 0;
	size_t size = ((size_t)n + 1) * sizeof(struct attribute *) +
		      (size_t)n * sizeof(struct kl_attr_ref) + namelen;
	struct attribute **ptrs = g->extra = calloc(1, size);

	if (!ptrs)
		luaL_error(L, "not enough memory");
	struct kl_attr_ref *refs = (struct kl_attr_ref *)(ptrs + n + 1);
	char *copy = (char *)(refs + n);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, idx, i);
		struct kl_node *a = kl_tohandle(L, -1)->node;
		kl_attr_ref_init(&refs[i - 1], ATTR_NAME(a), a->u.attr.ka.attr.mode, a, g);
		ptrs[i - 1] = &refs[i - 1].ka.attr;
		lua_pop(L, 1);
	}
	g->u.group.attrs = lua_isnil(L, idx) ? NULL : ptrs;
	g->u.group.name = name ? memcpy(copy, name, namelen) : NULL;
}

/***
 * A struct attribute_group.
 * @function new_attribute_group
 * @tparam table def name = "subdir" (optional: its files then go in a subdirectory);
 *   attrs = { kobj_attribute, ... } (nil: "attrs not set", which sysfs_create_group
 *   refuses); is_visible = function(kobj, attr, i) return mode end (i counts from 1; 0,
 *   false or nil hide the file, true keeps attr.mode)
 * @treturn attribute_group
 */
static int l_new_attribute_group(lua_State *L)
{
	const char *op = "new_attribute_group";
	struct kl_ctx *ctx = kl_getctx(L);
	const char *name = NULL;

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	kl_check_fields(L, 1, group_fields, op);
	if (lua_getfield(L, 1, "name") != LUA_TNIL)         /* [def name] */
		name = kl_check_file_name(L, 2, "name", op);
	lua_getfield(L, 1, "attrs");                         /* [def name attrs] */
	lua_Integer n = check_attrs(L, 3, op);
	kl_push_function_field(L, 1, "is_visible", op);      /* [def name attrs vis] */

	struct kl_node *g = kl_node_new(L, ctx, KL_GROUP);
	fill_group(L, g, 3, n, name);
	g->u.group.is_visible = lua_isnil(L, 4) ? NULL : visible_tramp;
	kl_data_table(L, g);
	lua_pushvalue(L, 4);
	lua_setfield(L, -2, "is_visible");
	lua_pop(L, 1);
	kl_push_handle(L, ctx, g, KL_GROUP);
	return 1;
}

static int group_index(lua_State *L)
{
	const char *key = kl_field_key(L, KL_GROUP);
	struct kl_node *g = kl_check(L, 1, KL_GROUP, "attribute_group");
	struct attribute **attrs = g->u.group.attrs;

	if (strcmp(key, "name") == 0) {
		if (g->u.group.name)
			lua_pushstring(L, g->u.group.name);
		else
			lua_pushnil(L);
	} else if (strcmp(key, "attrs") == 0) {
		if (!attrs) {
			lua_pushnil(L);
			return 1;
		}
		lua_newtable(L);
		for (int i = 0; attrs[i]; i++) {
			struct kl_attr_ref *ref = container_of(attrs[i], struct kl_attr_ref, ka.attr);
			kl_push_handle(L, g->ctx, ref->attr, KL_ATTR);
			lua_rawseti(L, -2, i + 1);
		}
	} else if (strcmp(key, "is_visible") == 0) {
		kl_push_data(L, g);
		lua_getfield(L, -1, key);
	} else {
		return luaL_error(L, "attribute_group has no field '%s' (fields: name, attrs, "
				  "is_visible)", key);
	}
	return 1;
}

static int group_newindex(lua_State *L)
{
	struct kl_node *g = kl_check(L, 1, KL_GROUP, "setting an attribute_group field");
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";

	if (strcmp(key, "is_visible") != 0)
		return luaL_error(L, "attribute_group field %s cannot be assigned (assignable: "
				  "is_visible)", luaL_tolstring(L, 2, NULL));
	kl_set_function(L, g, key, 3);
	g->u.group.is_visible = lua_isnil(L, 3) ? NULL : visible_tramp;
	return 0;
}

static int group_tostring(lua_State *L)
{
	struct kl_ctx *ctx = kl_findctx(L);
	struct kl_handle *h = kl_tohandle(L, 1);
	if (!ctx || !h || h->gen != ctx->gen) {
		lua_pushliteral(L, "attribute_group (from a world that was reset)");
		return 1;
	}
	const struct attribute_group *g = &h->node->u.group;
	int n = 0;
	while (g->attrs && g->attrs[n])
		n++;
	lua_pushfstring(L, "attribute_group%s%s%s (%d attribute%s%s%s)", g->name ? " '" : "",
			g->name ? g->name : "", g->name ? "'" : "", n, n == 1 ? "" : "s",
			g->attrs ? "" : ", attrs not set", g->is_visible ? ", is_visible" : "");
	return 1;
}

/* =========================================================================== opening */

static const luaL_Reg functions[] = {
	{ "new_attribute_group", l_new_attribute_group },
	{ NULL, NULL },
};

void kl_open_group(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	kl_new_type(L, KL_GROUP, group_index, group_newindex, NULL, group_fields,
		    group_tostring);
}
