/* `tree /sys`: the hierarchy with each object's kind and refcount, in name order. */
#include <errno.h>
#include <stdlib.h>

#include "core/world_internal.h"

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

static void print_entry(const struct kobj_world *w, const struct sysfs_dirent *d,
			const char *label, FILE *out)
{
	fputs(label, out);
	if (sysfs_dirent_type(d) == SYSFS_DIR) {
		const struct kobj_record *r = kobj_record_of(w, sysfs_dirent_kobj(d));
		if (r)
			fprintf(out, "  [%srefcount %d]", kind_word(r->kind), r->refcount);
	}
	fputc('\n', out);
}

/* One level of the walk: a directory's sorted children and the next one to print. */
struct frame {
	const struct sysfs_dirent **children;
	size_t n, next;
};

int sysfs_print_tree(const struct kobj_world *w, const char *path, FILE *out)
{
	const struct sysfs_dirent *top = sysfs_lookup(w, path);
	char label[4096];

	if (!top)
		return -ENOENT;
	sysfs_dirent_path(top, label, sizeof(label));
	print_entry(w, top, label, out);

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
		print_entry(w, d, sysfs_dirent_name(d), out);
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
