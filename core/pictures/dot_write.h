/*
 * Writing DOT, shared by the parts of a picture: nodes and frames (dot.c), the references
 * as rows, edges and, at exit, the lines that took them (dot_refs.c), and the legend
 * (legend.c), which lists only what was drawn.
 */
#ifndef KOBJ_PICTURES_DOT_WRITE_H
#define KOBJ_PICTURES_DOT_WRITE_H

#include "core/pictures/scene.h"

/* What a picture drew, for its legend. */
enum kobj_drew {
	DREW_PARENT = 1 << 0,   /* a child's reference on its parent */
	DREW_KSET = 1 << 1,     /* a member's on its kset, when not also the parent */
	DREW_BOTH = 1 << 2,     /* one edge for both */
	DREW_FADED = 1 << 3,    /* a released object's old place */
	DREW_LINK = 1 << 4,
	DREW_NOTE = 1 << 5,     /* at exit: a line whose reference was never dropped */
	DREW_CHAIN = 1 << 6,    /* at exit: a leaked object keeping another alive */
	DREW_FOLD = 1 << 7,
	DREW_DIAG = 1 << 8,
	DREW_FILES = 1 << 9,
};

struct dot_writer {
	const struct kobj_scene *s;
	FILE *out;
	bool layout;                /* for the timeline: fixed lines, no rows, notes, legend */
	unsigned drew;              /* enum kobj_drew */
	unsigned states;            /* bit per enum kobj_state drawn */
	const struct kobj_type **ktypes; /* unnamed ktypes, numbered as met */
	size_t nktypes, ktypes_cap;
};

/* Writes @s escaped for an HTML-like label (or a quoted string: same rules here). */
void dot_html(const char *s, FILE *out);

/* dot_ref_rows() - the references callers hold on @id (and its sysfs one), one row per
 * place that took them: "creator, sysfs · kset.lua:15". At exit, the ones a leak note
 * draws are left out. */
void dot_ref_rows(struct dot_writer *d, unsigned id);
/* dot_fan_row() - for an object many others hold, the row that counts their references
 * (their edges then go unlabelled, so that a wide kset stays narrow). */
void dot_fan_row(struct dot_writer *d, unsigned id);
/* dot_edges() - an edge per object holding a reference on another (parent, kset), the
 * faded places of released ones, sysfs links, and the folds' references. */
void dot_edges(struct dot_writer *d);
/* dot_leak_notes() - at exit, a note per line whose reference was never dropped, with
 * an edge to each object it keeps. */
void dot_leak_notes(struct dot_writer *d);

/* dot_legend() - the states and marks the picture used, and nothing else. */
void dot_legend(const struct dot_writer *d);

#endif
