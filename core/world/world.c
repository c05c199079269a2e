/* Worlds: making and freeing one, the current world, and the layers' state. */
#include <stdlib.h>

#include "core/world/world_internal.h"

struct kobj_world *kobj_current_world; /* read inline by kobj_world_current() */

struct kobj_world *kobj_world_new(void)
{
	static unsigned tags;
	struct kobj_world *w = kobj_xcalloc(1, sizeof(struct kobj_world));
	w->tag = ++tags ? tags : ++tags; /* never 0, which a site note reads as "none" */
	return w;
}

void kobj_set_layer(struct kobj_world *w, enum kobj_layer layer, void *state,
		    void (*free_state)(struct kobj_world *w, void *state))
{
	w->layers[layer] = state;
	w->free_layer[layer] = free_state;
}

static void free_strings(struct kobj_world *w)
{
	for (size_t i = 0; i < w->strings.cap; i++)
		kobj_xfree(w->strings.slots[i]);
	kobj_xfree(w->strings.slots);
}

void kobj_world_free(struct kobj_world *w)
{
	if (!w)
		return;
	/* The layers may still act on the world (delayed releases run): it stays current. */
	struct kobj_world *was = kobj_world_use(w);
	for (int l = KOBJ_LAYER_COUNT - 1; l >= 0; l--)
		if (w->layers[l])
			w->free_layer[l](w, w->layers[l]);
	kobj_world_use(was == w ? NULL : was);
	for (unsigned id = 1; id <= w->nrecords; id++)
		kobj_rec_free_name(kobj_rec(w, id));
	for (size_t i = 0; i < w->nchunks; i++)
		kobj_xfree(w->chunks[i]);
	kobj_xfree(w->chunks);
	kobj_xfree(w->refs);
	kobj_log_free(w);
	kobj_diags_free(w);
	kobj_xfree(w->sites);
	kobj_map_free(&w->site_map);
	kobj_map_free(&w->note_map);
	kobj_map_free(&w->unknown);
	free_strings(w);
	kobj_xfree(w);
}

static void free_default_world(void)
{
	kobj_world_free(kobj_current_world);
}

struct kobj_world *kobj_world_make(void)
{
	static int registered;
	if (!kobj_current_world) {
		kobj_current_world = kobj_world_new();
		if (!registered++)
			atexit(free_default_world);
	}
	return kobj_current_world;
}

struct kobj_world *kobj_world_peek(void)
{
	return kobj_current_world;
}

struct kobj_world *kobj_world_use(struct kobj_world *w)
{
	struct kobj_world *old = kobj_current_world;
	kobj_current_world = w;
	return old;
}

void kobj_world_on_diag(struct kobj_world *w,
			void (*fn)(const struct kobj_diag *d, void *ctx), void *ctx)
{
	w->on_diag = fn;
	w->on_diag_ctx = ctx;
}

void kobj_world_on_release(struct kobj_world *w,
			   void (*fn)(const struct kobj_record *r, void *ctx), void *ctx)
{
	w->on_release = fn;
	w->on_release_ctx = ctx;
}
