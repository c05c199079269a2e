/*
 * What the files of lua_bindings/ share: the per-state context, the memory that backs
 * Lua-created objects (nodes), handles, and the helpers every binding uses.
 *
 * Stack pictures in comments read bottom to top: [a b] means b is on top.
 */
#ifndef KOBJ_LUA_INTERNAL_H
#define KOBJ_LUA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/kobject.h"
#include "lua_bindings/kobject_lua.h"

/*
 * The bindings call the real functions: the core's macros would note this file's
 * __FILE__/__LINE__ as the origin, where the script's line must be noted instead.
 */
#undef kobject_init
#undef kobject_set_name
#undef kobject_get
#undef kobject_put
#undef kobject_add
#undef kobject_del
#undef kobject_register
#undef kobject_unregister
#undef kset_init
#undef kset_add
#undef kset_register
#undef kset_unregister
#undef kset_get
#undef kset_put
#undef subsystem_init
#undef subsystem_register
#undef subsystem_unregister
#undef subsys_get
#undef subsys_put
#undef module_load
#undef module_unload
#undef try_module_get
#undef module_put

/* The kinds of handle; each has one metatable whose __name is kl_type_names[type]. */
enum kl_type { KL_KOBJECT, KL_KSET, KL_SUBSYS, KL_KTYPE, KL_MODULE, KL_NTYPES };
extern const char *const kl_type_names[KL_NTYPES];

/* The page sysfs lends show(); the core truncates to PAGE_SIZE - 1 bytes as well. */
#define KL_PAGE_SIZE 4096

/* ============================================================================ nodes */

/* A kset's hotplug_ops whose functions are the Lua trampolines. */
struct kl_hotplug {
	struct kset_hotplug_ops ops;
	char name[128];         /* what name() returned last, for the core to copy */
};

/*
 * The memory behind one Lua-created kobject, kset, subsystem or ktype, zeroed at birth
 * like kzalloc. Nodes are owned by the context, on its list, until the world is reset or
 * the state closes: a released object's memory is never reused while the world lives,
 * so a C pointer left to it (a parent set without a reference, a kset that was put once
 * too often) can never reach another object or freed memory.
 */
struct kl_node {
	struct kl_node *next;   /* the context's list */
	struct kl_ctx *ctx;
	enum kl_type type;      /* KL_KOBJECT, KL_KSET, KL_SUBSYS or KL_KTYPE */
	bool released;          /* the world released it: every handle is stale */
	bool release_ran;       /* a Lua release method was called for it */
	unsigned id;            /* record id once released (live objects ask the world) */
	union {
		struct kobject kobj;
		struct kset kset;
		struct subsystem subsys;
		struct {
			struct kobj_type kt;
			struct sysfs_ops ops;
		} ktype;
	} u;
	struct kl_hotplug hp;   /* ksets and subsystems */
	void *extra;            /* ktypes: the default_attrs block */
};

/* Address -> node, for every address a node exposes (kobject, kset, subsystem, ktype). */
struct kl_map {
	uintptr_t *keys;
	struct kl_node **vals;
	size_t cap, used;
};

/* A file name interned for the world's life (kobj_note_origin keeps the pointer). */
struct kl_string {
	struct kl_string *next;
	char s[];
};

/* One per Lua state: a full userdata in the registry whose __gc frees everything. */
struct kl_ctx {
	struct kobj_world *world;
	lua_State *L;           /* the main thread: callbacks run there */
	unsigned gen;           /* bumped by reset(); handles of older worlds are stale */
	int busy;               /* core calls in progress (reset waits for none) */
	bool open;              /* false once __gc ran */
	bool no_files;          /* dot(file) refused: set for graded, untrusted code */
	struct kl_node *nodes;
	struct kl_map map;
	struct kl_string *strings;
	const char *file;       /* the origin of the binding call in progress */
	int line;
	void (*on_diag)(const struct kobj_diag *d, void *ctx);
	void *on_diag_ctx;
};

/* ========================================================================== handles */

/* A handle: a box that holds no reference. See kobject_lua.h for the rules. */
struct kl_handle {
	struct kl_node *node;   /* NULL for modules */
	struct module *mod;     /* modules only; owned by the world */
	unsigned gen;
	enum kl_type type;
};

/* Slots of the store table (registry[&kl_store_key]). */
enum {
	KL_SLOT_CACHE = 1,      /* 1..KL_NTYPES: weak-valued caches, address -> handle */
	KL_SLOT_DATA = KL_SLOT_CACHE + KL_NTYPES, /* lightuserdata(node) -> table */
	KL_SLOT_STRINGS,        /* file name -> lightuserdata(interned copy) */
	KL_SLOT_MODULE,         /* the module table */
	KL_SLOT_FORMAT,         /* string.format as it was at open */
	KL_SLOT_COUNT
};

/* init.c */
struct kl_ctx *kl_getctx(lua_State *L);          /* raises if the module is not open */
struct kl_ctx *kl_findctx(lua_State *L);         /* NULL if not open */
void kl_push_slot(lua_State *L, int slot);       /* [] -> [store[slot]] */
void kl_push_data(lua_State *L, struct kl_node *n); /* [] -> [data table or nil] */
void kl_data_table(lua_State *L, struct kl_node *n); /* [] -> [data table], made if absent */

