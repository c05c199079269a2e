/* Diagnostics: misuse recorded with the kernel's own words and an explanation. */
#include <string.h>

#include "core/world/world_internal.h"

static const char *const tags[KOBJ_DIAG_KIND_COUNT] = {
	[KOBJ_DIAG_INVALID_POINTER] = "invalid-pointer",
	[KOBJ_DIAG_INIT_TWICE] = "init-twice",
	[KOBJ_DIAG_GET_UNINIT] = "get-uninitialized",
	[KOBJ_DIAG_PUT_UNINIT] = "put-uninitialized",
	[KOBJ_DIAG_GET_ZERO] = "get-released",
	[KOBJ_DIAG_PUT_ZERO] = "double-put",
	[KOBJ_DIAG_NO_RELEASE] = "no-release",
	[KOBJ_DIAG_EMPTY_NAME] = "empty-name",
	[KOBJ_DIAG_DUPLICATE_NAME] = "duplicate-name",
	[KOBJ_DIAG_ADD_FAILED] = "add-failed",
	[KOBJ_DIAG_ADD_UNINIT] = "add-uninitialized",
	[KOBJ_DIAG_ADD_TWICE] = "add-twice",
	[KOBJ_DIAG_DEL_NOT_ADDED] = "del-not-added",
	[KOBJ_DIAG_REGISTER_FAILED] = "register-failed",
	[KOBJ_DIAG_SET_NAME_FAILED] = "set-name-failed",
	[KOBJ_DIAG_NO_SUBSYSTEM] = "no-subsystem",
	[KOBJ_DIAG_RECURSIVE_LOCK] = "recursive-lock",
	[KOBJ_DIAG_MODULE_IN_USE] = "module-in-use",
	[KOBJ_DIAG_MODULE_PUT_ZERO] = "module-put-below-zero",
	[KOBJ_DIAG_MODULE_GONE] = "module-unloaded",
	[KOBJ_DIAG_CALLBACK_ERROR] = "callback-error",
	[KOBJ_DIAG_USE_AFTER_FREE] = "use-after-free",
	[KOBJ_DIAG_AUTO_DEL] = "released-in-sysfs",
	[KOBJ_DIAG_NO_KTYPE] = "no-ktype",
	[KOBJ_DIAG_REFCOUNT_SATURATED] = "refcount-saturated",
	[KOBJ_DIAG_REFCOUNT_DEC_ZERO] = "refcount-dec-hit-zero",
	[KOBJ_DIAG_NOT_IN_SYSFS] = "not-in-sysfs",
	[KOBJ_DIAG_NO_SYSFS_OPS] = "missing-sysfs-ops",
	[KOBJ_DIAG_EMPTY_GROUP] = "empty-group",
	[KOBJ_DIAG_BAD_PERMISSIONS] = "invalid-permissions",
	[KOBJ_DIAG_GROUP_NOT_FOUND] = "group-not-found",
	[KOBJ_DIAG_BAD_COUNT] = "show-bad-count",
	[KOBJ_DIAG_BAD_SYSFS_EMIT] = "invalid-sysfs-emit",
	[KOBJ_DIAG_UEVENT_ENV_FULL] = "uevent-env-full",
	[KOBJ_DIAG_FREED_BEFORE_RELEASE] = "freed-before-release",
	[KOBJ_DIAG_PUT_NOT_OWNED] = "put-not-owned",
	[KOBJ_DIAG_REF_PUT_TWICE] = "reference-put-twice",
	[KOBJ_DIAG_FREED_LIVE] = "freed-while-live",
	[KOBJ_DIAG_REF_TRACKER] = "ref-tracker",
	[KOBJ_DIAG_DEADLOCK] = "deadlock",
};

const char *kobj_diag_tag(enum kobj_diag_kind kind)
{
	return (unsigned)kind < KOBJ_DIAG_KIND_COUNT ? tags[kind] : "?";
}

size_t kobj_diag_add(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		     unsigned site, char *message, char *explanation)
{
	kobj_grow((void **)&w->diags, &w->diags_cap, w->ndiags + 1, sizeof(*w->diags));
	size_t i = w->ndiags++;
	struct kobj_diag *d = &w->diags[i];
	struct kobj_record *r = kobj_rec(w, obj);
	int count = r ? r->refcount : 0;

	*d = (struct kobj_diag){
		.kind = kind, .message = message, .explanation = explanation, .obj = obj,
		.site = site, .origin = kobj_site_origin(w, site),
	};
	d->seq = kobj_log_op(w, KOBJ_EV_DIAG, tags[kind], obj, count, count, (unsigned)i, site);
	if (r)
		r->diagnosed = true;
	if (w->on_diag)
		w->on_diag(d, w->on_diag_ctx);
	return i;
}

void kobj_diag_record(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		      const char *message, const char *explanation)
{
	kobj_diag_add(w, kind, obj, kobj_take_site(w), kobj_xstrdup(message),
		      kobj_xstrdup(explanation));
}

size_t kobj_diag_count(const struct kobj_world *w)
{
	return w->ndiags;
}

const struct kobj_diag *kobj_diag_at(const struct kobj_world *w, size_t i)
{
	return i < w->ndiags ? &w->diags[i] : NULL;
}

void kobj_diags_free(struct kobj_world *w)
{
	for (size_t i = 0; i < w->ndiags; i++) {
		kobj_xfree(w->diags[i].message);
		kobj_xfree(w->diags[i].explanation);
	}
	kobj_xfree(w->diags);
}
