/*
 * DOT export: one node per object (kobject, kset and subsystem drawn differently),
 * solid edges to parents, dashed edges to a kset that is not also the parent, ksets as
 * clusters holding their members, colours by state, a red border where a diagnostic
 * named the object, and a legend.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/pictures/pictures.h"

enum kobj_state kobj_record_state(const struct kobj_record *r, bool at_exit)
{
	if (r->released)
		return r->no_release ? KOBJ_STATE_LEAKED : KOBJ_STATE_RELEASED;
	if (at_exit)
		return KOBJ_STATE_LEAKED;
	if (r->in_sysfs)
		return KOBJ_STATE_IN_SYSFS;
	return r->was_added ? KOBJ_STATE_DELETED : KOBJ_STATE_INITIALIZED;
}

static const struct {
	const char *name, *fill, *font, *meaning;
} states[] = {
	[KOBJ_STATE_INITIALIZED] = { "initialized", "#ffffff", "black", "initialised, not in sysfs" },
	[KOBJ_STATE_IN_SYSFS] = { "in sysfs", "#c8e6c9", "black", "in sysfs" },
	[KOBJ_STATE_DELETED] = { "deleted", "#ffe0b2", "black", "deleted from sysfs, still referenced" },
	[KOBJ_STATE_RELEASED] = { "released", "#eeeeee", "#9e9e9e", "released" },
	[KOBJ_STATE_LEAKED] = { "leaked", "#ffcdd2", "black", "leaked" },
};

const char *kobj_state_name(enum kobj_state state)
{
	return states[state].name;
}

/* Writes @s as the inside of a DOT string. */
static void put_escaped(const char *s, FILE *out)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* Unnamed ktypes are numbered in the order the drawing meets them. */
struct ktype_labels {
	const struct kobj_type **seen;
	size_t n, cap;
};

static void put_ktype(const struct kobj_world *w, struct ktype_labels *l,
		      const struct kobj_type *ktype, FILE *out)
{
	if (!ktype) {
		fputs("no ktype", out);
		return;
	}
	if (kobj_ktype_name(w, ktype)) {
		put_escaped(kobj_ktype_name(w, ktype), out);
		return;
	}
	size_t i = 0;
	while (i < l->n && l->seen[i] != ktype)
		i++;
	if (i == l->n) {
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 8;
			l->seen = realloc(l->seen, l->cap * sizeof(*l->seen));
			if (!l->seen)
				abort();
		}
		l->seen[l->n++] = ktype;
	}
	fprintf(out, "ktype %zu", i + 1);
}

static void put_node(const struct kobj_world *w, const struct kobj_record *r,
		     const struct kobj_dot_options *o, struct ktype_labels *l,
		     const char *indent, FILE *out)
{
	enum kobj_state st = kobj_record_state(r, o->at_exit);
	const char *shape = r->kind == KOBJ_KIND_SUBSYSTEM ? "tab"
			    : r->kind == KOBJ_KIND_KSET   ? "folder"
							  : "box";
	fprintf(out, "%sk%u [label=\"", indent, r->id);
	put_escaped(r->name[0] ? r->name : "(no name)", out);
	fprintf(out, "\\nrefcount %d\\n", r->refcount);
	if (r->kind == KOBJ_KIND_KOBJECT)
		put_ktype(w, l, r->ktype, out);
	else
		fputs(r->kind == KOBJ_KIND_KSET ? "kset" : "subsystem", out);
	fprintf(out, "\", shape=%s, style=\"%sfilled\", fillcolor=\"%s\", fontcolor=\"%s\"",
		shape, r->kind == KOBJ_KIND_KOBJECT ? "rounded," : "", states[st].fill,
		states[st].font);
	if (r->diagnosed)
		fputs(", color=\"#d32f2f\", penwidth=2.5", out);
	fputs("];\n", out);
}

/* What a drawing walks: which objects are drawn and each kset's members, found once. */
struct scene {
	const struct kobj_world *w;
	const struct kobj_dot_options *o;
	struct ktype_labels labels;
	unsigned top;           /* the subtree's object, or 0 for all */
	unsigned char *drawn;   /* per id: drawn at all */
	unsigned *first, *next; /* per kset id: its first member drawn in its frame; chain */
	FILE *out;
};

/* Marks who is drawn: at or below @top through the parents they hold, memoised. */
static void find_drawn(struct scene *s, unsigned n)
{
	enum { UNKNOWN, YES, NO };
	for (unsigned id = 1; id <= n; id++) {
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (r->kind == KOBJ_KIND_MODULE) {
			s->drawn[id] = NO;
			continue;
		}
		if (!s->top) {
			s->drawn[id] = YES;
			continue;
		}
		unsigned path[256], depth = 0, at = id;
		while (at && !s->drawn[at] && at != s->top && depth < 256) {
			path[depth++] = at;
			at = kobj_record_by_id(s->w, at)->parent;
		}
		unsigned char v = at == s->top ? YES : at ? s->drawn[at] : NO;
		if (v == UNKNOWN)
			v = NO;
		while (depth)
			s->drawn[path[--depth]] = v;
		s->drawn[id] = v;
	}
	for (unsigned id = 1; id <= n; id++)
		s->drawn[id] = s->drawn[id] == YES;
}

