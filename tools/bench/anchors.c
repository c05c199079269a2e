/*
 * The anchors: what the same work costs elsewhere. GObject's reference count (atomic,
 * with toggle-ref and weak-ref checks) and object creation; a bare C11 atomic count,
 * each step a function call as kobject_get() and kobject_put() are in the kernel.
 */
#include <glib-object.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tools/bench/bench.h"

double anchor_gobject_pair(void *arg)
{
	size_t n = *(size_t *)arg;
	GObject *o = g_object_new(G_TYPE_OBJECT, NULL);
	double t0 = bench_now();
	for (size_t i = 0; i < n; i++) {
		g_object_ref(o);
		g_object_unref(o);
	}
	double t = bench_now() - t0;
	g_object_unref(o);
	return t / (double)n;
}

struct counted {
	atomic_int refs;
	int released;
};

/* As kref_get() inside kobject_get(): one relaxed increment. */
__attribute__((noinline)) static struct counted *get(struct counted *c)
{
	atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
	return c;
}

/* As kref_put(): the release runs when the count drops to zero. */
__attribute__((noinline)) static void put(struct counted *c)
{
	if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_release) == 1) {
		atomic_thread_fence(memory_order_acquire);
		c->released++;
	}
}

double anchor_atomic_pair(void *arg)
{
	size_t n = *(size_t *)arg;
	struct counted c = { 1, 0 };
	double t0 = bench_now();
	for (size_t i = 0; i < n; i++)
		put(get(&c));
	double t = bench_now() - t0;
	if (c.released) /* never: the count stays at 1 */
		abort();
	return t / (double)n;
}

/* The floor of work that keeps what it records: @bytes per op written to memory the
 * process never used, allocated in chunks as the log allocates its own. */
double anchor_new_memory(void *arg)
{
	enum { CHUNK = 256 * 1024 };
	const struct new_memory *m = arg;
	size_t n = m->n, bytes = m->bytes, nchunks = n * bytes / CHUNK + 1;
	char **chunks = calloc(nchunks, sizeof(*chunks));
	if (!chunks || !bytes || bytes > CHUNK)
		abort();
	double t0 = bench_now();
	for (size_t i = 0, at = 0; i < n; i++) {
		for (size_t left = bytes; left;) {
			size_t k = at / CHUNK, room = CHUNK - at % CHUNK;
			size_t len = left < room ? left : room;
			if (!chunks[k] && !(chunks[k] = malloc(CHUNK)))
				abort();
			memset(chunks[k] + at % CHUNK, (int)i, len);
			at += len;
			left -= len;
		}
	}
	double t = bench_now() - t0;
	for (size_t i = 0; i < nchunks; i++)
		free(chunks[i]);
	free(chunks);
	return t / (double)n;
}

/* Makes @n objects, timing only the making; Return: seconds, heap bytes in *@bytes. */
static double make_objects(size_t n, double *bytes)
{
	GObject **objs = malloc(n * sizeof(*objs));
	if (!objs)
		abort();
	double heap = bench_heap(), t0 = bench_now();
	for (size_t i = 0; i < n; i++)
		objs[i] = g_object_new(G_TYPE_OBJECT, NULL);
	double t = bench_now() - t0;
	*bytes = (bench_heap() - heap) / (double)n;
	for (size_t i = 0; i < n; i++)
		g_object_unref(objs[i]);
	free(objs);
	return t;
}

double anchor_gobject_new(void *arg)
{
	double bytes;
	return make_objects(*(size_t *)arg, &bytes);
}

double anchor_gobject_bytes(void *arg)
{
	double bytes;
	make_objects(*(size_t *)arg, &bytes);
	return bytes;
}
