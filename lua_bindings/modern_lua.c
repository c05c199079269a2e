/*
 * Today's kobject calls from Lua (lib/kobject.c of 6.x): kobject_init(kobj, ktype) and
 * kobject_add(kobj, parent, fmt, ...) (kobject_lua.c chooses them by the number of
 * arguments), kobject_init_and_add, kobject_create_and_add, kset_create_and_add,
 * kobject_get_unless_zero, kobject_get_path, kobject_rename, kobject_move, kernel_kobj.
 *
 * Objects that kobject_create_and_add and kset_create_and_add return live in the core's
 * memory (nodes with ext): their release frees it and makes every handle stale. One that
 * is never released is freed with the world, as a leak the world has reported.
 */
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/internal.h"

#define KOBJ(n) ((struct kobject *)((n) ? kl_view((n), KL_KOBJECT) : NULL))

/* =========================================================================== helpers */

/* [] -> [nil msg]: the failure of @op, with the newest diagnostic since @ndiags. */
static int push_failure(lua_State *L, struct kl_ctx *ctx, const char *op, size_t ndiags)
{
	size_t now = kobj_diag_count(ctx->world);
	const struct kobj_diag *d = now > ndiags ? kobj_diag_at(ctx->world, now - 1) : NULL;

	lua_pushnil(L);
	if (d)
		lua_pushfstring(L, "%s: %s", op, d->message);
	else
		lua_pushfstring(L, "%s: failed (-ENOMEM)", op);
	return 2;
}

/* Formats arguments @first.. into the name; Return: it, or NULL for nil (keep the name). */
static const char *format_name(lua_State *L, int first, const char *op)
{
	if (lua_isnoneornil(L, first))
		return NULL;
	kl_format(L, first, op);
	return lua_tostring(L, -1);
}

/*
 * Refuses a parent below @kobj (or @kobj itself): the add would set the parent before
 * it fails, and a loop of parents makes every path walk endless. The kernel hangs too.
 */
static void check_cycle(lua_State *L, struct kobject *kobj, struct kobject *parent,
			const char *op)
{
	if (kobj && parent && kl_makes_cycle(kobj, parent))
		luaL_error(L, "%s: '%s' would become its own ancestor: '%s' is below it", op,
			   kobject_name(kobj), kobject_name(parent));
}

/***
 * kernel_kobj(): /sys/kernel of the current world, made the first time it is named.
 * It belongs to the world: reset() makes a new one and older handles go stale, so call
 * kernel_kobj() each time rather than keeping its value. Today's calls that take a
 * parent also accept the function itself, so kobject_create_and_add("x", kernel_kobj)
 * reads as the C does.
 * @function kernel_kobj
 * @treturn kobject
 */
static int l_kernel_kobj(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	kl_enter(L, ctx);
	struct kobject *k = kobj_kernel_kobj();
	kl_leave(ctx);
	kl_push_addr(L, ctx, k, KL_KOBJECT);
	return 1;
}

struct kobject *kl_check_parent(lua_State *L, int arg, const char *op)
{
	if (lua_tocfunction(L, arg) == l_kernel_kobj) {
		struct kl_ctx *ctx = kl_getctx(L);
		kl_enter(L, ctx);
		struct kobject *k = kobj_kernel_kobj();
		kl_leave(ctx);
		return k;
	}
	return KOBJ(kl_check_opt(L, arg, KL_KOBJECT, op));
}

/* ========================================================================= lifecycle */

int kl_kobject_init_ktype(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_init");
	struct kl_node *t = kl_check_opt(L, 2, KL_KTYPE, "kobject_init");
	kl_enter(L, ctx);
	(kobject_init_ktype)(KOBJ(n), t ? kl_view(t, KL_KTYPE) : NULL);
	kl_leave(ctx);
	return 0;
}

