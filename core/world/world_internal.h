/*
 * What the core's packages share about a world and its users do not see: the storage of
 * records, the ledger, the log, diagnostics and sites, the memory the core allocates, and
 * a slot per layer above (sysfs, the model, the views) for state of its own.
 */
#ifndef KOBJ_WORLD_INTERNAL_H
#define KOBJ_WORLD_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include "core/world/world.h"

/* ========================================================================== memory */

/* Memory the sandbox itself needs: counted in kobj_mem_in_use(); failure aborts, as it is
 * not part of the model. Free it with kobj_xfree(). */
void *kobj_xmalloc(size_t n);
void *kobj_xcalloc(size_t n, size_t size);
void *kobj_xrealloc(void *p, size_t n);
void kobj_xfree(void *p);
char *kobj_xstrdup(const char *s);
char *kobj_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *kobj_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Grow *array to hold at least @need elements of @elem bytes. */
void kobj_grow(void **array, size_t *cap, size_t need, size_t elem);

/* Memory the simulated kernel allocates (kmalloc, names, sysfs entries): NULL when fault
 * injection says so or the memory limit is reached. Free it with kobj_xfree(). */
void *kobj_kmalloc(struct kobj_world *w, size_t n);

/* ========================================================================== layers */

/* The packages above the world keep their state in it, made on first use. */
enum kobj_layer { KOBJ_LAYER_SYSFS, KOBJ_LAYER_MODEL, KOBJ_LAYER_VIEWS, KOBJ_LAYER_COUNT };

/* The layer's state, or NULL. */
static inline void *kobj_layer(const struct kobj_world *w, enum kobj_layer layer);
/* Sets the layer's state and what frees it; layers are freed top first. */
void kobj_set_layer(struct kobj_world *w, enum kobj_layer layer, void *state,
		    void (*free_state)(struct kobj_world *w, void *state));

/* =================================================================== the world itself */

struct kobj_site_entry {
	const char *file; /* interned */
	const char *func; /* interned, or NULL */
	int line;
	unsigned caller;  /* the site that called this one's function, or 0 */
};

struct kobj_ledger_entry; /* ledger.c */
struct kobj_ev;           /* log.c */

struct kobj_world {
	unsigned tag;           /* 1, 2, ... per world made: what a site note remembers */

	/* records: chunks of RECORDS_PER_CHUNK, so pointers to them stay valid */
	struct kobj_record **chunks;
	size_t nchunks;
	unsigned nrecords;
	unsigned nreleased;

	/* the ledger */
	struct kobj_ledger_entry *refs;
	size_t nrefs, refs_cap;
	unsigned free_head, free_tail; /* free entries, reused oldest first */
	unsigned long serial;          /* of the last reference taken */

	/* the log: chunks of LOG_CHUNK events */
	struct kobj_ev **log;
	size_t nevents, log_chunks;
	bool logging_off;

	/* diagnostics */
	struct kobj_diag *diags;
	size_t ndiags, diags_cap;

	/* sites and interned strings */
	struct kobj_site_entry *sites;
	size_t nsites, sites_cap;
	struct kobj_map { uintptr_t *keys; unsigned *vals; size_t cap, used; } site_map, note_map;
	struct { char **slots; size_t cap, used; } strings;
	const char *last_file_in, *last_file_out; /* interning fast path */
	struct kobj_map unknown;                   /* addresses never initialised */
	unsigned nunknown;

	bool site_from_c;       /* the last site taken came from a C call site's note */
	unsigned long long last_take; /* token of the last reference taken (kobj_ledger_token) */
	unsigned long long next_put; /* a token the next put must drop (ref_tracker), or 0 */
	unsigned next_put_obj;       /* ... only if it is a put on this object (0: any) */

	unsigned fail_alloc_in; /* 0: off; n: the nth allocation from now fails */
	unsigned thread;        /* the simulated thread running now (0: the only one) */

	void (*on_diag)(const struct kobj_diag *d, void *ctx);
	void *on_diag_ctx;
	void (*on_release)(const struct kobj_record *r, void *ctx);
	void *on_release_ctx;

	void *layers[KOBJ_LAYER_COUNT];
	void (*free_layer[KOBJ_LAYER_COUNT])(struct kobj_world *w, void *state);
};

static inline void *kobj_layer(const struct kobj_world *w, enum kobj_layer layer)
{
	return w->layers[layer];
}

/* What kobj_world_free() frees of the log and the diagnostics. */
void kobj_log_free(struct kobj_world *w);
void kobj_diags_free(struct kobj_world *w);

/* ========================================================================== records */

#define RECORDS_PER_CHUNK 4096

/* The record @id, or NULL. */
static inline struct kobj_record *kobj_rec(const struct kobj_world *w, unsigned id)
{
	if (id == 0 || id > w->nrecords)
		return NULL;
	id--;
	return &w->chunks[id / RECORDS_PER_CHUNK][id % RECORDS_PER_CHUNK];
}

struct kobj_record *kobj_record_new(struct kobj_world *w, enum kobj_kind kind,
				    enum kobj_era era, const void *ptr, const char *name,
				    unsigned site);
void kobj_rec_set_name(struct kobj_record *r, const char *name);
/* Frees an allocated name; the record's name is "" after. */
void kobj_rec_free_name(struct kobj_record *r);
/* Marks @r released now, at @site (the release order counts up). */
void kobj_rec_mark_released(struct kobj_world *w, struct kobj_record *r, unsigned site);

/* ========================================================================== origins */

/* Maps of non-zero keys to non-zero values (0: absent), open addressing. */
unsigned kobj_map_get(const struct kobj_map *m, uintptr_t key);
void kobj_map_put(struct kobj_map *m, uintptr_t key, unsigned val);
void kobj_map_del(struct kobj_map *m, uintptr_t key);
void kobj_map_free(struct kobj_map *m);

