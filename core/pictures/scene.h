/*
 * What a picture shows, worked out once for DOT and the timeline: which objects are drawn,
 * each one's state (at exit, from the leak report's own findings), kset members in
 * creation order, and the folds that stand for the members of wide ksets.
 */
#ifndef KOBJ_PICTURES_SCENE_H
#define KOBJ_PICTURES_SCENE_H

#include "core/pictures/pictures.h"

/* Whether an object is drawn. */
enum kobj_shown {
	KOBJ_SHOWN_NO,     /* outside the subtree, or a module under a subtree */
	KOBJ_SHOWN_YES,
	KOBJ_SHOWN_FOLDED, /* a member counted in its kset's fold */
	KOBJ_SHOWN_BELOW,  /* below a folded member: counted in the same fold */
};

/* The members of one kset that its picture does not draw one by one. */
struct kobj_fold {
	unsigned kset;
	unsigned members, below;            /* folded members; objects hidden under them */
	unsigned per_state[KOBJ_STATE_COUNT];
	int min_count, max_count;           /* the folded members' refcounts */
	unsigned parent_refs, kset_refs;    /* references they hold on the kset */
};

struct kobj_scene {
	const struct kobj_world *w;
	unsigned n;                 /* records */
	unsigned top;               /* the subtree's object, or 0 for the whole world */
	bool at_exit;
	unsigned char *shown;       /* per id: enum kobj_shown */
	unsigned char *state;       /* per id: enum kobj_state */
	unsigned *root;             /* per id, at exit: the leaked object whose callers keep
				     * it (its own id for a root cause), 0 when not leaked */
	unsigned *first, *next;     /* per kset id: its members drawn or folded, in order */
	unsigned *fold_of;          /* per id: the kset whose fold counts it, or 0 */
	struct kobj_fold *folds;    /* one per folded kset, in id order */
	size_t nfolds;
	unsigned *diag_start;       /* per id: its diagnostics are diag_list[start..start+n) */
	unsigned *diag_n;
	unsigned *diag_list;
};

/**
 * kobj_scene_new() - the scene of @w for @o (NULL: the defaults)
 * Return: the scene, or NULL with *@err = -ENOENT when @o->path names no object.
 */
struct kobj_scene *kobj_scene_new(const struct kobj_world *w,
				  const struct kobj_dot_options *o, int *err);
void kobj_scene_free(struct kobj_scene *s);
/* kobj_scene_fold() - the fold of kset @kset, or NULL. */
const struct kobj_fold *kobj_scene_fold(const struct kobj_scene *s, unsigned kset);
/* kobj_dot_scene() - DOT text of @s; with @layout, boxes the timeline page fills itself. */
int kobj_dot_scene(const struct kobj_scene *s, bool layout, bool legend, FILE *out);
/* Whether a reference of @kind on @id is drawn at exit as a leak note (the line that took
 * it and never put it) rather than as a row of the box. */
bool kobj_scene_ref_is_note(const struct kobj_scene *s, unsigned id, enum kobj_ref_kind kind);
/* kobj_scene_refs() - the outstanding references on @id, oldest first, malloc'd; *@n. */
struct kobj_ref *kobj_scene_refs(const struct kobj_scene *s, unsigned id, size_t *n);
/* Whether @id is drawn inside the frame of its kset. */
bool kobj_scene_is_member(const struct kobj_scene *s, unsigned id);

/* =========================================================================== palette */

/* How a state looks: fill, ink and border, and what the legend says. */
struct kobj_look {
	const char *fill, *ink, *border, *style;
	const char *legend;
	const char *slug;           /* the SVG class: "in-sysfs", "leaked" ... */
};
const struct kobj_look *kobj_state_look(enum kobj_state state);
/* The colours every picture shares. */
#define KOBJ_INK "#1a1a1a"
#define KOBJ_EDGE "#37474f"
#define KOBJ_FADED "#9e9e9e"
#define KOBJ_LINK "#0072b2"     /* Okabe-Ito blue */
#define KOBJ_LEAK "#c2410c"     /* a dark vermillion: references never dropped */
#define KOBJ_DIAG "#b00020"     /* the border of an object a diagnostic named */

/* "kset.lua:22": the file's last part and the line of @site ("an unknown place"), and where
 * the outermost caller made the call, when sites have callers: "kset.lua:15 (from 19)". */
const char *kobj_short_where(const struct kobj_world *w, unsigned site, char buf[256]);
/* The ktype's name as the picture shows it: given, the kernel's own, or NULL. */
const char *kobj_picture_ktype(const struct kobj_world *w, const struct kobj_type *ktype);

#endif
