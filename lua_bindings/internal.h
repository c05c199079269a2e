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
#include <stdio.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/model/kobject.h"
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
#undef kobject_init_ktype
#undef kobject_add_named
#undef kobject_init_and_add
#undef kobject_create_and_add
#undef kobject_get_unless_zero
#undef kobject_get_path
#undef kobject_rename
#undef kobject_move
#undef kset_create_and_add
#undef kobject_uevent
#undef kobject_uevent_env
#undef add_uevent_var
#undef kref_get
#undef kref_put
#undef kref_get_unless_zero
#undef sysfs_create_file
#undef sysfs_remove_file
#undef sysfs_create_group
#undef sysfs_remove_group
#undef sysfs_create_groups
#undef sysfs_remove_groups
#undef sysfs_create_link
#undef sysfs_remove_link
#undef kernel_kobj
#undef kset_find_obj

/*
 * The kinds of handle; each has one metatable whose __name is kl_type_names[type]. The
 * types before KL_MODULE have addresses in the map (see kl_map_add); attributes and
 * groups are found from their C structs with container_of.
 */
enum kl_type {
	KL_KOBJECT, KL_KSET, KL_SUBSYS, KL_KTYPE, KL_MODULE, KL_ATTR, KL_GROUP, KL_NTYPES
};
extern const char *const kl_type_names[KL_NTYPES];

/* The page sysfs lends show(); the core truncates to PAGE_SIZE - 1 bytes as well. */
#define KL_PAGE_SIZE 4096

/* ============================================================================ nodes */

/* A kset's hotplug_ops whose functions are the Lua trampolines. */
struct kl_hotplug {
	struct kset_hotplug_ops ops;
	char name[128];         /* what name() returned last, for the core to copy */
};

/* A kset's today's uevent_ops whose functions are the Lua trampolines (uevent_lua.c). */
struct kl_uevent {
	struct kset_uevent_ops ops; /* const members: filled once with memcpy */
	char name[128];         /* what name() returned last */
};

/*
 * Every struct attribute the module makes sits in one of these, so that kobj_sysfs_ops
 * (container_of to struct kobj_attribute) is safe on any of them: a kobj_attribute's own,
 * a group's copy of it (which knows its group, for is_visible), or a default attribute
 * of a ktype (no callbacks: kobj_sysfs_ops gives -EIO, as for a NULL show).
 */
struct kl_attr_ref {
	struct kobj_attribute ka;
	struct kl_node *attr;   /* the kobj_attribute node whose show/store run, or NULL */
	struct kl_node *group;  /* the attribute_group node of this copy, or NULL */
};

/*
 * The memory behind one Lua-created kobject, kset, subsystem, ktype, kobj_attribute or
 * attribute_group, zeroed at birth like kzalloc. Nodes are owned by the context, on its
 * list, until the world is reset or the state closes: a released object's memory is never
 * reused while the world lives, so a C pointer left to it (a parent set without a
 * reference, a kset that was put once too often) can never reach another object or freed
 * memory.
 *
 * A node with @ext stands for an object whose memory the core allocated
 * (kobject_create_and_add, kset_create_and_add, /sys/kernel) or that C code made: the
 * core frees it at its release, after which the node only remembers it. Pointers that
 * Lua's objects keep to it without a reference (a parent or kset assigned as a field)
 * are cleared at that release (kl_node_released), so they never reach freed memory. Each
 * such node lists the nodes that were given a pointer to it (kl_note_pointers), so that
 * a release looks at those only, not at every node.
 */
