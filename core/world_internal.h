/* What the core's files share and users do not see. */
#ifndef KOBJ_WORLD_INTERNAL_H
#define KOBJ_WORLD_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include "core/kobject.h"

#define RECORDS_PER_CHUNK 4096

/* Address -> record id; ids with UNKNOWN_BIT name addresses never initialised. */
#define UNKNOWN_BIT 0x80000000u
struct addr_map {
	uintptr_t *keys;
	unsigned *vals;
	size_t cap, used;
};

struct str_set {
	char **slots;
	size_t cap, used;
};

struct dirent_map {
	struct sysfs_dirent **buckets;
	size_t cap, used;
};

struct kobj_world {
	struct kobj_record **chunks;
	size_t nchunks;
	unsigned nrecords;
	unsigned nunknown;
	struct addr_map addrs;

	struct kobj_event *events;
	size_t nevents, events_cap;
	struct kobj_diag *diags;
	size_t ndiags, diags_cap;
	struct kobj_hotplug_event *hotplugs;
	size_t nhotplugs, hotplugs_cap;
	unsigned long hotplug_seqnum;

	struct str_set strings;
	const char *last_file_in, *last_file_out; /* interning fast path */

	struct sysfs_dirent *sysfs_root;
	struct dirent_map dirents;

	struct module **modules;
	size_t nmodules, modules_cap;

	struct ktype_name {
		const struct kobj_type *ktype;
		char *name;
	} *ktype_names;
	size_t nktype_names, ktype_names_cap;

	unsigned fail_alloc_in; /* 0: off; n: the nth allocation from now fails */

	void (*on_diag)(const struct kobj_diag *d, void *ctx);
	void *on_diag_ctx;
	void (*on_release)(const struct kobj_record *r, void *ctx);
	void *on_release_ctx;

	struct kobj_modern *modern; /* today's API: clock, delayed releases, trace (debug.c) */
};

/* The current world without making one (NULL if there is none). */
struct kobj_world *kobj_world_peek(void);

/* Memory the sandbox itself needs: failure aborts, as it is not part of the model. */
void *kobj_xmalloc(size_t n);
void *kobj_xcalloc(size_t n, size_t size);
void *kobj_xrealloc(void *p, size_t n);
char *kobj_xstrdup(const char *s);
char *kobj_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Grow *array to hold at least need elements. */
void kobj_grow(void **array, size_t *cap, size_t need, size_t elem);

/* Memory the simulated kernel allocates (names, sysfs entries): fault injection applies. */
void *kobj_kmalloc(struct kobj_world *w, size_t n);

/* The origin noted for this call, interned; clears the note so nested calls start fresh. */
struct kobj_origin kobj_take_origin(struct kobj_world *w);
const char *kobj_intern(struct kobj_world *w, const char *s);
/* "demo.c:12", or "an unknown place"; the buffer must hold 256 bytes. */
const char *kobj_where(struct kobj_origin o, char buf[256]);

struct kobj_record *kobj_record_new(struct kobj_world *w, enum kobj_kind kind, const void *ptr,
				    const char *name, struct kobj_origin o);
struct kobj_record *kobj_rec(const struct kobj_world *w, unsigned id);
/* The latest record for @ptr if it is initialised and not released, else NULL. */
struct kobj_record *kobj_live(struct kobj_world *w, const void *ptr);
/* The record for @ptr whatever its state, or NULL if it was never initialised. */
struct kobj_record *kobj_any(struct kobj_world *w, const void *ptr);
/* A stable fake pointer for an address that was never initialised. */
const char *kobj_unknown_pointer(struct kobj_world *w, const void *ptr, char buf[17]);
void kobj_rec_set_name(struct kobj_record *r, const char *name);

void kobj_log(struct kobj_world *w, enum kobj_event_kind kind, const char *op, unsigned obj,
	      unsigned holder, int before, int after, unsigned aux, struct kobj_origin o);

/* Takes ownership of the two malloc'd strings. Return: the diagnostic's index. */
size_t kobj_diag_add(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		     struct kobj_origin o, char *message, char *explanation);

/* Reference counting with a holder (0: the caller) and the name of the call. */
struct kobject *kobj_get_ref(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
			     const char *op, unsigned holder);
void kobj_put_ref(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o,
		  const char *op, unsigned holder);
/* The article's init; Return: the record, or NULL with a diagnostic for @op. */
struct kobj_record *kobj_init_as(struct kobj_world *w, struct kobject *kobj, enum kobj_kind kind,
				 struct kobj_origin o, const char *op);
/* Either era's init (@modern: today's, which requires @ktype and stores it in @kobj). */
struct kobj_record *kobj_init_era(struct kobj_world *w, struct kobject *kobj, enum kobj_kind kind,
				  const struct kobj_type *ktype, bool modern, struct kobj_origin o,
				  const char *op);
int kobj_add_as(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o, const char *op);
void kobj_del_as(struct kobj_world *w, struct kobject *kobj, struct kobj_origin o, const char *op);

/* The object's copy of its count, for code that reads the article's field. */
static inline void kobj_sync_count(struct kobject *kobj, const struct kobj_record *r)
{
	kobj->refcount = r->refcount;
}

/* Naming, shared by both eras (kobject.c). The name @fmt makes, each '/' turned into '!'
 * as sysfs needs; Return: kmalloc'd, with *@len its printed length, or NULL (no memory). */
char *kobj_format_name(struct kobj_world *w, const char *fmt, va_list ap, size_t *len)
	__attribute__((format(printf, 2, 0)));
/* Installs @name (taken over) as the name: in kobj->name if @len fits, else on the heap.
 * With a record @r, its name follows and the log records @op. */
void kobj_install_name(struct kobj_world *w, struct kobject *kobj, struct kobj_record *r,
		       char *name, size_t len, struct kobj_origin o, const char *op);

/* sysfs */
void kobj_sysfs_init(struct kobj_world *w);
void kobj_sysfs_free(struct kobj_world *w);
struct sysfs_dirent *kobj_sysfs_root(struct kobj_world *w);
/* Return: the new directory, or NULL with *err = -EEXIST (or -ENOMEM). */
struct sysfs_dirent *kobj_sysfs_create_dir(struct kobj_world *w, struct sysfs_dirent *parent,
					   struct kobject *kobj, int *err);
int kobj_sysfs_create_file(struct kobj_world *w, struct sysfs_dirent *dir, struct attribute *a);
/* Removes @dir and all below it; kobjects below lose their dentry. */
void kobj_sysfs_remove_dir(struct kobj_world *w, struct sysfs_dirent *dir);
/* The children of @d sorted by name; *out is malloc'd (NULL when there are none). */
size_t kobj_sysfs_children(const struct sysfs_dirent *d, const struct sysfs_dirent ***out);
/* Full path "/a/b" without the /sys prefix, malloc'd. */
char *kobj_sysfs_path_of(const struct sysfs_dirent *d);

/* hotplug */
void kobj_hotplug(struct kobj_world *w, struct kobject *kobj, const char *action,
		  struct kobj_origin o);
/* "/a/b/c" from the names of @kobj and its parents, malloc'd. */
char *kobj_path(struct kobject *kobj);

void kobj_modules_free(struct kobj_world *w);

#endif
