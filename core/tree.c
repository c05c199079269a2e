/* `tree /sys`: the hierarchy with each object's kind and refcount, in name order. */
#include <errno.h>
#include <stdlib.h>

#include "core/dot.h"
#include "core/world_internal.h"

#define BOLD(c) ((c) ? "\033[1m" : "")
#define GREEN(c) ((c) ? "\033[32m" : "")
#define RED(c) ((c) ? "\033[1;31m" : "")
#define DIM(c) ((c) ? "\033[2m" : "")
#define RESET(c) ((c) ? "\033[0m" : "")

static const char *kind_word(enum kobj_kind kind)
{
	switch (kind) {
	case KOBJ_KIND_KSET:
		return "kset, ";
	case KOBJ_KIND_SUBSYSTEM:
		return "subsystem, ";
	default:
		return "";
	}
}

/* "name -> /sys/target/path", as `tree` shows a symbolic link. */
static void print_link(const struct kobj_world *w, const struct sysfs_dirent *d,
		       const char *label, FILE *out)
{
	const struct sysfs_dirent *t = sysfs_dirent_link_target(w, d);
	char path[4096];

	if (t)
		sysfs_dirent_path(t, path, sizeof(path));
	fprintf(out, "%s -> %s%s\n", label, t ? path : sysfs_dirent_link_path(d),
		t ? "" : " (gone)");
}

static void print_entry(const struct kobj_world *w, const struct sysfs_dirent *d,
			const char *label, bool c, FILE *out)
{
	const struct kobj_record *r = NULL;
	if (sysfs_dirent_type(d) == SYSFS_LINK) {
		print_link(w, d, label, out);
		return;
	}
	if (sysfs_dirent_type(d) == SYSFS_DIR)
		r = kobj_record_of(w, sysfs_dirent_kobj(d));
	if (r && r->dir != d)
		r = NULL; /* a named attribute group's directory, not the object's own */
	if (!r) {
		bool file = sysfs_dirent_type(d) == SYSFS_FILE;
		fprintf(out, "%s%s%s\n", file ? DIM(c) : "", label, file ? RESET(c) : "");
		return;
	}
	const char *ktype = kobj_ktype_name(w, r->ktype);
	fprintf(out, "%s%s%s  [%srefcount %d%s%s]%s%s%s\n",
		r->kind == KOBJ_KIND_KOBJECT ? GREEN(c) : BOLD(c), label, RESET(c),
		kind_word(r->kind), r->refcount, ktype ? ", " : "", ktype ? ktype : "",
		RED(c), r->diagnosed ? " !" : "", RESET(c));
}

/* One level of the walk: a directory's sorted children and the next one to print. */
struct frame {
	const struct sysfs_dirent **children;
	size_t n, next;
};

static int print_tree(const struct kobj_world *w, const char *path, bool color, FILE *out)
{
	const struct sysfs_dirent *top = sysfs_lookup(w, path);
	char label[4096];

	if (!top)
		return -ENOENT;
	sysfs_dirent_path(top, label, sizeof(label));
	print_entry(w, top, label, color, out);

	/* An explicit stack, so that a very deep chain cannot overflow the C stack. */
	struct frame *stack = NULL;
	size_t depth = 1, cap = 0;
	kobj_grow((void **)&stack, &cap, 1, sizeof(*stack));
	stack[0].n = kobj_sysfs_children(top, &stack[0].children);
	stack[0].next = 0;
	while (depth) {
		struct frame *f = &stack[depth - 1];
		if (f->next >= f->n) {
			free(f->children);
			depth--;
			continue;
		}
		const struct sysfs_dirent *d = f->children[f->next++];
		for (size_t i = 0; i + 1 < depth; i++)
			fputs(stack[i].next < stack[i].n ? "│   " : "    ", out);
		fputs(f->next < f->n ? "├── " : "└── ", out);
		print_entry(w, d, sysfs_dirent_name(d), color, out);
		if (sysfs_dirent_type(d) == SYSFS_DIR) {
			kobj_grow((void **)&stack, &cap, depth + 1, sizeof(*stack));
			struct frame *c = &stack[depth++];
			c->n = kobj_sysfs_children(d, &c->children);
			c->next = 0;
		}
	}
	free(stack);
	return 0;
}

int sysfs_print_tree(const struct kobj_world *w, const char *path, FILE *out)
{
	return print_tree(w, path, false, out);
}

int sysfs_print_tree_color(const struct kobj_world *w, const char *path, FILE *out)
{
	return print_tree(w, path, true, out);
}
