/*
 * `tree /sys`: the hierarchy with each object's kind and refcount, in name order. Objects
 * deleted from sysfs but still held appear, marked, under the object they were in (their
 * parent, else their kset), since a refcount with no directory is what such a tree must
 * explain. Depth and file limits fold what a large tree would repeat.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/report.h"

struct printer {
	const struct kobj_world *w;
	const struct kobj_tree_options *o;
	const struct kobj_tree_style *s;
	unsigned *held_first, *held_next; /* deleted, still held: children of each object */
	FILE *out;
};

static const char *on(const struct printer *p, const char *part)
{
	return p->s && part ? part : "";
}

static const char *off(const struct printer *p, const char *part)
{
	return p->s && part && p->s->end ? p->s->end : "";
}

static const char *kind_word(const struct kobj_record *r)
{
	switch (r->kind) {
	case KOBJ_KIND_KSET:
		return "kset, ";
	case KOBJ_KIND_SUBSYSTEM:
		return "subsystem, ";
	default:
		return "";
	}
}

/* "name -> /sys/target/path", as `tree` shows a symbolic link. */
static void print_link(const struct printer *p, const struct sysfs_dirent *d,
		       const char *label)
{
	char path[4096];
	sysfs_dirent_link_path(p->w, d, path, sizeof(path));
	fprintf(p->out, "%s -> %s%s\n", label, path,
		sysfs_dirent_link_target(p->w, d) ? "" : " (gone)");
}

/* The lines that lead to an entry: "│   │   ├── ". */
static void print_prefix(const struct printer *p, const char *prefix, bool last)
{
	fprintf(p->out, "%s%s", prefix, last ? "└── " : "├── ");
}

static void print_object(const struct printer *p, const struct kobj_record *r,
			 const char *label, bool deleted)
{
	const char *ktype = kobj_ktype_name(p->w, r->ktype);
	const char *part = deleted ? p->s ? p->s->faded : NULL
			   : r->kind == KOBJ_KIND_KOBJECT ? p->s ? p->s->object : NULL
							  : p->s ? p->s->kset : NULL;
	fprintf(p->out, "%s%s%s  [%srefcount %d%s%s%s]%s%s%s\n", on(p, part), label,
		off(p, part), kind_word(r), r->refcount, ktype ? ", " : "", ktype ? ktype : "",
		deleted ? ", deleted from sysfs, still held" : "", on(p, p->s ? p->s->mark : NULL),
		r->diagnosed ? " !" : "", off(p, p->s ? p->s->mark : NULL));
}

static void print_entry(const struct printer *p, const struct sysfs_dirent *d,
			const char *label)
{
	if (sysfs_dirent_type(d) == SYSFS_LINK) {
		print_link(p, d, label);
		return;
	}
	const struct kobj_record *r = kobj_record_by_id(p->w, sysfs_dirent_obj(d));
	if (!r || !sysfs_dirent_is_object(d)) { /* a file, or a named group's directory */
		bool file = sysfs_dirent_type(d) == SYSFS_FILE;
		const char *part = file && p->s ? p->s->file : NULL;
		fprintf(p->out, "%s%s%s\n", on(p, part), label, off(p, part));
		return;
	}
	print_object(p, r, label, false);
}

/* One level of the walk: a directory's children, and the next one to print. */
struct frame {
	const struct sysfs_dirent **children;
	size_t n, next;
	unsigned held;   /* the next deleted-but-held object to list after the children */
	char prefix[512];
};

/* The deleted objects still held, as lists per object they were in. */
static void collect_held(struct printer *p)
{
	size_t n = kobj_record_count(p->w);
	p->held_first = calloc(n + 1, sizeof(unsigned));
	p->held_next = calloc(n + 1, sizeof(unsigned));
	if (!p->held_first || !p->held_next)
		abort();
	for (unsigned id = (unsigned)n; id >= 1; id--) {
		const struct kobj_record *r = kobj_record_by_id(p->w, id);
		unsigned in = r->parent ? r->parent : r->kset;
		if (r->released || r->in_sysfs || !r->was_added || !in ||
		    r->kind == KOBJ_KIND_MODULE)
			continue;
		p->held_next[id] = p->held_first[in];
		p->held_first[in] = id;
	}
}

