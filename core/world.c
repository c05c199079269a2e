/* The world: records, the address map, interned strings, memory, and the current world. */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/modern_internal.h"

/* ============================================================================ memory */

static bool (*alloc_gate)(size_t bytes, void *ud);
static void *alloc_gate_ud;

void kobj_set_alloc_gate(bool (*gate)(size_t bytes, void *ud), void *ud)
{
	alloc_gate = gate;
	alloc_gate_ud = ud;
}

static size_t work_noted;

void kobj_charge_work(size_t units)
{
	work_noted = units > SIZE_MAX - work_noted ? SIZE_MAX : work_noted + units;
}

size_t kobj_take_work(void)
{
	size_t units = work_noted;

	work_noted = 0;
	return units;
}

/* Whether the gate lets an allocation of @n bytes go ahead (it counts every one). */
static bool gate_allows(size_t n)
{
	return !alloc_gate || alloc_gate(n, alloc_gate_ud);
}

static void out_of_memory(void)
{
	fputs("kobject sandbox: out of memory\n", stderr);
	abort();
}

void *kobj_xmalloc(size_t n)
{
	gate_allows(n);
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *kobj_xcalloc(size_t n, size_t size)
{
	gate_allows(n * size);
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *kobj_xrealloc(void *p, size_t n)
{
	gate_allows(n);
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *kobj_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(kobj_xmalloc(n), s, n);
}

char *kobj_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	char *s = kobj_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void kobj_grow(void **array, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	*array = kobj_xrealloc(*array, n * elem);
	*cap = n;
}

void *kobj_kmalloc(struct kobj_world *w, size_t n)
{
	if (w->fail_alloc_in && --w->fail_alloc_in == 0)
		return NULL;
	if (!gate_allows(n))
		return NULL;
	return malloc(n ? n : 1);
}

void kobj_world_fail_alloc(struct kobj_world *w, unsigned nth)
{
	w->fail_alloc_in = nth;
}

/* ============================================================================ worlds */

static struct kobj_world *current_world;

struct kobj_world *kobj_world_new(void)
{
	struct kobj_world *w = kobj_xcalloc(1, sizeof(*w));
	kobj_sysfs_init(w);
	return w;
}

static void free_strings(struct str_set *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slots[i]);
	free(set->slots);
}

void kobj_world_free(struct kobj_world *w)
{
	if (!w)
		return;
	kobj_modern_teardown(w); /* runs delayed releases while the world still works */
	if (current_world == w)
		current_world = NULL;
	kobj_sysfs_free(w);
	kobj_modules_free(w);
	for (unsigned id = 1; id <= w->nrecords; id++)
		free(kobj_rec(w, id)->name);
	for (size_t i = 0; i < w->nchunks; i++)
		free(w->chunks[i]);
	free(w->chunks);
	free(w->addrs.keys);
	free(w->addrs.vals);
	free(w->events);
	for (size_t i = 0; i < w->ndiags; i++) {
		free(w->diags[i].message);
		free(w->diags[i].explanation);
	}
	free(w->diags);
	for (size_t i = 0; i < w->nhotplugs; i++) {
		struct kobj_hotplug_event *ev = &w->hotplugs[i];
		free(ev->devpath);
		free(ev->subsystem);
		for (int j = 0; j < ev->envc; j++)
			free(ev->envp[j]);
		free(ev->envp);
	}
	free(w->hotplugs);
	free_strings(&w->strings);
	for (size_t i = 0; i < w->nktype_names; i++)
		free(w->ktype_names[i].name);
	free(w->ktype_names);
	free(w);
}

static void free_default_world(void)
{
	kobj_world_free(current_world);
}

struct kobj_world *kobj_world_current(void)
{
	static int registered;
	if (!current_world) {
		current_world = kobj_world_new();
		if (!registered++)
			atexit(free_default_world);
	}
	return current_world;
}

struct kobj_world *kobj_world_peek(void)
{
	return current_world;
}

struct kobj_world *kobj_world_use(struct kobj_world *w)
{
	struct kobj_world *old = current_world;
	current_world = w;
	return old;
}

void kobj_world_on_diag(struct kobj_world *w,
			void (*fn)(const struct kobj_diag *d, void *ctx), void *ctx)
{
	w->on_diag = fn;
	w->on_diag_ctx = ctx;
}

void kobj_world_on_release(struct kobj_world *w,
			   void (*fn)(const struct kobj_record *r, void *ctx), void *ctx)
{
	w->on_release = fn;
	w->on_release_ctx = ctx;
}

/* =========================================================================== origins */

static _Thread_local struct kobj_origin noted;

void kobj_note_origin(const char *file, int line)
{
	noted.file = file;
	noted.line = line;
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

const char *kobj_intern(struct kobj_world *w, const char *s)
{
	struct str_set *set = &w->strings;
	if (2 * (set->used + 1) > set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		char **slots = kobj_xcalloc(cap, sizeof(*slots));
		for (size_t i = 0; i < set->cap; i++) {
			char *t = set->slots[i];
			if (!t)
				continue;
			size_t j = hash_str(t) & (cap - 1);
			while (slots[j])
				j = (j + 1) & (cap - 1);
			slots[j] = t;
		}
		free(set->slots);
		set->slots = slots;
		set->cap = cap;
	}
	size_t j = hash_str(s) & (set->cap - 1);
	while (set->slots[j]) {
		if (strcmp(set->slots[j], s) == 0)
			return set->slots[j];
		j = (j + 1) & (set->cap - 1);
	}
	set->slots[j] = kobj_xstrdup(s);
	set->used++;
	return set->slots[j];
}

struct kobj_origin kobj_take_origin(struct kobj_world *w)
{
	struct kobj_origin o = noted;
	noted.file = NULL;
	noted.line = 0;
	if (!o.file)
		return o;
	/* C callers pass the same __FILE__ pointer again and again. */
	if (o.file != w->last_file_in) {
		w->last_file_in = o.file;
		w->last_file_out = kobj_intern(w, o.file);
	}
	o.file = w->last_file_out;
	return o;
}

const char *kobj_where(struct kobj_origin o, char buf[256])
{
	if (!o.file)
		return "an unknown place";
	snprintf(buf, 256, "%s:%d", o.file, o.line);
	return buf;
}

/* =========================================================================== records */

static void addr_put(struct addr_map *m, uintptr_t key, unsigned val)
{
	if (2 * (m->used + 1) > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1024;
		uintptr_t *keys = kobj_xcalloc(cap, sizeof(*keys));
		unsigned *vals = kobj_xcalloc(cap, sizeof(*vals));
		kobj_hash_move(keys, vals, cap, m->keys, m->vals, m->cap, sizeof(*vals));
		m->keys = keys;
		m->vals = vals;
		m->cap = cap;
	}
	size_t j = kobj_hash_slot(m->keys, m->cap, key);
	if (!m->keys[j])
		m->used++;
	m->keys[j] = key;
	m->vals[j] = val;
}

static unsigned addr_get(const struct addr_map *m, uintptr_t key)
{
	if (!m->cap || !key)
		return 0;
	size_t j = kobj_hash_slot(m->keys, m->cap, key);
	return m->keys[j] ? m->vals[j] : 0;
}

struct kobj_record *kobj_rec(const struct kobj_world *w, unsigned id)
{
	if (id == 0 || id > w->nrecords)
		return NULL;
	id--;
	return &w->chunks[id / RECORDS_PER_CHUNK][id % RECORDS_PER_CHUNK];
}

struct kobj_record *kobj_record_new(struct kobj_world *w, enum kobj_kind kind, const void *ptr,
				    const char *name, struct kobj_origin o)
{
	if (w->nrecords % RECORDS_PER_CHUNK == 0) {
		w->chunks = kobj_xrealloc(w->chunks, (w->nchunks + 1) * sizeof(*w->chunks));
		w->chunks[w->nchunks++] =
			kobj_xcalloc(RECORDS_PER_CHUNK, sizeof(struct kobj_record));
	}
	struct kobj_record *r = kobj_rec(w, ++w->nrecords);
	r->id = w->nrecords;
	r->kind = kind;
	r->ptr = ptr;
	r->name = kobj_xstrdup(name);
	r->init_at = o;
	addr_put(&w->addrs, (uintptr_t)ptr, r->id);
	return r;
}

struct kobj_record *kobj_any(struct kobj_world *w, const void *ptr)
{
	unsigned id = addr_get(&w->addrs, (uintptr_t)ptr);
	return (id & UNKNOWN_BIT) ? NULL : kobj_rec(w, id);
}

struct kobj_record *kobj_live(struct kobj_world *w, const void *ptr)
{
	struct kobj_record *r = kobj_any(w, ptr);
	return r && !r->released ? r : NULL;
}

void kobj_rec_set_name(struct kobj_record *r, const char *name)
{
	if (strcmp(r->name, name) == 0)
		return;
	free(r->name);
	r->name = kobj_xstrdup(name);
}

size_t kobj_record_count(const struct kobj_world *w)
{
	return w->nrecords;
}

const struct kobj_record *kobj_record_by_id(const struct kobj_world *w, unsigned id)
{
	return kobj_rec(w, id);
}

const struct kobj_record *kobj_record_of(const struct kobj_world *w, const void *ptr)
{
	return kobj_any((struct kobj_world *)w, ptr);
}

const char *kobj_fake_pointer(unsigned id, char buf[17])
{
	/* Shaped like the kernel's hashed %p: upper half zero, lower half scrambled. */
	uint32_t x = id * 2654435761u;
	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	snprintf(buf, 17, "00000000%08x", (unsigned)x);
	return buf;
}

const char *kobj_unknown_pointer(struct kobj_world *w, const void *ptr, char buf[17])
{
	if (!ptr)
		return strcpy(buf, "0000000000000000");
	unsigned v = addr_get(&w->addrs, (uintptr_t)ptr);
	if (!v) {
		v = UNKNOWN_BIT | ++w->nunknown;
		addr_put(&w->addrs, (uintptr_t)ptr, v);
	}
	return kobj_fake_pointer(v, buf);
}
