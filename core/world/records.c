/* Records: what the world knows of each object, kept after it is released. */
#include <stdio.h>
#include <string.h>

#include "core/world/world_internal.h"

struct kobj_record *kobj_record_new(struct kobj_world *w, enum kobj_kind kind,
				    enum kobj_era era, const void *ptr, const char *name,
				    unsigned site)
{
	if (w->nrecords % RECORDS_PER_CHUNK == 0) {
		w->chunks = kobj_xrealloc(w->chunks, (w->nchunks + 1) * sizeof(*w->chunks));
		w->chunks[w->nchunks++] =
			kobj_xcalloc(RECORDS_PER_CHUNK, sizeof(struct kobj_record));
	}
	struct kobj_record *r = kobj_rec(w, ++w->nrecords);
	r->id = w->nrecords;
	r->kind = (unsigned char)kind;
	r->era = (unsigned char)era;
	r->ptr = ptr;
	r->name = r->short_name;
	kobj_rec_set_name(r, name ? name : "");
	r->init_at = site;
	return r;
}

void kobj_rec_set_name(struct kobj_record *r, const char *name)
{
	size_t n = strlen(name) + 1;

	if (strcmp(r->name, name) == 0)
		return;
	kobj_rec_free_name(r);
	/* most names are short: no allocation of their own */
	r->name = n <= sizeof(r->short_name) ? memcpy(r->short_name, name, n) : kobj_xstrdup(name);
}

void kobj_rec_free_name(struct kobj_record *r)
{
	if (r->name != r->short_name)
		kobj_xfree((char *)r->name);
	r->name = r->short_name;
	r->short_name[0] = '\0';
}

void kobj_rec_mark_released(struct kobj_world *w, struct kobj_record *r, unsigned site)
{
	r->released = true;
	r->release_pending = false;
	r->release_at = site;
	r->release_order = ++w->nreleased;
}

size_t kobj_record_count(const struct kobj_world *w)
{
	return w->nrecords;
}

const struct kobj_record *kobj_record_by_id(const struct kobj_world *w, unsigned id)
{
	return kobj_rec(w, id);
}

const char *kobj_fake_pointer(unsigned id, char buf[17])
{
	/* Shaped like the kernel's hashed %p: upper half zero, lower half scrambled. */
	uint32_t x = id * 2654435761u;
	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	snprintf(buf, 17, "00000000%08x", (unsigned)x);
	return buf;
}

/* Unknown addresses count down from the top, so they never print like a record's. */
const char *kobj_unknown_pointer(struct kobj_world *w, const void *ptr, char buf[17])
{
	if (!ptr)
		return strcpy(buf, "0000000000000000");
	unsigned n = kobj_map_get(&w->unknown, (uintptr_t)ptr);
	if (!n) {
		n = ++w->nunknown;
		kobj_map_put(&w->unknown, (uintptr_t)ptr, n);
	}
	return kobj_fake_pointer(0x80000000u | n, buf);
}

const char *kobj_kind_name(enum kobj_kind kind)
{
	switch (kind) {
	case KOBJ_KIND_KSET:
		return "kset";
	case KOBJ_KIND_SUBSYSTEM:
		return "subsystem";
	case KOBJ_KIND_MODULE:
		return "module";
	default:
		return "kobject";
	}
}
