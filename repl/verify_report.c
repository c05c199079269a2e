/*
 * The reports of a graded class: the table on standard output, results.tap (TAP 13) and
 * results.xml (JUnit). Students choose their folder names and their output, so every
 * byte of either goes through text_put: valid UTF-8 only, no control characters, and in
 * each format's own escaping. One student's bytes never break another's report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/verify.h"

const char *const outcome_names[] = { "-", "ok", "FAIL", "ERR", "TIME", "CRASH" };

/* ========================================================================= text */

/* The length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		   : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) || /* overlong, surrogate */
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f) || /* overlong, > U+10FFFF */
	    (s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe))                    /* U+FFFE, U+FFFF */
		return 0;
	return len;
}

void text_put(FILE *f, const char *s, size_t len, bool flat)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n = utf8_len(p, (size_t)(end - p));
		if (n == 0) {
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			p++;
		} else if (n == 1 && (*p == '\n' || *p == '\t')) {
			fputc(flat ? ' ' : *p, f);
			p++;
		} else if (n == 1 && (*p < 0x20 || *p == 0x7f)) {
			p++;
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

/* @len bytes of @s as text, with each character of @special written as @escapes says. */
static void escaped(FILE *f, const char *s, size_t len, bool flat, const char *special,
		    const char *const *escapes)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		return;
	text_put(m, s, len, flat);
	fclose(m);
	for (size_t i = 0; i < size; i++) {
		const char *hit = text[i] ? strchr(special, text[i]) : NULL;
		if (hit)
			fputs(escapes[hit - special], f);
		else
			fputc(text[i], f);
	}
	free(text);
}

static void xml(FILE *f, const char *s, size_t len)
{
	static const char *const esc[] = { "&lt;", "&gt;", "&amp;", "&quot;", "&#10;" };

	escaped(f, s, len, false, "<>&\"", esc);
}

/* An attribute value: newlines as character references, so they survive. */
static void xml_attr(FILE *f, const char *s)
{
	static const char *const esc[] = { "&lt;", "&gt;", "&amp;", "&quot;", "&#10;", "&#9;" };

	escaped(f, s, strlen(s), false, "<>&\"\n\t", esc);
}

/* A TAP description: one line, '#' and '\' escaped as TAP 13 says. */
static void tap_desc(FILE *f, const char *s)
{
	static const char *const esc[] = { "\\#", "\\\\" };

	escaped(f, s, strlen(s), true, "#\\", esc);
}

/* A YAML double-quoted scalar. */
static void yaml_str(FILE *f, const char *s)
{
	static const char *const esc[] = { "\\\"", "\\\\", "\\n", "\\t" };

	fputc('"', f);
	escaped(f, s, strlen(s), false, "\"\\\n\t", esc);
	fputc('"', f);
}

/* How much of @s[0..len) is whole characters: a sequence cut at the end is left out. */
static size_t whole_chars(const char *s, size_t len)
{
	size_t i = len, back = 0;

	while (i > 0 && back < 3 && ((unsigned char)s[i - 1] & 0xc0) == 0x80) {
		i--;
		back++;
	}
	if (i > 0 && (unsigned char)s[i - 1] >= 0xc0) {
		unsigned char lead = (unsigned char)s[i - 1];
		size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
		if (len - (i - 1) < need)
			return i - 1;
	}
	return len;
}

/* A cell's kept output as text, cut on a character boundary, and what was not kept. */
static void output_text(FILE *f, const struct cell *x)
{
	size_t len = x->printed > x->kept ? whole_chars(x->output, x->kept) : x->kept;

	xml(f, x->output ? x->output : "", len);
	if (x->printed > x->kept)
		fprintf(f, "\n[... %zu more bytes not kept]", x->printed - len);
}

/* ======================================================================== reports */

static const struct cell *cell_at(const struct course *c, const struct class *k, int s, int i)
{
	return &k->cells[s * c->count + i];
}

void report_table(const struct course *c, const struct class *k, const struct verify_opts *o,
		  double seconds)
{
	char limits[256];
	int width = 7;

	for (int s = 0; s < k->nstudents; s++)
		if ((int)strlen(k->students[s]) > width)
			width = strlen(k->students[s]) > 24 ? 24 : (int)strlen(k->students[s]);
	printf("%-*s", width, "student");
	for (int i = 0; i < c->count; i++)
		printf(" %5d", c->lessons[i].number);
	printf("   passed\n");
	for (int s = 0; s < k->nstudents; s++) {
		int passed = 0, len = (int)strlen(k->students[s]);
		text_put(stdout, k->students[s], len > width ? (size_t)width : (size_t)len, true);
		printf("%*s", len < width ? width - len : 0, "");
		for (int i = 0; i < c->count; i++) {
			enum outcome out = cell_at(c, k, s, i)->outcome;
			passed += out == PASS;
			printf(" %5s", outcome_names[out]);
		}
		printf("   %d/%d\n", passed, c->count);
	}
	printf("\n- no solution, ok all checks pass, FAIL some checks fail, ERR a Lua error or a\n"
	       "limit, TIME stopped by the time limit, CRASH the run died.\n");
	for (int i = 0; i < k->nskipped; i++) {
		printf("not graded: ");
		text_put(stdout, k->skipped[i].path, strlen(k->skipped[i].path), true);
		printf(": %s\n", k->skipped[i].reason);
	}
	cell_limits_text(o, limits, sizeof(limits));
	printf("%s\nGraded %d cells in %.2f s with %d job%s.\n", limits,
	       k->nstudents * c->count, seconds, o->jobs, o->jobs == 1 ? "" : "s");
}

