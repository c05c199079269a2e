/*
 * The timeline: a self-contained HTML page with one frame per logged event.
 *
 * Every object the log ever named is still a record at the end, so the final world,
 * drawn with all its ghosts, holds every object of every frame: graphviz lays it out
 * once (wide ksets folded, as in pictures) and every frame reuses those places. Each
 * frame is stored as the event's data; the page replays counts, states and references
 * and draws the picture itself. The last frame is the leak picture, drawn by graphviz.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pictures/timeline_data.h"
#include "core/pictures/timeline_page.h"
#include "core/report/report.h"

struct pos {
	double x, y, w, h;
	bool placed;
};

/* One edge route of the layout, in page coordinates, from the holder up to the object
 * it holds (the layout draws it the other way, arrow back). */
static void put_route(const char *line, int used, int n, double height, bool first,
		      unsigned from, bool from_fold, unsigned to, FILE *out)
{
	enum { MAX_POINTS = 256 };
	double pts[MAX_POINTS][2];
	const char *p = line + used;
	int k = 0;
	for (; k < n && k < MAX_POINTS; k++) {
		if (sscanf(p, " %lf %lf%n", &pts[k][0], &pts[k][1], &used) != 2)
			break;
		p += used;
	}
	fprintf(out, "%s[%d,%u,[", first ? "" : ",", from_fold ? -(int)from : (int)from, to);
	for (int i = k - 1; i >= 0; i--)
		fprintf(out, "%s%.1f,%.1f", i < k - 1 ? "," : "", pts[i][0] * 72,
			height - pts[i][1] * 72);
	fputs("]]", out);
}

/*
 * Reads `dot -Tplain`: boxes k<id> and folds f<kset> (points, y growing downwards in
 * the page) and the edges' routes into @routes. Return: the height.
 */
static double parse_plain(const char *plain, struct pos *pos, struct pos *folds,
			  unsigned n, double *width, FILE *routes)
{
	double height = 0;
	bool first = true;
	for (const char *line = plain, *end; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		unsigned id, from, to;
		double scale, w, h, x, y;
		char a, b;
		int k, used;
		if (sscanf(line, "graph %lf %lf %lf", &scale, &w, &h) == 3) {
			height = h * 72;
			*width = w * 72;
		} else if (sscanf(line, "node %c%u %lf %lf %lf %lf", &a, &id, &x, &y, &w, &h) == 6 &&
			   id <= n && (a == 'k' || a == 'f')) {
			(a == 'k' ? pos : folds)[id] =
				(struct pos){ x * 72, height - y * 72, w * 72, h * 72, true };
		} else if (sscanf(line, "edge %c%u %c%u %d%n", &b, &to, &a, &from, &k, &used) == 5 &&
			   b == 'k') {
			put_route(line, used, k, height, first, from, a == 'f', to, routes);
			first = false;
		}
	}
	return height;
}

/* "device", "ktype 2", "kset": what the page writes under a name. */
static void put_kind(const struct kobj_world *w, const struct kobj_record *r,
		     const struct kobj_type **seen, size_t *nseen, FILE *out)
{
	static const char *const kinds[] = { NULL, "kset", "subsystem", "module" };
	const char *name = r->kind == KOBJ_KIND_KOBJECT ? kobj_picture_ktype(w, r->ktype)
							: kinds[r->kind];
	char numbered[32];
	if (!name && !r->ktype) {
		name = "no ktype";
	} else if (!name) {
		size_t i = 0;
		while (i < *nseen && seen[i] != r->ktype)
			i++;
		if (i == *nseen)
			seen[(*nseen)++] = r->ktype;
		snprintf(numbered, sizeof(numbered), "ktype %zu", i + 1);
		name = numbered;
	}
	tl_js_string(name, out);
}

