/*
 * ref_tracker (lib/ref_tracker.c): a tracker per reference, allocated next to each get and
 * freed next to its put, so that a leak names the place that took it and a second put
 * through the same reference is caught while other holders keep the count up.
 *
 * The kernel API as written. The trackers themselves live in the world, never in memory
 * the caller can free: a tracker freed twice, or after its directory's exit, is reported
 * from the world's record of it. A tracker allocated right after a get in the same
 * function carries that reference: its free makes the next put on that object drop that
 * reference, as a Lua reference handle does.
 */
#ifndef KOBJ_REF_TRACKER_H
#define KOBJ_REF_TRACKER_H

#include <stdbool.h>

#include "core/model/kref.h"
#include "core/model/slab.h"

struct ref_tracker; /* the world's; only ever pointed at */

struct ref_tracker_dir {
	unsigned int quarantine_avail;
	refcount_t untracked;  /* 1 + allocations that failed and were not freed */
	refcount_t no_tracker; /* 1 + allocations asked with no tracker, not freed */
	bool dead;             /* ref_tracker_dir_exit() ran */
	char name[32];
	unsigned int kobj_dir; /* the world's number for this directory (0: none) */
};

/* Linux 6.4 gave directories a name; 6.1's init took two arguments. Both compile. */
void kobj_ref_tracker_dir_init(struct ref_tracker_dir *dir, unsigned int quarantine_count,
			       const char *name);
/* Prints the live trackers, grouped by the place that allocated them, at most
 * @display_limit groups (messages "has %d/%d users at" and "skipped reports"). */
void ref_tracker_dir_print(struct ref_tracker_dir *dir, unsigned int display_limit);
/* Frees the quarantine; live trackers are printed as leaks, freed, and warned about. */
void ref_tracker_dir_exit(struct ref_tracker_dir *dir);
/* Return: 0; -ENOMEM if the tracker could not be allocated (*@trackerp is NULL then). */
int ref_tracker_alloc(struct ref_tracker_dir *dir, struct ref_tracker **trackerp, gfp_t gfp);
/* Return: 0; -EEXIST for a tracker whose allocation failed; -EINVAL for one already freed
 * ("reference already released"). */
int ref_tracker_free(struct ref_tracker_dir *dir, struct ref_tracker **trackerp);

#define kobj_rt_init_(dir, q, name, ...) kobj_ref_tracker_dir_init(dir, q, name)
#define ref_tracker_dir_init(...) KOBJ_CALL(kobj_rt_init_(__VA_ARGS__, "", ""))
#define ref_tracker_dir_print(d, n) KOBJ_CALL((ref_tracker_dir_print)(d, n))
#define ref_tracker_dir_exit(d)     KOBJ_CALL((ref_tracker_dir_exit)(d))
#define ref_tracker_alloc(d, t, g)  KOBJ_CALL((ref_tracker_alloc)(d, t, g))
#define ref_tracker_free(d, t)      KOBJ_CALL((ref_tracker_free)(d, t))

#endif
