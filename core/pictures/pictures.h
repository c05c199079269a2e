/*
 * Pictures of a world: DOT text for graphviz, and rendering through graphviz's `dot`.
 * The output is deterministic: nodes are named k<id> and listed in id order.
 */
#ifndef KOBJ_PICTURES_H
#define KOBJ_PICTURES_H

#include <stdbool.h>
#include <stdio.h>

#include "core/model/kobject.h"

enum kobj_state {
	KOBJ_STATE_INITIALIZED, /* counted, never added */
	KOBJ_STATE_IN_SYSFS,
	KOBJ_STATE_DELETED,     /* out of sysfs, still referenced */
	KOBJ_STATE_RELEASED,
	KOBJ_STATE_LEAKED,      /* released with no release(), or still counted at exit */
};

/* kobj_record_state() - with @at_exit, objects not released count as leaked. */
enum kobj_state kobj_record_state(const struct kobj_record *r, bool at_exit);
const char *kobj_state_name(enum kobj_state state);

struct kobj_dot_options {
	const char *path;  /* subtree to draw ("/sys/bus"), NULL or "/sys" for all */
	bool at_exit;      /* draw objects not released as leaked */
	bool legend;
};

/* kobj_dot() - Return: 0, or -ENOENT if options->path names no object. */
int kobj_dot(const struct kobj_world *w, const struct kobj_dot_options *options, FILE *out);

/**
 * kobj_render() - turn DOT text into a picture with graphviz's `dot`
 * @file: where to write; its extension picks the format (.svg, .png, .pdf, .dot)
 * @err: a message on failure ("graphviz's dot was not found ...")
 * Return: 0 or -1.
 */
int kobj_render(const char *dot_text, const char *file, char *err, size_t errlen);

/**
 * kobj_render_world() - draw @w (kobj_dot with @options) into @file, the one way pictures
 * reach a file; Return: 0, -1 with a message in @err.
 */
int kobj_render_world(const struct kobj_world *w, const struct kobj_dot_options *options,
		      const char *file, char *err, size_t errlen);

/**
 * kobj_run_dot() - lay out or render @dot_text with `dot @flag` and capture its output
 * Return: the output (malloc'd, NUL-terminated), or NULL with a message in @err.
 */
char *kobj_run_dot(const char *dot_text, const char *flag, char *err, size_t errlen);

/**
 * kobj_timeline_html() - one self-contained HTML page that steps through the world's
 * event log: a picture per event, nodes kept in place (the layout of every object the
 * log ever named is computed once), refcount changes highlighted, released objects
 * left as grey ghosts. Frames are drawn by the page on demand from a compact
 * description, so a recording grows by a few dozen bytes per event.
 * Return: 0, or -1 with a message in @err (graphviz missing).
 */
int kobj_timeline_html(const struct kobj_world *w, const char *title, FILE *out, char *err,
		       size_t errlen);

#endif
