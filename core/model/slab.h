/* kmalloc and friends, so code written like the kernel's compiles as written. */
#ifndef KOBJ_SLAB_H
#define KOBJ_SLAB_H

#include <stddef.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL 0x0cc0u

/* kmalloc() - Return: memory, or NULL when the world's fault injection says so. */
void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void kfree(const void *p);

#endif
