/* The log, diagnostics, uevents and the kernel log as text. */
#include <stdio.h>
#include <string.h>

#include "core/model/sched.h"
#include "core/report/report.h"

void kobj_event_ref_text(const struct kobj_world *w, const struct kobj_event *ev, char *buf,
			 size_t size)
{
	const struct kobj_record *h = kobj_record_by_id(w, ev->holder);
	size_t n;

	buf[0] = '\0';
	if (ev->kind != KOBJ_EV_GET && ev->kind != KOBJ_EV_PUT && ev->kind != KOBJ_EV_INIT)
		return;
	if (kobj_ref_held_by_object(ev->ref_kind) && ev->ref_kind != KOBJ_REF_SYSFS && h)
		n = (size_t)snprintf(buf, size, "%s '%s'", kobj_ref_kind_name(ev->ref_kind),
				     h->name);
	else
		n = (size_t)snprintf(buf, size, "%s", kobj_ref_kind_name(ev->ref_kind));
	if (n < size && ev->step && ev->op && strcmp(ev->step, ev->op) != 0)
		n += (size_t)snprintf(buf + n, size - n, ", %s by %s",
				      ev->kind == KOBJ_EV_PUT ? "dropped" : "taken", ev->step);
	if (n < size && ev->chosen)
		snprintf(buf + n, size - n, ", chosen by the sandbox");
}

void kobj_event_print(const struct kobj_world *w, const struct kobj_event *ev, FILE *out)
{
	char where[256], ref[512];
	const struct kobj_record *r = kobj_record_by_id(w, ev->obj);
	const struct kobj_diag *d;
	const struct kobj_hotplug_event *hp;

	fprintf(out, "%5lu  %-24s %-20s", ev->seq, kobj_where(ev->origin, where),
		ev->op ? ev->op : "?");
	if (ev->thread)
		fprintf(out, " [thread %u]", ev->thread);
	switch (ev->kind) {
	case KOBJ_EV_GET:
	case KOBJ_EV_PUT:
		kobj_event_ref_text(w, ev, ref, sizeof(ref));
		fprintf(out, " %s '%s' %d -> %d [%s]", ev->kind == KOBJ_EV_GET ? "+1" : "-1",
			r ? r->name : "?", ev->before, ev->after, ref);
		break;
	case KOBJ_EV_DIAG:
		d = kobj_diag_at(w, ev->aux);
		fprintf(out, " '%s'  ! %s", r ? r->name : "", d ? kobj_diag_tag(d->kind) : "?");
		break;
	case KOBJ_EV_HOTPLUG:
		hp = kobj_hotplug_at(w, ev->aux);
		fprintf(out, " '%s'  %s %s", r ? r->name : "", hp ? hp->action : "?",
			hp ? hp->devpath : "?");
		break;
	case KOBJ_EV_SCHED:
		fprintf(out, " '%s'  sched: %s", r ? r->name : "", kobj_sched_what_name(ev->aux));
		break;
	case KOBJ_EV_SET_NAME:
		fprintf(out, " '%s'  set_name", r ? r->name : "");
		if (ev->aux)
			fprintf(out, " failed (-%u)", ev->aux);
		break;
	default:
		fprintf(out, " '%s'  %s %d -> %d", r ? r->name : "",
			kobj_event_kind_name(ev->kind), ev->before, ev->after);
		if (ev->kind == KOBJ_EV_INIT)
			fputs(" [creator]", out);
		break;
	}
	fputc('\n', out);
}

void kobj_log_print(const struct kobj_world *w, size_t n, FILE *out)
{
	size_t total = kobj_log_count(w);
	struct kobj_event ev;
	for (size_t i = (n && n < total) ? total - n : 0; kobj_log_read(w, i, &ev); i++)
		kobj_event_print(w, &ev, out);
}

/* Prints @text with every line indented by @indent. */
static void print_indented(const char *text, const char *indent, FILE *out)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		fprintf(out, "%s%.*s\n", indent, (int)n, text);
		text += n + (nl ? 1 : 0);
	}
}

void kobj_diag_print(const struct kobj_diag *d, FILE *out)
{
	char where[256];
	print_indented(d->message, "", out);
	fprintf(out, "  -> %s: ", kobj_where(d->origin, where));
	const char *nl = strchr(d->explanation, '\n');
	if (!nl) {
		fprintf(out, "%s\n", d->explanation);
		return;
	}
	fprintf(out, "%.*s\n", (int)(nl - d->explanation), d->explanation);
	print_indented(nl + 1, "     ", out);
}

void kobj_hotplug_print(const struct kobj_hotplug_event *ev, FILE *out)
{
	fprintf(out, "KERNEL[%lu] %-6s %s (%s)\n", ev->seqnum, ev->action, ev->devpath,
		ev->subsystem);
	for (int i = 0; i < ev->envc; i++)
		fprintf(out, "%s\n", ev->envp[i]);
	fputc('\n', out);
}

void kobj_trace_print(const struct kobj_world *w, FILE *out)
{
	for (size_t i = 0; i < kobj_trace_count(w); i++) {
		const struct kobj_trace *t = kobj_trace_at(w, i);
		fprintf(out, "[%5lu.%06lu] %s\n", t->tick / HZ, t->tick % HZ * (1000000 / HZ),
			t->text);
	}
}
