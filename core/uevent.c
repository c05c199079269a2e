/*
 * Today's uevents (lib/kobject_uevent.c): kobject_uevent_env() finds the nearest kset,
 * asks its uevent_ops, builds ACTION/DEVPATH/SUBSYSTEM/.../SEQNUM and records the event
 * with the world's hotplug events, where 2.6.0's /sbin/hotplug calls are kept too. No
 * HOME= or PATH=: those were for the helper program, off in today's kernels.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/modern_internal.h"

#define W() kobj_world_current()

static const char *const actions[] = {
	[KOBJ_ADD] = "add",         [KOBJ_REMOVE] = "remove", [KOBJ_CHANGE] = "change",
	[KOBJ_MOVE] = "move",       [KOBJ_ONLINE] = "online", [KOBJ_OFFLINE] = "offline",
	[KOBJ_BIND] = "bind",       [KOBJ_UNBIND] = "unbind",
};

const char *kobject_action_name(enum kobject_action action)
{
	return (unsigned)action < sizeof(actions) / sizeof(actions[0]) ? actions[action] : NULL;
}

/* =========================================================================== paths */

char *kobj_get_path_as(struct kobj_world *w, const struct kobject *kobj, struct kobj_origin o)
{
	size_t n = 0;
	char p[17];

	for (const struct kobject *k = kobj; k; k = k->parent) {
		if (!kobject_name(k)[0])
			return NULL; /* an unnamed ancestor has no path */
		n += strlen(kobject_name(k)) + 1;
	}
	char *path = n ? kobj_kmalloc(w, n + 1) : NULL;
	if (!path)
		return NULL;
	path[n] = '\0';
	for (const struct kobject *k = kobj; k; k = k->parent) {
		size_t len = strlen(kobject_name(k));
		n -= len;
		memcpy(path + n, kobject_name(k), len);
		path[--n] = '/';
	}
	const struct kobj_record *r = kobj_record_of(w, kobj);
	kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r ? r->id : 0, o,
		   "kobject: '%s' (%s): fill_kobj_path: path = '%s'", kobject_name(kobj),
		   kobj_ptr(w, kobj, p), path);
	return path;
}

char *(kobject_get_path)(const struct kobject *kobj, gfp_t gfp)
{
	struct kobj_world *w = W();
	(void)gfp;
	return kobj_get_path_as(w, kobj, kobj_take_origin(w));
}

/* ================================================================= add_uevent_var */

static int add_var_va(struct kobj_world *w, struct kobj_uevent_env *env, struct kobj_origin o,
		      const char *format, va_list ap)
{
	char where[256];
	size_t room = sizeof(env->buf) - (size_t)env->buflen;

	if (env->envp_idx >= UEVENT_NUM_ENVP) {
		kobj_diag_add(w, KOBJ_DIAG_UEVENT_ENV_FULL, 0, o,
			      kobj_xstrdup("add_uevent_var: too many keys"),
			      kobj_xasprintf("add_uevent_var() at %s: an event holds at most %d "
					     "variables (UEVENT_NUM_ENVP). The event is not sent.",
					     kobj_where(o, where), UEVENT_NUM_ENVP));
		return -ENOMEM;
	}
	int len = vsnprintf(&env->buf[env->buflen], room, format, ap);
	if (len < 0 || (size_t)len >= room) {
		env->buf[env->buflen] = '\0';
		kobj_diag_add(w, KOBJ_DIAG_UEVENT_ENV_FULL, 0, o,
			      kobj_xstrdup("add_uevent_var: buffer size too small"),
			      kobj_xasprintf("add_uevent_var() at %s: the variables of an event "
					     "share %d bytes (UEVENT_BUFFER_SIZE) and this one does "
					     "not fit. The event is not sent.", kobj_where(o, where),
					     UEVENT_BUFFER_SIZE));
		return -ENOMEM;
	}
	env->envp[env->envp_idx++] = &env->buf[env->buflen];
	env->buflen += len + 1;
	return 0;
}

