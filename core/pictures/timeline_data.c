/*
 * The timeline's events as data: one compact array per event, the call stack of each as
 * a chain of sites, and the text of the scripts they came from, so the page can show the
 * line of every event as a debugger would.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pictures/timeline_data.h"
#include "core/report/report.h"

void tl_js_string(const char *s, FILE *out)
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

/* The files the sites name, by their interned pointers, in order of first use. */
struct files {
	const char **names;
	size_t n;
};

static size_t file_index(struct files *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->names[i] == name)
			return i;
	f->names = realloc(f->names, (f->n + 1) * sizeof(*f->names));
	if (!f->names)
		abort();
	f->names[f->n] = name;
	return f->n++;
}

/* Gives @site and its callers positions, callers first; writes each new one. */
static void add_site(const struct kobj_world *w, unsigned site, unsigned *index,
		     unsigned *count, struct files *files, FILE *out)
{
	unsigned chain[64], depth = 0;
	for (unsigned s = site; s && !index[s] && depth < 64; s = kobj_site_caller(w, s))
		chain[depth++] = s;
	while (depth) {
		unsigned s = chain[--depth], caller = kobj_site_caller(w, s);
		struct kobj_origin o = kobj_site_origin(w, s);
		index[s] = ++*count;
		fprintf(out, "%s[%zu,%d,", *count > 1 ? "," : "", file_index(files, o.file), o.line);
		if (o.func)
			tl_js_string(o.func, out);
		else
			fputs("null", out);
		fprintf(out, ",%d]", caller && index[caller] ? (int)index[caller] - 1 : -1);
	}
}

void tl_sources(const struct kobj_world *w, const struct kobj_timeline_options *o,
		unsigned *index, FILE *out)
{
	struct files files = { NULL, 0 };
	struct kobj_event ev;
	unsigned count = 0;

	fputs("sites: [", out);
	for (size_t i = 0; kobj_log_read(w, i, &ev); i++)
		if (ev.site && !index[ev.site] && ev.origin.file)
			add_site(w, ev.site, index, &count, &files, out);
	fputs("],\nfiles: [", out);
	for (size_t i = 0; i < files.n; i++) {
		char *text = o && o->read_source ? o->read_source(files.names[i], o->ctx) : NULL;
		fputs(i ? ",\n[" : "[", out);
		tl_js_string(files.names[i], out);
		fputc(',', out);
		if (text)
			tl_js_string(text, out);
		else
			fputs("null", out);
		fputc(']', out);
		free(text);
	}
	fputs("],\n", out);
	free(files.names);
}

/* The state an event leaves its object in, as the page replays it (-1: no change). */
static int state_after(const struct kobj_event *ev)
{
	switch (ev->kind) {
	case KOBJ_EV_INIT:
		return KOBJ_STATE_INITIALIZED;
	case KOBJ_EV_ADD:
	case KOBJ_EV_MODULE_LOAD:
		return KOBJ_STATE_IN_SYSFS;
	case KOBJ_EV_DEL:
		return KOBJ_STATE_DELETED;
	case KOBJ_EV_PUT:
		return ev->after == 0 ? KOBJ_STATE_PENDING : -1; /* until its release runs */
	case KOBJ_EV_RELEASE:
	case KOBJ_EV_MODULE_UNLOAD:
		return KOBJ_STATE_RELEASED;
	default:
		return -1;
	}
}

void tl_frames(const struct kobj_world *w, const unsigned *index, FILE *out)
{
	struct kobj_event ev;
	char *text = NULL;
	size_t len = 0;

	fputs("frames: [\n", out);
	for (size_t i = 0; kobj_log_read(w, i, &ev); i++) {
		FILE *t = open_memstream(&text, &len);
		kobj_event_print(w, &ev, t);
		if (ev.kind == KOBJ_EV_DIAG) {
			const struct kobj_diag *d = kobj_diag_at(w, ev.aux);
			fprintf(t, "\n%s\n\n%s", d->message, d->explanation);
		}
		fclose(t);
		fprintf(out, "%s[%d,%u,%d,", i ? ",\n" : "", ev.site ? (int)index[ev.site] - 1 : -1,
			ev.thread, ev.kind);
		tl_js_string(text, out);
		fprintf(out, ",%u,%d,%d,%d,%lu,%d,%u,%u]", ev.obj, ev.before, ev.after,
			state_after(&ev), ev.ref, ev.ref_kind, ev.holder, ev.aux);
		free(text);
		text = NULL;
	}
	fputs("],\n", out);
}
