/*
 * Queries for lessons, as plain Lua tables: the event log, diagnostics, leaks (with the
 * references that explain them), hotplug events, and every object the world knows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/sched.h"
#include "core/report/report.h"
#include "lua_bindings/internal.h"

/* Field setters for the table on top; a NULL string or a 0 id leaves the field nil. */
static void set_str(lua_State *L, const char *key, const char *value)
{
	if (!value)
		return;
	lua_pushstring(L, value);
	lua_setfield(L, -2, key);
}

static void set_int(lua_State *L, const char *key, lua_Integer value)
{
	lua_pushinteger(L, value);
	lua_setfield(L, -2, key);
}

static void set_origin(lua_State *L, const char *file_key, const char *line_key,
		       struct kobj_origin o)
{
	set_str(L, file_key, o.file);
	if (o.file)
		set_int(L, line_key, o.line);
}

static void set_site(lua_State *L, const struct kobj_world *w, const char *file_key,
		     const char *line_key, unsigned site)
{
	set_origin(L, file_key, line_key, kobj_site_origin(w, site));
}

static void set_bool(lua_State *L, const char *key, bool value)
{
	lua_pushboolean(L, value);
	lua_setfield(L, -2, key);
}

/* object = name, id = id of record @id (nothing for 0). */
static void set_object(lua_State *L, const struct kobj_world *w, const char *name_key,
		       const char *id_key, unsigned id)
{
	const struct kobj_record *r = kobj_record_by_id(w, id);
	if (!r)
		return;
	set_str(L, name_key, r->name);
	set_int(L, id_key, id);
}


/* ============================================================================== log */

/***
 * log([n]): the last @n events (all without @n), oldest first. Each is read from the
 * world as the table is built, so code that runs meanwhile (a finalizer) cannot change
 * what was read.
 * @treturn {{seq=, kind=, op=, step=, object=, id=, ref=, ref_kind=, holder=, holder_id=,
 *   chosen=, before=, after=, file=, line=, thread=, tag= (diag), action=, devpath=
 *   (hotplug), what= (sched: "call", "lookup", "unlock", "decrement", ...)}, ...}
 */
static int l_log(lua_State *L)
{
	lua_settop(L, 1); /* the argument stays at 1, the hold above it */
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	size_t count = kobj_log_count(w), first = 0;
	lua_Integer n = luaL_optinteger(L, 1, 0);

	luaL_argcheck(L, n >= 0, 1, "a count of events (0 or more)");
	if (n > 0 && (size_t)n < count)
		first = count - (size_t)n;
	lua_createtable(L, (int)(count - first), 0);
	struct kobj_event event;
	const struct kobj_event *ev = &event;
	for (size_t i = first; i < count && kobj_log_read(w, i, &event); i++) {
		lua_createtable(L, 0, 16);
		set_int(L, "seq", (lua_Integer)ev->seq);
		set_str(L, "kind", kobj_event_kind_name(ev->kind));
		set_str(L, "op", ev->op);
		set_str(L, "step", ev->step);
		set_object(L, w, "object", "id", ev->obj);
		if (ev->kind == KOBJ_EV_GET || ev->kind == KOBJ_EV_PUT || ev->kind == KOBJ_EV_INIT) {
			set_int(L, "ref", (lua_Integer)ev->ref);
			set_str(L, "ref_kind", kobj_ref_kind_name(ev->ref_kind));
			set_object(L, w, "holder", "holder_id", ev->holder);
			if (ev->chosen)
				set_bool(L, "chosen", true);
		}
		set_int(L, "before", ev->before);
		set_int(L, "after", ev->after);
		set_origin(L, "file", "line", ev->origin);
		if (ev->thread)
			set_int(L, "thread", ev->thread);
		/* a push may run a finalizer that grows the arrays (their strings never move):
		 * what an entry holds is read before anything is pushed */
		if (ev->kind == KOBJ_EV_SCHED) {
			set_str(L, "what", kobj_sched_what_name(ev->aux));
		} else if (ev->kind == KOBJ_EV_DIAG) {
			const struct kobj_diag *d = kobj_diag_at(w, ev->aux);
			if (d)
				set_str(L, "tag", kobj_diag_tag(d->kind));
		} else if (ev->kind == KOBJ_EV_HOTPLUG) {
			const struct kobj_hotplug_event *h = kobj_hotplug_at(w, ev->aux);
			if (h) {
				const char *action = h->action, *devpath = h->devpath;
				set_str(L, "action", action);
				set_str(L, "devpath", devpath);
			}
		}
		lua_rawseti(L, -2, (lua_Integer)(i - first + 1));
	}
	return 1;
}

/***
 * diagnostics(): every diagnostic, oldest first.
 * @treturn {{tag=, message=, explanation=, object=, id=, file=, line=, seq=}, ...}
 */
