/*
 * Handles and the memory behind them: nodes, the address map, the handle caches, and the
 * checks that turn a stale handle into a clear Lua error instead of a dangling pointer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/sched.h"
#include "core/world/hash.h"
#include "lua_bindings/internal.h"

const char *const kl_type_names[KL_NTYPES] = {
	[KL_KOBJECT] = "kobject",
	[KL_KSET] = "kset",
	[KL_SUBSYS] = "subsystem",
	[KL_KTYPE] = "kobj_type",
	[KL_MODULE] = "module",
	[KL_ATTR] = "kobj_attribute",
	[KL_GROUP] = "attribute_group",
};

/* ====================================================================== address map */

void kl_map_free(struct kl_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

struct kl_node *kl_map_get(const struct kl_map *m, const void *addr)
{
	uintptr_t key = (uintptr_t)addr;
	if (!m->cap || !key)
		return NULL;
	size_t j = kobj_hash_slot(m->keys, m->cap, key);
	return m->keys[j] ? m->vals[j] : NULL;
}

/* Makes room for one more key; Return: false if memory ran out (the map is unchanged). */
static bool map_reserve(struct kl_map *m)
{
	if (2 * (m->used + 1) <= m->cap)
		return true;
	size_t cap = m->cap ? m->cap * 2 : 256;
	uintptr_t *keys = calloc(cap, sizeof(*keys));
	struct kl_node **vals = calloc(cap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return false;
	}
	kobj_hash_move(keys, vals, cap, m->keys, m->vals, m->cap, sizeof(*vals));
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return true;
}

static void map_put(lua_State *L, struct kl_map *m, const void *addr, struct kl_node *n)
{
	uintptr_t key = (uintptr_t)addr;
	if (!map_reserve(m))
		luaL_error(L, "not enough memory");      /* before the map changes */
	size_t j = kobj_hash_slot(m->keys, m->cap, key);
	if (!m->keys[j])
		m->used++;
	m->keys[j] = key;
	m->vals[j] = n;
}

void kl_map_add(lua_State *L, struct kl_ctx *ctx, struct kl_node *n)
{
	for (enum kl_type v = KL_KOBJECT; v < KL_MODULE; v++) {
		void *addr = kl_view(n, v);
		if (addr)
			map_put(L, &ctx->map, addr, n);
	}
}

/* ============================================================================ nodes */

struct kl_node *kl_node_new(lua_State *L, struct kl_ctx *ctx, enum kl_type type)
{
	struct kl_node *n = calloc(1, sizeof(*n));
	if (!n)
		luaL_error(L, "not enough memory");
	n->ctx = ctx;
	n->type = type;
	n->next = ctx->nodes;
	ctx->nodes = n;
	return n;
}

void *kl_view(struct kl_node *n, enum kl_type view)
{
	/* The object itself: in the node, or in the core's memory. Address arithmetic only. */
	void *base = n->ext ? n->ext : (void *)&n->u;

	switch (view) {
	case KL_KOBJECT:
		if (n->type == KL_KOBJECT)
			return base;
		if (n->type == KL_KSET)
			return &((struct kset *)base)->kobj;
		if (n->type == KL_SUBSYS)
			return &((struct subsystem *)base)->kset.kobj;
		return NULL;
	case KL_KSET:
		if (n->type == KL_KSET)
			return base;
		if (n->type == KL_SUBSYS)
			return &((struct subsystem *)base)->kset;
		return NULL;
	case KL_SUBSYS:
		return n->type == KL_SUBSYS ? base : NULL;
	case KL_KTYPE:
		return n->type == KL_KTYPE ? &n->u.ktype.kt : NULL;
	case KL_ATTR:
		return n->type == KL_ATTR ? &n->u.attr : NULL;
	case KL_GROUP:
		return n->type == KL_GROUP ? &n->u.group : NULL;
	default:
		return NULL;
	}
}

const struct kobj_record *kl_node_record(struct kl_ctx *ctx, struct kl_node *n)
{
	void *kobj = kl_view(n, KL_KOBJECT);
	return kobj ? kobj_record_of(ctx->world, kobj) : NULL;
}

unsigned kl_node_id(struct kl_ctx *ctx, struct kl_node *n, enum kl_type view)
{
	(void)view;
	if (n->released)
		return n->id;
	const struct kobj_record *r = kl_node_record(ctx, n);
	return r ? r->id : 0;
}

/*
 * The core freed @gone's memory (it was an ext node): Lua's objects that point to it
 * without holding a reference (a parent or kset assigned as a field, before an add) are
 * told to forget it, so that no later call follows the pointer into freed memory. A
 * pointer held with a reference stays: the core knows it by its record.
 */
static void forget_pointers(struct kl_ctx *ctx, struct kl_node *gone)
{
	struct kobject *kobj = kl_view(gone, KL_KOBJECT);
	struct kset *kset = kl_view(gone, KL_KSET);

	for (size_t i = 0; i < gone->npointed_by; i++) {
		struct kl_node *m = gone->pointed_by[i];
		struct kobject *k = m->released ? NULL : kl_view(m, KL_KOBJECT);
		if (!k)
			continue;
		const struct kobj_record *r = kobj_record_of(ctx->world, k);
		bool live = r && !r->released;
		if (k->parent == kobj && !(live && r->parent == gone->id))
			k->parent = NULL;
		if (kset && k->kset == kset && !(live && r->kset == gone->id))
			k->kset = NULL;
	}
	free(gone->pointed_by);
	gone->pointed_by = NULL;
	gone->npointed_by = gone->pointed_cap = 0;
}

/* Lists @from with @to, if @to is core-owned and @from was not last listed there. */
static void note_pointer(lua_State *L, struct kl_node *from, struct kl_node *to, int which)
{
	if (!to || !to->ext || from->noted[which] == to)
		return;
	if (to->npointed_by == to->pointed_cap) {
		size_t cap = to->pointed_cap ? 2 * to->pointed_cap : 4;
		struct kl_node **p = realloc(to->pointed_by, cap * sizeof(*p));
		if (!p)
			luaL_error(L, "not enough memory");
		to->pointed_by = p;
		to->pointed_cap = cap;
	}
	to->pointed_by[to->npointed_by++] = from;
	from->noted[which] = to;
}

/* The node of the object at @addr, or NULL once a core-owned one is freed (a callback
 * during the call that set the pointer may have released it before it was listed). */
static struct kl_node *pointee(lua_State *L, struct kl_ctx *ctx, void *addr,
			       enum kl_type view, bool *gone)
{
	struct kl_node *n = kl_map_get(&ctx->map, addr);
	*gone = n && n->ext && n->released && kl_view(n, view) == addr;
	return *gone ? NULL : kl_node_of(L, ctx, addr, view);
}

void kl_note_pointers(lua_State *L, struct kl_ctx *ctx, struct kl_node *n)
{
	struct kobject *k = n && !n->released ? kl_view(n, KL_KOBJECT) : NULL;
	bool gone;
	if (!k)
		return;
	if (k->parent) {
		note_pointer(L, n, pointee(L, ctx, k->parent, KL_KOBJECT, &gone), 0);
		if (gone)
			k->parent = NULL;
	}
	if (k->kset) {
		note_pointer(L, n, pointee(L, ctx, k->kset, KL_KSET, &gone), 1);
		if (gone)
			k->kset = NULL;
	}
}

/* The on_release hook's work: the object is gone for Lua; a node's memory stays until
 * reset, a core-owned object's is already freed. */
void kl_node_released(struct kl_ctx *ctx, const struct kobj_record *r)
{
	struct kl_node *n = kl_map_get(&ctx->map, r->ptr);
	lua_State *L = ctx->L;

	if (!n || n->released || kl_view(n, KL_KOBJECT) != r->ptr)
		return; /* not known to this module, or an older object at that address */
	n->released = true;
	n->id = r->id;
	if (n->ext)
		forget_pointers(ctx, n);
	if (ctx->tearing_down)
		return; /* the Lua tables go with the world's: no Lua work in a __gc */
	/* Drop the embedding table and callbacks so that the GC may take them. Setting an
	 * existing key to nil allocates nothing, so this cannot raise. */
	if (!lua_checkstack(L, 3))
		return;
	kl_push_slot(L, KL_SLOT_DATA);
	if (lua_rawgetp(L, -1, n) != LUA_TNIL) {
		lua_pushnil(L);
		lua_rawsetp(L, -3, n);
	}
	lua_pop(L, 2);
}

/* ========================================================================== handles */

/*
 * [] -> [handle] for @addr of @view in the cache slot, making it if needed. A cached
 * handle of another node (a core-owned object freed, its address reused) is replaced:
 * the old handle stays stale.
 */
static struct kl_handle *push_cached(lua_State *L, struct kl_ctx *ctx, const void *addr,
				     enum kl_type view, struct kl_node *node, struct module *mod)
{
	kl_push_slot(L, KL_SLOT_CACHE + (int)view);              /* [cache] */
	if (lua_rawgetp(L, -1, addr) == LUA_TUSERDATA) {          /* [cache h] */
		struct kl_handle *h = lua_touserdata(L, -1);
		if (h->node == node && h->mod == mod) {
			lua_remove(L, -2);
			return h;
		}
	}
	lua_pop(L, 1);
	struct kl_handle *h = lua_newuserdatauv(L, sizeof(*h), 1); /* [cache h] */
	memset(h, 0, sizeof(*h));
	h->gen = ctx->gen;
	h->type = view;
	h->node = node;
	h->mod = mod;
	luaL_setmetatable(L, kl_type_names[view]);
	lua_pushvalue(L, -1);
	lua_rawsetp(L, -3, addr);                                 /* cache[addr] = h */
	lua_remove(L, -2);                                        /* [h] */
	return h;
}

void kl_push_handle(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, enum kl_type view)
{
	push_cached(L, ctx, kl_view(n, view), view, n, NULL);
}

void kl_push_ref(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, enum kl_type view,
		 unsigned long long token)
{
	if (!token) {
		kl_push_handle(L, ctx, n, view);
		return;
	}
	/* Never cached: each reference is one of its own. */
	struct kl_handle *h = lua_newuserdatauv(L, sizeof(*h), 1);
	memset(h, 0, sizeof(*h));
	h->gen = ctx->gen;
	h->type = view;
	h->node = n;
	h->ref = token;
	luaL_setmetatable(L, kl_type_names[view]);
	kobj_ref_track(ctx->world, token, kl_node_id(ctx, n, view), true);
}

unsigned long long kl_handle_ref(lua_State *L, int idx)
{
	struct kl_handle *h = kl_tohandle(L, idx);
	return h ? h->ref : 0;
}

void kl_push_module(lua_State *L, struct kl_ctx *ctx, struct module *mod)
{
	if (!mod) {
		lua_pushnil(L);
		return;
	}
	push_cached(L, ctx, mod, KL_MODULE, NULL, mod);
}

/*
 * A node for the live object at @addr (seen as @view) that the module did not make: one
 * the core allocated (kobject_create_and_add's, /sys/kernel) or C code made. While
 * kset_create_and_add runs, the kset it makes takes the node that call prepared.
 * Return: the node, or NULL if the world has no live record of a fitting kind there.
 */
static struct kl_node *adopt(lua_State *L, struct kl_ctx *ctx, const void *addr,
			     enum kl_type view)
{
	/* Address arithmetic only: @addr may be a dangling pointer. */
	struct kobject *kobj = view == KL_KOBJECT ? (struct kobject *)addr
						  : &((struct kset *)addr)->kobj;
	const struct kobj_record *r = kobj_record_of(ctx->world, kobj);
	enum kl_type type = KL_KOBJECT;
	void *ext = kobj;

	if (!r || r->released || r->ptr != kobj || r->kind == KOBJ_KIND_MODULE)
		return NULL;
	if (r->kind == KOBJ_KIND_KSET || r->kind == KOBJ_KIND_SUBSYSTEM) {
		struct kset *kset = container_of(kobj, struct kset, kobj);
		type = r->kind == KOBJ_KIND_KSET ? KL_KSET : KL_SUBSYS;
		ext = type == KL_KSET ? (void *)kset : container_of(kset, struct subsystem, kset);
	} else if (view == KL_KSET) {
		return NULL; /* a plain kobject is no kset */
	}
	struct kl_node *n = NULL;
	for (struct kl_creating *c = ctx->creating; c && type == KL_KSET && !n; c = c->outer)
		if (!c->node->ext && r->id > c->after)
			n = c->node;
	if (!n)
		n = kl_node_new(L, ctx, type);
	n->ext = ext;
	kl_map_add(L, ctx, n);
	return n;
}

struct kl_node *kl_node_of(lua_State *L, struct kl_ctx *ctx, const void *addr,
			   enum kl_type view)
{
	struct kl_node *n = addr ? kl_map_get(&ctx->map, addr) : NULL;

	if (n && kl_view(n, view) != addr)
		n = NULL;
	if (!addr || (n && !n->released) || (view != KL_KOBJECT && view != KL_KSET))
		return n;
	/* Unknown, or a released core-owned object whose address a new one took. */
	struct kl_node *a = adopt(L, ctx, addr, view);
	return a && kl_view(a, view) == addr ? a : n;
}

void kl_push_addr(lua_State *L, struct kl_ctx *ctx, const void *addr, enum kl_type view)
{
	struct kl_node *n = kl_node_of(L, ctx, addr, view);
	if (n)
		kl_push_handle(L, ctx, n, view);
	else
		lua_pushnil(L);
}

/* kl_tohandle() in the context @ctx (NULL: none open, so no handle). */
static struct kl_handle *tohandle_in(lua_State *L, struct kl_ctx *ctx, int idx)
{
	struct kl_handle *h = lua_touserdata(L, idx);
	/* a userdata of a handle's size may hold anything: the type is bounded first */
	if (!ctx || !h || lua_rawlen(L, idx) != sizeof(*h) || (unsigned)h->type >= KL_NTYPES ||
	    !lua_getmetatable(L, idx))
		return NULL;
	const void *meta = lua_topointer(L, -1);
	lua_pop(L, 1);
	return meta == ctx->meta[h->type] ? h : NULL;
}

struct kl_handle *kl_tohandle(lua_State *L, int idx)
{
	return tohandle_in(L, kl_ctx_quick(L), idx);
}

/* What to write instead, when a handle of one type is passed where another is needed. */
static const char *hint(enum kl_type got, enum kl_type want)
{
	if (want == KL_KOBJECT && got == KL_KSET)
		return "; pass its embedded kobject, kset.kobj";
	if (want == KL_KOBJECT && got == KL_SUBSYS)
		return "; pass its embedded kobject, subsys.kset.kobj";
	if (want == KL_KSET && got == KL_SUBSYS)
		return "; pass its embedded kset, subsys.kset";
	if (want == KL_KSET && got == KL_KOBJECT)
		return "; to_kset(kobj) gives the kset that embeds a kobject";
	return "";
}

static int type_error(lua_State *L, int arg, enum kl_type want)
{
	struct kl_handle *h = kl_tohandle(L, arg);
	if (!h)
		return luaL_typeerror(L, arg, kl_type_names[want]);
	const char *msg = lua_pushfstring(L, "%s expected, got %s%s", kl_type_names[want],
					  kl_type_names[h->type], hint(h->type, want));
	return luaL_argerror(L, arg, msg);
}

const char *kl_push_label(lua_State *L, struct kl_ctx *ctx, struct kl_handle *h)
{
	if (h->gen != ctx->gen)
		return lua_pushfstring(L, "this %s", kl_type_names[h->type]);
	if (h->type == KL_MODULE)
		return lua_pushfstring(L, "module '%s'", h->mod->name);
	if (h->type == KL_KTYPE || h->type == KL_ATTR || h->type == KL_GROUP || !h->node)
		return lua_pushfstring(L, "this %s", kl_type_names[h->type]);
	unsigned id = kl_node_id(ctx, h->node, h->type);
	const struct kobj_record *r = kobj_record_by_id(ctx->world, id);
	const char *name = r ? r->name : kobject_name(kl_view(h->node, KL_KOBJECT));
	if (!name[0])
		return lua_pushfstring(L, "an unnamed %s", kl_type_names[h->type]);
	return lua_pushfstring(L, "'%s'", name);
}

/* Raises "op: 'foo' belongs to a world that was reset" for a handle at @arg. */
static int reset_error(lua_State *L, int arg, const char *op)
{
	struct kl_handle *h = lua_touserdata(L, arg);
	const char *name = NULL;
	if (lua_getiuservalue(L, arg, 1) == LUA_TSTRING)
		name = lua_tostring(L, -1);
	if (name && name[0])
		return luaL_error(L, "%s: %s '%s' belongs to a world that was reset", op,
				  kl_type_names[h->type], name);
	return luaL_error(L, "%s: this %s belongs to a world that was reset", op,
			  kl_type_names[h->type]);
}

static int stale_error(lua_State *L, struct kl_ctx *ctx, struct kl_handle *h, const char *op)
{
	char where[256] = "an unknown place";
	const struct kobj_record *r = kobj_record_by_id(ctx->world, h->node->id);

	if (r && r->release_at)
		kobj_site_where(ctx->world, r->release_at, where);
	const char *label = kl_push_label(L, ctx, h);
	return luaL_error(L, "%s: %s was released at %s; this handle is stale (use after free)",
			  op, label, where);
}

/* Type and world checks shared by every accessor; Return: the handle. */
static struct kl_handle *check_handle(lua_State *L, struct kl_ctx *ctx, int arg,
				      enum kl_type type, const char *op)
{
	struct kl_handle *h = tohandle_in(L, ctx, arg);
	if (!h || h->type != type)
		type_error(L, arg, type);
	if (h->gen != ctx->gen)
		reset_error(L, arg, op);
	/* a simulated thread read the object: the race explorer orders it (sched.h) */
	if (kobj_sched_hooks && h->node)
		kobj_sched_touch(KOBJ_RES_OBJECT, kl_node_id(ctx, h->node, type), false);
	return h;
}

struct kl_node *kl_check(lua_State *L, int arg, enum kl_type type, const char *op)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_handle *h = check_handle(L, ctx, arg, type, op);
	if (!h->node)
		luaL_argerror(L, arg, "this handle has no object");
	if (h->node->released)
		stale_error(L, ctx, h, op);
	return h->node;
}

