/*
 * References in a picture, read from the ledger. A reference an object holds (as a
 * child on its parent, as a member on its kset) is an edge from the holder; one a caller
 * holds is a row of the object's box with the line that took it. At exit a caller's
 * reference that was never dropped becomes a note with that line and an edge to the
 * object, so the chain from a leaked object back to the line that leaked it is drawn.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pictures/dot_write.h"

/* ============================================================================== rows */

/* The references one place took: kinds in the order met, with counts. */
struct row {
	unsigned site;
	unsigned char kinds[KOBJ_REF_KIND_COUNT];
	unsigned count[KOBJ_REF_KIND_COUNT];
	unsigned nkinds;
};

static void put_row(struct dot_writer *d, const struct row *row)
{
	char where[256];
	fputs("<tr><td align=\"left\"><font point-size=\"7.5\">", d->out);
	for (unsigned k = 0; k < row->nkinds; k++) {
		enum kobj_ref_kind kind = (enum kobj_ref_kind)row->kinds[k];
		fprintf(d->out, "%s%s", k ? ", " : "", kobj_ref_kind_name(kind));
		if (row->count[kind] > 1)
			fprintf(d->out, " ×%u", row->count[kind]);
	}
	fputs(" · ", d->out);
	dot_html(kobj_short_where(d->s->w, row->site, where), d->out);
	fputs("</font></td></tr>", d->out);
}

void dot_ref_rows(struct dot_writer *d, unsigned id)
{
	enum { MAX_ROWS = 6 };
	size_t n, nrows = 0, more = 0;
	struct kobj_ref *refs = kobj_scene_refs(d->s, id, &n);
	struct row *rows = calloc(n + 1, sizeof(*rows));
	if (!rows)
		abort();
	for (size_t i = 0; i < n; i++) {
		enum kobj_ref_kind kind = refs[i].kind;
		if ((kobj_ref_held_by_object(kind) && kind != KOBJ_REF_SYSFS) ||
		    kobj_scene_ref_is_note(d->s, id, kind))
			continue;
		size_t r = 0;
		while (r < nrows && rows[r].site != refs[i].site)
			r++;
		if (r == nrows)
			rows[nrows++].site = refs[i].site;
		if (!rows[r].count[kind]++)
			rows[r].kinds[rows[r].nkinds++] = (unsigned char)kind;
	}
	for (size_t r = 0; r < nrows; r++) {
		if (r < MAX_ROWS)
			put_row(d, &rows[r]);
		else
			for (unsigned k = 0; k < rows[r].nkinds; k++)
				more += rows[r].count[rows[r].kinds[k]];
	}
	if (more)
		fprintf(d->out, "<tr><td align=\"left\"><font point-size=\"7.5\">… %zu more "
			"reference%s</font></td></tr>", more, more == 1 ? "" : "s");
	free(rows);
	free(refs);
}

/* ============================================================================= edges */

/* The references one drawn holder (an object, or a fold) has on one object. */
struct edge {
	unsigned from;      /* the holder's id, or the kset whose fold holds it */
	bool fold;
	unsigned order;     /* the holder's id; a fold's first member */
	unsigned parent, kset;
	struct kobj_ref ref[2]; /* the first two, for the tooltip */
};

/* Where @holder is drawn: itself, or its kset's fold; false when not drawn at all. */
static bool drawn_as(const struct kobj_scene *s, unsigned holder, unsigned *from, bool *fold)
{
	if (!holder || holder > s->n)
		return false;
	*fold = s->shown[holder] == KOBJ_SHOWN_FOLDED || s->shown[holder] == KOBJ_SHOWN_BELOW;
	*from = *fold ? s->fold_of[holder] : holder;
	return *fold || s->shown[holder] == KOBJ_SHOWN_YES;
}

static int by_holder(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	return (x->order > y->order) - (x->order < y->order);
}

/* Every drawn holder's references on @to, one edge per holder, in the holders' order. */
static struct edge *edges_to(const struct kobj_scene *s, unsigned to, size_t *count)
{
	size_t n, nedges = 0;
	struct kobj_ref *refs = kobj_scene_refs(s, to, &n);
	struct edge *edges = calloc(n + 1, sizeof(*edges));
	if (!edges)
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned from;
		bool fold;
		if ((refs[i].kind != KOBJ_REF_PARENT && refs[i].kind != KOBJ_REF_KSET) ||
		    !drawn_as(s, refs[i].holder, &from, &fold))
			continue;
		size_t k = 0;
		while (k < nedges && (edges[k].from != from || edges[k].fold != fold))
			k++;
		if (k == nedges)
			edges[nedges++] = (struct edge){ .from = from, .fold = fold,
							 .order = refs[i].holder };
		struct edge *e = &edges[k];
		if (e->parent + e->kset < 2)
			e->ref[e->parent + e->kset] = refs[i];
		*(refs[i].kind == KOBJ_REF_PARENT ? &e->parent : &e->kset) += 1;
		if (refs[i].holder < e->order)
			e->order = refs[i].holder;
	}
	qsort(edges, nedges, sizeof(*edges), by_holder);
	free(refs);
	*count = nedges;
	return edges;
}

