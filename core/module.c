/* Simulated modules: a name, a usage count, and the LIVE -> GOING -> UNLOADED states. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/world_internal.h"

#define W() kobj_world_current()

struct module *(module_load)(const char *name, int *err)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	int dummy;

	if (!err)
		err = &dummy;
	if (!name || !name[0] || strlen(name) >= sizeof(((struct module *)0)->name)) {
		*err = -EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < w->nmodules; i++) {
		if (w->modules[i]->state != MODULE_STATE_UNLOADED &&
		    strcmp(w->modules[i]->name, name) == 0) {
			*err = -EEXIST;
			return NULL;
		}
	}
	struct module *mod = kobj_xcalloc(1, sizeof(*mod));
	strcpy(mod->name, name);
	mod->state = MODULE_STATE_LIVE;
	mod->id = kobj_record_new(w, KOBJ_KIND_MODULE, mod, name, o)->id;
	kobj_grow((void **)&w->modules, &w->modules_cap, w->nmodules + 1, sizeof(*w->modules));
	w->modules[w->nmodules++] = mod;
	kobj_log(w, KOBJ_EV_MODULE_LOAD, "module_load", mod->id, 0, 0, 0, 0, o);
	*err = 0;
	return mod;
}

void kobj_modules_free(struct kobj_world *w)
{
	for (size_t i = 0; i < w->nmodules; i++)
		free(w->modules[i]);
	free(w->modules);
}

/* Reports use of an unloaded module; Return: true if @mod is gone. */
static bool gone(struct kobj_world *w, struct module *mod, struct kobj_origin o, const char *op)
{
	char where[256], when[256];
	struct kobj_record *r = kobj_rec(w, mod->id);

	if (mod->state != MODULE_STATE_UNLOADED)
		return false;
	kobj_diag_add(w, KOBJ_DIAG_MODULE_GONE, mod->id, o,
		      kobj_xasprintf("BUG: unable to handle page fault in %s", op),
		      kobj_xasprintf("%s() at %s used module '%s', which was unloaded at %s: "
				     "its code and data are gone.", op, kobj_where(o, where),
				     mod->name, kobj_where(r->release_at, when)));
	return true;
}

bool (try_module_get)(struct module *mod)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);

	if (!mod)
		return true;
	if (gone(w, mod, o, "try_module_get") || mod->state != MODULE_STATE_LIVE)
		return false;
	struct kobj_record *r = kobj_rec(w, mod->id);
	kobj_log(w, KOBJ_EV_GET, "try_module_get", mod->id, 0, mod->refcnt, mod->refcnt + 1, 0, o);
	r->refcount = ++mod->refcnt;
	return true;
}

void (module_put)(struct module *mod)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	char where[256];

	if (!mod || gone(w, mod, o, "module_put"))
		return;
	if (mod->refcnt == 0) {
		kobj_diag_add(w, KOBJ_DIAG_MODULE_PUT_ZERO, mod->id, o,
			      kobj_xstrdup("WARNING: CPU: 0 PID: 1 at kernel/module/main.c "
					   "module_put"),
			      kobj_xasprintf("module_put() at %s on module '%s', whose count is "
					     "already 0: a put without a matching "
					     "try_module_get(). The sandbox ignored it.",
					     kobj_where(o, where), mod->name));
		return;
	}
	struct kobj_record *r = kobj_rec(w, mod->id);
	kobj_log(w, KOBJ_EV_PUT, "module_put", mod->id, 0, mod->refcnt, mod->refcnt - 1, 0, o);
	r->refcount = --mod->refcnt;
}

int module_refcount(const struct module *mod)
{
	return mod ? mod->refcnt : 0;
}

int (module_unload)(struct module *mod)
{
	struct kobj_world *w = W();
	struct kobj_origin o = kobj_take_origin(w);
	char where[256];

	if (!mod)
		return -EINVAL;
	if (mod->state != MODULE_STATE_LIVE)
		return -ENOENT;
	if (mod->refcnt > 0) {
		kobj_diag_add(w, KOBJ_DIAG_MODULE_IN_USE, mod->id, o,
			      kobj_xasprintf("rmmod: ERROR: Module %s is in use", mod->name),
			      kobj_xasprintf("module_unload() at %s: module '%s' still has %d "
					     "user(s) (references from try_module_get() not yet "
					     "dropped with module_put()). Unloading now would "
					     "pull its code out from under them: -EBUSY.",
					     kobj_where(o, where), mod->name, mod->refcnt));
		return -EBUSY;
	}
	mod->state = MODULE_STATE_GOING;
	if (mod->exit)
		mod->exit(mod);
	mod->state = MODULE_STATE_UNLOADED;
	struct kobj_record *r = kobj_rec(w, mod->id);
	r->released = true;
	r->release_at = o;
	kobj_log(w, KOBJ_EV_MODULE_UNLOAD, "module_unload", mod->id, 0, 0, 0, 0, o);
	return 0;
}
