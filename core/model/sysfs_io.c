/*
 * Reading and writing attribute files, through the ktype's sysfs_ops as sysfs does: a
 * page-aligned page of PAGE_SIZE bytes lent to show() or store(), the file's mode
 * enforced (a write to a file with no write bit fails with -EACCES, as for any user the
 * kernel checks). show() and store() may change anything, their own object included:
 * nothing is read through the entry after they return.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

/* The file at @path and the ops that serve it; Return: ops, or NULL with *@err set. */
static const struct sysfs_ops *file_ops(const struct kobj_world *w, const char *path,
					const struct sysfs_dirent **file, unsigned need,
					ssize_t *err)
{
	const struct sysfs_dirent *d = sysfs_lookup(w, path);
	*file = d;
	if (!d) {
		*err = -ENOENT;
		return NULL;
	}
	if (sysfs_dirent_type(d) == SYSFS_DIR) {
		*err = -EISDIR;
		return NULL;
	}
	if (!(sysfs_dirent_mode(d) & need)) {
		*err = -EACCES;
		return NULL;
	}
	const struct kobj_record *r = kobj_rec(w, sysfs_dirent_obj(d));
	kobj_sched_touch(KOBJ_RES_OBJECT, sysfs_dirent_obj(d), false);
	const struct kobj_type *t = r && !r->released ? kobj_ktype_of_rec(r) : NULL;
	*err = -EIO;
	return t ? t->sysfs_ops : NULL;
}

/*
 * A read or write by user space begins: a scheduling point (another CPU may remove the
 * file first), and the tree is read. Nothing happens with one thread.
 */
static void user_access(const char *op)
{
	if (!kobj_sched_hooks)
		return;
	struct kcall c = kobj_call(op);
	(void)c;
	kobj_sched_touch(KOBJ_RES_SYSFS, 0, false);
}

/* The page show() and store() get: page-aligned, as sysfs_emit() checks. */
static char *new_page(void)
{
	char *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!page) {
		fputs("kobject sandbox: out of memory\n", stderr);
		abort();
	}
	return memset(page, 0, PAGE_SIZE);
}

/* show() filled more than the page holds: the kernel's complaint, then it cuts. */
static void bad_count(struct kobj_world *w, unsigned obj, const char *path, bool kobj_attr,
		      ssize_t n)
{
	struct kcall c = kobj_call_in(w, 0, "sysfs_read");
	kobj_diagnose(&c, KOBJ_DIAG_BAD_COUNT, obj,
		    kobj_xasprintf("fill_read_buffer: %s returned bad count",
				   kobj_attr ? "kobj_attr_show" : "sysfs_ops->show"),
		    kobj_xasprintf("Reading %s: show() returned %zd, but a sysfs file holds less "
				   "than PAGE_SIZE (%d) bytes, the final NUL included. The reader "
				   "got the first %d bytes. Format with sysfs_emit(), which cannot "
				   "overflow the page.", path, n, PAGE_SIZE, PAGE_SIZE - 1));
}

ssize_t sysfs_read(const struct kobj_world *cw, const char *path, char *buf, size_t size)
{
	struct kobj_world *w = (struct kobj_world *)cw; /* a show() may change the world */
	const struct sysfs_dirent *d;
	ssize_t err;
	user_access("sysfs_read");
	const struct sysfs_ops *ops = file_ops(w, path, &d, 0444, &err);

	if (!ops || !ops->show)
		return ops ? -EIO : err;
	char shown[4096];
	unsigned obj = sysfs_dirent_obj(d);
	sysfs_dirent_path(d, shown, sizeof(shown));
	char *page = new_page();
	/* kernfs's active reference: a removal of the directory waits for show() */
	kobj_sched_active(w, obj, true);
	kobj_callback_enter(w);
	ssize_t n = ops->show(sysfs_dirent_kobj(d), sysfs_dirent_attr(d), page);
	kobj_callback_leave(w);
	kobj_sched_active(w, obj, false);
	if (n >= PAGE_SIZE) {
		bad_count(w, obj, shown, ops == &kobj_sysfs_ops, n);
		n = PAGE_SIZE - 1; /* the kernel truncates a bad count the same way */
	}
	if (n >= 0 && size) {
		if ((size_t)n >= size)
			n = (ssize_t)size - 1;
		memcpy(buf, page, (size_t)n);
		buf[n] = '\0';
	}
	free(page);
	return n;
}

ssize_t sysfs_write(const struct kobj_world *cw, const char *path, const char *buf,
		    size_t count)
{
	struct kobj_world *w = (struct kobj_world *)cw;
	const struct sysfs_dirent *d;
	ssize_t err;
	user_access("sysfs_write");
	const struct sysfs_ops *ops = file_ops(w, path, &d, 0222, &err);

	if (!ops || !ops->store)
		return ops ? -EIO : err;
	if (count == 0)
		return 0;
	if (count >= PAGE_SIZE)
		count = PAGE_SIZE - 1;
	char *page = new_page();
	memcpy(page, buf, count);
	unsigned obj = sysfs_dirent_obj(d);
	kobj_sched_active(w, obj, true);
	kobj_callback_enter(w);
	ssize_t n = ops->store(sysfs_dirent_kobj(d), sysfs_dirent_attr(d), page, count);
	kobj_callback_leave(w);
	kobj_sched_active(w, obj, false);
	free(page);
	return n;
}
