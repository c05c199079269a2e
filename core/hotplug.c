/*
 * Hotplug events as 2.6.0's kset_hotplug() built them for /sbin/hotplug: the nearest
 * kset with hotplug_ops decides (filter), names the subsystem (name) and adds variables
 * (hotplug). SUBSYSTEM= is added beside 2.6.0's variables, as udev shows it today.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world_internal.h"

#define NUM_ENVP 32
#define BUFFER_SIZE 1024

char *kobj_path(struct kobject *kobj)
{
	size_t n = 0;
	for (struct kobject *k = kobj; k; k = k->parent)
		n += strlen(kobject_name(k)) + 1;
	char *s = kobj_xmalloc(n + 1);
	s[n] = '\0';
	for (struct kobject *k = kobj; k; k = k->parent) {
		size_t len = strlen(kobject_name(k));
		n -= len;
		memcpy(s + n, kobject_name(k), len);
		s[--n] = '/';
	}
	return s;
}

static void add_env(struct kobj_hotplug_event *ev, char *var)
{
	if (ev->envc < NUM_ENVP - 1)
		ev->envp[ev->envc++] = var;
	else
		free(var);
}

static void free_event(struct kobj_hotplug_event *ev)
{
	for (int i = 0; i < ev->envc; i++)
		free(ev->envp[i]);
	free(ev->envp);
	free(ev->devpath);
	free(ev->subsystem);
}

void kobj_hotplug(struct kobj_world *w, struct kobject *kobj, const char *action,
		  struct kobj_origin o)
{
	struct kobj_record *r = kobj_any(w, kobj);
	struct kset *kset = r ? r->nearest_kset : NULL;
	if (!kset || !kset->hotplug_ops)
		return;
	struct kset_hotplug_ops *ops = kset->hotplug_ops;
	if (ops->filter && !ops->filter(kset, kobj))
		return;

	const char *name = ops->name ? ops->name(kset, kobj) : NULL;
	/* Built aside and appended last: a callback may cause events of its own. */
	struct kobj_hotplug_event event = { .envp = kobj_xcalloc(NUM_ENVP, sizeof(char *)) };
	struct kobj_hotplug_event *ev = &event;
	ev->seqnum = w->hotplug_seqnum++;
	ev->action = action;
	ev->devpath = kobj_path(kobj);
	ev->subsystem = kobj_xstrdup(name ? name : kobject_name(&kset->kobj));
	ev->obj = r->id;
	ev->origin = o;
	add_env(ev, kobj_xstrdup("HOME=/"));
	add_env(ev, kobj_xstrdup("PATH=/sbin:/bin:/usr/sbin:/usr/bin"));
	add_env(ev, kobj_xasprintf("ACTION=%s", action));
	add_env(ev, kobj_xasprintf("SEQNUM=%lu", ev->seqnum));
	add_env(ev, kobj_xasprintf("DEVPATH=%s", ev->devpath));
	add_env(ev, kobj_xasprintf("SUBSYSTEM=%s", ev->subsystem));

	if (ops->hotplug) {
		char *envp[NUM_ENVP] = { 0 };
		char buffer[BUFFER_SIZE] = { 0 };
		int room = NUM_ENVP - 1 - ev->envc;
		if (ops->hotplug(kset, kobj, envp, room, buffer, BUFFER_SIZE) != 0) {
			free_event(ev); /* the callback cancelled it; its seqnum stays used */
			return;
		}
		for (int i = 0; i < room && envp[i]; i++) {
			/* Only strings inside the buffer the kernel lent are taken. */
			if (envp[i] >= buffer && envp[i] < buffer + BUFFER_SIZE)
				add_env(ev, kobj_xasprintf("%.*s",
							   (int)(buffer + BUFFER_SIZE - envp[i]),
							   envp[i]));
		}
	}
	kobj_grow((void **)&w->hotplugs, &w->hotplugs_cap, w->nhotplugs + 1,
		  sizeof(*w->hotplugs));
	w->hotplugs[w->nhotplugs++] = event;
	int count = ev->obj ? kobj_rec(w, ev->obj)->refcount : 0;
	kobj_log(w, KOBJ_EV_HOTPLUG, action, ev->obj, 0, count, count,
		 (unsigned)(w->nhotplugs - 1), o);
}

size_t kobj_hotplug_count(const struct kobj_world *w)
{
	return w->nhotplugs;
}

const struct kobj_hotplug_event *kobj_hotplug_at(const struct kobj_world *w, size_t i)
{
	return i < w->nhotplugs ? &w->hotplugs[i] : NULL;
}

void kobj_hotplug_print(const struct kobj_hotplug_event *ev, FILE *out)
{
	fprintf(out, "KERNEL[%lu] %-6s %s (%s)\n", ev->seqnum, ev->action, ev->devpath,
		ev->subsystem);
	for (int i = 0; i < ev->envc; i++)
		fprintf(out, "%s\n", ev->envp[i]);
	fputc('\n', out);
}
