/*
 * Where calls come from: the note a kernel-named call's macro leaves, interned as a site
 * (file, line, function) per world, and the process-wide table of call names. Each is
 * looked up by a pointer first (C passes the same static site and the same literal again
 * and again) and by content only the first time.
 */
#include <stdio.h>
#include <string.h>

#include "core/world/hash.h"
#include "core/world/world_internal.h"

struct kobj_note kobj_noted;

void kobj_note_origin_in(const char *file, int line, const char *func)
{
	kobj_noted = (struct kobj_note){ .file = file, .line = line, .func = func };
}

void kobj_note_origin(const char *file, int line)
{
	kobj_note_origin_in(file, line, NULL);
}

/* ================================================================== maps of integers */

/* Return: the value stored for @key, or 0. */
static unsigned map_get(const struct kobj_map *m, uintptr_t key)
{
	if (!m->cap || !key)
		return 0;
	size_t j = kobj_hash_slot(m->keys, m->cap, key);
	return m->keys[j] ? m->vals[j] : 0;
}

static void map_put(struct kobj_map *m, uintptr_t key, unsigned val)
{
	if (2 * (m->used + 1) > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		uintptr_t *keys = kobj_xcalloc(cap, sizeof(*keys));
		unsigned *vals = kobj_xcalloc(cap, sizeof(*vals));
		m->used = 0;
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->keys[i] || !m->vals[i]) /* free, or deleted */
				continue;
			size_t j = kobj_hash_slot(keys, cap, m->keys[i]);
			keys[j] = m->keys[i];
			vals[j] = m->vals[i];
			m->used++;
		}
		kobj_xfree(m->keys);
		kobj_xfree(m->vals);
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

void kobj_map_del(struct kobj_map *m, uintptr_t key)
{
	if (!m->cap || !key)
		return;
	size_t j = kobj_hash_slot(m->keys, m->cap, key);
	if (m->keys[j])
		m->vals[j] = 0; /* the key stays, so that probing goes on past it */
}

void kobj_map_free(struct kobj_map *m)
{
	kobj_xfree(m->keys);
	kobj_xfree(m->vals);
}

unsigned kobj_map_get(const struct kobj_map *m, uintptr_t key)
{
	return map_get(m, key);
}

void kobj_map_put(struct kobj_map *m, uintptr_t key, unsigned val)
{
	map_put(m, key, val);
}

/* ====================================================================== interning */

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

const char *kobj_intern(struct kobj_world *w, const char *s)
{
	if (2 * (w->strings.used + 1) > w->strings.cap) {
		size_t cap = w->strings.cap ? w->strings.cap * 2 : 64;
		char **slots = kobj_xcalloc(cap, sizeof(*slots));
		for (size_t i = 0; i < w->strings.cap; i++) {
			char *t = w->strings.slots[i];
			if (!t)
				continue;
			size_t j = hash_str(t) & (cap - 1);
			while (slots[j])
				j = (j + 1) & (cap - 1);
			slots[j] = t;
		}
		kobj_xfree(w->strings.slots);
		w->strings.slots = slots;
		w->strings.cap = cap;
	}
	size_t j = hash_str(s) & (w->strings.cap - 1);
	while (w->strings.slots[j]) {
		if (strcmp(w->strings.slots[j], s) == 0)
			return w->strings.slots[j];
		j = (j + 1) & (w->strings.cap - 1);
	}
	w->strings.slots[j] = kobj_xstrdup(s);
	w->strings.used++;
	return w->strings.slots[j];
}

static const char *intern_file(struct kobj_world *w, const char *file)
{
	/* C callers pass the same __FILE__ pointer again and again. */
	if (file != w->last_file_in) {
		w->last_file_in = file;
		w->last_file_out = kobj_intern(w, file);
	}
	return w->last_file_out;
}

/* =========================================================================== sites */

static uintptr_t site_key(const char *file, int line, const char *func, unsigned caller)
{
	/* interned pointers: equal places give equal keys; 0 is reserved for "empty" */
	uintptr_t k = (uintptr_t)kobj_hash_ptr((uintptr_t)file) ^ ((uintptr_t)line * 0x9E3779B97F4A7C15u);
	k ^= (uintptr_t)kobj_hash_ptr((uintptr_t)func + 1);
	k ^= (uintptr_t)caller * 0xC2B2AE3D27D4EB4Fu;
	return k ? k : 1;
}

/* The next key to try after a collision (never 0, which marks a free slot). */
static uintptr_t next_key(uintptr_t key)
{
	key = key * 31 + 7;
	return key ? key : 1;
}