/* Every object's name by id, for the objects that folds hide. */
static void put_names(const struct kobj_scene *s, FILE *out)
{
	fputs("names: [", out);
	for (unsigned id = 1; id <= s->n; id++) {
		fputs(id > 1 ? (id % 16 == 1 ? ",\n" : ",") : "", out);
		tl_js_string(kobj_record_by_id(s->w, id)->name, out);
	}
	fputs("],\n", out);
}

static void put_nodes(const struct kobj_scene *s, const struct pos *pos, FILE *out)
{
	const struct kobj_type **seen = calloc((size_t)s->n + 1, sizeof(*seen));
	size_t nseen = 0;
	bool first = true;
	if (!seen)
		abort();
	fputs("nodes: [\n", out);
	for (unsigned id = 1; id <= s->n; id++) {
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		if (!pos[id].placed)
			continue;
		fprintf(out, "%s[%u,", first ? "" : ",\n", id);
		tl_js_string(r->name, out);
		fprintf(out, ",%d,%.1f,%.1f,%.1f,%.1f,%u,", r->kind, pos[id].x, pos[id].y,
			pos[id].w, pos[id].h, kobj_scene_is_member(s, id) ? r->kset : 0);
		put_kind(s->w, r, seen, &nseen, out);
		fputc(']', out);
		first = false;
	}
	fputs("],\n", out);
	free(seen);
}

/* Each fold's box and the objects it stands for. */
static void put_folds(const struct kobj_scene *s, const struct pos *folds, FILE *out)
{
	fputs("folds: [", out);
	for (size_t i = 0; i < s->nfolds; i++) {
		unsigned k = s->folds[i].kset;
		const struct pos *p = &folds[k];
		fprintf(out, "%s\n[%u,%.1f,%.1f,%.1f,%.1f,[", i ? "," : "", k, p->x, p->y, p->w, p->h);
		const char *sep = "";
		for (unsigned id = 1; id <= s->n; id++)
			if (s->fold_of[id] == k) {
				fprintf(out, "%s%u", sep, id);
				sep = ",";
			}
		fputs("]]", out);
	}
	fputs("],\n", out);
}

/* The sysfs links at the end, [owner, target, name]: the page draws a link while its
 * owner has one. */
static void put_links(const struct kobj_scene *s, FILE *out)
{
	const char *sep = "";
	fputs("links: [", out);
	for (unsigned id = 1; id <= s->n; id++) {
		const struct kobj_record *r = kobj_record_by_id(s->w, id);
		const struct sysfs_dirent **c = NULL;
		size_t n = r->dir && r->in_sysfs ? sysfs_children(r->dir, 0, &c) : 0;
		for (size_t i = 0; i < n; i++) {
			if (sysfs_dirent_type(c[i]) != SYSFS_LINK || !sysfs_dirent_link_obj(c[i]))
				continue;
			fprintf(out, "%s[%u,%u,", sep, id, sysfs_dirent_link_obj(c[i]));
			tl_js_string(sysfs_dirent_name(c[i]), out);
			fputc(']', out);
			sep = ",";
		}
		free(c);
	}
	fputs("],\n", out);
}

static char *dot_text(const struct kobj_scene *s, bool layout, bool legend)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		abort();
	kobj_dot_scene(s, layout, legend, out);
	fclose(out);
	return text;
}

/* The leak picture as an inline <svg> (graphviz's, without its XML prolog), and the
 * leak report: the page's last frame. */
static int put_leak_frame(const struct kobj_world *w, const struct kobj_timeline_options *o,
			  FILE *out, char *err, size_t errlen)
{
	const struct kobj_dot_options d = { .at_exit = true, .legend = true, .fold = o->fold };
	int e = 0;
	struct kobj_scene *s = kobj_scene_new(w, &d, &e);
	char *dot = dot_text(s, false, true);
	kobj_scene_free(s);
	char *svg = kobj_run_dot(dot, "-Tsvg", err, errlen);
	free(dot);
	if (!svg)
		return -1;
	const char *start = strstr(svg, "<svg");
	fputs("leak: {svg: ", out);
	tl_js_string(start ? start : "", out);
	free(svg);

	char *report = NULL;
	size_t len = 0;
	FILE *text = open_memstream(&report, &len);
	fprintf(text, "End of the run: %zu diagnostic%s.\n", kobj_diag_count(w),
		kobj_diag_count(w) == 1 ? "" : "s");
	kobj_leak_report(w, text);
	fclose(text);
	fputs(",\ntext: ", out);
	tl_js_string(report, out);
	fputs("},\n", out);
	free(report);
	return 0;
}

