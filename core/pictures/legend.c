/*
 * The legend: one small table beside the picture, listing the states and marks the
 * picture used and nothing else, so that it never outweighs a small graph.
 */
#include "core/pictures/dot_write.h"

static void row(FILE *out, const char *swatch, const char *text)
{
	fprintf(out, "    <tr><td %s width=\"26\"></td><td align=\"left\">%s</td></tr>\n",
		swatch, text);
}

static void edge_row(FILE *out, const char *arrow, const char *colour, const char *text)
{
	fprintf(out, "    <tr><td><font color=\"%s\">%s</font></td><td align=\"left\">%s"
		"</td></tr>\n", colour, arrow, text);
}

/* The drawn object furthest from the top (by parents and ksets), first in id order: the
 * legend goes under it, so that it adds height, not width. */
static unsigned deepest(const struct kobj_scene *s)
{
	unsigned best = 0, best_depth = 0;
	for (unsigned id = 1; id <= s->n; id++) {
		if (s->shown[id] != KOBJ_SHOWN_YES)
			continue;
		unsigned depth = 1;
		for (const struct kobj_record *r = kobj_record_by_id(s->w, id);
		     depth < 4096 && (r->parent || r->kset); depth++) {
			unsigned up = r->parent ? r->parent : r->kset;
			if (up > s->n || s->shown[up] != KOBJ_SHOWN_YES)
				break;
			r = kobj_record_by_id(s->w, up);
		}
		if (depth > best_depth) {
			best = id;
			best_depth = depth;
		}
	}
	return best;
}

void dot_legend(const struct dot_writer *d)
{
	static const struct {
		unsigned mask;
		const char *arrow, *colour, *text;
	} edges[] = {
		{ DREW_PARENT | DREW_BOTH, "&#8594;", KOBJ_EDGE, "a child's reference on its "
		  "parent (parent, kset: on its kset too)" },
		{ DREW_KSET, "- - &#8594;", KOBJ_EDGE, "a member's reference on its kset" },
		{ DREW_FADED, "&#183; &#183; &#183;", KOBJ_FADED, "where a released or deleted "
		  "object was" },
		{ DREW_LINK, "&#183; &#183; &gt;", KOBJ_LINK, "a sysfs link, with its name" },
		{ DREW_CHAIN, "&#8594;", KOBJ_LEAK, "a leaked object keeping another alive" },
		{ DREW_NOTE, "&#9633; &#8594;", KOBJ_LEAK, "the line that took a reference "
		  "never dropped" },
	};
	char swatch[160];
	FILE *out = d->out;

	fputs("  legend [shape=plaintext, fontsize=9, label=<<table border=\"0\" "
	      "cellborder=\"1\" cellspacing=\"2\" cellpadding=\"2\">\n", out);
	for (int st = 0; st < KOBJ_STATE_COUNT; st++) {
		if (!(d->states & (1u << st)))
			continue;
		const struct kobj_look *look = kobj_state_look((enum kobj_state)st);
		snprintf(swatch, sizeof(swatch), "bgcolor=\"%s\" color=\"%s\"", look->fill,
			 look->border);
		row(out, swatch, look->legend);
	}
	if (d->drew & DREW_DIAG)
		row(out, "color=\"" KOBJ_DIAG "\" border=\"3\"", "named by a diagnostic: "
		    "! tag · line");
	if (d->drew & DREW_FOLD)
		row(out, "style=\"dashed\"", "&#8230; N more: a wide kset's members, counted");
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		if (d->drew & edges[i].mask)
			edge_row(out, edges[i].arrow, edges[i].colour, edges[i].text);
	fputs("    <tr><td colspan=\"2\" align=\"left\">rows: references callers hold, "
	      "and the line that took them</td></tr>\n", out);
	if (d->drew & DREW_FILES)
		fputs("    <tr><td colspan=\"2\" align=\"left\"><font face=\"Courier\">file "
		      "0644</font>: sysfs files and groups, with modes</td></tr>\n", out);
	fputs("  </table>>];\n", out);
	unsigned under = deepest(d->s);
	if (under)
		fprintf(out, "  k%u -> legend [style=invis];\n", under);
}
