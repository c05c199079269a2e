/*
 * Reading and writing sysfs files. An attribute file goes through its ktype's sysfs_ops
 * as sysfs does: a page-aligned page of PAGE_SIZE bytes lent to show() or store(). A
 * binary file goes to its bin_attribute's read() or write() with the offset and count,
 * bounded by its size, at most a page per call (fs/sysfs/file.c, fs/kernfs/file.c).
 * The file's mode is enforced: a write to a file with no write bit fails with -EACCES,
 * as for any user the kernel checks. The callbacks may change anything, their own
 * object included: nothing is read through the entry after they return.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

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

/* The file at @path if its mode has a bit of @need; Return: it, or NULL with *@err. */
static const struct sysfs_dirent *find_file(const struct kobj_world *w, const char *path,
					    unsigned need, ssize_t *err)
{
	user_access(need & 0222 ? "sysfs_write" : "sysfs_read");
	const struct sysfs_dirent *d = sysfs_lookup(w, path);
	*err = !d ? -ENOENT : sysfs_dirent_type(d) == SYSFS_DIR ? -EISDIR
	       : !(sysfs_dirent_mode(d) & need) ? -EACCES : 0;
	if (*err)
		return NULL;
	kobj_sched_touch(KOBJ_RES_OBJECT, sysfs_dirent_obj(d), false);
	return d;
}

/* The ops that serve the attribute file @d; Return: ops, or NULL with *@err = -EIO. */
static const struct sysfs_ops *file_ops(const struct kobj_world *w, const struct sysfs_dirent *d,
					ssize_t *err)
{
	const struct kobj_record *r = kobj_rec(w, sysfs_dirent_obj(d));
	const struct kobj_type *t = r && !r->released ? kobj_ktype_of_rec(r) : NULL;
	*err = -EIO;
	return t ? t->sysfs_ops : NULL;
}

/* The page show() and store() get: page-aligned, as sysfs_emit() checks. @pages is 2
 * for a binary write, whose buffer ends with a NUL after a whole page, as kernfs's. */
static char *new_page(size_t pages)
{
	char *page = aligned_alloc(PAGE_SIZE, pages * PAGE_SIZE);
	if (!page) {
		fputs("kobject sandbox: out of memory\n", stderr);
		abort();
	}
	return memset(page, 0, pages * PAGE_SIZE);
}

/* A callback of the file @d runs: kernfs holds an active reference on it meanwhile, which
 * a removal of the directory waits for. */
static void callback_enter(struct kobj_world *w, const struct sysfs_dirent *d)
{
	kobj_sched_active(w, sysfs_dirent_obj(d), true);
	kobj_callback_enter(w);
}