static void push_dir(struct frame *f, const struct printer *p, const struct sysfs_dirent *d,
		     const char *prefix)
{
	f->n = sysfs_children(d, 1, &f->children);
	f->next = 0;
	f->held = sysfs_dirent_is_object(d) && p->o->held
			  ? p->held_first[sysfs_dirent_obj(d)] : 0;
	snprintf(f->prefix, sizeof(f->prefix), "%s", prefix);
}

/* Prints the next line of frame @f; Return: the child directory to descend into, or NULL. */
static const struct sysfs_dirent *print_next(struct printer *p, struct frame *f, bool *last)
{
	char label[4096];
	size_t limit = p->o->file_limit;
	bool folded = limit && f->n > limit;

	if (f->next < f->n && folded && f->next == limit - 1 && f->n - f->next > 1) {
		print_prefix(p, f->prefix, false);
		fprintf(p->out, "... %zu more entries\n", f->n - limit);
		f->next = f->n - 1; /* the last one is still shown */
	}
	if (f->next < f->n) {
		const struct sysfs_dirent *d = f->children[f->next++];
		*last = f->next == f->n && !f->held;
		print_prefix(p, f->prefix, *last);
		snprintf(label, sizeof(label), "%s", sysfs_dirent_name(d));
		print_entry(p, d, label);
		return sysfs_dirent_type(d) == SYSFS_DIR ? d : NULL;
	}
	const struct kobj_record *r = kobj_record_by_id(p->w, f->held);
	f->held = p->held_next[f->held];
	print_prefix(p, f->prefix, !f->held);
	print_object(p, r, r->name, true);
	*last = true;
	return NULL;
}

int kobj_print_tree(const struct kobj_world *w, const char *path,
		    const struct kobj_tree_options *options, FILE *out)
{
	static const struct kobj_tree_options defaults = { .held = true };
	const struct sysfs_dirent *top = sysfs_lookup(w, path);
	struct printer p = { w, options ? options : &defaults, NULL, NULL, NULL, out };
	char label[4096];

	if (!top)
		return -ENOENT;
	p.s = p.o->style;
	collect_held(&p);
	sysfs_dirent_path(top, label, sizeof(label));
	print_entry(&p, top, label);

	/* An explicit stack, so that a very deep chain cannot overflow the C stack. */
	struct frame *stack = NULL;
	size_t depth = 0, cap = 0;
	if (sysfs_dirent_type(top) == SYSFS_DIR) {
		stack = realloc(stack, sizeof(*stack) * (cap = 16));
		push_dir(&stack[depth++], &p, top, "");
	}
	while (depth) {
		struct frame *f = &stack[depth - 1];
		if (f->next >= f->n && !f->held) {
			free(f->children);
			depth--;
			continue;
		}
		bool last;
		const struct sysfs_dirent *d = print_next(&p, f, &last);
		if (!d || (p.o->max_depth && depth >= p.o->max_depth))
			continue;
		if (depth == cap)
			stack = realloc(stack, sizeof(*stack) * (cap *= 2));
		if (!stack)
			abort();
		char prefix[512];
		snprintf(prefix, sizeof(prefix), "%.500s%s", stack[depth - 1].prefix,
			 last ? "    " : "│   ");
		push_dir(&stack[depth++], &p, d, prefix);
	}
	free(stack);
	free(p.held_first);
	free(p.held_next);
	return 0;
}

int sysfs_print_tree(const struct kobj_world *w, const char *path, FILE *out)
{
	return kobj_print_tree(w, path, NULL, out);
}
