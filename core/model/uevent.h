/*
 * Events for user space: today's uevents (lib/kobject_uevent.c) and 2.6.0's calls of
 * /sbin/hotplug, kept in one list per world as udev would see them. Included by
 * core/model/kobject.h.
 */
#ifndef KOBJ_UEVENT_H
#define KOBJ_UEVENT_H

#include <stdio.h>

struct kobject;

enum kobject_action {
	KOBJ_ADD,
	KOBJ_REMOVE,
	KOBJ_CHANGE,
	KOBJ_MOVE,
	KOBJ_ONLINE,
	KOBJ_OFFLINE,
	KOBJ_BIND,
	KOBJ_UNBIND,
};

#define UEVENT_NUM_ENVP 64
#define UEVENT_BUFFER_SIZE 2048

struct kobj_uevent_env {
	char *argv[3];
	char *envp[UEVENT_NUM_ENVP];
	int envp_idx;
	char buf[UEVENT_BUFFER_SIZE];
	int buflen;
};

struct kset_uevent_ops {
	/* Return 0 to drop the event. */
	int (*const filter)(struct kobject *kobj);
	/* The SUBSYSTEM= value; NULL drops the event. Without name(), the kset's name. */
	const char *(*const name)(struct kobject *kobj);
	/* Add variables with add_uevent_var(); non-zero return cancels the event. */
	int (*const uevent)(struct kobject *kobj, struct kobj_uevent_env *env);
};

/* kobject_action_name() - "add", "remove", ... ; NULL for an unknown action. */
const char *kobject_action_name(enum kobject_action action);

/**
 * kobject_uevent_env() - tell user space about @kobj, as udev would see it
 * @envp_ext: extra "KEY=value" strings, NULL-terminated, or NULL
 *
 * The event goes to the nearest kset (the object's, else its parents'); it carries
 * ACTION=, DEVPATH=, SUBSYSTEM=, @envp_ext, the kset's uevent() variables and SEQNUM=
 * (1, 2, ..., a counter of its own). It is recorded with the world's hotplug events.
 * Return: 0 (sent, or dropped by uevent_suppress, filter() or a NULL name()); -EINVAL
 * with no kset ("attempted to send uevent without kset!"); -ENOENT (unnamed ancestor);
 * -ENOMEM (too many variables); or what uevent() returned.
 */
int kobject_uevent_env(struct kobject *kobj, enum kobject_action action, char *envp_ext[]);
/* kobject_uevent() - kobject_uevent_env() with no extra variables. */
int kobject_uevent(struct kobject *kobj, enum kobject_action action);

/**
 * kobj_uevent_kset() - the kset whose uevent_ops decide about @kobj's uevents
 *
 * While kobject_uevent_env() asks a kset's uevent_ops about @kobj (filter, name or
 * uevent), that kset; otherwise the one it would ask now: the object's kset, else its
 * nearest ancestor's, as it was added. Callbacks written in another language find their
 * kset with this rather than by walking kobj->kset and kobj->parent themselves.
 * Return: the kset in the current world, no reference taken; NULL when there is none,
 * it was released, or @kobj is not a live object. Cannot fail otherwise.
 */
struct kset *kobj_uevent_kset(const struct kobject *kobj);

/**
 * add_uevent_var() - append "KEY=value" (printf-style) to @env
 * Return: 0, or -ENOMEM with the kernel's warning when there are already UEVENT_NUM_ENVP
 * variables ("too many keys") or the text does not fit UEVENT_BUFFER_SIZE ("buffer size
 * too small").
 */
int add_uevent_var(struct kobj_uevent_env *env, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ the events, as data */

struct kobj_hotplug_event {
	unsigned long seqnum;      /* 0, 1, ... as 2.6.0's /sbin/hotplug saw it; today's
				    * kobject_uevent() counts 1, 2, ... on its own (SEQNUM=) */
	const char *action;        /* "add", "remove"; today's uevents also "change", "move",
				    * "online", "offline", "bind", "unbind" */
	char *devpath;             /* "/subsys/kset/obj" */
	char *subsystem;
	char **envp;               /* "KEY=value", in the order the kernel builds them */
	int envc;
	unsigned obj;
	unsigned site;
	bool today;                /* a uevent (today's); else a 2.6.0 hotplug call */
};

size_t kobj_hotplug_count(const struct kobj_world *w);
const struct kobj_hotplug_event *kobj_hotplug_at(const struct kobj_world *w, size_t i);

#define kobject_uevent(k, a)            KOBJ_CALL((kobject_uevent)(k, a))
#define kobject_uevent_env(k, a, e)     KOBJ_CALL((kobject_uevent_env)(k, a, e))
#define add_uevent_var(...)             KOBJ_CALL((add_uevent_var)(__VA_ARGS__))

#endif