static int l_diagnostics(lua_State *L)
{
	lua_settop(L, 0);
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	size_t count = kobj_diag_count(w);

	lua_createtable(L, (int)count, 0);
	for (size_t i = 0; i < count; i++) {
		const struct kobj_diag copy = *kobj_diag_at(w, i); /* its strings never move */
		const struct kobj_diag *d = &copy;
		lua_createtable(L, 0, 8);
		set_str(L, "tag", kobj_diag_tag(d->kind));
		set_str(L, "message", d->message);
		set_str(L, "explanation", d->explanation);
		set_object(L, w, "object", "id", d->obj);
		set_origin(L, "file", "line", d->origin);
		set_int(L, "seq", (lua_Integer)d->seq);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* ============================================================================ leaks */

/* [] -> [ref table] for @ref; @leak words its text as the leak report does. */
static void push_ref(lua_State *L, const struct kobj_world *w, const struct kobj_ref *ref,
		     bool leak)
{
	char text[1024];
	struct kobj_origin o = kobj_site_origin(w, ref->site);

	if (leak)
		kobj_leak_ref_text(w, ref, text, sizeof(text));
	else
		kobj_ref_text(w, ref, text, sizeof(text));
	lua_createtable(L, 0, 9);
	set_int(L, "serial", (lua_Integer)ref->serial);
	set_str(L, "kind", kobj_ref_kind_name(ref->kind));
	set_str(L, "op", ref->op);
	set_origin(L, "file", "line", o);
	set_str(L, "func", o.func);
	set_object(L, w, "holder", "holder_id", ref->holder);
	if (ref->tracked)
		set_bool(L, "tracked", true);
	set_str(L, "text", text);
}

/* The core's leaks, freed by __gc if building the Lua table raises on the way. */
struct leaks_box {
	struct kobj_leak *leaks;
	size_t count;
};

static int leaks_box_gc(lua_State *L)
{
	struct leaks_box *b = lua_touserdata(L, 1);
	kobj_leaks_free(b->leaks, b->count);
	b->leaks = NULL;
	b->count = 0;
	return 0;
}

/***
 * leaks(): the objects not released (and modules whose users never put them), root
 * causes first (in order of creation), then the objects they keep alive, each with the
 * references never dropped, oldest first, as the ledger has them.
 * @treturn {{name=, id=, kind=, refcount=, file=, line=, registered=, root=, root_id=,
 *   refs = {{serial=, kind=, op=, file=, line=, func=, holder=, holder_id=,
 *   text="get, taken at lesson.lua:12 by kobject_get in probe, never put"}, ...}}}
 */
static int l_leaks(lua_State *L)
{
	lua_settop(L, 0);
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	struct leaks_box *b = lua_newuserdatauv(L, sizeof(*b), 0);  /* [box] */

	b->leaks = NULL;
	b->count = 0;
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, leaks_box_gc);
	lua_setfield(L, -2, "__gc");
	lua_setmetatable(L, -2);
	b->leaks = kobj_leaks_find(w, &b->count);
	lua_createtable(L, (int)b->count, 0);                        /* [box result] */
	for (size_t i = 0; i < b->count; i++) {
		const struct kobj_record *r = b->leaks[i].record;
		lua_createtable(L, 0, 7);
		set_str(L, "name", r->name);
		set_int(L, "id", r->id);
		set_str(L, "kind", kobj_kind_name(r->kind));
		set_int(L, "refcount", r->refcount);
		set_site(L, w, "file", "line", r->init_at);
		set_bool(L, "registered", b->leaks[i].registered);
		set_object(L, w, "root", "root_id", b->leaks[i].root);
		lua_createtable(L, (int)b->leaks[i].nrefs, 0);
		for (size_t j = 0; j < b->leaks[i].nrefs; j++) {
			push_ref(L, w, &b->leaks[i].refs[j], true);
			lua_rawseti(L, -2, (lua_Integer)j + 1);
		}
		lua_setfield(L, -2, "refs");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	kobj_leaks_free(b->leaks, b->count);
	b->leaks = NULL;
	b->count = 0;
	return 1;
}

/* ========================================================================= hotplug */

/***
 * hotplug_events(): every event sent to user space, oldest first.
 * @treturn {{seqnum=, action=, devpath=, subsystem=, env={KEY=value}, envp={"KEY=value"},
 *   object=, id=, file=, line=}, ...}
 */
static int l_hotplug_events(lua_State *L)
{
	lua_settop(L, 0);
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	size_t count = kobj_hotplug_count(w);

	lua_createtable(L, (int)count, 0);
	for (size_t i = 0; i < count; i++) {
		const struct kobj_hotplug_event copy = *kobj_hotplug_at(w, i);
		const struct kobj_hotplug_event *ev = &copy;
		lua_createtable(L, 0, 10);
		set_int(L, "seqnum", (lua_Integer)ev->seqnum);
		set_str(L, "action", ev->action);
		set_str(L, "devpath", ev->devpath);
		set_str(L, "subsystem", ev->subsystem);
		set_object(L, w, "object", "id", ev->obj);
		set_site(L, w, "file", "line", ev->site);
		lua_createtable(L, 0, ev->envc);          /* env */
		lua_createtable(L, ev->envc, 0);          /* envp */
		for (int j = 0; j < ev->envc; j++) {
			const char *var = ev->envp[j];
			const char *eq = strchr(var, '=');
			lua_pushstring(L, var);
			lua_rawseti(L, -2, j + 1);
			if (!eq)
				continue;
			lua_pushlstring(L, var, (size_t)(eq - var));
			lua_pushstring(L, eq + 1);
			lua_settable(L, -4);
		}
		lua_setfield(L, -3, "envp");
		lua_setfield(L, -2, "env");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* ========================================================================= objects */

static const char *record_state(const struct kobj_record *r)
{
	if (r->kind == KOBJ_KIND_MODULE)
		return r->released ? "unloaded" : "live";
	if (r->released)
		return "released";
	if (r->in_sysfs)
		return "in sysfs";
	return r->was_added ? "deleted" : "initialized";
}

/***
 * objects(): every object the world has a record of, in order of initialisation.
 * @treturn {{id=, kind=, name=, refcount=, state=, parent=, kset= (ids), file=, line=,
 *   release_file=, release_line=, no_release=}, ...}
 */
static int l_objects(lua_State *L)
{
	lua_settop(L, 0);
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	size_t count = kobj_record_count(w);

	lua_createtable(L, (int)count, 0);
	for (unsigned id = 1; id <= count; id++) {
		const struct kobj_record *r = kobj_record_by_id(w, id);
		lua_createtable(L, 0, 12);
		set_int(L, "id", id);
		set_str(L, "kind", kobj_kind_name(r->kind));
		set_str(L, "name", r->name);
		set_int(L, "refcount", r->refcount);
		set_str(L, "state", record_state(r));
		if (r->parent)
			set_int(L, "parent", r->parent);
		if (r->kset)
			set_int(L, "kset", r->kset);
		set_site(L, w, "file", "line", r->init_at);
		if (r->released)
			set_site(L, w, "release_file", "release_line", r->release_at);
		lua_pushboolean(L, r->no_release);
		lua_setfield(L, -2, "no_release");
		lua_rawseti(L, -2, id);
	}
	return 1;
}

/***
 * references(obj): the references outstanding on @obj (a handle, or a record id), oldest
 * first, as the ledger keeps them: who holds each, of what kind, taken where.
 * @treturn {{serial=, kind=, op=, file=, line=, func=, holder=, holder_id=, tracked=,
 *   text=}, ...}
 */
static int l_references(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	unsigned id = 0;
	if (lua_isinteger(L, 1)) {
		id = (unsigned)lua_tointeger(L, 1);
	} else {
		struct kl_handle *h = kl_tohandle(L, 1);
		luaL_argcheck(L, h, 1, "a kobject, kset, subsystem or module handle, or an id");
		/* an older world's node or module is freed memory */
		luaL_argcheck(L, h->gen == ctx->gen, 1, "the handle belongs to a world that was "
			      "reset");
		id = h->type == KL_MODULE ? h->mod->id : kl_node_id(ctx, h->node, h->type);
	}
	struct kobj_world *w = kl_hold_world(L, ctx);
	struct kl_box *box = kl_new_box(L);                          /* [.. box] */
	size_t n = kobj_refs_count(w, id);
	struct kobj_ref *refs = box->mem = calloc(n + 1, sizeof(*refs));
	if (!refs)
		return luaL_error(L, "references: not enough memory");

	n = kobj_refs_of(w, id, refs, n);
	lua_createtable(L, (int)n, 0);
	for (size_t i = 0; i < n; i++) {
		push_ref(L, w, &refs[i], false);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* fail_alloc(n): the nth simulated kernel allocation from now fails (0: none). */
static int l_fail_alloc(lua_State *L)
{
	struct kobj_world *w = kl_getctx(L)->world;
	lua_Integer n = luaL_checkinteger(L, 1);
	luaL_argcheck(L, n >= 0 && n <= 1000000, 1, "a count from 0 (off) to 1000000");
	kobj_world_fail_alloc(w, (unsigned)n);
	return 0;
}

static const luaL_Reg functions[] = {
	{ "log", l_log },
	{ "diagnostics", l_diagnostics },
	{ "leaks", l_leaks },
	{ "hotplug_events", l_hotplug_events },
	{ "objects", l_objects },
	{ "references", l_references },
	{ "fail_alloc", l_fail_alloc },
	{ NULL, NULL },
};

void kl_open_query(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
}
