/*
 * The virtual sysfs. Entries sit in one hash table keyed by (parent, name), so a
 * directory with a million entries still finds a name, or a clash, at once; each
 * directory also keeps its children on a list, sorted only when listed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/modern_internal.h"

#define PAGE_SIZE 4096

struct sysfs_dirent {
	char *name;
	enum sysfs_type type;
	struct sysfs_dirent *parent;
	struct sysfs_dirent *first, *last;  /* children */
	struct sysfs_dirent *prev, *next;   /* siblings */
	struct sysfs_dirent *hash_next;
	size_t hash;
	struct kobject *kobj;
	struct attribute *attr;
	unsigned link_target; /* SYSFS_LINK: the target's record, so it cannot dangle */
	char *link_path;      /* SYSFS_LINK: the target's path when the link was made */
};

static size_t entry_hash(const struct sysfs_dirent *parent, const char *name)
{
	size_t h = (size_t)(uintptr_t)parent * 0x9E3779B97F4A7C15u;
	while (*name)
		h = (h ^ (unsigned char)*name++) * 1099511628211u;
	return h;
}

static struct sysfs_dirent *find_child(const struct kobj_world *w,
				       const struct sysfs_dirent *parent, const char *name)
{
	const struct dirent_map *m = &w->dirents;
	size_t h = entry_hash(parent, name);
	if (!m->cap)
		return NULL;
	for (struct sysfs_dirent *d = m->buckets[h & (m->cap - 1)]; d; d = d->hash_next)
		if (d->hash == h && d->parent == parent && strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

static void map_insert(struct dirent_map *m, struct sysfs_dirent *d)
{
	if (m->used + 1 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		struct sysfs_dirent **b = kobj_xcalloc(cap, sizeof(*b));
		for (size_t i = 0; i < m->cap; i++) {
			for (struct sysfs_dirent *e = m->buckets[i], *n; e; e = n) {
				n = e->hash_next;
				e->hash_next = b[e->hash & (cap - 1)];
				b[e->hash & (cap - 1)] = e;
			}
		}
		free(m->buckets);
		m->buckets = b;
		m->cap = cap;
	}
	struct sysfs_dirent **slot = &m->buckets[d->hash & (m->cap - 1)];
	d->hash_next = *slot;
	*slot = d;
	m->used++;
}

static void map_remove(struct dirent_map *m, struct sysfs_dirent *d)
{
	struct sysfs_dirent **p = &m->buckets[d->hash & (m->cap - 1)];
	while (*p != d)
		p = &(*p)->hash_next;
	*p = d->hash_next;
	m->used--;
}

/* Names @d and links it as @parent's last child, in the map too: a new entry or a moved one
 * (detach() undoes all but the name). */
static void attach(struct kobj_world *w, struct sysfs_dirent *d, struct sysfs_dirent *parent,
		   const char *name)
{
	d->name = kobj_xstrdup(name);
	d->parent = parent;
	d->hash = entry_hash(parent, name);
	d->prev = parent->last;
	if (parent->last)
		parent->last->next = d;
	else
		parent->first = d;
	parent->last = d;
	map_insert(&w->dirents, d);
}

/* Return: the new entry, or NULL with *err set (-EEXIST, -ENOMEM). */
static struct sysfs_dirent *new_entry(struct kobj_world *w, struct sysfs_dirent *parent,
				      const char *name, enum sysfs_type type, int *err)
{
	if (find_child(w, parent, name)) {
		*err = -EEXIST;
		return NULL;
	}
	struct sysfs_dirent *d = kobj_kmalloc(w, sizeof(*d));
	if (!d) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	d->type = type;
	attach(w, d, parent, name);
	return d;
}

void kobj_sysfs_init(struct kobj_world *w)
{
	w->sysfs_root = kobj_xcalloc(1, sizeof(*w->sysfs_root));
	w->sysfs_root->name = kobj_xstrdup("sys");
	w->sysfs_root->type = SYSFS_DIR;
}

struct sysfs_dirent *kobj_sysfs_root(struct kobj_world *w)
{
	return w->sysfs_root;
}

struct sysfs_dirent *kobj_sysfs_create_dir(struct kobj_world *w, struct sysfs_dirent *parent,
					   struct kobject *kobj, int *err)
{
	struct sysfs_dirent *d = new_entry(w, parent, kobject_name(kobj), SYSFS_DIR, err);
	if (d)
		d->kobj = kobj;
	return d;
}

int kobj_sysfs_create_file(struct kobj_world *w, struct sysfs_dirent *dir, struct attribute *a)
{
	int err = 0;
	struct sysfs_dirent *d = new_entry(w, dir, a->name ? a->name : "", SYSFS_FILE, &err);
	if (d) {
		d->kobj = dir->kobj;
		d->attr = a;
	}
	return err;
}

/* Takes @d off its parent's list and out of the name table; its subtree stays whole. */
static void detach(struct kobj_world *w, struct sysfs_dirent *d)
{
	if (d->prev)
		d->prev->next = d->next;
	else
		d->parent->first = d->next;
	if (d->next)
		d->next->prev = d->prev;
	else
		d->parent->last = d->prev;
	d->prev = d->next = NULL;
	map_remove(&w->dirents, d);
}

/* Unlinks and frees @d and everything below it, without recursion. */
static void remove_subtree(struct kobj_world *w, struct sysfs_dirent *d)
{
	struct sysfs_dirent *top = d;

	if (top->parent)
		detach(w, top);
	while (d) {
		if (d->first) { /* descend to a leaf */
			d = d->first;
			continue;
		}
		struct sysfs_dirent *up = d == top ? NULL : d->parent;
		if (up) {
			up->first = d->next;
			if (d->next)
				d->next->prev = NULL;
			else
				up->last = NULL;
			map_remove(&w->dirents, d);
		}
		if (d->type == SYSFS_DIR && d != top && d->kobj) {
			/* A child object's directory went with its parent's. */
			struct kobj_record *r = kobj_live(w, d->kobj);
			if (r && r->dir == d) {
				r->dir = NULL;
				d->kobj->dentry = NULL;
			}
		}
		free(d->name);
		free(d->link_path);
		free(d);
		d = up;
	}
}

void kobj_sysfs_remove_dir(struct kobj_world *w, struct sysfs_dirent *dir)
{
	remove_subtree(w, dir);
}

/* ================================================== entries for today's API (sysfs_attr.c) */

struct sysfs_dirent *kobj_sysfs_find(const struct kobj_world *w, const struct sysfs_dirent *dir,
				     const char *name)
{
	return find_child(w, dir, name);
}

struct sysfs_dirent *kobj_sysfs_add_entry(struct kobj_world *w, struct sysfs_dirent *dir,
					  const char *name, enum sysfs_type type,
					  struct kobject *kobj, struct attribute *attr, int *err)
{
	struct sysfs_dirent *d = new_entry(w, dir, name, type, err);
	if (d) {
		d->kobj = kobj;
		d->attr = attr;
	}
	return d;
}

struct sysfs_dirent *kobj_sysfs_add_link(struct kobj_world *w, struct sysfs_dirent *dir,
					 const char *name, unsigned target, int *err)
{
	struct kobj_record *r = kobj_rec(w, target);
	struct sysfs_dirent *d = new_entry(w, dir, name, SYSFS_LINK, err);
	if (d) {
		char *rel = kobj_sysfs_path_of(r->dir);
		d->kobj = dir->kobj;
		d->link_target = target;
		d->link_path = kobj_xasprintf("/sys%s", rel);
		free(rel);
	}
	return d;
}

void kobj_sysfs_remove_entry(struct kobj_world *w, struct sysfs_dirent *d)
{
	remove_subtree(w, d);
}

struct sysfs_dirent *kobj_sysfs_parent(const struct sysfs_dirent *d)
{
	return d->parent;
}

int kobj_sysfs_rename(struct kobj_world *w, struct sysfs_dirent *d,
		      struct sysfs_dirent *new_parent, const char *new_name)
{
	if (d->parent == new_parent && strcmp(d->name, new_name) == 0)
		return 0;
	for (const struct sysfs_dirent *up = new_parent; up; up = up->parent)
		if (up == d)
			return -EINVAL; /* into its own subtree: the tree would become a loop */
	if (find_child(w, new_parent, new_name))
		return -EEXIST;
	detach(w, d);
	free(d->name);
	attach(w, d, new_parent, new_name); /* children are keyed by d itself: they stay */
	return 0;
}

/* A link's target directory, found through the target's record. */
static const struct sysfs_dirent *follow(const struct kobj_world *w, const struct sysfs_dirent *d)
{
	const struct kobj_record *r = kobj_rec(w, d->link_target);
	return r && !r->released ? r->dir : NULL;
}

void kobj_sysfs_free(struct kobj_world *w)
{
	struct sysfs_dirent *root = w->sysfs_root;
	while (root->first)
		remove_subtree(w, root->first);
	free(root->name);
	free(root);
	free(w->dirents.buckets);
}

/* ============================================================================ lookups */

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
	free(rel);
	return need;
}

const struct sysfs_dirent *sysfs_lookup(const struct kobj_world *w, const char *path)
{
	const struct sysfs_dirent *d = w->sysfs_root;
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
		d = find_child(w, d, name);
		if (d && d->type == SYSFS_LINK)
			d = follow(w, d);
		path += n;
	}
	return d;
}

