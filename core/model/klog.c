/* The kernel log: printk() and the lifecycle's pr_debug lines, as dmesg shows them,
 * formatted by the kernel's printf (vsprintf.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/model/model_internal.h"

/* The text of @fmt as the kernel formats it; kobj_xmalloc'd. Only the second pass
 * writes, so a conversion the kernel does not have is warned about once. */
static char *format(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = kobj_vsnprintf(NULL, 0, fmt, ap);
	char *text = kobj_xmalloc((size_t)n + 1);
	kobj_vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	return text;
}

/* Appends the line @text (taken over) to the log. */
static void append(struct kobj_world *w, enum kobj_loglevel level, unsigned obj, unsigned site,
		   char *text)
{
	struct kobj_model *m = kobj_model(w);
	kobj_grow((void **)&m->trace, &m->trace_cap, m->ntrace + 1, sizeof(*m->trace));
	m->trace[m->ntrace++] = (struct kobj_trace){
		.level = level, .text = text, .obj = obj, .tick = m->now,
		.seq = kobj_log_count(w), .site = site, .origin = kobj_site_origin(w, site),
	};
}

static void vtrace(struct kobj_world *w, enum kobj_loglevel level, unsigned obj, unsigned site,
		   const char *fmt, va_list ap)
{
	append(w, level, obj, site, format(fmt, ap));
}

void kobj_trace(struct kobj_world *w, enum kobj_loglevel level, unsigned obj, unsigned site,
		const char *fmt, ...)
{
	va_list ap;

	if (level == KOBJ_LOGLEVEL_DEBUG && !kobj_debugging(w, KOBJ_DEBUG_KOBJECT))
		return; /* pr_debug is compiled out without CONFIG_DEBUG_KOBJECT */
	va_start(ap, fmt);
	vtrace(w, level, obj, site, fmt, ap);
	va_end(ap);
}

void kobj_trace_obj(struct kcall *c, const struct kobj_record *r, const char *fmt, ...)
{
	char p[17], line[1024];
	va_list ap;

	if (!kobj_debugging(c->w, KOBJ_DEBUG_KOBJECT))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* printk shows a name never set as "(null)" */
	kobj_trace(c->w, KOBJ_LOGLEVEL_DEBUG, r->id, 0, "kobject: '%s' (%s): %s",
		   r->name[0] ? r->name : "(null)", kobj_fake_pointer(r->id, p), line);
}

void kobj_printk(enum kobj_loglevel level, const char *fmt, ...)
{
	struct kcall c = kobj_call("printk");
	va_list ap;

	if (level == KOBJ_LOGLEVEL_DEBUG && !kobj_debugging(c.w, KOBJ_DEBUG_KOBJECT))
		return;
	va_start(ap, fmt);
	vtrace(c.w, level, 0, c.site, fmt, ap);
	va_end(ap);
}

void kobj_printk_line(const char *fmt, ...)
{
	struct kcall c = kobj_call("printk");
	struct kobj_model *m = kobj_model(c.w);
	enum kobj_loglevel level = KOBJ_LOGLEVEL_WARNING; /* default_message_loglevel */
	bool cont = false;
	va_list ap;

	for (; fmt[0] == '\001' && fmt[1]; fmt += 2) {
		if (fmt[1] >= '0' && fmt[1] <= '7')
			level = (enum kobj_loglevel)(fmt[1] - '0');
		cont |= fmt[1] == 'c';
	}
	if (level == KOBJ_LOGLEVEL_DEBUG && !kobj_debugging(c.w, KOBJ_DEBUG_KOBJECT))
		return;
	va_start(ap, fmt);
	char *text = format(fmt, ap);
	va_end(ap);
	struct kobj_trace *last = m->ntrace ? &m->trace[m->ntrace - 1] : NULL;
	size_t n = last ? strlen(last->text) : 0;
	/* KERN_CONT joins a line not yet ended with a newline, keeping its level */
	if (cont && last && n && last->text[n - 1] != '\n') {
		char *joined = kobj_xasprintf("%s%s", last->text, text);
		kobj_xfree(last->text);
		kobj_xfree(text);
		last->text = joined;
		return;
	}
	append(c.w, level, 0, c.site, text);
}

size_t kobj_trace_count(const struct kobj_world *w)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m ? m->ntrace : 0;
}

const struct kobj_trace *kobj_trace_at(const struct kobj_world *w, size_t i)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m && i < m->ntrace ? &m->trace[i] : NULL;
}

void kobj_trace_free(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	for (size_t i = 0; i < m->ntrace; i++)
		kobj_xfree(m->trace[i].text);
	kobj_xfree(m->trace);
}
