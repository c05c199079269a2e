/*
 * The virtual sysfs tree. Entries sit in one hash table keyed by (parent, name), so a
 * directory with a million entries still finds a name, or a clash, at once; each
 * directory also keeps its children in a circular list in creation order, sorted only
 * when listed. An entry and its name are one allocation.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sysfs/sysfs_tree.h"
#include "core/world/hash.h"

struct sysfs_dirent {
	char *name;                        /* the inline name, or a copy after a rename */
	struct sysfs_dirent *parent;
	struct sysfs_dirent *first;        /* children; first->prev is the last */
	struct sysfs_dirent *prev, *next;  /* siblings, circular */
	struct sysfs_dirent *hash_next;
	struct kobject *kobj;
	union {
		struct attribute *attr;    /* SYSFS_FILE */
		char *link_path;           /* SYSFS_LINK: "/sys/..." when it was made */
	};
	unsigned hash;                     /* of (parent, name): its place in the table */
	unsigned obj;                      /* the owner's record */
	union {
		unsigned link_target;      /* SYSFS_LINK: the target's record */
		unsigned events;           /* SYSFS_FILE: sysfs_notify() calls */
	};
	unsigned nchildren;
	unsigned short mode;
	unsigned char type;
	unsigned char object_dir : 1;
	unsigned char bin : 1;             /* SYSFS_FILE: a struct bin_attribute's */
	char inline_name[];
};

struct sysfs_state {
	struct sysfs_dirent *root;
	struct sysfs_dirent **buckets;
	size_t cap, used;
	void (*dir_gone)(struct kobj_world *w, unsigned obj, struct sysfs_dirent *d);
};

static void free_state(struct kobj_world *w, void *state);

static struct sysfs_state *state_of(const struct kobj_world *w)
{
	struct sysfs_state *s = kobj_layer(w, KOBJ_LAYER_SYSFS);
	if (!s) {
		s = kobj_xcalloc(1, sizeof(*s));
		s->root = kobj_xcalloc(1, sizeof(*s->root) + sizeof("sys"));
		s->root->name = strcpy(s->root->inline_name, "sys");
		s->root->type = SYSFS_DIR;
		kobj_set_layer((struct kobj_world *)w, KOBJ_LAYER_SYSFS, s, free_state);
	}
	return s;
}

struct sysfs_dirent *kobj_sysfs_root(struct kobj_world *w)
{
	return state_of(w)->root;
}

const struct sysfs_dirent *sysfs_root(const struct kobj_world *w)
{
	return state_of(w)->root;
}

void kobj_sysfs_on_dir_gone(struct kobj_world *w,
			    void (*fn)(struct kobj_world *w, unsigned obj, struct sysfs_dirent *d))
{
	state_of(w)->dir_gone = fn;
}

/* ======================================================================= the table */

/* Kept in each entry, so that a lookup compares names only where the hash matches and a
 * larger table rehashes no name. */
static unsigned entry_hash(const struct sysfs_dirent *parent, const char *name)
{
	uint64_t h = kobj_hash_ptr((uintptr_t)parent);
	while (*name)
		h = (h ^ (unsigned char)*name++) * 1099511628211u;
	return (unsigned)(h ^ h >> 32);
}

