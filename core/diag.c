/* Diagnostics: misuse recorded with the kernel's own words and an explanation. */
#include <stdio.h>
#include <string.h>

#include "core/world_internal.h"

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
};

const char *kobj_diag_tag(enum kobj_diag_kind kind)
{
	return (unsigned)kind < KOBJ_DIAG_KIND_COUNT ? tags[kind] : "?";
}

size_t kobj_diag_add(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		     struct kobj_origin o, char *message, char *explanation)
{
	kobj_grow((void **)&w->diags, &w->diags_cap, w->ndiags + 1, sizeof(*w->diags));
	size_t i = w->ndiags++;
	struct kobj_diag *d = &w->diags[i];
	struct kobj_record *r = kobj_rec(w, obj);
	int count = r ? r->refcount : 0;

	d->kind = kind;
	d->message = message;
	d->explanation = explanation;
	d->obj = obj;
	d->origin = o;
	kobj_log(w, KOBJ_EV_DIAG, tags[kind], obj, 0, count, count, (unsigned)i, o);
	d->seq = w->nevents;
	if (r)
		r->diagnosed = true;
	if (w->on_diag)
		w->on_diag(d, w->on_diag_ctx);
	return i;
}

void kobj_diag_record(struct kobj_world *w, enum kobj_diag_kind kind, unsigned obj,
		      const char *message, const char *explanation)
{
	kobj_diag_add(w, kind, obj, kobj_take_origin(w), kobj_xstrdup(message),
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

/* Prints @text with every line indented by @indent. */
static void print_indented(const char *text, const char *indent, FILE *out)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		fprintf(out, "%s%.*s\n", indent, (int)n, text);
		text += n + (nl ? 1 : 0);
	}
}

void kobj_diag_print(const struct kobj_diag *d, FILE *out)
{
	char where[256];
	print_indented(d->message, "", out);
	fprintf(out, "  -> %s: ", kobj_where(d->origin, where));
	const char *nl = strchr(d->explanation, '\n');
	if (!nl) {
		fprintf(out, "%s\n", d->explanation);
		return;
	}
	fprintf(out, "%.*s\n", (int)(nl - d->explanation), d->explanation);
	print_indented(nl + 1, "     ", out);
}
