/*
 * Today's uevents (lib/kobject_uevent.c): kobject_uevent_env() finds the nearest kset,
 * asks its uevent_ops, builds ACTION/DEVPATH/SUBSYSTEM/.../SEQNUM and records the event
 * with the world's events. No HOME= or PATH=: those were for the helper program, off in
 * today's kernels. The kset's callbacks may change anything: what the call holds is
 * looked up again after each of them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/model/model_internal.h"

static const char *const actions[] = {
	[KOBJ_ADD] = "add",         [KOBJ_REMOVE] = "remove", [KOBJ_CHANGE] = "change",
	[KOBJ_MOVE] = "move",       [KOBJ_ONLINE] = "online", [KOBJ_OFFLINE] = "offline",
	[KOBJ_BIND] = "bind",       [KOBJ_UNBIND] = "unbind",
};

const char *kobject_action_name(enum kobject_action action)
{
	return (unsigned)action < sizeof(actions) / sizeof(actions[0]) ? actions[action] : NULL;
}

/* ================================================================= add_uevent_var */

static int add_var_va(struct kcall *c, struct kobj_uevent_env *env, const char *format,
		      va_list ap)
{
	char where[256];
	size_t room = sizeof(env->buf) - (size_t)env->buflen;

	if (env->envp_idx >= UEVENT_NUM_ENVP) {
		kobj_diagnose(c, KOBJ_DIAG_UEVENT_ENV_FULL, 0,
			    kobj_xstrdup("add_uevent_var: too many keys"),
			    kobj_xasprintf("add_uevent_var() at %s: an event holds at most %d "
					   "variables (UEVENT_NUM_ENVP). The event is not sent.",
					   kobj_site_where(c->w, c->site, where), UEVENT_NUM_ENVP));
		return -ENOMEM;
	}
	int len = vsnprintf(&env->buf[env->buflen], room, format, ap);
	if (len < 0 || (size_t)len >= room) {
		env->buf[env->buflen] = '\0';
		kobj_diagnose(c, KOBJ_DIAG_UEVENT_ENV_FULL, 0,
			    kobj_xstrdup("add_uevent_var: buffer size too small"),
			    kobj_xasprintf("add_uevent_var() at %s: the variables of an event share "
					   "%d bytes (UEVENT_BUFFER_SIZE) and this one does not fit. "
					   "The event is not sent.",
					   kobj_site_where(c->w, c->site, where), UEVENT_BUFFER_SIZE));
		return -ENOMEM;
	}
	env->envp[env->envp_idx++] = &env->buf[env->buflen];
	env->buflen += len + 1;
	return 0;
}

static int add_var(struct kcall *c, struct kobj_uevent_env *env, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
static int add_var(struct kcall *c, struct kobj_uevent_env *env, const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	int err = add_var_va(c, env, format, ap);
	va_end(ap);
	return err;
}

int (add_uevent_var)(struct kobj_uevent_env *env, const char *format, ...)
{
	struct kcall c = kobj_call("add_uevent_var");
	va_list ap;
	va_start(ap, format);
	int err = add_var_va(&c, env, format, ap);
	va_end(ap);
	return err;
}

/* ======================================================================= the events */

void kobj_events_add(struct kcall *c, struct kobj_record *r, struct kobj_hotplug_event *ev)
{
	struct kobj_model *m = kobj_model(c->w);
	kobj_grow((void **)&m->events, &m->events_cap, m->nevents + 1, sizeof(*m->events));
	m->events[m->nevents++] = *ev;
	kobj_log_call(c, KOBJ_EV_HOTPLUG, r, (unsigned)(m->nevents - 1));
}

size_t kobj_hotplug_count(const struct kobj_world *w)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m ? m->nevents : 0;
}

const struct kobj_hotplug_event *kobj_hotplug_at(const struct kobj_world *w, size_t i)
{
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	return m && i < m->nevents ? &m->events[i] : NULL;
}

void kobj_events_free(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	for (size_t i = 0; i < m->nevents; i++) {
		struct kobj_hotplug_event *ev = &m->events[i];
		kobj_xfree(ev->devpath);
		kobj_xfree(ev->subsystem);
		for (int j = 0; j < ev->envc; j++)
			kobj_xfree(ev->envp[j]);
		kobj_xfree(ev->envp);
	}
	kobj_xfree(m->events);
}

/* ========================================================================== sending */

/* UNBIND: a driver is gone, so the module alias no longer matches anything. */
static void zap_modalias(struct kobj_uevent_env *env)
{
	int j = 0;
	for (int i = 0; i < env->envp_idx; i++)
		if (strncmp(env->envp[i], "MODALIAS=", 9) != 0)
			env->envp[j++] = env->envp[i];
	env->envp_idx = j;
}

