/*
 * DOT export: one box per object saying its name, kind, refcount and state in words,
 * then the references callers hold (with the line that took each), its sysfs files and
 * the diagnostics that named it. Ksets are frames around their members, which keep
 * their creation order; wide ones fold. Kobjects are rounded boxes, ksets folders,
 * subsystems tabs, modules components.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/pictures/dot_write.h"
#include "core/report/report.h"

void dot_html(const char *s, FILE *out)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\n': fputc(' ', out); break;
		default: fputc(*s, out);
		}
	}
}

/* The ktype as a box names it: given, the kernel's own, else numbered as met. */
static void put_ktype(struct dot_writer *d, const struct kobj_type *ktype)
{
	const char *name = kobj_picture_ktype(d->s->w, ktype);
	if (!ktype || name) {
		dot_html(name ? name : "no ktype", d->out);
		return;
	}
	size_t i = 0;
	while (i < d->nktypes && d->ktypes[i] != ktype)
		i++;
	if (i == d->nktypes) {
		if (d->nktypes == d->ktypes_cap) {
			d->ktypes_cap = d->ktypes_cap ? 2 * d->ktypes_cap : 8;
			d->ktypes = realloc(d->ktypes, d->ktypes_cap * sizeof(*d->ktypes));
			if (!d->ktypes)
				abort();
		}
		d->ktypes[d->nktypes++] = ktype;
	}
	fprintf(d->out, "ktype %zu", i + 1);
}

static const char *kind_slug(const struct kobj_record *r)
{
	static const char *const slugs[] = { "kobject", "kset", "subsystem", "module" };
	return slugs[r->kind];
}

/* "device · refcount 2", "kset · refcount 7", "module · 1 user". */
static void put_kind_line(struct dot_writer *d, const struct kobj_record *r)
{
	if (r->kind == KOBJ_KIND_MODULE) {
		fprintf(d->out, "module · %d user%s", r->refcount, r->refcount == 1 ? "" : "s");
		return;
	}
	if (r->kind == KOBJ_KIND_KOBJECT) {
		put_ktype(d, r->ktype);
	} else {
		const char *name = kobj_picture_ktype(d->s->w, r->ktype);
		fputs(r->kind == KOBJ_KIND_KSET ? "kset" : "subsystem", d->out);
		if (name) { /* kset_ktype, for ksets the kernel makes */
			fputs(" (", d->out);
			dot_html(name, d->out);
			fputc(')', d->out);
		}
	}
	fprintf(d->out, " · refcount %d", r->refcount);
}

/* The state in words: "kept alive by 'tg3'"; modules are loaded and unloaded. */
static void put_state_line(struct dot_writer *d, const struct kobj_record *r)
{
	enum kobj_state st = d->s->state[r->id];
	if (r->kind == KOBJ_KIND_MODULE && st == KOBJ_STATE_RELEASED) {
		fputs("unloaded", d->out);
	} else if (r->kind == KOBJ_KIND_MODULE && st == KOBJ_STATE_IN_SYSFS) {
		fputs("loaded", d->out);
	} else if (st == KOBJ_STATE_KEPT) {
		const struct kobj_record *root = kobj_record_by_id(d->s->w, d->s->root[r->id]);
		fputs("kept alive by '", d->out);
		dot_html(root ? root->name : "?", d->out);
		fputs(r->in_sysfs ? "', in sysfs" : "'", d->out);
	} else {
		fputs(kobj_state_name(st), d->out);
	}
}

/* A sysfs file as a row: "foo 0644". */
static void put_file_row(struct dot_writer *d, const struct sysfs_dirent *f, const char *in)
{
	fprintf(d->out, "<tr><td align=\"left\"><font face=\"Courier\" point-size=\"7.5\">%s", in);
	dot_html(sysfs_dirent_name(f), d->out);
	if (sysfs_dirent_type(f) == SYSFS_DIR)
		fputc('/', d->out);
	else
		fprintf(d->out, " %04o", sysfs_dirent_mode(f));
	fputs("</font></td></tr>", d->out);
}

