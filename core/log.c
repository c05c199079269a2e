/* The event log: every operation in order, with counts before and after and its origin. */
#include <stdio.h>

#include "core/world_internal.h"

static const char *const kind_names[] = {
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
};

const char *kobj_event_kind_name(enum kobj_event_kind kind)
{
	if ((unsigned)kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return "?";
	return kind_names[kind];
}

void kobj_log(struct kobj_world *w, enum kobj_event_kind kind, const char *op, unsigned obj,
	      unsigned holder, int before, int after, unsigned aux, struct kobj_origin o)
{
	kobj_grow((void **)&w->events, &w->events_cap, w->nevents + 1, sizeof(*w->events));
	struct kobj_event *ev = &w->events[w->nevents++];
	ev->seq = w->nevents;
	ev->kind = kind;
	ev->op = op;
	ev->obj = obj;
	ev->holder = holder;
	ev->before = before;
	ev->after = after;
	ev->aux = aux;
	ev->origin = o;
}

size_t kobj_log_count(const struct kobj_world *w)
{
	return w->nevents;
}

const struct kobj_event *kobj_log_event(const struct kobj_world *w, size_t i)
{
	return i < w->nevents ? &w->events[i] : NULL;
}

void kobj_event_print(const struct kobj_world *w, const struct kobj_event *ev, FILE *out)
{
	char where[256];
	const struct kobj_record *r = kobj_rec(w, ev->obj);
	const struct kobj_record *h = kobj_rec(w, ev->holder);

	fprintf(out, "%5lu  %-24s %-20s", ev->seq, kobj_where(ev->origin, where), ev->op);
	if (r)
		fprintf(out, " '%s'", r->name);
	switch (ev->kind) {
	case KOBJ_EV_DIAG:
		fprintf(out, "  ! %s", kobj_diag_tag(w->diags[ev->aux].kind));
		break;
	case KOBJ_EV_HOTPLUG:
		fprintf(out, "  %s %s", w->hotplugs[ev->aux].action, w->hotplugs[ev->aux].devpath);
		break;
	case KOBJ_EV_SET_NAME:
		if (ev->aux)
			fprintf(out, "  failed (-%u)", ev->aux);
		break;
	default:
		fprintf(out, "  %s %d -> %d", kobj_event_kind_name(ev->kind), ev->before, ev->after);
		break;
	}
	if (h && ev->holder != ev->obj)
		fprintf(out, "  (held by '%s')", h->name);
	else if (h)
		fprintf(out, "  (its sysfs registration)");
	fputc('\n', out);
}

void kobj_log_print(const struct kobj_world *w, size_t n, FILE *out)
{
	size_t first = (n && n < w->nevents) ? w->nevents - n : 0;
	for (size_t i = first; i < w->nevents; i++)
		kobj_event_print(w, &w->events[i], out);
}
