/*
 * The event log: every operation in order, 32 bytes each, in chunks that are never moved,
 * so that appending costs one store of a small record and reading needs no copy of the
 * whole. Names of calls are small codes (kobj_op_code); origins are site ids.
 */
#include <string.h>

#include "core/world/world_internal.h"

#define LOG_CHUNK 8192

struct kobj_ev {
	uint8_t kind;
	uint8_t ref_kind;
	uint8_t chosen;
	uint8_t thread;
	uint16_t op, step;
	uint32_t obj;
	uint32_t holder;
	uint32_t aux;       /* GET/PUT: the reference's serial; else as struct kobj_event */
	int32_t before, after;
	uint32_t site;
};

_Static_assert(sizeof(struct kobj_ev) == 32, "an event is 32 bytes");

static const char *const kind_names[KOBJ_EV_KIND_COUNT] = {
	[KOBJ_EV_INIT] = "init",
	[KOBJ_EV_SET_NAME] = "set_name",
	[KOBJ_EV_GET] = "get",
	[KOBJ_EV_PUT] = "put",
	[KOBJ_EV_ADD] = "add",
	[KOBJ_EV_DEL] = "del",
	[KOBJ_EV_RELEASE] = "release",
	[KOBJ_EV_HOTPLUG] = "hotplug",
	[KOBJ_EV_DIAG] = "diag",
	[KOBJ_EV_MODULE_LOAD] = "load",
	[KOBJ_EV_MODULE_UNLOAD] = "unload",
	[KOBJ_EV_SYSFS] = "sysfs",
	[KOBJ_EV_SCHED] = "sched",
	[KOBJ_EV_LOOKUP] = "lookup",
};

const char *kobj_event_kind_name(enum kobj_event_kind kind)
{
	return (unsigned)kind < KOBJ_EV_KIND_COUNT ? kind_names[kind] : "?";
}

void kobj_world_set_logging(struct kobj_world *w, bool on)
{
	w->logging_off = !on;
}

bool kobj_world_logging(const struct kobj_world *w)
{
	return !w->logging_off;
}

/* GET, PUT and INIT events name a reference (its serial) where others have aux. */
static bool carries_ref(enum kobj_event_kind kind)
{
	return kind == KOBJ_EV_GET || kind == KOBJ_EV_PUT || kind == KOBJ_EV_INIT;
}

static struct kobj_ev *slot(struct kobj_world *w)
{
	size_t i = w->nevents % LOG_CHUNK;
	if (i == 0 && w->nevents / LOG_CHUNK == w->log_chunks) {
		w->log = kobj_xrealloc(w->log, (w->log_chunks + 1) * sizeof(*w->log));
		w->log[w->log_chunks++] = kobj_xmalloc(LOG_CHUNK * sizeof(struct kobj_ev));
	}
	return &w->log[w->nevents / LOG_CHUNK][i];
}

unsigned long kobj_log(struct kobj_world *w, enum kobj_event_kind kind, unsigned obj,
		       int before, int after, unsigned site, const struct kobj_ev_args *a)
{
	if (w->logging_off)
		return 0;
	struct kobj_ev *ev = slot(w);
	*ev = (struct kobj_ev){
		.kind = (uint8_t)kind, .ref_kind = (uint8_t)a->ref_kind, .chosen = a->chosen,
		.thread = (uint8_t)w->thread, .op = (uint16_t)kobj_op_code(a->op),
		.step = (uint16_t)kobj_op_code(a->step), .obj = obj, .holder = a->holder,
		.aux = carries_ref(kind) ? (uint32_t)a->ref : a->aux,
		.before = before, .after = after, .site = site,
	};
	return ++w->nevents;
}

unsigned long kobj_log_op(struct kobj_world *w, enum kobj_event_kind kind, const char *op,
			  unsigned obj, int before, int after, unsigned aux, unsigned site)
{
	const struct kobj_ev_args a = { .op = op, .aux = aux };
	return kobj_log(w, kind, obj, before, after, site, &a);
}

size_t kobj_log_count(const struct kobj_world *w)
{
	return w->nevents;
}

bool kobj_log_read(const struct kobj_world *w, size_t i, struct kobj_event *out)
{
	if (i >= w->nevents)
		return false;
	const struct kobj_ev *ev = &w->log[i / LOG_CHUNK][i % LOG_CHUNK];
	bool ref = carries_ref((enum kobj_event_kind)ev->kind);
	*out = (struct kobj_event){
		.seq = i + 1, .kind = (enum kobj_event_kind)ev->kind,
		.op = kobj_op_name(ev->op), .step = kobj_op_name(ev->step), .obj = ev->obj,
		.ref_kind = (enum kobj_ref_kind)ev->ref_kind, .holder = ev->holder,
		.ref = ref ? ev->aux : 0, .chosen = ev->chosen, .before = ev->before,
		.after = ev->after, .aux = ref ? 0 : ev->aux, .site = ev->site,
		.thread = ev->thread, .origin = kobj_site_origin(w, ev->site),
	};
	return true;
}

void kobj_log_free(struct kobj_world *w)
{
	for (size_t i = 0; i < w->log_chunks; i++)
		kobj_xfree(w->log[i]);
	kobj_xfree(w->log);
}