/* kobj_take_site()'s way for every note but a C call site already interned in @w. */
unsigned kobj_take_site_slow(struct kobj_world *w);
/* The site noted for this call, interned; clears the note so nested calls start fresh. */
static inline unsigned kobj_take_site(struct kobj_world *w)
{
	struct kobj_site_note *c = kobj_noted.c;
	if (c && c->world == w->tag) { /* kobj_note_site() left the rest of the note empty */
		kobj_noted.c = NULL;
		w->site_from_c = true;
		return c->id;
	}
	return kobj_take_site_slow(w);
}
const char *kobj_intern(struct kobj_world *w, const char *s);

/* ========================================================================== the log */

/* What an event says beyond its kind, object and counts. */
struct kobj_ev_args {
	const char *op, *step;
	unsigned holder;
	unsigned long ref;
	enum kobj_ref_kind ref_kind;
	bool chosen;
	unsigned aux;
};

/* Appends an event (nothing with the log off). Return: its seq, or 0. */
unsigned long kobj_log(struct kobj_world *w, enum kobj_event_kind kind, unsigned obj,
		       int before, int after, unsigned site, const struct kobj_ev_args *args);
/* kobj_log_simple() - an event that names only its call. */
unsigned long kobj_log_op(struct kobj_world *w, enum kobj_event_kind kind, const char *op,
			  unsigned obj, int before, int after, unsigned aux, unsigned site);

/* Call names as small codes, process-wide ("kobject_get" -> 7). @name must live as long
 * as the process (a string literal): it is kept, and found again by its address, first in
 * a small cache indexed by the address, then in a map. */
struct kobj_op_slot {
	const char *name;
	unsigned code;
};
#define KOBJ_OP_CACHE 64
extern struct kobj_op_slot kobj_op_cache[KOBJ_OP_CACHE];
unsigned kobj_op_code_slow(const char *name);
static inline unsigned kobj_op_code(const char *name)
{
	const struct kobj_op_slot *s = &kobj_op_cache[((uintptr_t)name >> 3) % KOBJ_OP_CACHE];
	if (!name)
		return 0;
	return s->name == name ? s->code : kobj_op_code_slow(name);
}
const char *kobj_op_name(unsigned code);

/* ====================================================================== diagnostics */

/* Takes ownership of the two malloc'd strings. Return: the diagnostic's index. */
size_t kobj_diag_add(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		     unsigned site, char *message, char *explanation);

/* ======================================================================= the ledger */

/* Who asks for a reference, or gives one back. */
struct kobj_holder {
	enum kobj_ref_kind kind;
	unsigned holder;      /* the holding object for PARENT, KSET, SYSFS; else 0 */
	unsigned site;        /* where */
	const char *op;       /* the call */
};

/* Records a new reference on @obj; Return: the entry's index (the holder keeps it when it
 * is an object), its serial in *@serial if wanted. */
unsigned kobj_ledger_take(struct kobj_world *w, struct kobj_record *obj,
			  const struct kobj_holder *h, unsigned long *serial);
/* Drops the entry @e (an index from kobj_ledger_take) of @obj; Return: its serial. */
unsigned long kobj_ledger_drop(struct kobj_world *w, struct kobj_record *obj, unsigned e,
			       unsigned site);

/* What a caller's put may give back. */
enum kobj_pick {
	KOBJ_PICK_FOUND,      /* one reference fits best */
	KOBJ_PICK_CHOSEN,     /* several fit as well: the rules chose one */
	KOBJ_PICK_NONE,       /* the caller holds none: only objects do */
	KOBJ_PICK_EMPTY,      /* there is no reference at all */
};
/*
 * kobj_ledger_pick() - the caller's reference a put at @site gives back
 * Rules, in order: a reference not carried by a reference handle before one that is;
 * from Lua, the creator's, then one taken in the same function, then the newest; from C,
 * one taken in the same function, then in the same file, then the creator's, then the
 * newest. Return: how it went; the entry in *@e for FOUND and CHOSEN.
 */
enum kobj_pick kobj_ledger_pick(const struct kobj_world *w, const struct kobj_record *obj,
				unsigned site, bool lua, unsigned *e);
/* A token names one reference for a reference handle; the entry it names, or 0 once that
 * reference was dropped (or @obj is not its object). */
unsigned long long kobj_ledger_token(const struct kobj_world *w, unsigned e);
unsigned kobj_ledger_entry_of(const struct kobj_world *w, unsigned long long token,
			      unsigned obj);
/* The object whose outstanding reference @token names, or 0. */
unsigned kobj_ledger_object_of(const struct kobj_world *w, unsigned long long token);
/* kobj_ledger_creator() - the creator's reference on @obj, if still held (0). */
unsigned kobj_ledger_creator(const struct kobj_world *w, const struct kobj_record *obj);
/* kobj_ledger_find() - the entry with @serial on @obj still outstanding, or 0. */
unsigned kobj_ledger_find(const struct kobj_world *w, const struct kobj_record *obj,
			  unsigned long serial);
/* The entry @e as data. */
void kobj_ledger_ref(const struct kobj_world *w, unsigned e, struct kobj_ref *out);
/* Marks an entry carried by a reference handle (or no longer: @tracked false). */
void kobj_ledger_track(struct kobj_world *w, unsigned e, bool tracked);
/* kobj_ledger_dropped_at() - where the reference @serial was dropped, if known (0). */
unsigned kobj_ledger_dropped_at(const struct kobj_world *w, unsigned long serial);
/* Drops every reference on @obj (its release when the count is forced to 0). */
void kobj_ledger_clear(struct kobj_world *w, struct kobj_record *obj, unsigned site);

#endif