int kl_kobject_add_named(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_add");
	struct kobject *parent = kl_check_parent(L, 2, "kobject_add");
	const char *name = format_name(L, 3, "kobject_add");
	check_cycle(L, KOBJ(n), parent, "kobject_add");
	int err;

	kl_enter(L, ctx);
	if (name)
		err = (kobject_add_named)(KOBJ(n), parent, "%s", name);
	else
		err = (kobject_add_named)(KOBJ(n), parent, NULL);
	kl_leave(ctx);
	kl_note_pointers(L, ctx, n);
	lua_pushinteger(L, err);
	return 1;
}

/***
 * kobject_init_and_add(kobj, ktype, parent, fmt, ...): today's init, then today's add.
 * On failure, as on success, the caller still kobject_put()s the object.
 * @treturn int 0 or a negative errno
 */
static int l_kobject_init_and_add(lua_State *L)
{
	const char *op = "kobject_init_and_add";
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, op);
	struct kl_node *t = kl_check_opt(L, 2, KL_KTYPE, op);
	struct kobject *parent = kl_check_parent(L, 3, op);
	const char *name = format_name(L, 4, op);
	struct kobj_type *kt = t ? kl_view(t, KL_KTYPE) : NULL;
	check_cycle(L, KOBJ(n), parent, op);
	int err;

	kl_enter(L, ctx);
	if (name)
		err = (kobject_init_and_add)(KOBJ(n), kt, parent, "%s", name);
	else
		err = (kobject_init_and_add)(KOBJ(n), kt, parent, NULL);
	kl_leave(ctx);
	kl_note_pointers(L, ctx, n);
	lua_pushinteger(L, err);
	return 1;
}

/***
 * kobject_create_and_add(name, parent): a kobject in the kernel's memory whose ktype is
 * dynamic_kobj_ktype (kobj_sysfs_ops, a release that frees it). Its one reference is the
 * caller's: kobject_put() frees it, and every handle to it goes stale then.
 * @treturn kobject|nil
 * @treturn string why, on failure (the newest diagnostic)
 */
static int l_kobject_create_and_add(lua_State *L)
{
	const char *op = "kobject_create_and_add";
	struct kl_ctx *ctx = kl_getctx(L);
	const char *name = luaL_checkstring(L, 1);
	struct kobject *parent = kl_check_parent(L, 2, op);
	size_t ndiags = kobj_diag_count(ctx->world);

	kl_enter(L, ctx);
	struct kobject *k = (kobject_create_and_add)(name, parent);
	unsigned long long token = kobj_last_ref(ctx->world);
	kl_leave(ctx);
	if (!k)
		return push_failure(L, ctx, op, ndiags);
	struct kl_node *n = kl_node_of(L, ctx, k, KL_KOBJECT);
	if (!n)
		return luaL_error(L, "%s: the new object has no record", op); /* cannot happen */
	n->reclaim = true;
	kl_note_pointers(L, ctx, n);
	kl_push_ref(L, ctx, n, KL_KOBJECT, token); /* the creator's reference */
	return 1;
}

/***
 * kset_create_and_add(name, uevent_ops, parent): a registered kset in the kernel's
 * memory, freed by kset_unregister() (or its last kset_put).
 * @tparam string name
 * @tparam[opt] table uevent_ops { filter = function(kobj) return true end,
 *   name = function(kobj) return "subsystem" end,
 *   uevent = function(kobj, env) env:add("KEY=%s", v); return 0 end }
 * @tparam[opt] kobject parent (nil: /sys; kernel_kobj works)
 * @treturn kset|nil
 * @treturn string why, on failure
 */
