/*
 * Hotplug events as 2.6.0's kset_hotplug() built them for /sbin/hotplug: the nearest
 * kset with hotplug_ops decides (filter), names the subsystem (name) and adds variables
 * (hotplug). SUBSYSTEM= is added beside 2.6.0's variables, as udev shows it today. Each
 * callback may change anything: the kset and its ops are looked up again after it.
 */
#include <stdio.h>
#include <string.h>

#include "core/model/model_internal.h"

#define NUM_ENVP 32
#define BUFFER_SIZE 1024

static void add_env(struct kobj_hotplug_event *ev, char *var)
{
	if (ev->envc < NUM_ENVP - 1)
		ev->envp[ev->envc++] = var;
	else
		kobj_xfree(var);
}

static void free_event(struct kobj_hotplug_event *ev)
{
	for (int i = 0; i < ev->envc; i++)
		kobj_xfree(ev->envp[i]);
	kobj_xfree(ev->envp);
	kobj_xfree(ev->devpath);
	kobj_xfree(ev->subsystem);
}

/* The kset with hotplug_ops that decides for @r now, or NULL. */
static struct kset *deciding(struct kobj_world *w, const struct kobj_record *r)
{
	const struct kobj_record *kr = r->released ? NULL : kobj_rec(w, r->nearest_kset);
	if (!kr || kr->released)
		return NULL;
	struct kset *kset = container_of(kobj_of(kr), struct kset, kobj);
	return kset->hotplug_ops ? kset : NULL;
}

/* The variables the kset's hotplug() adds; Return: 0, or its error (event cancelled). */
static int ask_kset(struct kcall *c, struct kobj_record *r, struct kset *kset,
		    struct kobj_hotplug_event *ev)
{
	char *envp[NUM_ENVP] = { 0 };
	char buffer[BUFFER_SIZE] = { 0 };
	int room = NUM_ENVP - 1 - ev->envc;

	kobj_callback_enter(c->w);
	int err = kset->hotplug_ops->hotplug(kset, kobj_of(r), envp, room, buffer, BUFFER_SIZE);
	kobj_callback_leave(c->w);
	for (int i = 0; !err && i < room && envp[i]; i++) {
		/* Only strings inside the buffer the kernel lent are taken. */
		if (envp[i] >= buffer && envp[i] < buffer + BUFFER_SIZE)
			add_env(ev, kobj_xasprintf("%.*s", (int)(buffer + BUFFER_SIZE - envp[i]),
						   envp[i]));
	}
	return err;
}

void kobj_hotplug(struct kcall *c, struct kobj_record *r, const char *action)
{
	struct kobj_world *w = c->w;
	struct kset *kset = deciding(w, r);

	if (!kset)
		return;
	if (kset->hotplug_ops->filter) {
		kobj_callback_enter(w);
		int keep = kset->hotplug_ops->filter(kset, kobj_of(r));
		kobj_callback_leave(w);
		if (!keep || !(kset = deciding(w, r)))
			return;
	}
	char *name = NULL;
	if (kset->hotplug_ops->name) {
		kobj_callback_enter(w);
		const char *n = kset->hotplug_ops->name(kset, kobj_of(r));
		name = n ? kobj_xstrdup(n) : NULL;
		kobj_callback_leave(w);
		if (!(kset = deciding(w, r))) {
			kobj_xfree(name);
			return;
		}
	}
	struct kobj_model *m = kobj_model(w);
	/* Built aside and appended last: a callback may cause events of its own. */
	struct kobj_hotplug_event ev = {
		.envp = kobj_xcalloc(NUM_ENVP, sizeof(char *)), .seqnum = m->hotplug_seqnum++,
		.action = action, .devpath = kobj_get_path_as(c, kobj_of(r)),
		.subsystem = kobj_xstrdup(name ? name : kobj_name_of(&kset->kobj)),
		.obj = r->id, .site = c->site,
	};
	kobj_xfree(name);
	if (!ev.devpath)
		ev.devpath = kobj_xstrdup("");
	add_env(&ev, kobj_xstrdup("HOME=/"));
	add_env(&ev, kobj_xstrdup("PATH=/sbin:/bin:/usr/sbin:/usr/bin"));
	add_env(&ev, kobj_xasprintf("ACTION=%s", action));
	add_env(&ev, kobj_xasprintf("SEQNUM=%lu", ev.seqnum));
	add_env(&ev, kobj_xasprintf("DEVPATH=%s", ev.devpath));
	add_env(&ev, kobj_xasprintf("SUBSYSTEM=%s", ev.subsystem));
	if (kset->hotplug_ops->hotplug && (ask_kset(c, r, kset, &ev) || r->released)) {
		free_event(&ev); /* cancelled; its seqnum stays used */
		return;
	}
	kobj_events_add(c, r, &ev);
}