static int add_var(struct kobj_world *w, struct kobj_uevent_env *env, struct kobj_origin o,
		   const char *format, ...) __attribute__((format(printf, 4, 5)));
static int add_var(struct kobj_world *w, struct kobj_uevent_env *env, struct kobj_origin o,
		   const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	int err = add_var_va(w, env, o, format, ap);
	va_end(ap);
	return err;
}

int (add_uevent_var)(struct kobj_uevent_env *env, const char *format, ...)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	va_list ap;
	va_start(ap, format);
	int err = add_var_va(w, env, o, format, ap);
	va_end(ap);
	return err;
}

/* ======================================================================== sending */

/* UNBIND: a driver is gone, so the module alias no longer matches anything. */
static void zap_modalias(struct kobj_uevent_env *env)
{
	int j = 0;
	for (int i = 0; i < env->envp_idx; i++)
		if (strncmp(env->envp[i], "MODALIAS=", 9) != 0)
			env->envp[j++] = env->envp[i];
	env->envp_idx = j;
}

/* Appends the built event to the world's hotplug events and the log. */
static void record(struct kobj_world *w, struct kobj_record *r, enum kobject_action action,
		   unsigned long long seqnum, const char *devpath, const char *subsystem,
		   const struct kobj_uevent_env *env, struct kobj_origin o, const char *op)
{
	struct kobj_hotplug_event ev = {
		.seqnum = (unsigned long)seqnum, .action = actions[action],
		.devpath = kobj_xstrdup(devpath), .subsystem = kobj_xstrdup(subsystem),
		.envp = kobj_xcalloc((size_t)env->envp_idx, sizeof(char *)),
		.envc = env->envp_idx, .obj = r->id, .origin = o,
	};
	for (int i = 0; i < env->envp_idx; i++)
		ev.envp[i] = kobj_xstrdup(env->envp[i]);
	kobj_grow((void **)&w->hotplugs, &w->hotplugs_cap, w->nhotplugs + 1,
		  sizeof(*w->hotplugs));
	w->hotplugs[w->nhotplugs++] = ev;
	kobj_log(w, KOBJ_EV_HOTPLUG, op, r->id, 0, r->refcount, r->refcount,
		 (unsigned)(w->nhotplugs - 1), o);
}

/* The variables after SUBSYSTEM=: the caller's, then the kset's; Return: 0 or error. */
static int add_extra(struct kobj_world *w, struct kobj_record *r, struct kobject *kobj,
		     const struct kset_uevent_ops *ops, char *envp_ext[],
		     struct kobj_uevent_env *env, struct kobj_origin o)
{
	int err = 0;
	char p[17];

	for (int i = 0; envp_ext && envp_ext[i] && !err; i++)
		err = add_var(w, env, o, "%s", envp_ext[i]);
	if (err || !ops || !ops->uevent)
		return err;
	err = ops->uevent(kobj, env);
	if (err)
		kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, o,
			   "kobject: '%s' (%s): kobject_uevent_env: uevent() returned %d",
			   r->name, kobj_fake_pointer(r->id, p), err);
	return err;
}

/* Builds and records the event once the kset agreed; Return: 0 or an error. */
static int send(struct kobj_world *w, struct kobj_record *r, struct kobject *kobj,
		enum kobject_action action, const char *subsystem,
		const struct kset_uevent_ops *ops, char *envp_ext[], struct kobj_origin o,
		const char *op)
{
	struct kobj_uevent_env *env = kobj_kmalloc(w, sizeof(*env));
	char *devpath = env ? kobj_get_path_as(w, kobj, o) : NULL;
	int err = !env ? -ENOMEM : !devpath ? -ENOENT : 0;

	if (env)
		memset(env, 0, sizeof(*env));
	if (!err)
		err = add_var(w, env, o, "ACTION=%s", actions[action]);
	if (!err)
		err = add_var(w, env, o, "DEVPATH=%s", devpath);
	if (!err)
		err = add_var(w, env, o, "SUBSYSTEM=%s", subsystem);
	if (!err)
		err = add_extra(w, r, kobj, ops, envp_ext, env, o);
	if (!err && action == KOBJ_ADD)
		r->add_uevent_sent = true; /* before SEQNUM, as the kernel does */
	if (!err && action == KOBJ_UNBIND)
		zap_modalias(env);
	unsigned long long seqnum = err ? 0 : ++kobj_modern(w)->uevent_seqnum;
	if (!err)
		err = add_var(w, env, o, "SEQNUM=%llu", seqnum);
	if (!err)
		record(w, r, action, seqnum, devpath, subsystem, env, o, op);
	free(devpath);
	free(env);
	return err;
}