static void put_ref_kinds(FILE *out)
{
	fputs("refKinds: [", out);
	for (int k = 0; k < KOBJ_REF_KIND_COUNT; k++) {
		fputs(k ? "," : "", out);
		tl_js_string(kobj_ref_kind_name((enum kobj_ref_kind)k), out);
	}
	fputs("],\nstates: [", out);
	for (int st = 0; st < KOBJ_STATE_COUNT; st++) {
		const struct kobj_look *look = kobj_state_look((enum kobj_state)st);
		fprintf(out, "%s[", st ? "," : "");
		tl_js_string(kobj_state_name((enum kobj_state)st), out);
		fprintf(out, ",\"%s\",\"%s\",\"%s\",", look->fill, look->border, look->ink);
		tl_js_string(look->legend, out);
		fputc(']', out);
	}
	fputs("],\n", out);
}

int kobj_timeline_html(const struct kobj_world *w, const char *title, FILE *out, char *err,
		       size_t errlen)
{
	const struct kobj_timeline_options o = { .title = title };
	return kobj_timeline_page(w, &o, out, err, errlen);
}

int kobj_timeline_page(const struct kobj_world *w, const struct kobj_timeline_options *o,
		       FILE *out, char *err, size_t errlen)
{
	static const struct kobj_timeline_options defaults = { .title = "kobject timeline" };
	o = o ? o : &defaults;
	/* the page shares its width with the source: wide ksets fold sooner than in pictures */
	const struct kobj_dot_options d = { .fold = o->fold ? o->fold : KOBJ_TIMELINE_FOLD };
	int e = 0;
	struct kobj_scene *s = kobj_scene_new(w, &d, &e);
	char *dot = dot_text(s, true, false);
	char *plain = kobj_run_dot(dot, "-Tplain", err, errlen);
	free(dot);
	if (!plain) {
		kobj_scene_free(s);
		return -1;
	}
	struct pos *pos = calloc((size_t)s->n + 1, sizeof(*pos));
	struct pos *folds = calloc((size_t)s->n + 1, sizeof(*folds));
	char *routes = NULL;
	size_t rlen = 0;
	double width = 0;
	FILE *route_text = open_memstream(&routes, &rlen);
	if (!pos || !folds || !route_text)
		abort();
	double height = parse_plain(plain, pos, folds, s->n, &width, route_text);
	fclose(route_text);
	free(plain);

	fputs(kobj_timeline_head, out);
	fputs("<script>\nconst T = {\ntitle: ", out);
	tl_js_string(o->title ? o->title : defaults.title, out);
	fprintf(out, ",\nwidth: %.1f,\nheight: %.1f,\n", width, height);
	put_ref_kinds(out);
	put_names(s, out);
	put_nodes(s, pos, out);
	put_folds(s, folds, out);
	put_links(s, out);
	fprintf(out, "routes: [%s],\n", routes);
	unsigned long max_site = 0;
	struct kobj_event ev;
	for (size_t i = 0; kobj_log_read(w, i, &ev); i++)
		max_site = ev.site > max_site ? ev.site : max_site;
	unsigned *index = calloc(max_site + 1, sizeof(*index));
	if (!index)
		abort();
	tl_sources(w, o, index, out);
	tl_frames(w, index, out);
	int rc = put_leak_frame(w, o, out, err, errlen);
	fputs("};\n</script>\n", out);
	fputs(kobj_timeline_tail, out);
	free(index);
	free(routes);
	free(pos);
	free(folds);
	kobj_scene_free(s);
	return rc;
}
