/*
 * Kernel modules linked into the program (insmod.h): a registry filled before main() by
 * the files' module_init() and module_exit(), and insmod and rmmod of them by name. A
 * loaded module is a simulated module of the current world (module.c) whose data is its
 * registry entry, so each world knows its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/insmod.h"
#include "core/model/ksym.h"
#include "core/model/model_internal.h"

static struct kobj_kmodule *linked; /* process-wide, filled by constructors */
static const char *task = "kobj";   /* who runs: see kobj_current_task() */

const char *kobj_current_task(void)
{
	return task;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

void kobj_kmodule_register(struct kobj_kmodule *m)
{
	for (struct kobj_kmodule *k = linked; k; k = k->next)
		if (k == m)
			return;
	/* Kbuild's rule: the object's name, '-' made '_' */
	const char *name = m->name ? m->name : base_name(m->file);
	size_t n = strcspn(name, ".");
	if (m->name || n >= sizeof(m->modname))
		n = strnlen(name, sizeof(m->modname) - 1);
	memcpy(m->modname, name, n);
	m->modname[n] = '\0';
	for (char *c = m->modname; *c; c++)
		if (*c == '-')
			*c = '_';
	m->next = linked;
	linked = m;
}

static struct kobj_kmodule *linked_named(const char *name)
{
	for (struct kobj_kmodule *k = linked; name && k; k = k->next)
		if (strcmp(k->modname, name) == 0)
			return k;
	return NULL;
}

const char *kobj_kmodule_of_file(const char *file)
{
	for (struct kobj_kmodule *k = linked; k; k = k->next)
		if (strcmp(base_name(k->file), file) == 0)
			return k->modname;
	return NULL;
}

/* ========================================================================= data */

/* A module file's static variables as they were before its first load. */
struct kobj_kmodule_image {
	size_t n;
	struct kobj_ksym_var *vars;
	unsigned char *bytes;
};

/* Keeps the file's variables at the first load and writes them back at every later one;
 * kept for the process's life, as the registry is. */
static void fresh_data(struct kobj_kmodule *km)
{
	struct kobj_kmodule_image *img = km->image;
	size_t total = 0, at = 0;

	if (img) {
		for (size_t i = 0; i < img->n; at += img->vars[i++].size)
			memcpy(img->vars[i].addr, img->bytes + at, img->vars[i].size);
		return;
	}
	img = calloc(1, sizeof(*img));
	if (!img)
		return;
	img->n = kobj_ksym_file_vars(km, base_name(km->file), "kobj_this_kmodule", &img->vars);
	for (size_t i = 0; i < img->n; i++)
		total += img->vars[i].size;
	img->bytes = malloc(total ? total : 1);
	if (!img->bytes) {
		free(img->vars);
		free(img);
		return;
	}
	for (size_t i = 0; i < img->n; at += img->vars[i++].size)
		memcpy(img->bytes + at, img->vars[i].addr, img->vars[i].size);
	km->image = img;
}

/* ===================================================================== loading */

/* The live simulated module @km made in @w, or NULL. */
static struct module *loaded(struct kobj_world *w, const struct kobj_kmodule *km)
{
	struct kobj_model *m = kobj_model(w);
	for (size_t i = 0; km && i < m->nmodules; i++)
		if (m->modules[i]->data == km && m->modules[i]->state == MODULE_STATE_LIVE)
			return m->modules[i];
	return NULL;
}

int kobj_module_loaded(const char *name)
{
	return loaded(kobj_world_current(), linked_named(name)) != NULL;
}

/* module_unload() calls this while the module is GOING. */
static void run_exit(struct module *mod)
{
	const struct kobj_kmodule *km = mod->data;
	const char *outer = task;
	task = "rmmod";
	km->exit();
	task = outer;
}

int (kobj_insmod)(const char *name)
{
	struct kcall c = kobj_call("insmod");
	struct kobj_kmodule *km = linked_named(name);
	int err;

	if (!km)
		return -ENOENT;
	if (loaded(c.w, km))
		return -EEXIST;
	kobj_note_site_id(c.site);
	struct module *mod = (module_load)(km->modname, &err);
	if (!mod)
		return err;
	mod->data = km;
	fresh_data(km);
	int ret = 0;
	if (km->init) {
		const char *outer = task;
		task = "insmod";
		kobj_callback_enter(c.w);
		ret = km->init();
		kobj_callback_leave(c.w);
		task = outer;
	}
	if (ret > 0) { /* kernel/module/main.c do_init_module(): loaded all the same */
		kobj_trace(c.w, KOBJ_LOGLEVEL_WARNING, 0, c.site,
			   "do_init_module: '%s'->init suspiciously returned %d, it should follow "
			   "0/-E convention\ndo_init_module: loading module anyway...",
			   km->modname, ret);
		ret = 0;
	}
	if (ret < 0) { /* a failed init: the module goes without its exit */
		kobj_note_site_id(c.site);
		(module_unload)(mod);
		return ret;
	}
	mod->exit = km->exit ? run_exit : NULL;
	return 0;
}

int (kobj_rmmod)(const char *name)
{
	struct kcall c = kobj_call("rmmod");
	struct kobj_kmodule *km = linked_named(name);
	struct module *mod = loaded(c.w, km);
	char where[256];

	if (!mod)
		return -ENOENT;
	if (!km->exit) {
		kobj_diagnose(&c, KOBJ_DIAG_MODULE_IN_USE, mod->id,
			    kobj_xasprintf("rmmod: ERROR: could not remove module %s: Device or "
					   "resource busy", km->modname),
			    kobj_xasprintf("rmmod at %s: module '%s' has module_init() but no "
					   "module_exit(), and the kernel cannot unload a module that "
					   "cannot clean up after itself: -EBUSY. It stays loaded.",
					   kobj_site_where(c.w, c.site, where), km->modname));
		return -EBUSY;
	}
	kobj_note_site_id(c.site);
	return (module_unload)(mod);
}

/* ============================================================== all of them at once */

static int by_name(const void *a, const void *b)
{
	const struct kobj_kmodule *x = *(struct kobj_kmodule *const *)a;
	const struct kobj_kmodule *y = *(struct kobj_kmodule *const *)b;
	return strcmp(x->modname, y->modname);
}

/* The linked modules in name order, in a malloc'd array; Return: how many. */
static size_t sorted(struct kobj_kmodule ***out)
{
	size_t n = 0, i = 0;
	for (struct kobj_kmodule *k = linked; k; k = k->next)
		n++;
	*out = kobj_xcalloc(n + 1, sizeof(**out));
	for (struct kobj_kmodule *k = linked; k; k = k->next)
		(*out)[i++] = k;
	qsort(*out, n, sizeof(**out), by_name);
	return n;
}

int kobj_module_init(void)
{
	struct kobj_world *w = kobj_world_current();
	struct kobj_kmodule **all;
	size_t n = sorted(&all), i;
	int err = 0;
	bool *mine = kobj_xcalloc(n + 1, sizeof(*mine));

	for (i = 0; i < n && !err; i++) {
		if (loaded(w, all[i]))
			continue;
		err = (kobj_insmod)(all[i]->modname);
		mine[i] = !err;
	}
	while (err && i-- > 0)
		if (mine[i])
			(kobj_rmmod)(all[i]->modname);
	kobj_xfree(mine);
	kobj_xfree(all);
	return err;
}

void kobj_module_exit(void)
{
	struct kobj_world *w = kobj_world_current();
	struct kobj_kmodule **all;
	size_t n = sorted(&all);

	while (n-- > 0)
		if (loaded(w, all[n]))
			(kobj_rmmod)(all[n]->modname);
	kobj_xfree(all);
}