static void record(struct kcall *c, struct kobj_record *r, enum kobject_action action,
		   unsigned long long seqnum, const char *devpath, const char *subsystem,
		   const struct kobj_uevent_env *env)
{
	struct kobj_hotplug_event ev = {
		.seqnum = (unsigned long)seqnum, .action = actions[action],
		.devpath = kobj_xstrdup(devpath), .subsystem = kobj_xstrdup(subsystem),
		.envp = kobj_xcalloc((size_t)env->envp_idx + 1, sizeof(char *)),
		.envc = env->envp_idx, .obj = r->id, .site = c->site, .today = true,
	};
	for (int i = 0; i < env->envp_idx; i++)
		ev.envp[i] = kobj_xstrdup(env->envp[i]);
	kobj_events_add(c, r, &ev);
}

/* A pr_debug of kobject_uevent_env: "kobject: 'foo' (%p): kobject_uevent_env<why>". */
static void note(struct kcall *c, const struct kobj_record *r, const char *why)
{
	kobj_trace_obj(c, r, "kobject_uevent_env%s", why);
}

/* The record of the kset whose uevent_ops decide for @r, released or not: the object's,
 * else its nearest ancestor's. Read from the records once it was added (an object out of
 * sysfs no longer holds its kset: a released one is a use after free); before that, from
 * the pointers its creator set. */
static struct kobj_record *nearest_kset_rec(struct kobj_world *w, const struct kobj_record *r)
{
	if (!r->was_added) {
		const struct kobject *top = kobj_of(r);
		/* they may loop (kset_add() sets a kset's parent to its subsystem, whose
		 * parent may be the kset): a chain longer than there are objects does */
		for (size_t n = kobj_record_count(w); !top->kset && top->parent && n; n--)
			top = top->parent;
		return top->kset ? kobj_live_of(w, &top->kset->kobj) : NULL;
	}
	return kobj_rec(w, r->in_sysfs ? r->nearest_kset : r->kset);
}

static struct kset *kset_of(const struct kobj_record *kr)
{
	return kr ? container_of(kobj_of(kr), struct kset, kobj) : NULL;
}

/* The kset whose uevent_ops decide; Return: the kset, or NULL (with *@err: -EINVAL none,
 * -ENOENT released, reported). */
static struct kset *nearest_kset(struct kcall *c, struct kobj_record *r, int *err)
{
	struct kobj_world *w = c->w;
	struct kobj_record *kr = nearest_kset_rec(w, r);
	char where[256], when[256];

	*err = -EINVAL;
	if (kr && kr->released) {
		*err = -ENOENT;
		kobj_diagnose(c, KOBJ_DIAG_USE_AFTER_FREE, r->id,
			    kobj_xasprintf("BUG: KASAN: slab-use-after-free in %s", kcall_now(c)),
			    kobj_xasprintf("%s() at %s: '%s' was deleted from its kset '%s', which "
					   "was released at %s; its kobj->kset still points there. "
					   "The kernel would read freed memory to find where the "
					   "event goes. Clear kobj->kset, or keep the kset alive "
					   "while members may send events. No event was sent.",
					   kcall_now(c), kobj_site_where(w, c->site, where), r->name,
					   kr->name, kobj_site_where(w, kr->release_at, when)));
		return NULL;
	}
	return kset_of(kr);
}

/* Enters a callback of @kset's uevent_ops about @r: until ask_end(), kobj_uevent_kset()
 * names @kset. Return: what was asked before (an event sent from a callback nests). */
static struct kobj_uevent_asking ask_begin(struct kobj_world *w, const struct kobj_record *r,
					   const struct kset *kset)
{
	struct kobj_model *m = kobj_model(w);
	struct kobj_uevent_asking outer = m->asking;
	m->asking = (struct kobj_uevent_asking){ .obj = r->id, .kset = kset->kobj.kobj_id };
	kobj_callback_enter(w);
	return outer;
}

static void ask_end(struct kobj_world *w, struct kobj_uevent_asking outer)
{
	kobj_callback_leave(w);
	kobj_model(w)->asking = outer;
}

struct kset *kobj_uevent_kset(const struct kobject *kobj)
{
	struct kobj_world *w = kobj_world_peek();
	struct kobj_record *r = w ? kobj_live_of(w, kobj) : NULL;
	if (!r)
		return NULL;
	const struct kobj_model *m = kobj_layer(w, KOBJ_LAYER_MODEL);
	struct kobj_record *kr = m && m->asking.obj == r->id ? kobj_rec(w, m->asking.kset)
							      : nearest_kset_rec(w, r);
	return kr && !kr->released ? kset_of(kr) : NULL;
}

