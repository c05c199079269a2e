/*
 * DOT export: one node per object (kobject, kset and subsystem drawn differently),
 * solid edges to parents, dashed edges to a kset that is not also the parent, ksets as
 * clusters holding their members, colours by state, a red border where a diagnostic
 * named the object, and a legend.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/dot.h"
#include "core/world_internal.h"

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

void kobj_world_name_ktype(struct kobj_world *w, const struct kobj_type *ktype,
			   const char *name)
{
	for (size_t i = 0; i < w->nktype_names; i++) {
		if (w->ktype_names[i].ktype == ktype) {
			free(w->ktype_names[i].name);
			w->ktype_names[i].name = kobj_xstrdup(name);
			return;
		}
	}
	kobj_grow((void **)&w->ktype_names, &w->ktype_names_cap, w->nktype_names + 1,
		  sizeof(*w->ktype_names));
	w->ktype_names[w->nktype_names].ktype = ktype;
	w->ktype_names[w->nktype_names++].name = kobj_xstrdup(name);
}

const char *kobj_ktype_name(const struct kobj_world *w, const struct kobj_type *ktype)
{
	for (size_t i = 0; ktype && i < w->nktype_names; i++)
		if (w->ktype_names[i].ktype == ktype)
			return w->ktype_names[i].name;
	return NULL;
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
		kobj_grow((void **)&l->seen, &l->cap, l->n + 1, sizeof(*l->seen));
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

/* Is @r at or below @top, following the parents the objects hold? */
static bool below(const struct kobj_world *w, const struct kobj_record *r, unsigned top)
{
	for (unsigned depth = 0; r && depth <= w->nrecords; depth++) {
		if (r->id == top)
			return true;
		r = kobj_rec(w, r->parent);
	}
	return false;
}

static bool drawn(const struct kobj_world *w, const struct kobj_record *r, unsigned top)
{
	return r && r->kind != KOBJ_KIND_MODULE && (!top || below(w, r, top));
}

/* A kset's cluster holds the kset and its members; member ksets nest inside. */
static void put_cluster(const struct kobj_world *w, const struct kobj_record *kset,
			const struct kobj_dot_options *o, struct ktype_labels *l, unsigned top,
			unsigned *members_of, int depth, FILE *out)
{
	char indent[64];
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 2, "");
	fprintf(out, "%ssubgraph cluster_k%u {\n%s  label=\"", indent, kset->id, indent);
	put_escaped(kset->name, out);
	fprintf(out, "\"; style=\"rounded,dashed\"; color=\"#90a4ae\"; fontcolor=\"#607d8b\";\n");
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 4, "");
	put_node(w, kset, o, l, indent, out);
	for (unsigned id = 1; id <= w->nrecords; id++) {
		const struct kobj_record *m = kobj_rec(w, id);
		if (members_of[id] != kset->id || !drawn(w, m, top))
			continue;
		if (m->kind != KOBJ_KIND_KOBJECT && members_of[0] /* any members? */)
			put_cluster(w, m, o, l, top, members_of, depth + 1, out);
		else
			put_node(w, m, o, l, indent, out);
	}
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 2, "");
	fprintf(out, "%s}\n", indent);
}

/* The legend is one node holding a table, so it stays small beside the tree. */
static void put_legend(FILE *out)
{
	fputs("  legend [shape=plaintext, fontsize=9, label=<<table border=\"0\" "
	      "cellborder=\"1\" cellspacing=\"2\" cellpadding=\"3\">\n"
	      "    <tr><td colspan=\"2\"><b>legend</b></td></tr>\n", out);
	for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++)
		fprintf(out, "    <tr><td bgcolor=\"%s\" width=\"24\"></td>"
			"<td align=\"left\">%s</td></tr>\n", states[s].fill, states[s].meaning);
	fputs("    <tr><td color=\"#d32f2f\" border=\"3\"></td>"
	      "<td align=\"left\">named by a diagnostic</td></tr>\n"
	      "    <tr><td>box</td><td align=\"left\">kobject: name, refcount, ktype</td></tr>\n"
	      "    <tr><td>folder</td><td align=\"left\">kset, framed with its members</td></tr>\n"
	      "    <tr><td>tab</td><td align=\"left\">subsystem</td></tr>\n"
	      "    <tr><td>&#8594;</td><td align=\"left\">parent</td></tr>\n"
	      "    <tr><td>- &#8594;</td><td align=\"left\">kset, when not the parent</td></tr>\n"
	      "  </table>>];\n", out);
}

int kobj_dot(const struct kobj_world *w, const struct kobj_dot_options *options, FILE *out)
{
	static const struct kobj_dot_options defaults = { .legend = true };
	const struct kobj_dot_options *o = options ? options : &defaults;
	unsigned top = 0;

	if (o->path && sysfs_lookup(w, o->path) != w->sysfs_root) {
		const struct sysfs_dirent *d = sysfs_lookup(w, o->path);
		const struct kobj_record *r = d ? kobj_record_of(w, sysfs_dirent_kobj(d)) : NULL;
		if (!r || sysfs_dirent_type(d) != SYSFS_DIR)
			return -ENOENT;
		top = r->id;
	}
	/* members_of[id]: the kset whose cluster holds the object; [0] is a flag. */
	unsigned *members_of = kobj_xcalloc((size_t)w->nrecords + 1, sizeof(*members_of));
	for (unsigned id = 1; id <= w->nrecords; id++) {
		const struct kobj_record *r = kobj_rec(w, id);
		if (drawn(w, r, top) && r->kset && drawn(w, kobj_rec(w, r->kset), top))
			members_of[id] = r->kset;
	}
	members_of[0] = 1;

	struct ktype_labels labels = { 0 };
	fputs("digraph kobjects {\n"
	      "  graph [rankdir=BT, fontname=\"Helvetica\", fontsize=11, nodesep=0.3];\n"
	      "  node [fontname=\"Helvetica\", fontsize=10];\n"
	      "  edge [fontname=\"Helvetica\", color=\"#455a64\"];\n", out);
	for (unsigned id = 1; id <= w->nrecords; id++) {
		const struct kobj_record *r = kobj_rec(w, id);
		if (!drawn(w, r, top) || members_of[id])
			continue;
		bool has_members = false;
		for (unsigned m = 1; m <= w->nrecords && !has_members; m++)
			has_members = members_of[m] == id;
		if (r->kind != KOBJ_KIND_KOBJECT && has_members)
			put_cluster(w, r, o, &labels, top, members_of, 0, out);
		else
			put_node(w, r, o, &labels, "  ", out);
	}
	for (unsigned id = 1; id <= w->nrecords; id++) {
		const struct kobj_record *r = kobj_rec(w, id);
		if (!drawn(w, r, top) || r->id == top)
			continue;
		if (r->parent && drawn(w, kobj_rec(w, r->parent), top))
			fprintf(out, "  k%u -> k%u;\n", id, r->parent);
		if (r->kset && r->kset != r->parent && drawn(w, kobj_rec(w, r->kset), top))
			fprintf(out, "  k%u -> k%u [style=dashed];\n", id, r->kset);
	}
	if (o->legend)
		put_legend(out);
	fputs("}\n", out);
	free(labels.seen);
	free(members_of);
	return 0;
}