struct kl_node *kl_check_opt(lua_State *L, int arg, enum kl_type type, const char *op)
{
	return lua_isnoneornil(L, arg) ? NULL : kl_check(L, arg, type, op);
}

struct kl_node *kl_check_getput(lua_State *L, int arg, enum kl_type type, const char *op,
				unsigned *stale_id)
{
	*stale_id = 0;
	if (lua_isnoneornil(L, arg))
		return NULL;
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_handle *h = check_handle(L, ctx, arg, type, op);
	if (h->node && h->node->released) {
		*stale_id = h->node->id;
		return NULL;
	}
	return h->node;
}

struct module *kl_check_module(lua_State *L, int arg, const char *op, bool nil_ok)
{
	if (nil_ok && lua_isnoneornil(L, arg))
		return NULL;
	struct kl_ctx *ctx = kl_getctx(L);
	return check_handle(L, ctx, arg, KL_MODULE, op)->mod;
}

/* ===================================================================== states, paths */

const char *kl_state_name(struct kl_ctx *ctx, struct kl_node *n)
{
	if (n->released)
		return "released";
	const struct kobj_record *r = kl_node_record(ctx, n);
	if (!r)
		return "uninitialized";
	if (r->released)
		return "released";
	if (r->release_pending)
		return "release pending";
	if (r->in_sysfs)
		return "in sysfs";
	return r->was_added ? "deleted" : "initialized";
}