static void callback_leave(struct kobj_world *w, unsigned obj)
{
	kobj_callback_leave(w);
	kobj_sched_active(w, obj, false);
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

/* show() of the attribute file @d into a new page; Return: its count (cut to the page)
 * or error, and the page in *@page (the caller frees it). */
static ssize_t show(struct kobj_world *w, const struct sysfs_dirent *d, char **page)
{
	ssize_t err;
	const struct sysfs_ops *ops = file_ops(w, d, &err);

	*page = NULL;
	if (!ops || !ops->show)
		return ops ? -EIO : err;
	char shown[4096];
	unsigned obj = sysfs_dirent_obj(d);
	sysfs_dirent_path(d, shown, sizeof(shown));
	*page = new_page(1);
	callback_enter(w, d);
	ssize_t n = ops->show(sysfs_dirent_kobj(d), sysfs_dirent_attr(d), *page);
	callback_leave(w, obj);
	if (n >= PAGE_SIZE) {
		bad_count(w, obj, shown, ops == &kobj_sysfs_ops, n);
		n = PAGE_SIZE - 1; /* the kernel truncates a bad count the same way */
	}
	return n;
}

/* ====================================================================== binary files */

static struct bin_attribute *bin_of(const struct sysfs_dirent *d)
{
	return container_of(sysfs_dirent_attr(d), struct bin_attribute, attr);
}

/* read() gave more than it was asked for: the kernel copies past its buffer. */
static void bin_overread(struct kobj_world *w, const struct sysfs_dirent *d, ssize_t n,
			 size_t count, kobj_loff_t pos)
{
	struct kcall c = kobj_call_in(w, 0, "sysfs_read");
	char path[4096];
	sysfs_dirent_path(d, path, sizeof(path));
	kobj_diagnose(&c, KOBJ_DIAG_BAD_COUNT, sysfs_dirent_obj(d),
		    kobj_xstrdup("BUG: KASAN: slab-out-of-bounds in _copy_to_iter"),
		    kobj_xasprintf("Reading %s at offset %lld: read() returned %zd, more than the "
				   "%zu bytes asked for. The kernel copies that many bytes out of "
				   "a buffer of %zu, past its end. The reader got the first %zu.",
				   path, (long long)pos, n, count, count, count));
}

/* fs/sysfs/file.c sysfs_kf_bin_read(): bounded by the size, a page at most. */
static ssize_t bin_read(struct kobj_world *w, const struct sysfs_dirent *d, char *buf,
			size_t count, kobj_loff_t pos)
{
	struct bin_attribute *b = bin_of(d);
	kobj_loff_t size = (kobj_loff_t)b->size;

	if (!b->read)
		return -EACCES; /* kernfs refuses to open it for reading */
	if (pos < 0)
		return -EINVAL;
	if (count > PAGE_SIZE)
		count = PAGE_SIZE;
	if (size && pos >= size)
		return 0;
	if (size && (kobj_loff_t)count > size - pos)
		count = (size_t)(size - pos);
	if (!count)
		return 0;
	char *page = new_page(1);
	unsigned obj = sysfs_dirent_obj(d);
	callback_enter(w, d);
	ssize_t n = b->read(NULL, sysfs_dirent_kobj(d), b, page, pos, count);
	callback_leave(w, obj);
	if (n > (ssize_t)count) {
		bin_overread(w, d, n, count, pos);
		n = (ssize_t)count;
	}
	if (n > 0)
		memcpy(buf, page, (size_t)n);
	free(page);
	return n;
}

/* fs/sysfs/file.c sysfs_kf_bin_write(): -EFBIG at or past the size, cut to end there. */
static ssize_t bin_write(struct kobj_world *w, const struct sysfs_dirent *d, const char *buf,
			 size_t count, kobj_loff_t pos)
{
	struct bin_attribute *b = bin_of(d);
	kobj_loff_t size = (kobj_loff_t)b->size;

	if (!b->write)
		return -EACCES;
	if (pos < 0)
		return -EINVAL;
	if (count > PAGE_SIZE)
		count = PAGE_SIZE;
	if (size && size <= pos)
		return -EFBIG;
	if (size && (kobj_loff_t)count > size - pos)
		count = (size_t)(size - pos);
	if (!count)
		return 0;
	char *page = new_page(2);
	memcpy(page, buf, count);
	unsigned obj = sysfs_dirent_obj(d);
	callback_enter(w, d);
	ssize_t n = b->write(NULL, sysfs_dirent_kobj(d), b, page, pos, count);
	callback_leave(w, obj);
	free(page);
	return n;
}

/* ========================================================================== reading */

ssize_t sysfs_read(const struct kobj_world *cw, const char *path, char *buf, size_t size)
{
	struct kobj_world *w = (struct kobj_world *)cw; /* a show() may change the world */
	ssize_t n;
	const struct sysfs_dirent *d = find_file(w, path, 0444, &n);
	char *page;

	if (!d)
		return n;
	if (sysfs_dirent_is_bin(d)) {
		n = bin_read(w, d, buf, size ? size - 1 : 0, 0);
		if (n >= 0 && size)
			buf[n] = '\0';
		return n;
	}
	n = show(w, d, &page);
	if (n >= 0 && size) {
		if ((size_t)n >= size)
			n = (ssize_t)size - 1;
		memcpy(buf, page, (size_t)n);
		buf[n] = '\0';
	}
	free(page);
	return n;
}

ssize_t sysfs_read_at(const struct kobj_world *cw, const char *path, char *buf, size_t count,
		      kobj_loff_t pos)
{
	struct kobj_world *w = (struct kobj_world *)cw;
	ssize_t n;
	const struct sysfs_dirent *d = find_file(w, path, 0444, &n);
	char *page;

	if (!d)
		return n;
	if (sysfs_dirent_is_bin(d))
		return bin_read(w, d, buf, count, pos);
	if (pos < 0)
		return -EINVAL;
	n = show(w, d, &page);
	if (n >= 0) { /* the bytes of the page from @pos */
		n = pos >= n ? 0 : n - (ssize_t)pos;
		if ((size_t)n > count)
			n = (ssize_t)count;
		if (n)
			memcpy(buf, page + pos, (size_t)n);
	}
	free(page);
	return n;
}

/* ========================================================================== writing */

ssize_t sysfs_write(const struct kobj_world *cw, const char *path, const char *buf,
		    size_t count)
{
	return sysfs_write_at(cw, path, buf, count, 0);
}

ssize_t sysfs_write_at(const struct kobj_world *cw, const char *path, const char *buf,
		       size_t count, kobj_loff_t pos)
{
	struct kobj_world *w = (struct kobj_world *)cw;
	ssize_t err;
	const struct sysfs_dirent *d = find_file(w, path, 0222, &err);

	if (!d)
		return err;
	if (sysfs_dirent_is_bin(d))
		return bin_write(w, d, buf, count, pos);
	const struct sysfs_ops *ops = file_ops(w, d, &err);
	if (!ops || !ops->store)
		return ops ? -EIO : err;
	if (count == 0)
		return 0;
	if (count >= PAGE_SIZE)
		count = PAGE_SIZE - 1;
	char *page = new_page(1);
	memcpy(page, buf, count);
	unsigned obj = sysfs_dirent_obj(d);
	callback_enter(w, d);
	ssize_t n = ops->store(sysfs_dirent_kobj(d), sysfs_dirent_attr(d), page, count);
	callback_leave(w, obj);
	free(page);
	return n;
}
