/*
 * The lifecycle calls of kobjects, ksets and subsystems (init, add, del, register,
 * unregister, get, put) from Lua. They differ only in the core function and the kind of
 * handle, so the Lua functions of kobject_lua.c, kset_lua.c and modern_lua.c are one line
 * each and the work is done here, from the table of calls below.
 */
#include "lua_bindings/internal.h"

/* What Lua gets back from a call. */
enum kl_ret {
	KL_RET_NONE,    /* nothing */
	KL_RET_INT,     /* the core's int: 0 or a negative errno */
	KL_RET_REF,     /* a get: a reference handle for the reference it took, or nil */
};

/* What kl_call and kl_getput know of each call; the core function is in run(). */
struct kl_call_def {
	const char *name;       /* the kernel's name: messages and diagnostics */
	enum kl_type type;      /* the handle argument 1 must be, and the view passed */
	enum kl_ret ret;
	bool quiet;             /* get_unless_zero: nil and stale handles reach no core call */
	bool drops;             /* it puts: a reference handle names the reference it drops */
};

static const struct kl_call_def calls[] = {
	[KL_KOBJECT_INIT] = { "kobject_init", KL_KOBJECT, KL_RET_NONE, false, false },
	[KL_KOBJECT_ADD] = { "kobject_add", KL_KOBJECT, KL_RET_INT, false, false },
	[KL_KOBJECT_DEL] = { "kobject_del", KL_KOBJECT, KL_RET_NONE, false, false },
	[KL_KOBJECT_REGISTER] = { "kobject_register", KL_KOBJECT, KL_RET_INT, false, false },
	[KL_KOBJECT_UNREGISTER] = { "kobject_unregister", KL_KOBJECT, KL_RET_NONE, false, true },
	[KL_KOBJECT_GET] = { "kobject_get", KL_KOBJECT, KL_RET_REF, false, false },
	[KL_KOBJECT_PUT] = { "kobject_put", KL_KOBJECT, KL_RET_NONE, false, true },
	[KL_KOBJECT_GET_UNLESS_ZERO] = { "kobject_get_unless_zero", KL_KOBJECT, KL_RET_REF,
					 true, false },
	[KL_KSET_INIT] = { "kset_init", KL_KSET, KL_RET_NONE, false, false },
	[KL_KSET_ADD] = { "kset_add", KL_KSET, KL_RET_INT, false, false },
	[KL_KSET_REGISTER] = { "kset_register", KL_KSET, KL_RET_INT, false, false },
	[KL_KSET_UNREGISTER] = { "kset_unregister", KL_KSET, KL_RET_NONE, false, true },
	[KL_KSET_GET] = { "kset_get", KL_KSET, KL_RET_REF, false, false },
	[KL_KSET_PUT] = { "kset_put", KL_KSET, KL_RET_NONE, false, true },
	[KL_SUBSYSTEM_INIT] = { "subsystem_init", KL_SUBSYS, KL_RET_NONE, false, false },
	[KL_SUBSYSTEM_REGISTER] = { "subsystem_register", KL_SUBSYS, KL_RET_INT, false, false },
	[KL_SUBSYSTEM_UNREGISTER] = { "subsystem_unregister", KL_SUBSYS, KL_RET_NONE, false, true },
	[KL_SUBSYS_GET] = { "subsys_get", KL_SUBSYS, KL_RET_REF, false, false },
	[KL_SUBSYS_PUT] = { "subsys_put", KL_SUBSYS, KL_RET_NONE, false, true },
};
_Static_assert(sizeof(calls) / sizeof(calls[0]) == KL_SUBSYS_PUT + 1,
	       "every enum kl_call has an entry (KL_SUBSYS_PUT is the last)");

/*
 * run() - the core function of @call on @obj, each called through its own prototype.
 * @obj is NULL for a nil handle: the core reports that itself, as the kernel would.
 * Only between kl_enter and kl_leave; raises nothing.
 * Return: the int of add and register; for a get, whether it returned the object; else 0.
 */
