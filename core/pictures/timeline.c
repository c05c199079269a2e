/*
 * The timeline: a self-contained HTML page with one frame per logged event.
 *
 * Every object the log ever named is still a record at the end, so the final world,
 * drawn with all its ghosts, is the union of all frames: graphviz lays it out once and
 * every frame reuses those positions. Each frame is stored as the changes its event made
 * (count, state, diagnostic mark); the page replays them and draws the picture itself.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pictures/pictures.h"
#include "core/pictures/timeline_page.h"
#include "core/report/report.h"

/* A JavaScript string literal that is also safe inside <script>. */
static void put_js_string(const char *s, FILE *out)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

struct pos {
	double x, y, w, h;
	bool placed;
};

/* Reads the node positions of `dot -Tplain` (points, y growing upwards). */
static double parse_plain(const char *plain, struct pos *pos, unsigned nrecords, FILE *edges)
{
	double height = 0;
	const char *line = plain;
	bool first_edge = true;
	while (line && *line) {
		unsigned id, from, to;
		double scale, w, h, x, y;
		int n, used;
		if (sscanf(line, "graph %lf %lf %lf", &scale, &w, &h) == 3) {
			height = h * 72;
		} else if (sscanf(line, "node k%u %lf %lf %lf %lf", &id, &x, &y, &w, &h) == 5 &&
			   id <= nrecords) {
			pos[id] = (struct pos){ x * 72, height - y * 72, w * 72, h * 72, true };
		} else if (sscanf(line, "edge k%u k%u %d%n", &from, &to, &n, &used) == 3) {
			/* the line ends with "<style> <color>" */
			const char *end = strchr(line, '\n');
			size_t len = end ? (size_t)(end - line) : strlen(line);
			while (len && line[len - 1] != ' ')
				len--;
			bool dashed = len >= 8 && memcmp(line + len - 8, " dashed ", 8) == 0;
			fprintf(edges, "%s[%u,%u,%d,[", first_edge ? "" : ",", from, to, dashed);
			first_edge = false;
			const char *p = line + used;
			for (int i = 0; i < n; i++) {
				if (sscanf(p, " %lf %lf%n", &x, &y, &used) != 2)
					break;
				fprintf(edges, "%s%.1f,%.1f", i ? "," : "", x * 72, height - y * 72);
				p += used;
			}
			fputs("]]", edges);
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return height;
}

static void put_nodes(const struct kobj_world *w, const struct pos *pos, FILE *out)
{
	bool first = true;
	for (unsigned id = 1; id <= kobj_record_count(w); id++) {
		const struct kobj_record *r = kobj_record_by_id(w, id);
		if (!pos[id].placed)
			continue;
		fprintf(out, "%s[%u,", first ? "" : ",\n", id);
		put_js_string(r->name, out);
		fprintf(out, ",%d,%.1f,%.1f,%.1f,%.1f,%u]", r->kind, pos[id].x, pos[id].y,
			pos[id].w, pos[id].h, r->kset);
		first = false;
	}
}

/* Per object, what the replay has shown so far. */
struct shown {
	int refcount;
	int state; /* enum kobj_state, or -1 before init */
	bool diag;
};

static void put_frames(const struct kobj_world *w, const struct pos *pos, FILE *out)
{
	unsigned n = (unsigned)kobj_record_count(w);
	struct shown *shown = calloc((size_t)n + 1, sizeof(*shown));
	struct kobj_event event;
	const struct kobj_event *ev = &event;
	if (!shown)
		abort();
	for (unsigned id = 0; id <= n; id++)
		shown[id].state = -1;
	for (size_t i = 0; kobj_log_read(w, i, &event); i++) {
		const struct kobj_record *r = kobj_record_by_id(w, ev->obj);
		char *line = NULL;
		size_t len = 0;
		FILE *text = open_memstream(&line, &len);
		kobj_event_print(w, ev, text);
		if (ev->kind == KOBJ_EV_DIAG) {
			const struct kobj_diag *d = kobj_diag_at(w, ev->aux);
			fprintf(text, "\n%s\n\n%s", d->message, d->explanation);
		}
		fclose(text);
		fputs(i ? ",\n[" : "[", out);
		put_js_string(line, out);
		free(line);
		fputs(",[", out);
		if (r && ev->obj <= n && pos[ev->obj].placed) {
			struct shown *s = &shown[ev->obj];
			switch (ev->kind) {
			case KOBJ_EV_INIT:
				s->state = KOBJ_STATE_INITIALIZED;
				break;
			case KOBJ_EV_ADD:
				s->state = KOBJ_STATE_IN_SYSFS;
				break;
			case KOBJ_EV_DEL:
				s->state = KOBJ_STATE_DELETED;
				break;
			case KOBJ_EV_RELEASE:
				s->state = r->no_release ? KOBJ_STATE_LEAKED : KOBJ_STATE_RELEASED;
				break;
			case KOBJ_EV_DIAG:
				s->diag = true;
				break;
			default:
				break;
			}
			if (ev->kind != KOBJ_EV_DIAG && ev->kind != KOBJ_EV_SET_NAME)
				s->refcount = ev->after;
			fprintf(out, "[%u,%d,%d,%d,%d]", ev->obj, s->refcount, s->state, s->diag,
				ev->before);
		}
		fputs("]]", out);
	}
	free(shown);
}

int kobj_timeline_html(const struct kobj_world *w, const char *title, FILE *out, char *err,
		       size_t errlen)
{
	struct kobj_dot_options o = { .legend = false };
	char *dot = NULL, *edges = NULL;
	size_t len = 0, elen = 0;
	FILE *text = open_memstream(&dot, &len);
	kobj_dot(w, &o, text);
	fclose(text);
	char *plain = kobj_run_dot(dot, "-Tplain", err, errlen);
	free(dot);
	if (!plain)
		return -1;

	unsigned n = (unsigned)kobj_record_count(w);
	struct pos *pos = calloc((size_t)n + 1, sizeof(*pos));
	if (!pos)
		abort();
	FILE *edge_text = open_memstream(&edges, &elen);
	double height = parse_plain(plain, pos, n, edge_text);
	fclose(edge_text);
	free(plain);

	fputs(kobj_timeline_head, out);
	fputs("<script>\nconst T = {\ntitle: ", out);
	put_js_string(title ? title : "kobject timeline", out);
	fprintf(out, ",\nheight: %.1f,\nnodes: [\n", height);
	put_nodes(w, pos, out);
	fprintf(out, "],\nedges: [%s],\nframes: [\n", edges);
	put_frames(w, pos, out);
	fputs("]};\n</script>\n", out);
	fputs(kobj_timeline_tail, out);
	free(edges);
	free(pos);
	return 0;
}
