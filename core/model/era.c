/*
 * The two eras as data. Each object keeps the rules of the call that initialised it; the
 * lifecycle (lifecycle.c) is written once and asks these tables where the eras differ.
 *
 * 2.6.0 (the article): a get of a count of 0 fails, as the article says (the code of the
 * time warned and went on); add takes a reference on the object itself for its sysfs
 * registration, which del drops; the parent and kset references go only at release; a
 * kset may give its members their ktype; add and del call the kset's hotplug_ops; the
 * subsystem's rwsem guards kset lists; nothing is traced (2.6.0 compiled pr_debug out).
 *
 * Today (Linux 6.1, whose messages are quoted): counts are refcount_t; add takes the
 * parent and kset references and del drops them; the last put cleans up by itself, now
 * or after a delay with DEBUG_KOBJECT_RELEASE; uevents are sent by the caller;
 * kset_find_obj() returns a reference; pr_debug lines follow DEBUG_KOBJECT.
 */
#include "core/model/model_internal.h"

const struct kobj_era_rules kobj_era_2_6_0 = {
	.id = KOBJ_ERA_2_6_0,
	.name = "2.6.0",
	.get_zero_fails = true,
	.add_takes_sysfs_ref = true,
	.add_sends_hotplug = true,
	.kset_gives_ktype = true,
	.locks_subsystem = true,
};

const struct kobj_era_rules kobj_era_today = {
	.id = KOBJ_ERA_TODAY,
	.name = "6.1",
	.refcount_t = true,
	.del_drops_holds = true,
	.find_takes_ref = true,
	.traces = true,
	.may_delay_release = true,
	.unchecked_init = true,
};
