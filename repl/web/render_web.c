/*
 * Graphviz in the browser: kobj_run_dot() and kobj_render() (core/pictures/pictures.h),
 * which at the terminal run the `dot` program, here call graphviz compiled to
 * WebAssembly (the @viz-js/viz package, loaded beside this module in the Web Worker as
 * Module.viz). The timeline, `:dot` and dot("x.svg") need nothing else. Pictures are
 * written to the worker's in-memory files; PNG and PDF are not made here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "core/pictures/pictures.h"

/* Lays out @dot in @format ("svg", "plain"...). Return: the output, malloc'd, or NULL
 * with graphviz's message in @err. */
EM_JS(char *, viz_render, (const char *dot, const char *format, char *err, int errlen), {
	let text;
	try {
		const r = Module.viz.render(UTF8ToString(dot), { format: UTF8ToString(format) });
		if (r.status !== "success") {
			const why = r.errors.map(e => e.message.trim()).join("; ");
			stringToUTF8("graphviz: " + (why || "failed"), err, errlen);
			return 0;
		}
		text = r.output;
	} catch (e) {
		stringToUTF8("graphviz: " + e.message, err, errlen);
		return 0;
	}
	const size = lengthBytesUTF8(text) + 1;
	const out = _malloc(size);
	if (out)
		stringToUTF8(text, out, size);
	else
		stringToUTF8("graphviz: out of memory", err, errlen);
	return out;
});

char *kobj_run_dot(const char *dot_text, const char *flag, char *err, size_t errlen)
{
	if (strncmp(flag, "-T", 2) != 0) {
		snprintf(err, errlen, "dot %s: only -T<format> is known here", flag);
		return NULL;
	}
	return viz_render(dot_text, flag + 2, err, (int)errlen);
}

static int write_text(const char *file, const char *text, char *err, size_t errlen)
{
	FILE *f = fopen(file, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		snprintf(err, errlen, "%s: cannot write it in the browser's files", file);
		return -1;
	}
	return 0;
}

int kobj_render(const char *dot_text, const char *file, char *err, size_t errlen)
{
	const char *ext = strrchr(file, '.');
	char *svg;
	int rc;

	if (ext && strcmp(ext, ".dot") == 0)
		return write_text(file, dot_text, err, errlen);
	if (!ext || strcmp(ext, ".svg") != 0) {
		snprintf(err, errlen, "%s: the browser's sandbox draws .svg (and writes .dot) "
			 "pictures only", file);
		return -1;
	}
	svg = kobj_run_dot(dot_text, "-Tsvg", err, errlen);
	if (!svg)
		return -1;
	rc = write_text(file, svg, err, errlen);
	free(svg);
	return rc;
}
