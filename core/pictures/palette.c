/*
 * How states look. The fills are light, so dark text on them keeps a contrast of at
 * least 4.5:1 (WCAG AA), and far enough apart that readers with protanopia, deuteranopia
 * or tritanopia tell them apart (tests/core/test_dot.c checks both). Colour is never the
 * only sign: every box says its state in words, and borders differ too.
 */
#include <string.h>

#include "core/pictures/scene.h"

static const struct {
	const char *name;
	struct kobj_look look;
} states[KOBJ_STATE_COUNT] = {
	[KOBJ_STATE_INITIALIZED] = { "initialised, not added",
		{ "#ffffff", KOBJ_INK, KOBJ_EDGE, "", "initialised, not added", "initialized" } },
	[KOBJ_STATE_IN_SYSFS] = { "in sysfs",
		{ "#86d8ed", KOBJ_INK, KOBJ_EDGE, "", "in sysfs", "in-sysfs" } },
	[KOBJ_STATE_DELETED] = { "deleted, still held",
		{ "#e6d46a", KOBJ_INK, KOBJ_EDGE, "", "deleted from sysfs, still held", "deleted" } },
	[KOBJ_STATE_PENDING] = { "release pending",
		{ "#cfa1f5", KOBJ_INK, KOBJ_EDGE, "dashed,", "count 0, not yet released", "pending" } },
	[KOBJ_STATE_RELEASED] = { "released",
		{ "#d5d5d5", KOBJ_INK, KOBJ_FADED, "dashed,", "released (a ghost: #id)", "released" } },
	[KOBJ_STATE_LEAKED] = { "leaked",
		{ "#e8866f", KOBJ_INK, KOBJ_LEAK, "bold,", "leaked: a caller never put it", "leaked" } },
	[KOBJ_STATE_REGISTERED] = { "still in sysfs at exit",
		{ "#86d8ed", KOBJ_INK, KOBJ_LEAK, "dashed,bold,", "still in sysfs at exit: never "
		  "unregistered", "registered" } },
	[KOBJ_STATE_KEPT] = { "kept alive",
		{ "#c79aa4", KOBJ_INK, KOBJ_LEAK, "dashed,", "kept alive only by leaked objects", "kept" } },
};

const struct kobj_look *kobj_state_look(enum kobj_state state)
{
	return &states[state].look;
}

void kobj_state_colours(enum kobj_state state, const char **fill, const char **ink)
{
	*fill = states[state].look.fill;
	*ink = states[state].look.ink;
}

const char *kobj_state_name(enum kobj_state state)
{
	return (unsigned)state < KOBJ_STATE_COUNT ? states[state].name : "?";
}

enum kobj_state kobj_record_state(const struct kobj_record *r)
{
	if (r->released)
		return KOBJ_STATE_RELEASED;
	if (r->release_pending)
		return KOBJ_STATE_PENDING;
	if (r->in_sysfs)
		return KOBJ_STATE_IN_SYSFS;
	return r->was_added ? KOBJ_STATE_DELETED : KOBJ_STATE_INITIALIZED;
}

static const char *base_name(const char *file)
{
	const char *slash = strrchr(file, '/');
	return slash ? slash + 1 : file;
}

const char *kobj_short_where(const struct kobj_world *w, unsigned site, char buf[256])
{
	struct kobj_origin o = kobj_site_origin(w, site);
	if (!o.file)
		return "an unknown place";
	unsigned outer = site;
	for (int depth = 0; kobj_site_caller(w, outer) && depth < 64; depth++)
		outer = kobj_site_caller(w, outer);
	struct kobj_origin from = kobj_site_origin(w, outer);
	if (o.line == 0 && o.func) /* made at boot: "ksysfs_init()" */
		snprintf(buf, 256, "%.200s()", o.func);
	else if (outer == site || !from.file)
		snprintf(buf, 256, "%s:%d", base_name(o.file), o.line);
	else if (from.file == o.file) /* interned: one file, one pointer */
		snprintf(buf, 256, "%s:%d (from %d)", base_name(o.file), o.line, from.line);
	else
		snprintf(buf, 256, "%.100s:%d (from %.100s:%d)", base_name(o.file), o.line,
			 base_name(from.file), from.line);
	return buf;
}

const char *kobj_picture_ktype(const struct kobj_world *w, const struct kobj_type *ktype)
{
	const char *name = kobj_ktype_name(w, ktype);
	return name ? name : kobj_ktype_kernel_name(ktype);
}