/* Files and named groups (with their files) in creation order; links are edges. */
static void put_file_rows(struct dot_writer *d, const struct kobj_record *r)
{
	enum { MAX_ROWS = 8 };
	const struct sysfs_dirent **top = NULL, **sub = NULL;
	size_t n = r->dir && r->in_sysfs ? sysfs_children(r->dir, 0, &top) : 0, rows = 0, more = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sysfs_dirent *e = top[i];
		bool group = sysfs_dirent_type(e) == SYSFS_DIR && !sysfs_dirent_is_object(e);
		if (sysfs_dirent_type(e) != SYSFS_FILE && !group)
			continue;
		if (rows < MAX_ROWS)
			put_file_row(d, e, "");
		else
			more++;
		rows++;
		size_t m = group ? sysfs_children(e, 0, &sub) : 0;
		for (size_t j = 0; j < m; j++) {
			if (sysfs_dirent_type(sub[j]) != SYSFS_FILE)
				continue;
			if (rows++ < MAX_ROWS)
				put_file_row(d, sub[j], "  ");
			else
				more++;
		}
		free(sub);
		sub = NULL;
	}
	if (more)
		fprintf(d->out, "<tr><td align=\"left\"><font point-size=\"7.5\">… %zu more "
			"file%s</font></td></tr>", more, more == 1 ? "" : "s");
	if (rows)
		d->drew |= DREW_FILES;
	free(top);
}

/* "! double-put · kset.lua:26" per diagnostic that named the object. */
static void put_diag_rows(struct dot_writer *d, unsigned id)
{
	const struct kobj_scene *s = d->s;
	unsigned n = s->diag_n[id];
	char where[256];
	for (unsigned i = 0; i < n && i < 3; i++) {
		const struct kobj_diag *g = kobj_diag_at(s->w, s->diag_list[s->diag_start[id] + i]);
		fprintf(d->out, "<tr><td align=\"left\"><font color=\"%s\" point-size=\"7.5\">! %s · "
			"%s</font></td></tr>", KOBJ_DIAG, kobj_diag_tag(g->kind),
			kobj_short_where(s->w, g->site, where));
	}
	if (n > 3)
		fprintf(d->out, "<tr><td align=\"left\"><font color=\"%s\" point-size=\"7.5\">! %u "
			"more</font></td></tr>", KOBJ_DIAG, n - 3);
}

static void put_label(struct dot_writer *d, const struct kobj_record *r)
{
	FILE *out = d->out;
	fputs("<<table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\">"
	      "<tr><td><font point-size=\"10\"><b>", out);
	dot_html(r->name[0] ? r->name : "(no name)", out);
	fputs("</b></font>", out);
	if (d->s->state[r->id] == KOBJ_STATE_RELEASED)
		fprintf(out, " #%u", r->id); /* ghosts of the same name told apart */
	fputs("</td></tr><tr><td>", out);
	put_kind_line(d, r);
	fputs("</td></tr><tr><td><i>", out);
	put_state_line(d, r);
	fputs("</i></td></tr>", out);
	if (!d->layout) {
		dot_ref_rows(d, r->id);
		dot_fan_row(d, r->id);
		put_file_rows(d, r);
		put_diag_rows(d, r->id);
	}
	fputs("</table>>", out);
}

/*
 * The timeline draws its boxes itself; graphviz only places them. The label reserves the
 * lines the page writes, at the sizes it writes them: the name, the kind, the count as
 * it changes ("refcount 12 → 13"), the longest state, and a line for files and links.
 */