/* More holders than this and their edges go unlabelled: the box counts them instead. */
enum { LABELLED_FAN = 4 };

void dot_fan_row(struct dot_writer *d, unsigned id)
{
	size_t n, both = 0, parent = 0, kset = 0;
	struct edge *edges = edges_to(d->s, id, &n);
	for (size_t k = 0; k < n && n > LABELLED_FAN; k++) {
		size_t many = edges[k].fold ? (edges[k].parent > edges[k].kset ? edges[k].parent
									 : edges[k].kset) : 1;
		*(edges[k].parent && edges[k].kset ? &both : edges[k].parent ? &parent : &kset) += many;
	}
	if (n > LABELLED_FAN) {
		fputs("<tr><td align=\"left\"><font point-size=\"7.5\">held by ", d->out);
		const char *sep = "";
		if (both)
			fprintf(d->out, "%zu as parent, kset", both), sep = "; ";
		if (parent)
			fprintf(d->out, "%s%zu as parent", sep, parent), sep = "; ";
		if (kset)
			fprintf(d->out, "%s%zu as kset", sep, kset);
		fputs("</font></td></tr>", d->out);
	}
	free(edges);
}

static void put_edge(struct dot_writer *d, const struct edge *e, unsigned to, bool label)
{
	const struct kobj_scene *s = d->s;
	char text[768];
	bool chain = s->at_exit && s->state[to] == KOBJ_STATE_KEPT;
	unsigned n = e->parent > e->kset ? e->parent : e->kset;

	/* drawn from the held object down to its holder, arrow back up: parents on top */
	fprintf(d->out, "  k%u -> %c%u [dir=back, ", to, e->fold ? 'f' : 'k', e->from);
	if (!e->parent)
		fputs("style=dashed, ", d->out);
	if (chain)
		fputs("color=\"" KOBJ_LEAK "\", fontcolor=\"" KOBJ_LEAK "\", penwidth=2, ", d->out);
	if (label || e->fold) {
		fprintf(d->out, "label=\"%s%s%s", e->parent ? "parent" : "",
			e->parent && e->kset ? ", " : "", e->kset ? "kset" : "");
		if (e->fold)
			fprintf(d->out, " ×%u", n);
		fputs("\", ", d->out);
	}
	fputs("tooltip=\"", d->out);
	for (unsigned i = 0; i < 2 && i < e->parent + e->kset && !e->fold; i++) {
		kobj_ref_text(s->w, &e->ref[i], text, sizeof(text));
		fputs(i ? "; " : "", d->out);
		dot_html(text, d->out);
	}
	if (e->fold)
		fprintf(d->out, "references of %u folded objects", n);
	fputs("\"];\n", d->out);
	d->drew |= chain ? DREW_CHAIN : 0;
	d->drew |= e->parent && e->kset ? DREW_BOTH : e->parent ? DREW_PARENT : DREW_KSET;
}

static void ref_edges(struct dot_writer *d, unsigned to)
{
	size_t n;
	struct edge *edges = edges_to(d->s, to, &n);
	for (size_t k = 0; k < n; k++)
		put_edge(d, &edges[k], to, n <= LABELLED_FAN);
	free(edges);
}

/* Where an object was, once it holds no reference there any more: faded, no arrow. */
static void faded_edges(struct dot_writer *d, unsigned id)
{
	const struct kobj_scene *s = d->s;
	const struct kobj_record *r = kobj_record_by_id(s->w, id);
	unsigned to[2] = { r->parent_ref ? 0 : r->parent,
			   r->kset_ref || r->kset == r->parent ? 0 : r->kset };
	for (int i = 0; i < 2; i++) {
		if (!to[i] || to[i] > s->n || s->shown[to[i]] != KOBJ_SHOWN_YES)
			continue;
		fprintf(d->out, "  k%u -> k%u [dir=none, style=dotted, color=\"" KOBJ_FADED "\"];\n",
			to[i], id);
		d->drew |= DREW_FADED;
	}
}

/* The sysfs links in @dir (and its groups) as dotted arrows named like the link. */
static void link_edges(struct dot_writer *d, unsigned id, const struct sysfs_dirent *dir,
		       int depth)
{
	const struct sysfs_dirent **children = NULL;
	size_t n = sysfs_children(dir, 0, &children);
	for (size_t i = 0; i < n; i++) {
		const struct sysfs_dirent *e = children[i];
		unsigned from;
		bool fold;
		if (sysfs_dirent_type(e) == SYSFS_DIR && !sysfs_dirent_is_object(e) && depth < 4)
			link_edges(d, id, e, depth + 1);
		if (sysfs_dirent_type(e) != SYSFS_LINK ||
		    !drawn_as(d->s, sysfs_dirent_link_obj(e), &from, &fold))
			continue;
		fprintf(d->out, "  k%u -> %c%u [style=dotted, color=\"" KOBJ_LINK "\", fontcolor=\""
			KOBJ_LINK "\", arrowhead=vee, constraint=false, label=\"", id,
			fold ? 'f' : 'k', from);
		dot_html(sysfs_dirent_name(e), d->out);
		fputs("\"];\n", d->out);
		d->drew |= DREW_LINK;
	}
	free(children);
}

