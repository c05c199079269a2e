/*
 * Today's sysfs calls from Lua (fs/sysfs/file.c, group.c, symlink.c): attribute files,
 * groups and links on a kobject's directory. Each returns what the C call returns (an
 * int, or nothing for the removals); the kernel's warnings are diagnostics.
 *
 * Wherever a kobject is expected, the kernel_kobj function itself also works, and for
 * links nil means /sys, as a NULL kobj does in C.
 */
#include <errno.h>
#include <string.h>

#include "lua_bindings/internal.h"

/* The kobj_attribute at @arg (nil: NULL), as the struct attribute sysfs takes. */
static const struct attribute *check_attr(lua_State *L, int arg, const char *op)
{
	struct kl_node *n = kl_check_opt(L, arg, KL_ATTR, op);
	return n ? &n->u.attr.ka.attr : NULL;
}

/* The attribute_group at @arg (nil: NULL). */
static const struct attribute_group *check_group(lua_State *L, int arg, const char *op)
{
	struct kl_node *n = kl_check_opt(L, arg, KL_GROUP, op);
	return n ? &n->u.group : NULL;
}

/* [] -> [array]: the NULL-terminated groups of the array at @arg (nil: NULL). */
static const struct attribute_group **check_groups(lua_State *L, int arg, const char *op)
{
	if (lua_isnoneornil(L, arg))
		return NULL;
	luaL_checktype(L, arg, LUA_TTABLE);
	lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
	luaL_argcheck(L, n < 100000, arg, "too many groups");
	const struct attribute_group **groups =
		lua_newuserdatauv(L, ((size_t)n + 1) * sizeof(*groups), 0);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, arg, i);
		struct kl_handle *h = kl_tohandle(L, -1);
		if (!h || h->type != KL_GROUP)
			luaL_error(L, "%s: groups[%d] must be an attribute_group, got %s", op, (int)i,
				   kl_typename(L, -1));
		groups[i - 1] = &kl_check(L, lua_gettop(L), KL_GROUP, op)->u.group;
		lua_pop(L, 1);
	}
	groups[n] = NULL;
	return groups;
}

/***
 * sysfs_create_file(kobj, attr): a file for the kobj_attribute in kobj's directory.
 * @treturn int 0, -EINVAL (not in sysfs, no sysfs_ops), -EEXIST, -ENOMEM
 */
static int l_sysfs_create_file(lua_State *L)
{
	const char *op = "sysfs_create_file";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const struct attribute *attr = check_attr(L, 2, op);
	kl_enter(L, ctx);
	int err = (sysfs_create_file)(kobj, attr);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* sysfs_remove_file(kobj, attr): removes the file of that name, if there is one. */
static int l_sysfs_remove_file(lua_State *L)
{
	const char *op = "sysfs_remove_file";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const struct attribute *attr = check_attr(L, 2, op);
	kl_enter(L, ctx);
	(sysfs_remove_file)(kobj, attr);
	kl_leave(ctx);
	return 0;
}

/***
 * sysfs_create_group(kobj, group): the group's files (in a subdirectory if it is named).
 * @treturn int 0, -EINVAL (not in sysfs, attrs not set), -EEXIST, -ENOMEM
 */
static int l_sysfs_create_group(lua_State *L)
{
	const char *op = "sysfs_create_group";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const struct attribute_group *grp = check_group(L, 2, op);
	kl_enter(L, ctx);
	int err = (sysfs_create_group)(kobj, grp);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* sysfs_remove_group(kobj, group) */
static int l_sysfs_remove_group(lua_State *L)
{
	const char *op = "sysfs_remove_group";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const struct attribute_group *grp = check_group(L, 2, op);
	kl_enter(L, ctx);
	(sysfs_remove_group)(kobj, grp);
	kl_leave(ctx);
	return 0;
}

/***
 * sysfs_create_groups(kobj, {group, ...}): each group; on failure the ones made go.
 * @treturn int as sysfs_create_group; 0 for nil
 */
static int l_sysfs_create_groups(lua_State *L)
{
	const char *op = "sysfs_create_groups";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const struct attribute_group **groups = check_groups(L, 2, op);
	kl_enter(L, ctx);
	int err = (sysfs_create_groups)(kobj, groups);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* sysfs_remove_groups(kobj, {group, ...}) */
static int l_sysfs_remove_groups(lua_State *L)
{
	const char *op = "sysfs_remove_groups";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const struct attribute_group **groups = check_groups(L, 2, op);
	kl_enter(L, ctx);
	(sysfs_remove_groups)(kobj, groups);
	kl_leave(ctx);
	return 0;
}

/***
 * sysfs_create_link(kobj, target, name): a link @name in kobj's directory (nil: /sys)
 * to target's; tree() shows it as "name -> /sys/target/path".
 * @treturn int 0, -EFAULT (kobj not in sysfs), -ENOENT (target not in sysfs), -EINVAL
 *   (bad name), -EEXIST, -ENOMEM
 */
static int l_sysfs_create_link(lua_State *L)
{
	const char *op = "sysfs_create_link";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	struct kobject *target = kl_check_parent(L, 2, op);
	const char *name = luaL_optstring(L, 3, NULL);
	kl_enter(L, ctx);
	int err = (sysfs_create_link)(kobj, target, name);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/* sysfs_remove_link(kobj, name): kobj nil means /sys. */
static int l_sysfs_remove_link(lua_State *L)
{
	const char *op = "sysfs_remove_link";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kobject *kobj = kl_check_parent(L, 1, op);
	const char *name = luaL_optstring(L, 2, NULL);
	kl_enter(L, ctx);
	(sysfs_remove_link)(kobj, name);
	kl_leave(ctx);
	return 0;
}

/***
 * readlink(path): where the link at @path points ("/sys/a/b"), as it was made. (Other
 * lookups go through a link to its target; this one reads the link itself.)
 * @treturn string|nil  @treturn string error  @treturn int -ENOENT or -EINVAL
 */
static int l_readlink(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *path = luaL_checkstring(L, 1);
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;

	if (slash && slash != path)
		lua_pushlstring(L, path, (size_t)(slash - path));
	else
		lua_pushliteral(L, "/sys");
	const char *dir = lua_tostring(L, -1);
	struct kl_box *b = kl_new_box(L);
	const struct sysfs_dirent **list = NULL;
	long n = sysfs_list(ctx->world, dir, &list);
	b->mem = list;
	for (long i = 0; i < n; i++) {
		if (strcmp(sysfs_dirent_name(list[i]), name) != 0)
			continue;
		if (sysfs_dirent_type(list[i]) != SYSFS_LINK)
			return kl_fail(L, "readlink", path, -EINVAL);
		char target[4096];
		sysfs_dirent_link_path(ctx->world, list[i], target, sizeof(target));
		lua_pushstring(L, target);
		return 1;
	}
	return kl_fail(L, "readlink", path, n < 0 ? n : -ENOENT);
}

static const luaL_Reg functions[] = {
	{ "sysfs_create_file", l_sysfs_create_file },
	{ "sysfs_remove_file", l_sysfs_remove_file },
	{ "sysfs_create_group", l_sysfs_create_group },
	{ "sysfs_remove_group", l_sysfs_remove_group },
	{ "sysfs_create_groups", l_sysfs_create_groups },
	{ "sysfs_remove_groups", l_sysfs_remove_groups },
	{ "sysfs_create_link", l_sysfs_create_link },
	{ "sysfs_remove_link", l_sysfs_remove_link },
	{ "readlink", l_readlink },
	{ NULL, NULL },
};

void kl_open_sysfs_attr(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
}
