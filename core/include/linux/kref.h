/*
 * <linux/kref.h>: struct kref and kref_*() come with the sandbox (core/kref.h). One
 * difference is hidden here: the world, not the kobject, keeps a kobject's count, so
 * kref_read(&kobj->kref) on a kobject's kref asks the world, and on any other kref reads
 * it as the kernel does.
 */
#ifndef KOBJ_LINUX_KREF_H
#define KOBJ_LINUX_KREF_H

#include "core/kobject.h"

static inline unsigned int kobj_linux_kref_read(const struct kref *kref)
{
	const struct kobject *kobj = container_of(kref, struct kobject, kref);
	const struct kobj_record *r = kobj_record_of(kobj_world_current(), kobj);

	if (r && r->ptr == kobj && r->kind != KOBJ_KIND_MODULE)
		return (unsigned int)r->refcount;
	return (kref_read)(kref);
}

#define kref_read(kref) kobj_linux_kref_read(kref)

#endif
