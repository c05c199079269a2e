/*
 * Names: kobject_set_name() of both eras, today's naming adds (kobject_add with a
 * format, kobject_init_and_add) and kobject_rename(). A name lives in name[] when it is
 * short, else in an allocated copy that k_name points to; name[] always holds its first
 * KOBJ_NAME_LEN - 1 characters, as 2.6.0 kept them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/model/model_internal.h"

char *kobj_format_name(struct kobj_world *w, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	char *name = n < 0 ? NULL : kobj_kmalloc(w, (size_t)n + 1);
	if (!name)
		return NULL;
	vsnprintf(name, (size_t)n + 1, fmt, ap);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '!';
	return name;
}

void kobj_install_name(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		       char *name)
{
	size_t len = strlen(name);

	if (kobj->k_name && kobj->k_name != kobj->name)
		kobj_owned_free(c->w, kobj->k_name);
	snprintf(kobj->name, KOBJ_NAME_LEN, "%s", name);
	if (len < KOBJ_NAME_LEN) {
		kobj->k_name = kobj->name;
		kobj_xfree(name);
	} else {
		kobj->k_name = name;
		kobj_owned_add(c->w, name, KOBJ_OWNED_NAME);
	}
	if (!r)
		return; /* 2.6.0 lets an object be named before it is initialised */
	kobj_rec_set_name(r, kobj->k_name);
	kobj_log_call(c, KOBJ_EV_SET_NAME, r, 0);
}

/* Reports a name that could not be set; Return: @err. */
static int name_failed(struct kcall *c, struct kobj_record *r, const char *why, int err)
{
	char where[256];
	kobj_diagnose(c, KOBJ_DIAG_SET_NAME_FAILED, r ? r->id : 0,
		    kobj_xstrdup("kobject: can not set name properly!"),
		    kobj_xasprintf("%s() at %s could not name '%s': %s. The object is not added; "
				   "%s.", kcall_now(c), kobj_site_where(c->w, c->site, where),
				   r ? r->name : "", why, kobj_after_failed_add(c)));
	return err;
}

/* The naming step of a call; Return: 0, or the error (reported with @report). */
static int set_name_va(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		       bool report, const char *fmt, va_list ap)
{
	if (!fmt && kobj_name_of(kobj)[0])
		return 0; /* keeps the name already set */
	if (!fmt)
		return report ? name_failed(c, r, "no format, and no name was set before",
					    -EINVAL)
			      : -EINVAL;
	char *name = kobj_format_name(c->w, fmt, ap);
	if (!name) {
		if (report)
			return name_failed(c, r, "no memory for the name", -ENOMEM);
		kobj_log_call(c, KOBJ_EV_SET_NAME, r, ENOMEM);
		return -ENOMEM;
	}
	kobj_install_name(c, kobj, r, name);
	return 0;
}

int (kobject_set_name)(struct kobject *kobj, const char *fmt, ...)
{
	struct kcall c = kobj_call("kobject_set_name");
	char where[256];

	if (!kobj)
		return -EINVAL;
	struct kobj_record *r = kobj_rec_of(c.w, kobj);
	if (kobj_refuse_released(&c, r))
		return -EINVAL;
	if (!fmt && !kobj_name_of(kobj)[0]) {
		kobj_diagnose(&c, KOBJ_DIAG_SET_NAME_FAILED, r ? r->id : 0,
			    kobj_xstrdup("kobject: can not set name properly!"),
			    kobj_xasprintf("kobject_set_name() at %s was given no format for an "
					   "object that has no name yet.",
					   kobj_site_where(c.w, c.site, where)));
		return -EINVAL;
	}
	va_list ap;
	va_start(ap, fmt);
	int err = set_name_va(&c, kobj, r, false, fmt, ap);
	va_end(ap);
	return err;
}

/* ============================================================= today's naming adds */

/* kobject_add_varg(): the name, the parent, then the add of the object's own era. */
static int add_va(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		  struct kobject *parent, const char *fmt, va_list ap)
{
	int err = set_name_va(c, kobj, r, true, fmt, ap);
	if (err)
		return err;
	kobj->parent = parent;
	return kobj_add_as(c, kobj);
}

int (kobject_add_named)(struct kobject *kobj, struct kobject *parent, const char *fmt, ...)
{
	struct kcall c = kobj_call("kobject_add");
	va_list ap;

	if (!kobj)
		return -EINVAL;
	struct kobj_record *r = kobj_rec_of(c.w, kobj);
	if (kobj_refuse_released(&c, r))
		return -EINVAL;
	if (!r) {
		kobj_report_add_uninit(&c, kobj);
		return -EINVAL;
	}
	va_start(ap, fmt);
	int err = add_va(&c, kobj, r, parent, fmt, ap);
	va_end(ap);
	return err;
}

