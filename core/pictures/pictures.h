/*
 * Pictures of a world: DOT text for graphviz, rendering through graphviz's `dot`, and the
 * timeline page. Each object is a box with its name, kind, refcount and state in words;
 * every outstanding reference is a row of its box (creator, sysfs, get ... and the line
 * that took it) or an edge from the object that holds it (parent of, kset of). The output
 * is deterministic: nodes are named k<id> and listed in id order.
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
	KOBJ_STATE_PENDING,     /* count 0, its release delayed (DEBUG_KOBJECT_RELEASE) */
	KOBJ_STATE_RELEASED,
	/* at exit, as the leak report finds them: */
	KOBJ_STATE_LEAKED,      /* a caller's reference was never dropped */
	KOBJ_STATE_REGISTERED,  /* still in sysfs: never unregistered */
	KOBJ_STATE_KEPT,        /* held only by other objects not released */
	KOBJ_STATE_COUNT
};

/*
 * kobj_record_state() - the state of @r as the run goes. Objects released without a
 * release() method are released (the diagnostic says what was lost); at exit the leak
 * report's findings (kobj_leaks_find) decide, which the scene applies.
 */
enum kobj_state kobj_record_state(const struct kobj_record *r);
/* "in sysfs", "deleted, still held", "leaked", ... as pictures print them. */
const char *kobj_state_name(enum kobj_state state);
/* The colours a state is drawn in, "#rrggbb": its fill and its text. */
void kobj_state_colours(enum kobj_state state, const char **fill, const char **ink);

/* A kset with more members than this is drawn folded, unless asked otherwise. */
#define KOBJ_DOT_FOLD_DEFAULT 6
#define KOBJ_DOT_NO_FOLD (~0u)

struct kobj_dot_options {
	const char *path;  /* subtree to draw ("/sys/bus"), NULL or "/sys" for all */
	bool at_exit;      /* the leak picture: what the run left, as the leak report says */
	bool legend;
	/* A kset with more members than @fold shows its first and last halves of @fold,
	 * every member a diagnostic names (and, at exit, every leak), and one box that
	 * counts the rest. 0: KOBJ_DOT_FOLD_DEFAULT; KOBJ_DOT_NO_FOLD: never fold. */
	unsigned fold;
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

struct kobj_timeline_options {
	const char *title;
	/* The text of a script the run used, by the file name its sites give (malloc'd; the
	 * page frees it), or NULL when it cannot be shown. NULL: no source in the page. */
	char *(*read_source)(const char *file, void *ctx);
	void *ctx;
	unsigned fold;          /* as in struct kobj_dot_options; 0: KOBJ_TIMELINE_FOLD */
};
#define KOBJ_TIMELINE_FOLD 4

/**
 * kobj_timeline_page() - one self-contained HTML page that steps through the world's
 * event log like a debugger: a picture per event with every object the log named kept in
 * one place (the layout is computed once), the scripts the run used with the line of each
 * event and its call stack, the references held on the object in focus, jumps between
 * diagnostics, one lane per simulated thread, and a last frame with the leak picture.
 * Frames are drawn by the page from a compact description, so a recording grows by a few
 * dozen bytes per event.
 * Return: 0, or -1 with a message in @err (graphviz missing).
 */
int kobj_timeline_page(const struct kobj_world *w, const struct kobj_timeline_options *o,
		       FILE *out, char *err, size_t errlen);
/* kobj_timeline_html() - kobj_timeline_page() with a title and no sources. */
int kobj_timeline_html(const struct kobj_world *w, const char *title, FILE *out, char *err,
		       size_t errlen);

#endif