/* The site for interned @file and @func; keys may collide, so entries are compared. */
static unsigned site_of(struct kobj_world *w, const char *file, int line, const char *func,
			unsigned caller)
{
	uintptr_t key = site_key(file, line, func, caller);
	for (;; key = next_key(key)) {
		unsigned id = map_get(&w->site_map, key);
		if (!id)
			break;
		const struct kobj_site_entry *s = &w->sites[id - 1];
		if (s->file == file && s->line == line && s->func == func && s->caller == caller)
			return id;
	}
	kobj_grow((void **)&w->sites, &w->sites_cap, w->nsites + 1, sizeof(*w->sites));
	w->sites[w->nsites++] = (struct kobj_site_entry){ file, func, line, caller };
	map_put(&w->site_map, key, (unsigned)w->nsites);
	return (unsigned)w->nsites;
}

unsigned kobj_site_in(struct kobj_world *w, const char *file, int line, const char *func,
		      unsigned caller)
{
	if (!file)
		return 0;
	if (caller > w->nsites)
		caller = 0;
	return site_of(w, intern_file(w, file), line, func ? kobj_intern(w, func) : NULL, caller);
}

unsigned kobj_site(struct kobj_world *w, const char *file, int line, const char *func)
{
	return kobj_site_in(w, file, line, func, 0);
}

unsigned kobj_site_caller(const struct kobj_world *w, unsigned site)
{
	return site && site <= w->nsites ? w->sites[site - 1].caller : 0;
}

unsigned kobj_take_site_slow(struct kobj_world *w)
{
	struct kobj_note n = kobj_noted;
	unsigned site = 0;

	kobj_noted = (struct kobj_note){ 0 };
	w->site_from_c = n.c != NULL;
	if (n.site)
		return n.site <= w->nsites ? n.site : 0;
	if (n.c) {
		/* another world interned it before: that world's id is not ours */
		site = map_get(&w->note_map, (uintptr_t)n.c);
		if (!site) {
			site = kobj_site(w, n.c->file, n.c->line, n.c->func);
			map_put(&w->note_map, (uintptr_t)n.c, site);
		}
		n.c->world = w->tag;
		n.c->id = site;
		return site;
	}
	return kobj_site(w, n.file, n.line, n.func);
}

struct kobj_origin kobj_site_origin(const struct kobj_world *w, unsigned site)
{
	if (site == 0 || site > w->nsites)
		return (struct kobj_origin){ NULL, 0, NULL };
	const struct kobj_site_entry *s = &w->sites[site - 1];
	return (struct kobj_origin){ s->file, s->line, s->func };
}

const char *kobj_where(struct kobj_origin o, char buf[256])
{
	if (!o.file)
		return "an unknown place";
	if (o.line == 0 && o.func) /* made at boot: no line of the user's */
		snprintf(buf, 256, "%s:%s()", o.file, o.func);
	else
		snprintf(buf, 256, "%s:%d", o.file, o.line);
	return buf;
}

const char *kobj_site_where(const struct kobj_world *w, unsigned site, char buf[256])
{
	return kobj_where(kobj_site_origin(w, site), buf);
}

/* ====================================================================== call names */

/* Process-wide, append-only: the names are the core's and the bindings' literals. */
static struct {
	const char **names;
	size_t n, cap;
	struct kobj_map by_ptr, by_hash;
} ops;

static unsigned op_by_content(const char *name)
{
	uintptr_t key = (uintptr_t)hash_str(name) | 1;
	for (;; key = next_key(key)) {
		unsigned code = map_get(&ops.by_hash, key);
		if (!code)
			break;
		if (strcmp(ops.names[code], name) == 0)
			return code;
	}
	if (ops.n == 0)
		ops.n = 1; /* code 0 is "no name" */
	kobj_grow((void **)&ops.names, &ops.cap, ops.n + 1, sizeof(*ops.names));
	ops.names[ops.n] = name;
	map_put(&ops.by_hash, key, (unsigned)ops.n);
	return (unsigned)ops.n++;
}

struct kobj_op_slot kobj_op_cache[KOBJ_OP_CACHE];

unsigned kobj_op_code_slow(const char *name)
{
	if (!name)
		return 0;
	unsigned code = map_get(&ops.by_ptr, (uintptr_t)name);
	if (!code) {
		code = op_by_content(name);
		map_put(&ops.by_ptr, (uintptr_t)name, code);
	}
	kobj_op_cache[((uintptr_t)name >> 3) % KOBJ_OP_CACHE] = (struct kobj_op_slot){ name, code };
	return code;
}

const char *kobj_op_name(unsigned code)
{
	return code && code < ops.n ? ops.names[code] : NULL;
}

/* The table goes with the code that made it: at exit, or when the Lua module that holds
 * the core is unloaded. */
__attribute__((destructor)) static void free_ops(void)
{
	kobj_xfree(ops.names);
	kobj_map_free(&ops.by_ptr);
	kobj_map_free(&ops.by_hash);
	memset(&ops, 0, sizeof(ops));
	memset(kobj_op_cache, 0, sizeof(kobj_op_cache));
}