void report_tap(FILE *f, const struct course *c, const struct class *k)
{
	int n = 0;

	fprintf(f, "TAP version 13\n1..%d\n", k->nstudents * c->count);
	for (int i = 0; i < k->nskipped; i++) {
		fputs("# not graded: ", f);
		text_put(f, k->skipped[i].path, strlen(k->skipped[i].path), true);
		fprintf(f, ": %s\n", k->skipped[i].reason);
	}
	for (int s = 0; s < k->nstudents; s++) {
		for (int i = 0; i < c->count; i++) {
			const struct cell *x = cell_at(c, k, s, i);
			fprintf(f, "%s %d - ", x->outcome == PASS || x->outcome == MISSING ? "ok" : "not ok",
				++n);
			tap_desc(f, k->students[s]);
			fputc(' ', f);
			tap_desc(f, c->lessons[i].slug);
			if (x->outcome == MISSING) {
				fputs(" # SKIP no solution\n", f);
				continue;
			}
			fprintf(f, "\n  ---\n  outcome: %s\n  message: ", outcome_names[x->outcome]);
			yaml_str(f, x->message);
			fprintf(f, "\n  seconds: %.3f\n  peak_memory_kib: %ld\n  instructions: %llu\n  ...\n",
				x->seconds, x->peak_kib, x->instructions);
		}
	}
}

static void junit_case(FILE *f, const struct course *c, const struct class *k, int s, int i)
{
	const struct cell *x = cell_at(c, k, s, i);

	fputs("    <testcase classname=\"", f);
	xml_attr(f, k->students[s]);
	fputs("\" name=\"", f);
	xml_attr(f, c->lessons[i].slug);
	fprintf(f, "\" time=\"%.3f\">\n", x->seconds);
	if (x->outcome == MISSING) {
		fputs("      <skipped message=\"no solution\"/>\n    </testcase>\n", f);
		return;
	}
	fprintf(f, "      <properties><property name=\"peak_memory_kib\" value=\"%ld\"/>"
		"<property name=\"instructions\" value=\"%llu\"/></properties>\n",
		x->peak_kib, x->instructions);
	if (x->outcome != PASS) {
		const char *tag = x->outcome == FAIL ? "failure" : "error";
		fprintf(f, "      <%s type=\"%s\" message=\"", tag, outcome_names[x->outcome]);
		xml_attr(f, x->message);
		fputs("\">", f);
		output_text(f, x);
		fprintf(f, "</%s>\n", tag);
	}
	fputs("    </testcase>\n", f);
}

void report_junit(FILE *f, const struct course *c, const struct class *k)
{
	int total[4] = { 0 }; /* tests, failures, errors, skipped */

	for (int j = 0; j < k->nstudents * c->count; j++) {
		enum outcome out = k->cells[j].outcome;
		total[0]++;
		total[1] += out == FAIL;
		total[2] += out == ERROR || out == TIMEOUT || out == CRASH;
		total[3] += out == MISSING;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kobj lessons\" "
		"tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		total[0] + k->nskipped, total[1], total[2], total[3] + k->nskipped);
	for (int s = 0; s < k->nstudents; s++) {
		int n[4] = { 0 };
		for (int i = 0; i < c->count; i++) {
			enum outcome out = cell_at(c, k, s, i)->outcome;
			n[1] += out == FAIL;
			n[2] += out == ERROR || out == TIMEOUT || out == CRASH;
			n[3] += out == MISSING;
		}
		fputs("  <testsuite name=\"", f);
		xml_attr(f, k->students[s]);
		fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
			c->count, n[1], n[2], n[3]);
		for (int i = 0; i < c->count; i++)
			junit_case(f, c, k, s, i);
		fputs("  </testsuite>\n", f);
	}
	if (k->nskipped) {
		fprintf(f, "  <testsuite name=\"(not graded)\" tests=\"%d\" failures=\"0\" "
			"errors=\"0\" skipped=\"%d\">\n", k->nskipped, k->nskipped);
		for (int i = 0; i < k->nskipped; i++) {
			fputs("    <testcase classname=\"(not graded)\" name=\"", f);
			xml_attr(f, k->skipped[i].path);
			fputs("\">\n      <skipped message=\"", f);
			xml_attr(f, k->skipped[i].reason);
			fputs("\"/>\n    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}