static int l_kset_create_and_add(lua_State *L)
{
	const char *op = "kset_create_and_add";
	struct kl_ctx *ctx = kl_getctx(L);
	const char *name = luaL_checkstring(L, 1);
	struct kobject *parent = kl_check_parent(L, 3, op);
	size_t ndiags = kobj_diag_count(ctx->world);

	/* The uevent_ops live in a node made first: the core keeps the pointer. */
	struct kl_node *n = kl_node_new(L, ctx, KL_KSET);
	kl_set_uevent_ops(L, n, 2);
	const struct kset_uevent_ops *ops = lua_isnoneornil(L, 2) ? NULL : &n->uev.ops;
	struct kl_creating creating = { n, (unsigned)kobj_record_count(ctx->world),
					ctx->creating };
	kl_enter(L, ctx);
	ctx->creating = &creating; /* a callback during the call adopts the kset into n */
	struct kset *kset = (kset_create_and_add)(name, ops, parent);
	unsigned long long token = kobj_last_ref(ctx->world);
	ctx->creating = creating.outer;
	kl_leave(ctx);
	if (!kset) {
		n->released = true; /* never was: nothing may use it */
		return push_failure(L, ctx, op, ndiags);
	}
	n->reclaim = true;
	if (!n->ext) {
		n->ext = kset;
		kl_map_add(L, ctx, n);
	}
	kl_note_pointers(L, ctx, n);
	kl_push_ref(L, ctx, n, KL_KSET, token); /* the creator's reference */
	return 1;
}

/* ============================================================================ lookups */

/***
 * kobject_get_unless_zero(kobj): kobj with its count raised, or nil (no warning) when
 * the count already reached 0: released, or its release pending.
 * @treturn kobject|nil
 */
static int l_kobject_get_unless_zero(lua_State *L)
{
	return kl_getput(L, KL_KOBJECT_GET_UNLESS_ZERO);
}

/***
 * kobject_get_path(kobj): "/a/b/c" from the names of the object and its parents (no
 * "/sys"), as the kernel builds DEVPATH.
 * @treturn string|nil nil if a name on the way is empty
 */
static int l_kobject_get_path(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_get_path");
	struct kl_box *b = kl_new_box(L);

	kl_enter(L, ctx);
	b->mem = (kobject_get_path)(KOBJ(n), GFP_KERNEL);
	kl_leave(ctx);
	if (!b->mem) {
		lua_pushnil(L);
		return 1;
	}
	lua_pushstring(L, b->mem);
	free(b->mem);
	b->mem = NULL;
	return 1;
}

/* ===================================================================== rename, move */

/***
 * kobject_rename(kobj, new_name): rename in sysfs and send KOBJ_MOVE (DEVPATH_OLD=).
 * @treturn int 0, -EINVAL (no parent, released), -EEXIST, -ENOMEM
 */
static int l_kobject_rename(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_rename");
	const char *name = luaL_checkstring(L, 2);
	kl_enter(L, ctx);
	int err = (kobject_rename)(KOBJ(n), name);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return 1;
}

/***
 * kobject_move(kobj, new_parent): move under @new_parent (nil: the kset's directory, or
 * /sys) and send KOBJ_MOVE (DEVPATH_OLD=).
 * @treturn int 0, -EINVAL, -ENOENT, -EEXIST, -ENOMEM
 */
static int l_kobject_move(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, KL_KOBJECT, "kobject_move");
	struct kobject *parent = kl_check_parent(L, 2, "kobject_move");
	kl_enter(L, ctx);
	int err = (kobject_move)(KOBJ(n), parent);
	kl_leave(ctx);
	kl_note_pointers(L, ctx, n);
	lua_pushinteger(L, err);
	return 1;
}

/* =========================================================================== opening */

static const luaL_Reg functions[] = {
	{ "kernel_kobj", l_kernel_kobj },
	{ "kobject_init_and_add", l_kobject_init_and_add },
	{ "kobject_create_and_add", l_kobject_create_and_add },
	{ "kset_create_and_add", l_kset_create_and_add },
	{ "kobject_get_unless_zero", l_kobject_get_unless_zero },
	{ "kobject_get_path", l_kobject_get_path },
	{ "kobject_rename", l_kobject_rename },
	{ "kobject_move", l_kobject_move },
	{ NULL, NULL },
};

void kl_open_modern(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
}
