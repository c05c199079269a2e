/*
 * Simulated modules: a name, a usage count kept in the ledger like a kobject's, and the
 * LIVE -> GOING -> UNLOADED states.
 */
#include <errno.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

struct module *(module_load)(const char *name, int *err)
{
	struct kcall c = kobj_call("module_load");
	struct kobj_model *m = kobj_model(c.w);
	int dummy;

	if (!err)
		err = &dummy;
	if (!name || !name[0] || strlen(name) >= sizeof(((struct module *)0)->name)) {
		*err = -EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < m->nmodules; i++) {
		if (m->modules[i]->state != MODULE_STATE_UNLOADED &&
		    strcmp(m->modules[i]->name, name) == 0) {
			*err = -EEXIST;
			return NULL;
		}
	}
	struct module *mod = kobj_xcalloc(1, sizeof(*mod));
	strcpy(mod->name, name);
	mod->state = MODULE_STATE_LIVE;
	mod->id = kobj_record_new(c.w, KOBJ_KIND_MODULE, KOBJ_ERA_TODAY, mod, name, c.site)->id;
	kobj_grow((void **)&m->modules, &m->modules_cap, m->nmodules + 1, sizeof(*m->modules));
	m->modules[m->nmodules++] = mod;
	kobj_log_op(c.w, KOBJ_EV_MODULE_LOAD, "module_load", mod->id, 0, 0, 0, c.site);
	*err = 0;
	return mod;
}

void kobj_modules_free(struct kobj_world *w)
{
	struct kobj_model *m = kobj_model(w);
	for (size_t i = 0; i < m->nmodules; i++)
		kobj_xfree(m->modules[i]);
	kobj_xfree(m->modules);
}

/* Reports use of an unloaded module; Return: true if @mod is gone. */
static bool gone(struct kcall *c, struct module *mod)
{
	char where[256], when[256];
	struct kobj_record *r = kobj_rec(c->w, mod->id);

	if (mod->state != MODULE_STATE_UNLOADED)
		return false;
	kobj_diagnose(c, KOBJ_DIAG_MODULE_GONE, mod->id,
		    kobj_xasprintf("BUG: unable to handle page fault in %s", c->op),
		    kobj_xasprintf("%s() at %s used module '%s', which was unloaded at %s: its "
				   "code and data are gone.", c->op,
				   kobj_site_where(c->w, c->site, where), mod->name,
				   kobj_site_where(c->w, r->release_at, when)));
	return true;
}

/* The module's count follows its record, which the ledger keeps honest. */
static void count(struct kcall *c, struct module *mod, int delta, enum kobj_event_kind kind,
		  unsigned e)
{
	struct kobj_record *r = kobj_rec(c->w, mod->id);
	struct kobj_ref ref;
	kobj_ledger_ref(c->w, e, &ref);
	if (kind == KOBJ_EV_PUT)
		kobj_ledger_drop(c->w, r, e, c->site);
	const struct kobj_ev_args a = { .op = c->op, .ref = ref.serial,
					.ref_kind = KOBJ_REF_MODULE };
	kobj_log(c->w, kind, mod->id, mod->refcnt, mod->refcnt + delta, c->site, &a);
	r->refcount = mod->refcnt += delta;
}

/* The module's state and count are read or changed now: the explorer orders such steps. */
static void touch(const struct module *mod, bool write)
{
	kobj_sched_touch(KOBJ_RES_OBJECT, mod->id, write);
}

bool (try_module_get)(struct module *mod)
{
	struct kcall c = kobj_call("try_module_get");

	if (!mod)
		return true;
	touch(mod, false);
	if (gone(&c, mod) || mod->state != MODULE_STATE_LIVE)
		return false;
	const struct kobj_holder h = { KOBJ_REF_MODULE, 0, c.site, c.op };
	unsigned e = kobj_ledger_take(c.w, kobj_rec(c.w, mod->id), &h, NULL);
	c.w->last_take = kobj_ledger_token(c.w, e);
	count(&c, mod, +1, KOBJ_EV_GET, e);
	return true;
}

void (module_put)(struct module *mod)
{
	struct kcall c = kobj_call("module_put");
	char where[256];
	unsigned e;

	if (!mod)
		return;
	touch(mod, false);
	if (gone(&c, mod))
		return;
	struct kobj_record *r = kobj_rec(c.w, mod->id);
	enum kobj_pick pick = kobj_ledger_pick(c.w, r, c.site, c.lua, &e);
	if (pick == KOBJ_PICK_NONE || pick == KOBJ_PICK_EMPTY) {
		kobj_diagnose(&c, KOBJ_DIAG_MODULE_PUT_ZERO, mod->id,
			    kobj_xstrdup("WARNING: CPU: 0 PID: 1 at kernel/module/main.c "
					 "module_put"),
			    kobj_xasprintf("module_put() at %s on module '%s', whose count is "
					   "already 0: a put without a matching try_module_get(). "
					   "The sandbox ignored it.",
					   kobj_site_where(c.w, c.site, where), mod->name));
		return;
	}
	count(&c, mod, -1, KOBJ_EV_PUT, e);
}

int module_refcount(const struct module *mod)
{
	return mod ? mod->refcnt : 0;
}

int (module_unload)(struct module *mod)
{
	struct kcall c = kobj_call("module_unload");
	char where[256];

	if (!mod)
		return -EINVAL;
	touch(mod, true);
	if (mod->state != MODULE_STATE_LIVE)
		return -ENOENT;
	if (mod->refcnt > 0) {
		kobj_diagnose(&c, KOBJ_DIAG_MODULE_IN_USE, mod->id,
			    kobj_xasprintf("rmmod: ERROR: Module %s is in use", mod->name),
			    kobj_xasprintf("module_unload() at %s: module '%s' still has %d user(s) "
					   "(references from try_module_get() not yet dropped with "
					   "module_put()). Unloading now would pull its code out "
					   "from under them: -EBUSY.",
					   kobj_site_where(c.w, c.site, where), mod->name,
					   mod->refcnt));
		return -EBUSY;
	}
	mod->state = MODULE_STATE_GOING;
	/* From here try_module_get() fails; a user that found the module before may not. */
	kobj_sched_point_on(&c, KOBJ_SCHED_GOING, mod->id);
	if (mod->exit) {
		kobj_callback_enter(c.w);
		mod->exit(mod);
		kobj_callback_leave(c.w);
	}
	mod->state = MODULE_STATE_UNLOADED;
	kobj_rec_mark_released(c.w, kobj_rec(c.w, mod->id), c.site);
	kobj_log_op(c.w, KOBJ_EV_MODULE_UNLOAD, "module_unload", mod->id, 0, 0, 0, c.site);
	return 0;
}
