/* kmalloc on the C heap, failing when the current world injects a fault. */
#include <stdlib.h>
#include <string.h>

#include "core/modern_internal.h"

void *kmalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return kobj_kmalloc(kobj_world_current(), size);
}

void *kzalloc(size_t size, gfp_t flags)
{
	void *p = kmalloc(size, flags);
	return p ? memset(p, 0, size) : NULL;
}

/* Watched while releases are delayed: freeing a kobject yourself is the bug
 * DEBUG_KOBJECT_RELEASE exposes (debug.c). */
void (kfree)(const void *p)
{
	kobj_debug_kfree(p);
	free((void *)p);
}
