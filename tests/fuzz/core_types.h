/* What the fuzzer's operations and callbacks share: the types of the pool's objects. */
#ifndef KOBJ_FUZZ_CORE_TYPES_H
#define KOBJ_FUZZ_CORE_TYPES_H

#include "core/model/kobject.h"

#define FZ_ATTRS 4
#define FZ_GROUPS 4
#define FZ_KTYPES 4

/* A structure that embeds a kobject, as drivers' structures do. */
struct fz_thing {
	unsigned long stuff;
	struct kobject kobj;
};

extern struct kobj_attribute fz_kattrs[FZ_ATTRS];
extern const struct attribute_group fz_groups[FZ_GROUPS];
/* Things' ktypes: the last one has no release(). */
extern const struct kobj_type fz_ktypes[FZ_KTYPES];
extern const struct kobj_type fz_kset_ktype;
extern struct kset_hotplug_ops fz_hotplug_ops;
extern const struct kset_uevent_ops fz_uevent_ops;

/* Asks the input what a callback does to @kobj; @who names the callback in traces. */
void fz_hostile(struct kobject *kobj, const char *who);

/* Memory the run made: noted when made, marked when freed (its bytes kept to compare). */
unsigned fz_block_new(void *mem, size_t size, struct kobject *kobj, enum fz_kind kind,
		      bool core);
void fz_block_freed(const void *mem);

#endif