/* Builds and records the event once the kset agreed; Return: 0 or an error. */
static int send(struct kcall *c, struct kobj_record *r, enum kobject_action action,
		const char *subsystem, struct kset *kset, char *envp_ext[])
{
	struct kobj_world *w = c->w;
	struct kobj_uevent_env *env = kobj_kmalloc(w, sizeof(*env));
	char *devpath = env ? kobj_get_path_as(c, kobj_of(r)) : NULL;
	int err = !env ? -ENOMEM : !devpath ? -ENOENT : 0;

	if (env)
		memset(env, 0, sizeof(*env));
	if (!err)
		err = add_var(c, env, "ACTION=%s", actions[action]);
	if (!err)
		err = add_var(c, env, "DEVPATH=%s", devpath);
	if (!err)
		err = add_var(c, env, "SUBSYSTEM=%s", subsystem);
	for (int i = 0; !err && envp_ext && envp_ext[i]; i++)
		err = add_var(c, env, "%s", envp_ext[i]);
	const struct kset_uevent_ops *ops = kset->uevent_ops;
	if (!err && ops && ops->uevent) {
		struct kobj_uevent_asking outer = ask_begin(w, r, kset);
		err = ops->uevent(kobj_of(r), env);
		ask_end(w, outer);
		if (err)
			kobj_trace_obj(c, r, "kobject_uevent_env: uevent() returned %d", err);
		if (r->released)
			err = err ? err : -ENOENT; /* the callback released it */
	}
	if (!err && action == KOBJ_ADD)
		r->add_uevent_sent = true; /* before SEQNUM, as the kernel does */
	if (!err && action == KOBJ_UNBIND)
		zap_modalias(env);
	unsigned long long seqnum = err ? 0 : ++kobj_model(w)->uevent_seqnum;
	if (!err)
		err = add_var(c, env, "SEQNUM=%llu", seqnum);
	if (!err)
		record(c, r, action, seqnum, devpath, subsystem, env);
	kobj_xfree(devpath);
	kobj_xfree(env);
	return err;
}

int kobj_uevent_as(struct kcall *c, struct kobject *kobj, enum kobject_action action,
		   char *envp_ext[])
{
	struct kobj_world *w = c->w;
	struct kobj_record *r = kobj ? kobj_live_of(w, kobj) : NULL;
	int err;

	if (!r || !kobject_action_name(action))
		return -EINVAL; /* never initialised, released, or no such action */
	if (action == KOBJ_REMOVE)
		r->remove_uevent_sent = true; /* even if the event is dropped below */
	note(c, r, "");
	struct kset *kset = nearest_kset(c, r, &err);
	if (!kset) {
		if (err == -EINVAL)
			note(c, r, ": attempted to send uevent without kset!");
		return err;
	}
	if (kobj->uevent_suppress) {
		note(c, r, ": uevent_suppress caused the event to drop!");
		return 0;
	}
	const struct kset_uevent_ops *ops = kset->uevent_ops;
	if (ops && ops->filter) {
		struct kobj_uevent_asking outer = ask_begin(w, r, kset);
		int keep = ops->filter(kobj);
		ask_end(w, outer);
		if (r->released || !(kset = nearest_kset(c, r, &err)))
			return -ENOENT; /* the filter released it, or moved it out of any kset */
		if (!keep) {
			note(c, r, ": filter function caused the event to drop!");
			return 0;
		}
		ops = kset->uevent_ops;
	}
	const char *subsystem = kobj_name_of(&kset->kobj);
	char *named = NULL;
	if (ops && ops->name) {
		struct kobj_uevent_asking outer = ask_begin(w, r, kset);
		const char *n = ops->name(kobj);
		named = n ? kobj_xstrdup(n) : NULL; /* copied before anything can free it */
		ask_end(w, outer);
		if (r->released || !(kset = nearest_kset(c, r, &err))) {
			kobj_xfree(named);
			return -ENOENT;
		}
		if (!named) {
			note(c, r, ": unset subsystem caused the event to drop!");
			return 0;
		}
		subsystem = named;
	}
	char *sub = kobj_xstrdup(subsystem);
	err = send(c, r, action, sub, kset, envp_ext);
	kobj_xfree(sub);
	kobj_xfree(named);
	if (!r->released)
		kobj_mirror(kobj, r);
	return err;
}

static int uevent_checked(struct kcall *c, struct kobject *kobj, enum kobject_action action,
			  char *envp_ext[])
{
	struct kobj_record *r = kobj_rec_of(c->w, kobj);
	c->step = "kobject_uevent_env"; /* where the kernel does the work, and would crash */
	bool refused = kobj_refuse_released(c, r);
	c->step = NULL;
	if (refused)
		return -EINVAL;
	return kobj_uevent_as(c, kobj, action, envp_ext);
}

int (kobject_uevent_env)(struct kobject *kobj, enum kobject_action action, char *envp_ext[])
{
	struct kcall c = kobj_call("kobject_uevent_env");
	return uevent_checked(&c, kobj, action, envp_ext);
}

int (kobject_uevent)(struct kobject *kobj, enum kobject_action action)
{
	struct kcall c = kobj_call("kobject_uevent");
	return uevent_checked(&c, kobj, action, NULL);
}
