/*
 * The timeline's data as JavaScript: the layout (timeline.c), and the events with their
 * call stacks and the scripts they came from (timeline_data.c).
 */
#ifndef KOBJ_PICTURES_TIMELINE_DATA_H
#define KOBJ_PICTURES_TIMELINE_DATA_H

#include "core/pictures/scene.h"

/* A JavaScript string literal that is also safe inside <script>. */
void tl_js_string(const char *s, FILE *out);

/*
 * tl_sources() - "sites: [...], files: [...]": every site the events name, with the sites
 * that called them, as [file, line, function, caller] (indices into the two arrays), and
 * each file's name and text (null when it cannot be shown). Fills @index: site id ->
 * position + 1 in sites.
 */
void tl_sources(const struct kobj_world *w, const struct kobj_timeline_options *o,
		unsigned *index, FILE *out);
/*
 * tl_frames() - "frames: [...]": per event [site, thread, kind, text, object, before,
 * after, state, ref, ref kind, holder, aux]; state is the object's after the event.
 */
void tl_frames(const struct kobj_world *w, const unsigned *index, FILE *out);

#endif
