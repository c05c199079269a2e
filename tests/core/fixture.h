/*
 * Shared by the core tests: a fresh world per test, and a structure embedding a kobject
 * whose release frees it and counts, as the article's my_object does.
 */
#ifndef TESTS_CORE_FIXTURE_H
#define TESTS_CORE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/model/kobject.h"
#include "core/report/report.h"

struct my_object {
	struct kobject kobj;
	int value;
};

static int released;

/* Freed with kfree(), as kernel code does: the sandbox keeps freed memory a while in
 * quarantine, so a test's late put through a stale pointer is reported, not undefined. */
static inline void my_object_release(struct kobject *kobj)
{
	struct my_object *mine = container_of(kobj, struct my_object, kobj);
	released++;
	kfree(mine);
}

static struct kobj_type my_ktype = { .release = my_object_release };

/* A zeroed my_object with the given name, not yet initialised. */
static inline struct my_object *new_object(const char *name)
{
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);
	o->kobj.ktype = &my_ktype;
	if (name)
		kobject_set_name(&o->kobj, "%s", name);
	return o;
}

static inline int world_setup(void **state)
{
	struct kobj_world *w = kobj_world_new();
	kobj_world_use(w);
	released = 0;
	*state = w;
	return 0;
}

static inline int world_teardown(void **state)
{
	kobj_world_free(*state);
	return 0;
}

/* The last diagnostic, or NULL. */
static inline const struct kobj_diag *last_diag(void **state)
{
	size_t n = kobj_diag_count(*state);
	return n ? kobj_diag_at(*state, n - 1) : NULL;
}

/* The last diagnostic's tag and message; fails the test when there is none. */
#define assert_last_diag(state, tag, text)                                       \
	do {                                                                     \
		const struct kobj_diag *d_ = last_diag(state);                   \
		assert_non_null(d_);                                             \
		assert_string_equal(kobj_diag_tag(d_->kind), (tag));             \
		assert_non_null(strstr(d_->message, (text)));                    \
	} while (0)

/* Reads everything a printer wrote into a malloc'd string. */
#define CAPTURE(buf, call)                                                       \
	do {                                                                     \
		size_t len_;                                                     \
		FILE *out = open_memstream(&(buf), &len_);                       \
		call;                                                            \
		fclose(out);                                                     \
	} while (0)

#define TEST(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

/* Event @i (0-based) of the log, read into one of a few slots, so that a test can hold
 * several at once; NULL past the end. */
static inline const struct kobj_event *event_at(const struct kobj_world *w, size_t i)
{
	static struct kobj_event slots[8];
	static unsigned next;
	struct kobj_event *ev = &slots[next++ % 8];
	return kobj_log_read(w, i, ev) ? ev : NULL;
}

/* The place a site id stands for. */
static inline struct kobj_origin site(const void *w, unsigned id)
{
	return kobj_site_origin(w, id);
}

#endif