/* A pr_debug of kobject_uevent_env: "kobject: 'foo' (%p): kobject_uevent_env<why>". */
static void note(struct kobj_world *w, const struct kobj_record *r, struct kobj_origin o,
		 const char *why)
{
	char p[17];
	kobj_trace(w, KOBJ_LOGLEVEL_DEBUG, r->id, o, "kobject: '%s' (%s): kobject_uevent_env%s",
		   r->name, kobj_fake_pointer(r->id, p), why);
}

int kobj_uevent_as(struct kobj_world *w, struct kobject *kobj, enum kobject_action action,
		   char *envp_ext[], struct kobj_origin o, const char *op)
{
	struct kobj_record *r = kobj ? kobj_live(w, kobj) : NULL;

	if (!r || !kobject_action_name(action))
		return -EINVAL; /* never initialised, released, or no such action */
	if (action == KOBJ_REMOVE)
		r->remove_uevent_sent = true; /* even if the event is dropped below */
	note(w, r, o, "");
	const struct kobject *top = kobj;
	while (!top->kset && top->parent)
		top = top->parent;
	if (!top->kset) {
		note(w, r, o, ": attempted to send uevent without kset!");
		return -EINVAL;
	}
	struct kset *kset = top->kset;
	const struct kset_uevent_ops *ops = kset->uevent_ops;
	if (kobj->uevent_suppress) {
		note(w, r, o, ": uevent_suppress caused the event to drop!");
		return 0;
	}
	if (ops && ops->filter && !ops->filter(kobj)) {
		note(w, r, o, ": filter function caused the event to drop!");
		return 0;
	}
	const char *subsystem = ops && ops->name ? ops->name(kobj) : kobject_name(&kset->kobj);
	if (!subsystem) {
		note(w, r, o, ": unset subsystem caused the event to drop!");
		return 0;
	}
	return send(w, r, kobj, action, subsystem, ops, envp_ext, o, op);
}

int (kobject_uevent_env)(struct kobject *kobj, enum kobject_action action, char *envp_ext[])
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct kobj_record *r = kobj ? kobj_any(w, kobj) : NULL;
	char where[256], when[256];

	if (r && r->released) {
		kobj_diag_add(w, KOBJ_DIAG_USE_AFTER_FREE, r->id, o,
			      kobj_xstrdup("BUG: KASAN: slab-use-after-free in kobject_uevent_env"),
			      kobj_xasprintf("kobject_uevent_env() at %s used '%s', which was "
					     "released at %s: its memory may already be freed. No "
					     "event was sent.", kobj_where(o, where), r->name,
					     kobj_where(r->release_at, when)));
		return -EINVAL;
	}
	return kobj_uevent_as(w, kobj, action, envp_ext, o, "kobject_uevent_env");
}

int (kobject_uevent)(struct kobject *kobj, enum kobject_action action)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	struct kobj_record *r = kobj ? kobj_any(w, kobj) : NULL;

	if (r && r->released) {
		kobj_note_origin(o.file, o.line);
		return (kobject_uevent_env)(kobj, action, NULL);
	}
	return kobj_uevent_as(w, kobj, action, NULL, o, "kobject_uevent");
}