struct kl_node {
	struct kl_node *next;   /* the context's list */
	struct kl_ctx *ctx;
	enum kl_type type;      /* the outermost object: KL_KOBJECT, KL_KSET, ... KL_GROUP */
	bool released;          /* the world released it: every handle is stale */
	bool release_ran;       /* a Lua release method was called for it */
	bool reclaim;           /* @ext came from our create_and_add call: freed at reset if
				 * never released (the core would have freed it at release) */
	unsigned id;            /* record id once released (live objects ask the world) */
	void *ext;              /* the core-owned object (kobject, kset or subsystem), or NULL */
	union {
		struct kobject kobj;
		struct kset kset;
		struct subsystem subsys;
		struct {
			struct kobj_type kt;
			struct sysfs_ops ops;
		} ktype;
		struct kl_attr_ref attr;        /* KL_ATTR: its own kobj_attribute */
		struct attribute_group group;   /* KL_GROUP */
	} u;
	struct kl_hotplug hp;   /* ksets and subsystems */
	struct kl_uevent uev;   /* ksets */
	void *extra;            /* ktypes: default_attrs block; attributes: the name;
				 * groups: the attrs array, its copies and the name */
	void *extra2;           /* ktypes: the default_groups array */
	struct kl_node **pointed_by; /* @ext nodes: nodes given a parent or kset pointer to it */
	size_t npointed_by, pointed_cap;
	struct kl_node *noted[2]; /* the nodes this one was last listed with: parent, kset */
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

/*
 * A kset_create_and_add in progress: its node waits for the kset the core allocates. A
 * callback during the call may meet that kset first (its "add" uevent); it is adopted
 * into this node: the kset whose record is newer than @after (only that call makes one).
 * Calls nest when a callback makes a kset; each entry lives on its call's C stack.
 */
struct kl_creating {
	struct kl_node *node;
	unsigned after;         /* the world's record count when the call began */
	struct kl_creating *outer;
};

/* A script line's site in the world of generation @gen (origin.c). */
struct kl_site_memo {
	const char *file, *func;
	int line;
	unsigned site, gen;
};
#define KL_SITE_MEMO 64

/* One per Lua state: a full userdata in the registry whose __gc frees everything. */
struct kl_ctx {
	const void *mark;       /* marks a context among userdata upvalues (kl_ctx_quick) */
	const void *meta[KL_NTYPES]; /* each type's metatable, by address (kl_tohandle) */
	struct kobj_world *world;
	lua_State *L;           /* the main thread: callbacks run there */
	unsigned gen;           /* bumped by reset(); handles of older worlds are stale */
	int busy;               /* core calls in progress (reset waits for none) */
	bool open;              /* false once __gc ran */
	bool no_files;          /* dot(file) refused: set for graded, untrusted code */
	bool stacks;            /* note each call's whole Lua call stack (while recording) */
	bool tearing_down;      /* the world is being freed: no Lua callback runs */
	struct kl_creating *creating; /* kset_create_and_add calls in progress, innermost */
	/* The env a uevent() callback in progress may fill; an env value whose token is
	 * not uevent_token is from a callback that returned (uevent_lua.c). */
	struct kobj_uevent_env *uevent_env;
	unsigned long uevent_token, uevent_tokens;
	struct kl_node *nodes;
	struct kl_map map;
	struct kl_string *strings;
	const char *file;       /* the origin of the binding call in progress */
	int line;
	const char *func;       /* the function it is in, as a traceback names it */
	const char *last_source; /* the last named chunk kl_note met (origin.c) */
	size_t last_srclen;
	const char *last_file;  /* its name, interned */
	const char *last_func;  /* the last function name met, interned */
	struct kl_site_memo sites[KL_SITE_MEMO];
	void (*on_diag)(const struct kobj_diag *d, void *ctx);
	void *on_diag_ctx;
};

/* ========================================================================== handles */

/*
 * A handle: a box that holds no reference. See kobject_lua.h for the rules. A reference
 * handle is one that a call returning a new reference made (kobject_get, kset_find_obj,
 * kobject_create_and_add...): the same object, equal to its plain handle, that also names
 * the reference it stands for, so that a put through it drops exactly that one.
 */
struct kl_handle {
	struct kl_node *node;   /* NULL for modules */
	struct module *mod;     /* modules only; owned by the world */
	unsigned long long ref; /* the reference's token (kobj_last_ref), 0 for a plain one */
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
/*
 * kl_hold_world() - [] -> [marker]: the world cannot be reset until the calling C function
 * returns or raises (the marker is a to-be-closed slot). For queries that read the world
 * while they build Lua values, since a finalizer may run at any allocation.
 */
struct kobj_world *kl_hold_world(lua_State *L, struct kl_ctx *ctx); /* Return: the world */
struct kl_ctx *kl_findctx(lua_State *L);         /* NULL if not open */
/* The same, read first from the running function's upvalue 1 (the module's functions). */
struct kl_ctx *kl_ctx_quick(lua_State *L);
void kl_push_slot(lua_State *L, int slot);       /* [] -> [store[slot]] */
void kl_push_data(lua_State *L, struct kl_node *n); /* [] -> [data table or nil] */
void kl_data_table(lua_State *L, struct kl_node *n); /* [] -> [data table], made if absent */
/* [] -> [data table]: data[@key] = the function at @vidx, or nil; raises for another value. */
void kl_set_function(lua_State *L, struct kl_node *n, const char *key, int vidx);

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
/* [] -> [handle]: a reference handle for @n carrying the reference @token, or the plain
 * handle when @token is 0. */
void kl_push_ref(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, enum kl_type view,
		 unsigned long long token);
/* The reference the handle at @idx carries, or 0 (a plain handle, or not a handle). */
unsigned long long kl_handle_ref(lua_State *L, int idx);
/*
 * kl_push_addr() - the handle for a C address: nil for NULL or an unknown address. A live
 * kobject or kset the module did not make (views KL_KOBJECT and KL_KSET only) is adopted:
 * a node with ext is made for it, so a Lua callback or a field read can name it.
 * Raises only on memory errors.
 */
void kl_push_addr(lua_State *L, struct kl_ctx *ctx, const void *addr, enum kl_type view);
/* The node of @addr seen as @view, adopting it as kl_push_addr does; NULL if unknown. */
struct kl_node *kl_node_of(lua_State *L, struct kl_ctx *ctx, const void *addr,
			   enum kl_type view);
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
/* The key (at 2) of a field read or write of a @type handle; raises unless a string. */
const char *kl_field_key(lua_State *L, enum kl_type type);
/* Sets __fields of the metatable on top: the NULL-terminated @fields, for completion. */
void kl_set_fields(lua_State *L, const char *const *fields);
/*
 * kl_new_type() - the metatable of @type's handles, [] -> []: __index gives @methods
 * (NULL: none), then the fields @index reads; __newindex is @newindex; __eq compares
 * handles; __fields lists @fields for completion; __tostring is @tostring.
 */
void kl_new_type(lua_State *L, enum kl_type type, lua_CFunction index,
		 lua_CFunction newindex, const luaL_Reg *methods, const char *const *fields,
		 lua_CFunction tostring);
/* The type name of a value, __name first; may push a value. */
const char *kl_typename(lua_State *L, int idx);
/* The live handle of @type in field @field of the table at @tbl, or NULL for nil. */
struct kl_node *kl_field_handle(lua_State *L, int tbl, const char *field, enum kl_type type,
				const char *op);
/* Raises for a key of the table at @tbl that is not in the NULL-terminated @allowed. */
void kl_check_fields(lua_State *L, int tbl, const char *const *allowed, const char *op);
/* "uninitialized", "initialized", "in sysfs", "deleted", "release pending", "released" */
const char *kl_state_name(struct kl_ctx *ctx, struct kl_node *n);
/* The sysfs path of a live object in sysfs, pushed; nil otherwise. */
void kl_push_path(lua_State *L, struct kl_ctx *ctx, struct kl_node *n);
/* The on_release hook: marks @r's node released and drops what Lua kept for it. */
void kl_node_released(struct kl_ctx *ctx, const struct kobj_record *r);
/* Lists @n with the core-owned objects its parent and kset fields point to, after any call
 * that may have set them, so that their release clears pointers @n holds without a
 * reference. */
void kl_note_pointers(lua_State *L, struct kl_ctx *ctx, struct kl_node *n);

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
 * While the world is being freed (reset, or the state closing) nothing runs.
 * Return: true if the body returned normally.
 */
bool kl_callback(struct kl_ctx *ctx, lua_CFunction body, void *arg, unsigned obj,
		 const char *what, const char *consequence);
int kl_msgh(lua_State *L);
/* kl_asprintf() - printf into malloc'd memory (free() it); NULL if memory ran out. */
char *kl_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * kl_charge() - note @units of work done in C (a walk over every record, a report) for
 * kobj_lua_take_work(), then let the host's budget judge it: the registry field
 * "kobject.charge", if the host set one, is called and may raise the budget's error.
 * Call it only where a Lua error may be raised.
 * kl_charge_quietly() - only the note, where nothing may raise (after a callback); the
 * host charges it at the script's next instruction.
 */
void kl_charge(lua_State *L, size_t units);
void kl_charge_quietly(size_t units);
/* A Lua show() or store() in progress: a ktype's (ktype_lua.c) or a kobj_attribute's
 * (attr_lua.c). The trampoline fills it; its body gets it as a light userdata. */
struct kl_file_call {
	struct kl_ctx *ctx;
	struct kl_node *node;   /* the ktype or kobj_attribute node whose method runs */
	struct kobject *kobj;
	struct attribute *attr; /* a ktype's: the file (NULL for a kobj_attribute's) */
	char *page;             /* show: the page to fill */
	const char *buf;        /* store: what was written */
	size_t count;
	ssize_t result;
};
/*
 * kl_file_method() - runs @body(@c) through kl_callback for @method ("show" or "store")
 * of the file @kind '@name' of @c->kobj; a failure is recorded and fails the read or
 * write. Return: @c->result, or -EIO if the body raised.
 */
ssize_t kl_file_method(struct kl_file_call *c, const char *method, const char *kind,
		       const char *name, lua_CFunction body);
/*
 * kl_call_store() - [fn kobj x] -> [ret]: calls store(kobj, x, written bytes) and sets
 * @c->result: nil took all @c->count bytes, else the integer it returned. Raises
 * "store() must return @what, got ..." for another value.
 */
void kl_call_store(lua_State *L, struct kl_file_call *c, const char *what);
/* "kobject 'foo' (00000000c0ffee00)" for a callback's diagnostics; *@id its record id. */
const char *kl_describe(struct kl_ctx *ctx, const struct kobject *kobj, unsigned *id,
			char buf[160]);

/* Per-file openers: each adds its functions to the module table on top. */
void kl_open_kobject(lua_State *L);
void kl_open_kset(lua_State *L);
void kl_open_ktype(lua_State *L);
void kl_open_module(lua_State *L);
void kl_open_query(lua_State *L);
void kl_open_sysfs(lua_State *L);
void kl_open_modern(lua_State *L);
void kl_open_uevent(lua_State *L);
void kl_open_attr(lua_State *L);
void kl_open_group(lua_State *L);
void kl_open_sysfs_attr(lua_State *L);
void kl_open_kref(lua_State *L);
void kl_open_debug(lua_State *L);
void kl_open_kernel(lua_State *L);
/* kernel_lua.c: a show() that returned a negative errno (an integer on top of the
 * stack) gives it to the reader; Return: whether it did (*@result set). */
bool kl_show_errno(lua_State *L, ssize_t *result);
void kl_open_race(lua_State *L);

/* race_program.c: the state Lua callbacks run on: the running simulated thread's coroutine
 * while threads run, else the main thread. */
lua_State *kl_race_state(struct kl_ctx *ctx);

/* lifecycle_lua.c: the calls whose Lua function only checks argument 1 and calls the core */
enum kl_call {
	KL_KOBJECT_INIT, KL_KOBJECT_ADD, KL_KOBJECT_DEL, KL_KOBJECT_REGISTER,
	KL_KOBJECT_UNREGISTER, KL_KOBJECT_GET, KL_KOBJECT_PUT, KL_KOBJECT_GET_UNLESS_ZERO,
	KL_KSET_INIT, KL_KSET_ADD, KL_KSET_REGISTER, KL_KSET_UNREGISTER, KL_KSET_GET,
	KL_KSET_PUT,
	KL_SUBSYSTEM_INIT, KL_SUBSYSTEM_REGISTER, KL_SUBSYSTEM_UNREGISTER, KL_SUBSYS_GET,
	KL_SUBSYS_PUT,          /* the last: lifecycle_lua.c's table checks its size by it */
};
/*
 * kl_call() - init, add, del, register or unregister of the handle at 1 (nil passes NULL,
 * which the core reports), noted at the script's line. Raises only in the checks.
 * Return: 1 (the int pushed) for add and register, else 0.
 */
int kl_call(lua_State *L, enum kl_call call);
/*
 * kl_getput() - a get or put of the handle at 1. A stale handle is not an error: the
 * core records the use after release (get_unless_zero quietly gives nil). A get pushes
 * the handle if the core returned the object, else nil. Return: the number pushed.
 */
int kl_getput(lua_State *L, enum kl_call call);

/* modern_lua.c: today's halves of the two calls whose name the eras share */
int kl_kobject_init_ktype(lua_State *L);   /* kobject_init(kobj, ktype) */
int kl_kobject_add_named(lua_State *L);    /* kobject_add(kobj, parent, fmt, ...) */
/* Argument @arg as a parent: nil, a kobject, or the kernel_kobj function itself. */
struct kobject *kl_check_parent(lua_State *L, int arg, const char *op);

/* uevent_lua.c: reads a uevent_ops table (at @idx, nil clears) into kset node @n. */
void kl_set_uevent_ops(lua_State *L, struct kl_node *n, int idx);

/* attr_lua.c */
/* A sysfs mode at @idx: an integer or an octal string ("0644"); raises with the kernel's
 * VERIFY_OCTAL_PERMISSIONS rule for a bad one, naming @what in @op's message. */
mode_t kl_check_mode(lua_State *L, int idx, const char *what, const char *op);
/* The mode at @idx, an integer or an octal string ("0644", "644", "0o644"), unchecked;
 * Return: false if it is neither. */
bool kl_to_mode(lua_State *L, int idx, lua_Integer *mode);
/* Raises unless the string at @idx can name a sysfs file (@what in @op's message). */
const char *kl_check_file_name(lua_State *L, int idx, const char *what, const char *op);
/* Pushes field @name of the table at @idx; raises unless it is nil or a function. */
void kl_push_function_field(lua_State *L, int idx, const char *name, const char *op);
/* Whether the value at @idx is kobj_sysfs_ops. */
bool kl_is_kobj_sysfs_ops(lua_State *L, int idx);
/* Fills @ref: a kobj_attribute named @name, mode @mode, whose show/store are @attr's. */
void kl_attr_ref_init(struct kl_attr_ref *ref, const char *name, mode_t mode,
		      struct kl_node *attr, struct kl_node *group);

/* kref_lua.c: the container a kref box at @idx was embedded in, pushed; false if @idx
 * is not a kref box (nothing pushed). */
bool kl_kref_container(lua_State *L, int idx, const char *member);

/* sysfs_lua.c: C memory that must outlive calls that can raise, freed by __gc/__close. */
struct kl_box {
	void *mem;
	size_t len;
	FILE *f;
};
struct kl_box *kl_new_box(lua_State *L);          /* [] -> [box] */

/* hotplug_lua.c: reads a hotplug_ops table (at @idx) into node @n. */
void kl_set_hotplug(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, int idx);

/* kobject_lua.c: shared property code for kobject-like handles */
/*
 * The node of the @type handle at 1 for a read of @key; raises as kl_check does, except
 * that a released handle still answers "state" and "id": then NULL, with the value pushed.
 */
struct kl_node *kl_read_node(lua_State *L, struct kl_ctx *ctx, enum kl_type type,
			     const char *key);
/* Pushes the value of a common field of @n's kobject (name, refcount, state, path, id);
 * Return: false if @key is not one. */
bool kl_common_field(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *key);
/* kobject_set_name(obj, fmt, ...) for the @type handle at 1 (or nil): pushes 0 or -errno. */
int kl_set_name(lua_State *L, enum kl_type type);
/* Names @n through kobject_set_name; raises "@op: kobject_set_name failed (err)" on failure. */
void kl_name_node(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, const char *name,
		  const char *op);
/* Sets the name (the string at @vidx) through kobject_set_name; raises if it fails. */
void kl_assign_name(lua_State *L, struct kl_ctx *ctx, struct kl_node *n, int vidx);
/* __tostring of every handle type ("kobject 'foo' refcount=2 in sysfs /sys/foo"). */
int kl_handle_tostring(lua_State *L);
/* Would making @parent the parent of @self put @self above itself? */
bool kl_makes_cycle(const struct kobject *self, const struct kobject *parent);
/* Formats arguments @first.. with string.format; pushes the result. */
void kl_format(lua_State *L, int first, const char *op);

/* Negative errno as Lua returns it; message for a failed query. */
int kl_fail(lua_State *L, const char *op, const char *what, long err);

#endif