/* Each drawn kset's members, in creation order. */
static void find_members(struct scene *s, unsigned n)
{
	for (unsigned id = n; id >= 1; id--) {
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (!s->drawn[id] || !r->kset || !s->drawn[r->kset])
			continue;
		s->next[id] = s->first[r->kset];
		s->first[r->kset] = id;
	}
}

static bool is_member(const struct scene *s, const struct kobj_record *r)
{
	return r->kset && s->drawn[r->kset] && s->drawn[r->id];
}

/* A kset's cluster holds the kset and its members; member ksets nest inside. */
static void put_cluster(struct scene *s, const struct kobj_record *kset, int depth)
{
	char indent[64];
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 2, "");
	fprintf(s->out, "%ssubgraph cluster_k%u {\n%s  label=\"", indent, kset->id, indent);
	put_escaped(kset->name, s->out);
	fprintf(s->out, "\"; style=\"rounded,dashed\"; color=\"#90a4ae\"; "
		"fontcolor=\"#607d8b\";\n");
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 4, "");
	put_node(s->w, kset, s->o, &s->labels, indent, s->out);
	for (unsigned id = s->first[kset->id]; id; id = s->next[id]) {
		const struct kobj_record *m = kobj_record_by_id(s->w, id);
		if (m->kind != KOBJ_KIND_KOBJECT && s->first[id] && depth < 32)
			put_cluster(s, m, depth + 1);
		else
			put_node(s->w, m, s->o, &s->labels, indent, s->out);
	}
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 2, "");
	fprintf(s->out, "%s}\n", indent);
}

/* The legend is one node holding a table, so it stays small beside the tree. */
static void put_legend(FILE *out)
{
	fputs("  legend [shape=plaintext, fontsize=9, label=<<table border=\"0\" "
	      "cellborder=\"1\" cellspacing=\"2\" cellpadding=\"3\">\n"
	      "    <tr><td colspan=\"2\"><b>legend</b></td></tr>\n", out);
	for (size_t st = 0; st < sizeof(states) / sizeof(states[0]); st++)
		fprintf(out, "    <tr><td bgcolor=\"%s\" width=\"24\"></td>"
			"<td align=\"left\">%s</td></tr>\n", states[st].fill, states[st].meaning);
	fputs("    <tr><td color=\"#d32f2f\" border=\"3\"></td>"
	      "<td align=\"left\">named by a diagnostic</td></tr>\n"
	      "    <tr><td>box</td><td align=\"left\">kobject: name, refcount, ktype</td></tr>\n"
	      "    <tr><td>folder</td><td align=\"left\">kset, framed with its members</td></tr>\n"
	      "    <tr><td>tab</td><td align=\"left\">subsystem</td></tr>\n"
	      "    <tr><td>&#8594;</td><td align=\"left\">parent</td></tr>\n"
	      "    <tr><td>- &#8594;</td><td align=\"left\">kset, when not the parent</td></tr>\n"
	      "  </table>>];\n", out);
}

static void put_edges(struct scene *s, unsigned n)
{
	for (unsigned id = 1; id <= n; id++) {
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (!s->drawn[id] || id == s->top)
			continue;
		if (r->parent && s->drawn[r->parent])
			fprintf(s->out, "  k%u -> k%u;\n", id, r->parent);
		if (r->kset && r->kset != r->parent && s->drawn[r->kset])
			fprintf(s->out, "  k%u -> k%u [style=dashed];\n", id, r->kset);
	}
}

int kobj_dot(const struct kobj_world *w, const struct kobj_dot_options *options, FILE *out)
{
	static const struct kobj_dot_options defaults = { .legend = true };
	struct scene s = { .w = w, .o = options ? options : &defaults, .out = out };
	unsigned n = (unsigned)kobj_record_count(w);

	if (s.o->path && sysfs_lookup(w, s.o->path) != sysfs_root(w)) {
		const struct sysfs_dirent *d = sysfs_lookup(w, s.o->path);
		if (!d || sysfs_dirent_type(d) != SYSFS_DIR || !sysfs_dirent_is_object(d))
			return -ENOENT;
		s.top = sysfs_dirent_obj(d);
	}
	s.drawn = calloc((size_t)n + 1, 1);
	s.first = calloc((size_t)n + 1, sizeof(unsigned));
	s.next = calloc((size_t)n + 1, sizeof(unsigned));
	if (!s.drawn || !s.first || !s.next)
		abort();
	find_drawn(&s, n);
	find_members(&s, n);
	fputs("digraph kobjects {\n"
	      "  graph [rankdir=BT, fontname=\"Helvetica\", fontsize=11, nodesep=0.3];\n"
	      "  node [fontname=\"Helvetica\", fontsize=10];\n"
	      "  edge [fontname=\"Helvetica\", color=\"#455a64\"];\n", out);
	for (unsigned id = 1; id <= n; id++) {
		const struct kobj_record *r = kobj_record_by_id(w, id);
		if (!s.drawn[id] || is_member(&s, r))
			continue;
		if (r->kind != KOBJ_KIND_KOBJECT && s.first[id])
			put_cluster(&s, r, 0);
		else
			put_node(w, r, s.o, &s.labels, "  ", out);
	}
	put_edges(&s, n);
	if (s.o->legend)
		put_legend(out);
	fputs("}\n", out);
	free(s.labels.seen);
	free(s.drawn);
	free(s.first);
	free(s.next);
	return 0;
}