/* handle.c */
void kl_map_free(struct kl_map *m);
struct kl_node *kl_map_get(const struct kl_map *m, const void *addr);
/* Records the addresses of @n; raises only on memory errors (the node is already owned). */
void kl_map_add(lua_State *L, struct kl_ctx *ctx, struct kl_node *n);
/* A zeroed node on the context's list; raises on memory errors (nothing leaks). */
struct kl_node *kl_node_new(lua_State *L, struct kl_ctx *ctx, enum kl_type type);
/* The address of the node's object seen as @view (its kset, its kobject...), or NULL. */
void *kl_view(struct kl_node *n, enum kl_type view);
unsigned kl_node_id(struct kl_ctx *ctx, struct kl_node *n, enum kl_type view);
const struct kobj_record *kl_node_record(struct kl_ctx *ctx, struct kl_node *n);
void kl_push_handle(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, enum kl_type view);
/* Pushes the handle for a C address (nil for NULL or an address the module did not make). */
void kl_push_addr(lua_State *L, struct kl_ctx *ctx, const void *addr, enum kl_type view);
void kl_push_module(lua_State *L, struct kl_ctx *ctx, struct module *mod);
struct kl_handle *kl_tohandle(lua_State *L, int idx);
/* The object behind argument @arg, live and of @type; raises otherwise. */
struct kl_node *kl_check(lua_State *L, int arg, enum kl_type type, const char *op);
/* Like kl_check, but nil (or none) gives NULL. */
struct kl_node *kl_check_opt(lua_State *L, int arg, enum kl_type type, const char *op);
/*
 * For get and put: NULL for nil; *stale_id set (and NULL returned) for a released
 * object, which is not an error there. Raises for the wrong type or an older world.
 */
struct kl_node *kl_check_getput(lua_State *L, int arg, enum kl_type type, const char *op,
				unsigned *stale_id);
struct module *kl_check_module(lua_State *L, int arg, const char *op, bool nil_ok);
/* Pushes "'foo'", "an unnamed kobject" or "module 'm'", for messages. */
const char *kl_push_label(lua_State *L, struct kl_ctx *ctx, struct kl_handle *h);
/* Fills a metatable (on top) with __index/__newindex dispatch to the given functions. */
void kl_set_dispatch(lua_State *L, enum kl_type type, lua_CFunction index,
		     lua_CFunction newindex, const luaL_Reg *methods);
/* The type name of a value, __name first; may push a value. */
const char *kl_typename(lua_State *L, int idx);
/* The live handle of @type in field @field of the table at @tbl, or NULL for nil. */
struct kl_node *kl_field_handle(lua_State *L, int tbl, const char *field, enum kl_type type,
				const char *op);
/* Raises for a key of the table at @tbl that is not in the NULL-terminated @allowed. */
void kl_check_fields(lua_State *L, int tbl, const char *const *allowed, const char *op);
/* "uninitialized", "initialized", "in sysfs", "deleted", "released" */
const char *kl_state_name(struct kl_ctx *ctx, struct kl_node *n);
/* The sysfs path of a live object in sysfs, pushed; nil otherwise. */
void kl_push_path(lua_State *L, struct kl_ctx *ctx, struct kl_node *n);
/* The on_release hook: marks @r's node released and drops what Lua kept for it. */
void kl_node_released(struct kl_ctx *ctx, const struct kobj_record *r);

/* origin.c */
/* Notes the calling script's file:line (for the core and for ctx->file/line). */
void kl_note(lua_State *L, struct kl_ctx *ctx);
/* Starts a core call: the world is made current and the origin noted; must be paired
 * with kl_leave and nothing between may raise. */
void kl_enter(lua_State *L, struct kl_ctx *ctx);
void kl_leave(struct kl_ctx *ctx);
/* Interns @s for the life of the context; raises only on memory errors. */
const char *kl_intern(lua_State *L, struct kl_ctx *ctx, const char *s);

/* callback.c */
/*
 * kl_callback() - run @body(lightuserdata @arg) on the main thread, protected, with a
 * traceback. A failure is recorded as a KOBJ_DIAG_CALLBACK_ERROR diagnostic for record
 * @obj, headed "<who>: <what> raised a Lua error". Never raises; the stack is restored.
 * Return: true if the body returned normally.
 */
bool kl_callback(struct kl_ctx *ctx, lua_CFunction body, void *arg, unsigned obj,
		 const char *what, const char *consequence);
int kl_msgh(lua_State *L);

/* Per-file openers: each adds its functions to the module table on top. */
void kl_open_kobject(lua_State *L);
void kl_open_kset(lua_State *L);
void kl_open_ktype(lua_State *L);
void kl_open_module(lua_State *L);
void kl_open_query(lua_State *L);
void kl_open_sysfs(lua_State *L);

/* hotplug_lua.c: reads a hotplug_ops table (at @idx) into node @n. */
void kl_set_hotplug(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, int idx);

/* kobject_lua.c: shared property code for kobject-like handles */
/* Pushes the value of a common field of @n's kobject (name, refcount, state, path, id);
 * Return: false if @key is not one. */
bool kl_common_field(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *key);
/* Sets the name through kobject_set_name; raises if it fails. */
void kl_assign_name(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, int vidx);
/* __tostring of every handle type ("kobject 'foo' refcount=2 in sysfs /sys/foo"). */
int kl_handle_tostring(lua_State *L);
/* Formats arguments @first.. with string.format; pushes the result. */
void kl_format(lua_State *L, int first, const char *op);

/* Negative errno as Lua returns it; message for a failed query. */
int kl_fail(lua_State *L, const char *op, const char *what, long err);

#endif