void kl_push_path(lua_State *L, struct kl_ctx *ctx, struct kl_node *n)
{
	struct kobject *kobj = kl_view(n, KL_KOBJECT);
	const struct kobj_record *r = n->released ? NULL : kl_node_record(ctx, n);
	char buf[512];

	if (!kobj || !r || r->released || !r->in_sysfs || !kobj->dentry) {
		lua_pushnil(L);
		return;
	}
	size_t need = sysfs_dirent_path(kobj->dentry, buf, sizeof(buf));
	if (need < sizeof(buf)) {
		lua_pushlstring(L, buf, need);
		return;
	}
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, need + 1);
	sysfs_dirent_path(kobj->dentry, p, need + 1);
	luaL_pushresultsize(&b, need);
}

/* ====================================================================== metatables */

/* __index: a method of the type (upvalue 1), else the type's field reader (upvalue 2). */
static int dispatch_index(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TSTRING) {
		lua_pushvalue(L, 2);
		if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
			return 1;
		lua_pop(L, 1);
	}
	lua_CFunction reader = lua_tocfunction(L, lua_upvalueindex(2));
	return reader(L);
}

const char *kl_field_key(lua_State *L, enum kl_type type)
{
	if (lua_type(L, 2) != LUA_TSTRING)
		luaL_error(L, "%s has no field %s", kl_type_names[type], luaL_tolstring(L, 2, NULL));
	return lua_tostring(L, 2);
}