static int run(enum kl_call call, void *obj)
{
	switch (call) {
	case KL_KOBJECT_INIT:
		(kobject_init)(obj);
		break;
	case KL_KOBJECT_ADD:
		return (kobject_add)(obj);
	case KL_KOBJECT_DEL:
		(kobject_del)(obj);
		break;
	case KL_KOBJECT_REGISTER:
		return (kobject_register)(obj);
	case KL_KOBJECT_UNREGISTER:
		(kobject_unregister)(obj);
		break;
	case KL_KOBJECT_GET:
		return (kobject_get)(obj) != NULL;
	case KL_KOBJECT_PUT:
		(kobject_put)(obj);
		break;
	case KL_KOBJECT_GET_UNLESS_ZERO:
		return (kobject_get_unless_zero)(obj) != NULL;
	case KL_KSET_INIT:
		(kset_init)(obj);
		break;
	case KL_KSET_ADD:
		return (kset_add)(obj);
	case KL_KSET_REGISTER:
		return (kset_register)(obj);
	case KL_KSET_UNREGISTER:
		(kset_unregister)(obj);
		break;
	case KL_KSET_GET:
		return (kset_get)(obj) != NULL;
	case KL_KSET_PUT:
		(kset_put)(obj);
		break;
	case KL_SUBSYSTEM_INIT:
		(subsystem_init)(obj);
		break;
	case KL_SUBSYSTEM_REGISTER:
		return (subsystem_register)(obj);
	case KL_SUBSYSTEM_UNREGISTER:
		(subsystem_unregister)(obj);
		break;
	case KL_SUBSYS_GET:
		return (subsys_get)(obj) != NULL;
	case KL_SUBSYS_PUT:
		(subsys_put)(obj);
		break;
	}
	return 0;
}

/* [] -> [] or [result]: what Lua gets back; @token is the reference a get took.
 * Return: the number of results. */
static int push_result(lua_State *L, struct kl_ctx *ctx, const struct kl_call_def *c,
		       struct kl_node *n, int result, unsigned long long token)
{
	if (c->ret == KL_RET_NONE)
		return 0;
	if (c->ret == KL_RET_INT)
		lua_pushinteger(L, result);
	else if (result)
		kl_push_ref(L, ctx, n, c->type, token);
	else
		lua_pushnil(L);
	return 1;
}

int kl_call(lua_State *L, enum kl_call call)
{
	const struct kl_call_def *c = &calls[call];
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_node *n = kl_check_opt(L, 1, c->type, c->name);

	kl_enter(L, ctx);
	if (c->drops)
		kobj_next_put(ctx->world, kl_handle_ref(L, 1));
	int result = run(call, n ? kl_view(n, c->type) : NULL);
	kobj_next_put(ctx->world, 0); /* a call that put nothing leaves nothing named */
	kl_leave(ctx);
	if (c->ret == KL_RET_INT) /* the adds and registers: one may set the parent */
		kl_note_pointers(L, ctx, n);
	return push_result(L, ctx, c, n, result, 0);
}

int kl_getput(lua_State *L, enum kl_call call)
{
	const struct kl_call_def *c = &calls[call];
	struct kl_ctx *ctx = kl_getctx(L);
	unsigned stale;
	struct kl_node *n = kl_check_getput(L, 1, c->type, c->name, &stale);
	unsigned long long token = 0;
	int result = 0;

	if (n || !c->quiet) {
		kl_enter(L, ctx);
		/* a put through a reference handle drops exactly the reference it carries */
		if (c->drops)
			kobj_next_put(ctx->world, kl_handle_ref(L, 1));
		if (stale)
			kobj_use_after_release(ctx->world, stale, c->name);
		else
			result = run(call, n ? kl_view(n, c->type) : NULL);
		kobj_next_put(ctx->world, 0);
		token = kobj_last_ref(ctx->world);
		kl_leave(ctx);
	}
	return push_result(L, ctx, c, n, result, token);
}