static void put_layout_label(struct dot_writer *d, const struct kobj_record *r)
{
	int digits = 1;
	for (int c = r->refcount > 99 ? r->refcount : 99; c >= 10; c /= 10)
		digits++;
	fputs("<<table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\">"
	      "<tr><td><font point-size=\"12\"><b>", d->out);
	dot_html(r->name[0] ? r->name : "(no name)", d->out);
	fprintf(d->out, " #%u</b></font></td></tr><tr><td><font point-size=\"11\">", r->id);
	put_kind_line(d, r);
	fprintf(d->out, "</font></td></tr><tr><td><font point-size=\"11\"><b>refcount %0*d → "
		"%0*d</b></font></td></tr><tr><td><font point-size=\"11\">deleted, still "
		"held</font></td></tr><tr><td><font point-size=\"11\">99 files, 9 links</font>"
		"</td></tr></table>>", digits, 0, digits, 0);
}

static void put_node(struct dot_writer *d, unsigned id, const char *indent)
{
	const struct kobj_record *r = kobj_record_by_id(d->s->w, id);
	enum kobj_state st = d->s->state[id];
	const struct kobj_look *look = kobj_state_look(st);
	bool diag = d->s->diag_n[id] > 0;
	static const char *const shapes[] = { "box", "folder", "tab", "component" };

	d->states |= 1u << st;
	d->drew |= diag ? DREW_DIAG : 0;
	fprintf(d->out, "%sk%u [id=\"k%u\", class=\"%s %s%s\", shape=%s, style=\"%s%sfilled\", "
		"fillcolor=\"%s\", color=\"%s\", fontcolor=\"%s\"", indent, id, id, kind_slug(r),
		look->slug, diag ? " diagnosed" : "", shapes[r->kind],
		r->kind == KOBJ_KIND_KOBJECT ? "rounded," : "", diag ? "" : look->style,
		look->fill, diag ? KOBJ_DIAG : look->border, look->ink);
	if (diag)
		fputs(", penwidth=2.5", d->out);
	fputs(", label=", d->out);
	if (d->layout)
		put_layout_label(d, r);
	else
		put_label(d, r);
	fputs("];\n", d->out);
}

/* The box that stands for a kset's folded members: "… 194 more", their states and
 * counts, and what is hidden below them. */
static void put_fold(struct dot_writer *d, const struct kobj_fold *f, const char *indent)
{
	const char *fill = "#ffffff";
	unsigned kinds = 0;
	for (int st = 0; st < KOBJ_STATE_COUNT; st++)
		if (f->per_state[st]) {
			kinds++;
			fill = kobj_state_look((enum kobj_state)st)->fill;
		}
	d->drew |= DREW_FOLD;
	fprintf(d->out, "%sf%u [id=\"f%u\", class=\"fold\", shape=box, style=\"rounded,dashed,"
		"filled\", fillcolor=\"%s\", color=\"%s\", fontcolor=\"%s\", label=<<table "
		"border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\">", indent, f->kset,
		f->kset, kinds == 1 ? fill : "#ffffff", KOBJ_EDGE, KOBJ_INK);
	if (d->layout) { /* the page writes the counts as they change, and what changed */
		fprintf(d->out, "<tr><td><font point-size=\"12\"><b>… %u more</b></font></td></tr>"
			"<tr><td><font point-size=\"11\">%u in sysfs, %u released</font></td></tr>"
			"<tr><td><font point-size=\"11\">refcount 0 to %u</font></td></tr>"
			"<tr><td><font point-size=\"10\"><b>a name of 16 chars changed</b></font>"
			"</td></tr></table>>];\n", f->members, f->members, f->members,
			f->max_count > 99 ? f->max_count : 99);
		return;
	}
	fprintf(d->out, "<tr><td><b>… %u more</b></td></tr><tr><td>", f->members);
	const char *sep = "";
	for (int st = 0; st < KOBJ_STATE_COUNT; st++) {
		if (!f->per_state[st])
			continue;
		fprintf(d->out, "%s%u %s", sep, f->per_state[st], kobj_state_name((enum kobj_state)st));
		sep = ", ";
		d->states |= 1u << st;
	}
	if (f->min_count == f->max_count)
		fprintf(d->out, "</td></tr><tr><td>refcount %d", f->max_count);
	else
		fprintf(d->out, "</td></tr><tr><td>refcount %d to %d", f->min_count, f->max_count);
	if (f->below)
		fprintf(d->out, "</td></tr><tr><td>and %u object%s below them", f->below,
			f->below == 1 ? "" : "s");
	fputs("</td></tr></table>>];\n", d->out);
}