/* __eq: one object, one world. */
static int handle_eq(lua_State *L)
{
	struct kl_handle *a = kl_tohandle(L, 1), *b = kl_tohandle(L, 2);
	lua_pushboolean(L, a && b && a->type == b->type && a->gen == b->gen &&
			a->node == b->node && a->mod == b->mod);
	return 1;
}

/* A method: self must be a handle of the type (upvalue 2), then the function runs. */
static int method_call(lua_State *L)
{
	enum kl_type type = (enum kl_type)lua_tointeger(L, lua_upvalueindex(2));
	struct kl_handle *h = kl_tohandle(L, 1);
	if (!h || h->type != type)
		type_error(L, 1, type);
	return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* Fills the metatable on top with __index/__newindex dispatch to the given functions. */
static void set_dispatch(lua_State *L, enum kl_type type, lua_CFunction index,
			 lua_CFunction newindex, const luaL_Reg *methods)
{
	/* [mt] */
	lua_newtable(L);
	for (const luaL_Reg *m = methods; m && m->name; m++) {
		lua_pushcfunction(L, m->func);
		lua_pushinteger(L, type);
		lua_pushcclosure(L, method_call, 2);
		lua_setfield(L, -2, m->name);
	}                                             /* [mt methods] */
	lua_pushcfunction(L, index);
	lua_pushcclosure(L, dispatch_index, 2);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pushcfunction(L, handle_eq);
	lua_setfield(L, -2, "__eq");
	lua_getfield(L, -1, "__name");
	lua_setfield(L, -2, "__metatable");           /* getmetatable(k) gives the type name */
}

void kl_set_fields(lua_State *L, const char *const *fields)
{
	lua_newtable(L);
	for (int i = 0; fields[i]; i++) {
		lua_pushstring(L, fields[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "__fields");
}

void kl_new_type(lua_State *L, enum kl_type type, lua_CFunction index,
		 lua_CFunction newindex, const luaL_Reg *methods, const char *const *fields,
		 lua_CFunction tostring)
{
	luaL_newmetatable(L, kl_type_names[type]);   /* [mt] */
	set_dispatch(L, type, index, newindex, methods);
	kl_set_fields(L, fields);
	lua_pushcfunction(L, tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pop(L, 1);                               /* [] */
}

/* ========================================================================== options */

const char *kl_typename(lua_State *L, int idx)
{
	if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING)
		return lua_tostring(L, -1);
	return luaL_typename(L, idx);
}

struct kl_node *kl_field_handle(lua_State *L, int tbl, const char *field, enum kl_type type,
				const char *op)
{
	lua_getfield(L, tbl, field);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return NULL;
	}
	struct kl_handle *h = kl_tohandle(L, -1);
	if (!h || h->type != type)
		luaL_error(L, "%s: field '%s' must be a %s, got %s%s", op, field,
			   kl_type_names[type], kl_typename(L, -1),
			   h ? hint(h->type, type) : "");
	struct kl_node *n = kl_check(L, lua_gettop(L), type, op);
	lua_pop(L, 1);
	return n;
}

void kl_check_fields(lua_State *L, int tbl, const char *const *allowed, const char *op)
{
	lua_pushnil(L);
	while (lua_next(L, tbl)) {
		lua_pop(L, 1);
		bool ok = false;
		if (lua_type(L, -1) == LUA_TSTRING)
			for (const char *const *a = allowed; *a && !ok; a++)
				ok = strcmp(*a, lua_tostring(L, -1)) == 0;
		if (!ok) {
			luaL_Buffer b;
			const char *key = luaL_tolstring(L, -1, NULL);
			luaL_buffinit(L, &b);
			for (const char *const *a = allowed; *a; a++) {
				luaL_addstring(&b, a == allowed ? "" : ", ");
				luaL_addstring(&b, *a);
			}
			luaL_pushresult(&b);
			luaL_error(L, "%s: unknown field '%s' (fields: %s)", op, key,
				   lua_tostring(L, -1));
		}
	}
}