/* The entry @name in @parent, whose entry_hash() is @h, or NULL. */
static struct sysfs_dirent *find_hashed(const struct sysfs_state *s,
					const struct sysfs_dirent *parent, const char *name,
					unsigned h)
{
	if (!s->cap)
		return NULL;
	for (struct sysfs_dirent *d = s->buckets[h & (s->cap - 1)]; d; d = d->hash_next)
		if (d->hash == h && d->parent == parent && strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

static struct sysfs_dirent *find_child(const struct sysfs_state *s,
				       const struct sysfs_dirent *parent, const char *name)
{
	return find_hashed(s, parent, name, entry_hash(parent, name));
}

static void table_insert(struct sysfs_state *s, struct sysfs_dirent *d)
{
	if (s->used + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct sysfs_dirent **b = kobj_xcalloc(cap, sizeof(*b));
		for (size_t i = 0; i < s->cap; i++) {
			for (struct sysfs_dirent *e = s->buckets[i], *n; e; e = n) {
				n = e->hash_next;
				size_t j = e->hash & (cap - 1);
				e->hash_next = b[j];
				b[j] = e;
			}
		}
		kobj_xfree(s->buckets);
		s->buckets = b;
		s->cap = cap;
	}
	struct sysfs_dirent **slot = &s->buckets[d->hash & (s->cap - 1)];
	d->hash_next = *slot;
	*slot = d;
	s->used++;
}

static void table_remove(struct sysfs_state *s, struct sysfs_dirent *d)
{
	struct sysfs_dirent **p = &s->buckets[d->hash & (s->cap - 1)];
	while (*p != d)
		p = &(*p)->hash_next;
	*p = d->hash_next;
	s->used--;
}

/* ========================================================================== shape */

/* Links @d as @parent's last child, and into the table under its current name, whose
 * entry_hash() in @parent is @hash. */
static void attach(struct sysfs_state *s, struct sysfs_dirent *d, struct sysfs_dirent *parent,
		   unsigned hash)
{
	d->parent = parent;
	d->hash = hash;
	if (parent->first) {
		d->next = parent->first;
		d->prev = parent->first->prev;
		d->prev->next = d;
		parent->first->prev = d;
	} else {
		parent->first = d->prev = d->next = d;
	}
	parent->nchildren++;
	table_insert(s, d);
}

/* Takes @d off its parent's list and out of the table; its subtree stays whole. */
static void detach(struct sysfs_state *s, struct sysfs_dirent *d)
{
	struct sysfs_dirent *parent = d->parent;
	table_remove(s, d);
	if (d->next == d) {
		parent->first = NULL;
	} else {
		d->prev->next = d->next;
		d->next->prev = d->prev;
		if (parent->first == d)
			parent->first = d->next;
	}
	d->prev = d->next = NULL;
	parent->nchildren--;
}

struct sysfs_dirent *kobj_sysfs_add(struct kobj_world *w, struct sysfs_dirent *dir,
				    const char *name, enum sysfs_type type, unsigned obj,
				    struct kobject *kobj, struct attribute *attr, unsigned mode,
				    int object_dir, int *err)
{
	struct sysfs_state *s = state_of(w);
	size_t len = strlen(name);
	unsigned hash = entry_hash(dir, name);

	if (find_hashed(s, dir, name, hash)) {
		*err = -EEXIST;
		return NULL;
	}
	struct sysfs_dirent *d = kobj_kmalloc(w, sizeof(*d) + len + 1);
	if (!d) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	d->name = memcpy(d->inline_name, name, len + 1);
	d->type = (unsigned char)type;
	d->obj = obj;
	d->kobj = kobj;
	d->attr = attr;
	d->mode = (unsigned short)mode;
	d->object_dir = object_dir != 0;
	attach(s, d, dir, hash);
	return d;
}

struct sysfs_dirent *kobj_sysfs_add_link(struct kobj_world *w, struct sysfs_dirent *dir,
					 const char *name, unsigned owner, unsigned target,
					 int *err)
{
	struct kobj_record *t = kobj_rec(w, target);
	struct sysfs_dirent *d = kobj_sysfs_add(w, dir, name, SYSFS_LINK, owner, dir->kobj,
						NULL, 0777, 0, err);
	if (d) {
		char *rel = kobj_sysfs_path_of(t->dir);
		d->link_target = target;
		d->link_path = kobj_xasprintf("/sys%s", strcmp(rel, "/") ? rel : "");
		kobj_xfree(rel);
	}
	return d;
}

struct sysfs_dirent *kobj_sysfs_find(const struct kobj_world *w, const struct sysfs_dirent *dir,
				     const char *name)
{
	return find_child(state_of(w), dir, name);
}

static void free_entry(struct sysfs_dirent *d)
{
	if (d->name != d->inline_name)
		kobj_xfree(d->name);
	if (d->type == SYSFS_LINK)
		kobj_xfree(d->link_path);
	kobj_xfree(d);
}

/* Unlinks and frees @d and everything below it, without recursion. */
void kobj_sysfs_remove(struct kobj_world *w, struct sysfs_dirent *d)
{
	struct sysfs_state *s = state_of(w);
	struct sysfs_dirent *top = d;

	if (top->parent)
		detach(s, top);
	while (d) {
		if (d->first) { /* descend to a leaf */
			d = d->first;
			continue;
		}
		struct sysfs_dirent *up = d == top ? NULL : d->parent;
		if (up)
			detach(s, d);
		if (d != top && d->object_dir && s->dir_gone)
			s->dir_gone(w, d->obj, d); /* a child object's directory went too */
		free_entry(d);
		d = up;
	}
}

void kobj_sysfs_set_bin(struct sysfs_dirent *d)
{
	d->bin = d->type == SYSFS_FILE;
}

void kobj_sysfs_notify(struct sysfs_dirent *d)
{
	if (d->type != SYSFS_LINK)
		d->events++;
}

struct sysfs_dirent *kobj_sysfs_parent_of(struct sysfs_dirent *d)
{
	return d->parent;
}

int kobj_sysfs_rename(struct kobj_world *w, struct sysfs_dirent *d,
		      struct sysfs_dirent *new_parent, const char *new_name)
{
	struct sysfs_state *s = state_of(w);

	if (d->parent == new_parent && strcmp(d->name, new_name) == 0)
		return 0;
	for (const struct sysfs_dirent *up = new_parent; up; up = up->parent)
		if (up == d)
			return -EINVAL; /* into its own subtree: the tree would become a loop */
	unsigned hash = entry_hash(new_parent, new_name);
	if (find_hashed(s, new_parent, new_name, hash))
		return -EEXIST;
	char *name = kobj_xstrdup(new_name);
	detach(s, d);
	if (d->name != d->inline_name)
		kobj_xfree(d->name);
	d->name = name;
	attach(s, d, new_parent, hash); /* children are keyed by d itself: they stay */
	return 0;
}

static void free_state(struct kobj_world *w, void *state)
{
	struct sysfs_state *s = state;
	(void)w;
	s->dir_gone = NULL; /* the model is gone already */
	while (s->root->first)
		kobj_sysfs_remove(w, s->root->first);
	kobj_xfree(s->root);
	kobj_xfree(s->buckets);
	kobj_xfree(s);
	w->layers[KOBJ_LAYER_SYSFS] = NULL;
}

/* ========================================================================== lookups */

static size_t path_len(const struct sysfs_dirent *d)
{
	size_t n = 0;
	for (; d && d->parent; d = d->parent)
		n += strlen(d->name) + 1;
	return n;
}

char *kobj_sysfs_path_of(const struct sysfs_dirent *d)
{
	size_t n = path_len(d);
	char *s = kobj_xmalloc(n + 2);
	s[n] = '\0';
	if (n == 0)
		return strcpy(s, "/");
	for (; d && d->parent; d = d->parent) {
		size_t k = strlen(d->name);
		n -= k;
		memcpy(s + n, d->name, k);
		s[--n] = '/';
	}
	return s;
}

size_t sysfs_dirent_path(const struct sysfs_dirent *d, char *buf, size_t size)
{
	char *rel = kobj_sysfs_path_of(d);
	size_t need = (size_t)snprintf(buf, size, "/sys%s", strcmp(rel, "/") ? rel : "");
	kobj_xfree(rel);
	return need;
}

/* A link's target directory, found through the target's record. */
static const struct sysfs_dirent *follow(const struct kobj_world *w, const struct sysfs_dirent *d)
{
	const struct kobj_record *r = kobj_rec(w, d->link_target);
	return r && !r->released && r->in_sysfs ? r->dir : NULL;
}

const struct sysfs_dirent *sysfs_lookup(const struct kobj_world *w, const char *path)
{
	const struct sysfs_state *s = state_of(w);
	const struct sysfs_dirent *d = s->root;
	char name[4096];

	if (!path)
		return NULL;
	if (strncmp(path, "/sys", 4) == 0 && (path[4] == '/' || path[4] == '\0'))
		path += 4;
	while (*path && d) {
		while (*path == '/')
			path++;
		size_t n = strcspn(path, "/");
		if (n == 0)
			break;
		if (n >= sizeof(name) || d->type != SYSFS_DIR)
			return NULL;
		memcpy(name, path, n);
		name[n] = '\0';
		d = find_child(s, d, name);
		if (d && d->type == SYSFS_LINK)
			d = follow(w, d);
		path += n;
	}
	return d;
}

enum sysfs_type sysfs_dirent_type(const struct sysfs_dirent *d)
{
	return (enum sysfs_type)d->type;
}

const char *sysfs_dirent_name(const struct sysfs_dirent *d)
{
	return d->name;
}

unsigned sysfs_dirent_obj(const struct sysfs_dirent *d)
{
	return d->obj;
}

struct kobject *sysfs_dirent_kobj(const struct sysfs_dirent *d)
{
	return d->kobj;
}

int sysfs_dirent_is_object(const struct sysfs_dirent *d)
{
	return d->object_dir;
}

unsigned sysfs_dirent_mode(const struct sysfs_dirent *d)
{
	return d->type == SYSFS_FILE ? d->mode : 0;
}

int sysfs_dirent_is_bin(const struct sysfs_dirent *d)
{
	return d->type == SYSFS_FILE && d->bin;
}

unsigned sysfs_dirent_events(const struct sysfs_dirent *d)
{
	return d->type == SYSFS_LINK ? 0 : d->events;
}

struct attribute *sysfs_dirent_attr(const struct sysfs_dirent *d)
{
	return d->type == SYSFS_FILE ? d->attr : NULL;
}

const struct sysfs_dirent *sysfs_dirent_parent(const struct sysfs_dirent *d)
{
	return d->parent;
}

const struct sysfs_dirent *sysfs_dirent_link_target(const struct kobj_world *w,
						    const struct sysfs_dirent *d)
{
	return d->type == SYSFS_LINK ? follow(w, d) : NULL;
}

unsigned sysfs_dirent_link_obj(const struct sysfs_dirent *d)
{
	return d->type == SYSFS_LINK ? d->link_target : 0;
}

size_t sysfs_dirent_link_path(const struct kobj_world *w, const struct sysfs_dirent *d,
			      char *buf, size_t size)
{
	if (d->type != SYSFS_LINK)
		return 0;
	const struct sysfs_dirent *t = follow(w, d);
	if (t)
		return sysfs_dirent_path(t, buf, size);
	return (size_t)snprintf(buf, size, "%s", d->link_path);
}

size_t sysfs_dirent_count(const struct sysfs_dirent *d)
{
	return d->nchildren;
}

static int by_name(const void *a, const void *b)
{
	const struct sysfs_dirent *x = *(const struct sysfs_dirent *const *)a;
	const struct sysfs_dirent *y = *(const struct sysfs_dirent *const *)b;
	return strcmp(x->name, y->name);
}

size_t sysfs_children(const struct sysfs_dirent *d, int sorted, const struct sysfs_dirent ***out)
{
	size_t n = d->nchildren;
	*out = NULL;
	if (!n)
		return 0;
	const struct sysfs_dirent **list = malloc(n * sizeof(*list));
	if (!list)
		abort();
	const struct sysfs_dirent *c = d->first;
	for (size_t i = 0; i < n; i++, c = c->next)
		list[i] = c;
	if (sorted)
		qsort(list, n, sizeof(*list), by_name);
	*out = list;
	return n;
}

long sysfs_list(const struct kobj_world *w, const char *path, const struct sysfs_dirent ***out)
{
	const struct sysfs_dirent *d = sysfs_lookup(w, path);
	*out = NULL;
	if (!d)
		return -ENOENT;
	if (d->type != SYSFS_DIR)
		return -ENOTDIR;
	return (long)sysfs_children(d, 1, out);
}