/* A kset's frame holds the kset and its members; member ksets nest inside. */
static void put_cluster(struct dot_writer *d, unsigned kset, int depth)
{
	const struct kobj_scene *s = d->s;
	char indent[80];
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 2, "");
	fprintf(d->out, "%ssubgraph cluster_k%u {\n%s  label=\"", indent, kset, indent);
	dot_html(kobj_record_by_id(s->w, kset)->name, d->out);
	fprintf(d->out, "\"; style=\"rounded,dashed\"; color=\"#78909c\"; fontcolor=\"#455a64\";\n");
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 4, "");
	put_node(d, kset, indent);
	/* graphviz keeps the order nodes are declared in: members in creation order, the
	 * fold where its first member was */
	const struct kobj_fold *f = kobj_scene_fold(s, kset);
	for (unsigned id = s->first[kset]; id; id = s->next[id]) {
		if (f && f->members && s->shown[id] == KOBJ_SHOWN_FOLDED) {
			put_fold(d, f, indent);
			f = NULL;
		}
		if (s->shown[id] != KOBJ_SHOWN_YES)
			continue;
		const struct kobj_record *m = kobj_record_by_id(s->w, id);
		if (m->kind != KOBJ_KIND_KOBJECT && s->first[id] && depth < 32)
			put_cluster(d, id, depth + 1);
		else
			put_node(d, id, indent);
	}
	snprintf(indent, sizeof(indent), "%*s", 2 * depth + 2, "");
	fprintf(d->out, "%s}\n", indent);
}

static void put_graph(struct dot_writer *d)
{
	const struct kobj_scene *s = d->s;
	fputs("digraph kobjects {\n"
	      "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10, nodesep=0.15, "
	      "ranksep=0.4];\n"
	      "  node [fontname=\"Helvetica\", fontsize=9, margin=\"0.06,0.04\"];\n"
	      "  edge [fontname=\"Helvetica\", fontsize=7.5, color=\"" KOBJ_EDGE "\", "
	      "fontcolor=\"" KOBJ_EDGE "\"];\n", d->out);
	for (unsigned id = 1; id <= s->n; id++) {
		if (s->shown[id] != KOBJ_SHOWN_YES || kobj_scene_is_member(s, id))
			continue;
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (r->kind != KOBJ_KIND_KOBJECT && r->kind != KOBJ_KIND_MODULE && s->first[id])
			put_cluster(d, id, 0);
		else
			put_node(d, id, "  ");
	}
	dot_edges(d);
	if (!d->layout && s->at_exit)
		dot_leak_notes(d);
}

int kobj_dot_scene(const struct kobj_scene *s, bool layout, bool legend, FILE *out)
{
	struct dot_writer d = { .s = s, .out = out, .layout = layout };
	bool any = false;
	for (unsigned id = 1; id <= s->n && !any; id++)
		any = s->shown[id] == KOBJ_SHOWN_YES;
	put_graph(&d);
	if (!any && !layout)
		fputs("  empty [shape=plaintext, label=\"Nothing to draw: no kobject, kset, "
		      "subsystem or module exists here.\"];\n", out);
	else if (legend && !layout)
		dot_legend(&d);
	fputs("}\n", out);
	free(d.ktypes);
	return 0;
}

int kobj_dot(const struct kobj_world *w, const struct kobj_dot_options *options, FILE *out)
{
	static const struct kobj_dot_options defaults = { .legend = true };
	int err = 0;
	struct kobj_scene *s = kobj_scene_new(w, options, &err);
	if (!s)
		return err;
	kobj_dot_scene(s, false, (options ? options : &defaults)->legend, out);
	kobj_scene_free(s);
	return 0;
}