enum sysfs_type sysfs_dirent_type(const struct sysfs_dirent *d)
{
	return d->type;
}

const char *sysfs_dirent_name(const struct sysfs_dirent *d)
{
	return d->name;
}

struct kobject *sysfs_dirent_kobj(const struct sysfs_dirent *d)
{
	return d->kobj;
}

struct attribute *sysfs_dirent_attr(const struct sysfs_dirent *d)
{
	return d->attr;
}

const struct sysfs_dirent *sysfs_dirent_link_target(const struct kobj_world *w,
						    const struct sysfs_dirent *d)
{
	return d->type == SYSFS_LINK ? follow(w, d) : NULL;
}

const char *sysfs_dirent_link_path(const struct sysfs_dirent *d)
{
	return d->link_path;
}

static int by_name(const void *a, const void *b)
{
	const struct sysfs_dirent *x = *(const struct sysfs_dirent *const *)a;
	const struct sysfs_dirent *y = *(const struct sysfs_dirent *const *)b;
	return strcmp(x->name, y->name);
}

size_t kobj_sysfs_children(const struct sysfs_dirent *d, const struct sysfs_dirent ***out)
{
	size_t n = 0;
	for (const struct sysfs_dirent *c = d->first; c; c = c->next)
		n++;
	*out = NULL;
	if (!n)
		return 0;
	const struct sysfs_dirent **list = kobj_xmalloc(n * sizeof(*list));
	n = 0;
	for (const struct sysfs_dirent *c = d->first; c; c = c->next)
		list[n++] = c;
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
	return (long)kobj_sysfs_children(d, out);
}

