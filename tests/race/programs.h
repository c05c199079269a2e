/*
 * Small programs for the race explorer, written against the kernel-named API as kernel
 * code is: a kset with one member, and threads that look the member up while another
 * drops the last reference to it. Each run gets a fresh world.
 */
#ifndef TESTS_RACE_PROGRAMS_H
#define TESTS_RACE_PROGRAMS_H

#include <stdlib.h>
#include <string.h>

#include "core/model/kobject.h"
#include "core/race/race.h"

struct thing {
	struct kobject kobj;
	int value;
};

static inline void thing_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct thing, kobj));
}

static struct kobj_type thing_ktype = { .release = thing_release };

/* The world of one run: a kset (today's or 2.6.0's) and a member named "thing". */
struct scene {
	struct kobj_world *w;
	struct kset *kset;         /* today's: kset_create_and_add */
	struct subsystem subsys;   /* 2.6.0's: the kset of a subsystem */
	struct thing *thing;
	const struct kobj_type *ktype; /* the member's (NULL: thing_ktype) */
	bool old;                  /* 2.6.0 objects */
	size_t diags;              /* diagnostics the setup made */
	void (*threads[4])(struct scene *s);
	int runs;                  /* setups so far */
	bool vary;                 /* every other run names the member "other" */
};

static inline int scene_setup(void *ctx, char *err, size_t size)
{
	struct scene *s = ctx;
	(void)err;
	(void)size;
	s->w = kobj_world_new();
	kobj_world_use(s->w);
	s->thing = kzalloc(sizeof(*s->thing), GFP_KERNEL);
	if (s->old) {
		memset(&s->subsys, 0, sizeof(s->subsys));
		strcpy(s->subsys.kset.kobj.name, "things");
		subsystem_register(&s->subsys);
		s->kset = &s->subsys.kset;
		s->thing->kobj.ktype = &thing_ktype;
		s->thing->kobj.kset = s->kset;
		kobject_set_name(&s->thing->kobj, "thing");
		kobject_register(&s->thing->kobj);
	} else {
		s->kset = kset_create_and_add("things", NULL, NULL);
		s->thing->kobj.kset = s->kset;
		kobject_init_and_add(&s->thing->kobj, s->ktype ? s->ktype : &thing_ktype, NULL, "%s",
				     s->vary && s->runs % 2 ? "other" : "thing");
	}
	s->runs++;
	s->diags = kobj_diag_count(s->w);
	return 0;
}

static inline void scene_thread(void *ctx, unsigned t)
{
	struct scene *s = ctx;
	s->threads[t - 1](s);
}

/* The kset goes; then whatever went wrong since the setup, or leaks. */
static inline char *scene_verdict(void *ctx, const struct kobj_race_run *run)
{
	struct scene *s = ctx;
	(void)run;
	if (s->old)
		subsystem_unregister(&s->subsys);
	else
		kset_unregister(s->kset);
	return kobj_race_world_verdict(s->diags, false, NULL);
}

static inline void scene_finish(void *ctx)
{
	struct scene *s = ctx;
	kobj_world_free(s->w);
	s->w = NULL;
}

static inline struct kobj_race_program scene_program(struct scene *s, unsigned nthreads)
{
	return (struct kobj_race_program){ .nthreads = nthreads, .setup = scene_setup,
					   .thread = scene_thread, .verdict = scene_verdict,
					   .finish = scene_finish, .ctx = s };
}

/* ============================================================================ threads */

/* Looks the member up under the kset's lock, and takes the reference after unlocking:
 * the shape kset_find_obj had before 2013. */
static inline void lookup_then_get(struct scene *s)
{
	struct kobject *found = NULL;
	struct list_head *pos;

	spin_lock(&s->kset->list_lock);
	list_for_each(pos, &s->kset->list) {
		struct kobject *k = list_entry(pos, struct kobject, entry);
		if (strcmp(kobject_name(k), "thing") == 0) {
			found = k;
			break;
		}
	}
	spin_unlock(&s->kset->list_lock);
	if (found && kobject_get(found))
		kobject_put(found);
}

/* Today's kset_find_obj: the reference taken under the lock with get_unless_zero. */
static inline void find_obj(struct scene *s)
{
	struct kobject *found = kset_find_obj(s->kset, "thing");
	if (found)
		kobject_put(found);
}

/* 2.6.0's kset_find_obj returns no reference: the caller takes one, too late. */
static inline void find_obj_then_get(struct scene *s)
{
	struct kobject *found = kset_find_obj(s->kset, "thing");
	if (found && kobject_get(found))
		kobject_put(found);
}

/* The owner drops the creator's reference: the last one, unless a lookup holds one. */
static inline void last_put(struct scene *s)
{
	kobject_put(&s->thing->kobj);
}

/* 2.6.0's owner: kobject_unregister (del, then the creator's put). */
static inline void unregister(struct scene *s)
{
	kobject_unregister(&s->thing->kobj);
}

#endif
