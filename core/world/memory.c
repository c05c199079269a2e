/*
 * Memory the core allocates, counted so that a sandbox can cap it: the sandbox's own
 * bookkeeping (which cannot fail, as it is not part of the model) and the simulated
 * kernel's allocations (which fail as kmalloc does: under fault injection, or past the
 * cap).
 */
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world/world_internal.h"

static size_t in_use, peak, limit;

static void out_of_memory(void)
{
	fputs("kobject sandbox: out of memory\n", stderr);
	abort();
}

static void *counted(void *p)
{
	if (!p)
		return NULL;
	in_use += malloc_usable_size(p);
	if (in_use > peak)
		peak = in_use;
	return p;
}

size_t kobj_mem_in_use(void)
{
	return in_use;
}

size_t kobj_mem_peak(void)
{
	return peak;
}

void kobj_mem_set_limit(size_t bytes)
{
	limit = bytes;
}

bool kobj_mem_over_limit(void)
{
	return limit && in_use > limit;
}

void *kobj_xmalloc(size_t n)
{
	void *p = counted(malloc(n ? n : 1));
	if (!p)
		out_of_memory();
	return p;
}

void *kobj_xcalloc(size_t n, size_t size)
{
	void *p = counted(calloc(n ? n : 1, size ? size : 1));
	if (!p)
		out_of_memory();
	return p;
}

void *kobj_xrealloc(void *p, size_t n)
{
	size_t old = p ? malloc_usable_size(p) : 0;
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory();
	in_use -= old;
	return counted(q);
}

void kobj_xfree(void *p)
{
	if (!p)
		return;
	in_use -= malloc_usable_size(p);
	free(p);
}

char *kobj_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(kobj_xmalloc(n), s, n);
}

char *kobj_xvasprintf(const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		out_of_memory();
	char *s = kobj_xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *kobj_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = kobj_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void kobj_grow(void **array, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	*array = kobj_xrealloc(*array, n * elem);
	*cap = n;
}

void *kobj_kmalloc(struct kobj_world *w, size_t n)
{
	if (w->fail_alloc_in && --w->fail_alloc_in == 0)
		return NULL;
	if (limit && in_use + n > limit)
		return NULL;
	return counted(malloc(n ? n : 1));
}

void kobj_world_fail_alloc(struct kobj_world *w, unsigned nth)
{
	w->fail_alloc_in = nth;
}