/* ================================================================== attribute files */

static const struct sysfs_ops *file_ops(const struct kobj_world *w, const char *path,
					const struct sysfs_dirent **file, ssize_t *err)
{
	const struct sysfs_dirent *d = sysfs_lookup(w, path);
	*file = d;
	if (!d) {
		*err = -ENOENT;
		return NULL;
	}
	if (d->type == SYSFS_DIR) {
		*err = -EISDIR;
		return NULL;
	}
	const struct kobj_type *ktype = kobj_ktype_of(w, d->kobj);
	*err = -EIO;
	return ktype ? ktype->sysfs_ops : NULL;
}

/* The page show() and store() get: page-aligned, as sysfs_emit() checks. */
static char *new_page(void)
{
	char *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!page) {
		fputs("kobject sandbox: out of memory\n", stderr);
		abort();
	}
	return memset(page, 0, PAGE_SIZE);
}

/* show() filled more than the page holds: the kernel's complaint, then it cuts. */
static void bad_count(const struct kobj_world *w, const struct sysfs_dirent *d,
		      const struct sysfs_ops *ops, ssize_t n)
{
	struct kobj_world *mw = (struct kobj_world *)w; /* the record is the world's to keep */
	const struct kobj_record *r = kobj_record_of(w, d->kobj);
	char path[4096];

	sysfs_dirent_path(d, path, sizeof(path));
	kobj_diag_add(mw, KOBJ_DIAG_BAD_COUNT, r ? r->id : 0, (struct kobj_origin){ 0 },
		      kobj_xasprintf("fill_read_buffer: %s returned bad count",
				     ops == &kobj_sysfs_ops ? "kobj_attr_show" : "sysfs_ops->show"),
		      kobj_xasprintf("Reading %s: show() returned %zd, but a sysfs file holds less "
				     "than PAGE_SIZE (%d) bytes, the final NUL included. The "
				     "reader got the first %d bytes. Format with sysfs_emit(), "
				     "which cannot overflow the page.", path, n, PAGE_SIZE,
				     PAGE_SIZE - 1));
}

ssize_t sysfs_read(const struct kobj_world *w, const char *path, char *buf, size_t size)
{
	const struct sysfs_dirent *d;
	ssize_t err;
	const struct sysfs_ops *ops = file_ops(w, path, &d, &err);

	if (!ops || !ops->show)
		return err;
	char *page = new_page();
	ssize_t n = ops->show(d->kobj, d->attr, page);
	if (n >= PAGE_SIZE) {
		bad_count(w, d, ops, n);
		n = PAGE_SIZE - 1; /* the kernel truncates a bad count the same way */
	}
	if (n >= 0 && size) {
		if ((size_t)n >= size)
			n = (ssize_t)size - 1;
		memcpy(buf, page, (size_t)n);
		buf[n] = '\0';
	}
	free(page);
	return n;
}

ssize_t sysfs_write(const struct kobj_world *w, const char *path, const char *buf, size_t count)
{
	const struct sysfs_dirent *d;
	ssize_t err;
	const struct sysfs_ops *ops = file_ops(w, path, &d, &err);

	if (!ops || !ops->store)
		return err;
	if (count == 0)
		return 0;
	if (count >= PAGE_SIZE)
		count = PAGE_SIZE - 1;
	char *page = new_page();
	memcpy(page, buf, count);
	ssize_t n = ops->store(d->kobj, d->attr, page, count);
	free(page);
	return n;
}