void dot_edges(struct dot_writer *d)
{
	const struct kobj_scene *s = d->s;
	for (unsigned id = 1; id <= s->n; id++) {
		if (s->shown[id] != KOBJ_SHOWN_YES)
			continue;
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (d->layout) { /* the page draws edges itself: graphviz only places boxes */
			if (r->parent && r->parent <= s->n && s->shown[r->parent] == KOBJ_SHOWN_YES)
				fprintf(d->out, "  k%u -> k%u [dir=back];\n", r->parent, id);
			if (r->kset && r->kset != r->parent && r->kset <= s->n &&
			    s->shown[r->kset] == KOBJ_SHOWN_YES)
				fprintf(d->out, "  k%u -> k%u [dir=back, style=dashed];\n", r->kset, id);
			continue;
		}
		ref_edges(d, id);
		faded_edges(d, id);
		if (r->dir && r->in_sysfs)
			link_edges(d, id, r->dir, 0);
	}
	for (size_t i = 0; d->layout && i < s->nfolds; i++)
		fprintf(d->out, "  k%u -> f%u [dir=back];\n", s->folds[i].kset, s->folds[i].kset);
}

/* ============================================================================= notes */

/* One line that took references never dropped, and the objects they keep. */
struct note {
	unsigned site;
	enum kobj_ref_kind kind;
	const char *op;
	unsigned *objs, nobjs;
};

static struct note *note_for(struct note **notes, size_t *n, const struct kobj_ref *ref)
{
	for (size_t i = 0; i < *n; i++)
		if ((*notes)[i].site == ref->site && (*notes)[i].kind == ref->kind &&
		    (*notes)[i].op == ref->op)
			return &(*notes)[i];
	*notes = realloc(*notes, (*n + 1) * sizeof(**notes));
	if (!*notes)
		abort();
	(*notes)[*n] = (struct note){ ref->site, ref->kind, ref->op, NULL, 0 };
	return &(*notes)[(*n)++];
}

static void add_obj(struct note *note, unsigned id)
{
	if (note->nobjs && note->objs[note->nobjs - 1] == id)
		return; /* two gets on one line: one edge */
	note->objs = realloc(note->objs, (note->nobjs + 1) * sizeof(*note->objs));
	if (!note->objs)
		abort();
	note->objs[note->nobjs++] = id;
}

static void put_note(struct dot_writer *d, size_t i, const struct note *note)
{
	char where[256];
	fprintf(d->out, "  n%zu [id=\"n%zu\", class=\"note\", shape=note, style=filled, "
		"fillcolor=\"#fff4e5\", color=\"" KOBJ_LEAK "\", fontcolor=\"" KOBJ_INK "\", "
		"label=<<b>", i + 1, i + 1);
	dot_html(kobj_short_where(d->s->w, note->site, where), d->out);
	fputs("</b><br/>", d->out);
	dot_html(note->op ? note->op : "?", d->out);
	fprintf(d->out, "<br/><i>%s, never %s</i>>];\n", kobj_ref_kind_name(note->kind),
		note->kind == KOBJ_REF_MODULE ? "module_put" : "put");
	for (unsigned k = 0; k < note->nobjs; k++)
		fprintf(d->out, "  k%u -> n%zu [dir=back, color=\"" KOBJ_LEAK "\", fontcolor=\""
			KOBJ_LEAK "\", penwidth=2, label=\"%s\"];\n", note->objs[k], i + 1,
			kobj_ref_kind_name(note->kind));
}

void dot_leak_notes(struct dot_writer *d)
{
	const struct kobj_scene *s = d->s;
	struct note *notes = NULL;
	size_t nnotes = 0;
	for (unsigned id = 1; id <= s->n; id++) {
		if (s->shown[id] != KOBJ_SHOWN_YES || s->root[id] != id)
			continue;
		size_t n;
		struct kobj_ref *refs = kobj_scene_refs(s, id, &n);
		for (size_t i = 0; i < n; i++)
			if (kobj_scene_ref_is_note(s, id, refs[i].kind))
				add_obj(note_for(&notes, &nnotes, &refs[i]), id);
		free(refs);
	}
	for (size_t i = 0; i < nnotes; i++) {
		put_note(d, i, &notes[i]);
		free(notes[i].objs);
	}
	d->drew |= nnotes ? DREW_NOTE : 0;
	free(notes);
}