int (kobject_init_and_add)(struct kobject *kobj, const struct kobj_type *ktype,
			   struct kobject *parent, const char *fmt, ...)
{
	struct kcall c = kobj_call("kobject_init_and_add");
	va_list ap;

	c.step = "kobject_init";
	struct kobj_record *r = kobj_init_as(&c, kobj, KOBJ_KIND_KOBJECT, ktype, KOBJ_ERA_TODAY);
	if (!r && kobj && ktype)
		r = kobj_live_of(c.w, kobj); /* init twice was refused: the add goes on */
	if (!r)
		return -EINVAL;
	c.step = "kobject_add";
	va_start(ap, fmt);
	int err = add_va(&c, kobj, r, parent, fmt, ap);
	va_end(ap);
	return err;
}

int kobj_set_name_as(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
		     const char *name)
{
	if (!name) /* kvasprintf("%s", NULL) gives NULL: -ENOMEM */
		return name_failed(c, r, "the name given is NULL", -ENOMEM);
	char *copy = kobj_kmalloc(c->w, strlen(name) + 1);
	if (!copy)
		return name_failed(c, r, "no memory for the name", -ENOMEM);
	strcpy(copy, name);
	for (char *p = copy; *p; p++)
		if (*p == '/')
			*p = '!';
	kobj_install_name(c, kobj, r, copy);
	return 0;
}

/* ============================================================================ rename */

/* "DEVPATH_OLD=/a/b" for the KOBJ_MOVE event; Return: kmalloc'd, or NULL (-ENOMEM). */
char *kobj_devpath_old(struct kcall *c, struct kobject *kobj)
{
	char *path = kobj_get_path_as(c, kobj);
	char *var = path ? kobj_xasprintf("DEVPATH_OLD=%s", path) : NULL;
	kobj_xfree(path);
	return var;
}

/* 2.6.0's rename: the directory follows, no event, nothing returned but 0. */
static int rename_2_6_0(struct kcall *c, struct kobject *kobj, struct kobj_record *r,
			const char *new_name)
{
	char *name = kobj_kmalloc(c->w, strlen(new_name) + 1);
	if (!name)
		return -ENOMEM;
	strcpy(name, new_name);
	int err = r->dir ? kobj_sysfs_rename(c->w, r->dir, kobj_sysfs_parent_of(r->dir), name) : 0;
	if (err) {
		kobj_xfree(name);
		return err;
	}
	kobj_install_name(c, kobj, r, name);
	return 0;
}

int (kobject_rename)(struct kobject *kobj, const char *new_name)
{
	struct kcall c = kobj_call("kobject_rename");
	struct kobj_record *r = kobj_rec_of(c.w, kobj);
	unsigned held;
	int err = -ENOMEM;

	if (kobj_refuse_released(&c, r) || !r || !kobj->parent || !new_name)
		return -EINVAL;
	if (!kobj_get_as(&c, kobj, KOBJ_REF_CALL, 0, &held))
		return -EINVAL;
	unsigned long long token = kobj_ledger_token(c.w, held);
	if (r->era == KOBJ_ERA_2_6_0) {
		err = rename_2_6_0(&c, kobj, r, new_name);
		goto put;
	}
	char *envp[2] = { kobj_devpath_old(&c, kobj), NULL };
	char *name = envp[0] ? kobj_kmalloc(c.w, strlen(new_name) + 1) : NULL;
	if (name) {
		for (char *p = strcpy(name, new_name); *p; p++)
			*p = *p == '/' ? '!' : *p; /* sysfs needs it; the kernel trusts callers */
		err = r->dir ? kobj_sysfs_rename(c.w, r->dir, kobj_sysfs_parent_of(r->dir), name)
			     : 0;
	}
	if (!err) {
		kobj_install_name(&c, kobj, r, name);
		name = NULL;
		kobj_uevent_as(&c, kobj, KOBJ_MOVE, envp);
	}
	kobj_xfree(name);
	kobj_xfree(envp[0]);
put:
	/* a callback of the move event may have changed anything: the token says */
	if (kobj_ledger_entry_of(c.w, token, r->id))
		kobj_drop(&c, r->id, held, false);
	return err;
}
