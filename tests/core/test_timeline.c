/* The timeline page: one frame per event, self-contained, positions computed once. */
#include <unistd.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "tests/core/fixture.h"

/* Not inlined: GCC 12 at -O2 then takes the stream's hold on &text for a dangling pointer. */
__attribute__((noinline)) static char *timeline(void **state, int *rc, char *err)
{
	char *text = NULL;
	CAPTURE(text, *rc = kobj_timeline_html(*state, "t<1>", out, err, 256));
	return text;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void one_frame_per_event(void **state)
{
	if (access("/usr/bin/dot", X_OK) != 0)
		skip();
	struct my_object *a = new_object("alpha"), *b = new_object("beta");
	kobject_register(&a->kobj);
	b->kobj.parent = &a->kobj;
	kobject_register(&b->kobj);
	kobject_unregister(&b->kobj);
	kobject_unregister(&a->kobj);
	kobject_put(&a->kobj); /* a diagnostic frame */

	int rc;
	char err[256];
	char *page = timeline(state, &rc, err);
	assert_int_equal(rc, 0);
	const char *frames = strstr(page, "frames: [");
	assert_non_null(frames);
	/* each frame starts a line with ["; nothing else in the data does */
	assert_int_equal(count(frames, "\n[\""), kobj_log_count(*state));
	assert_non_null(strstr(page, "[1,\"alpha\","));
	assert_non_null(strstr(page, "[2,\"beta\","));
	assert_non_null(strstr(page, "edges: [[2,1,0,["));              /* beta -> alpha */
	assert_non_null(strstr(page, "refcount_t: underflow; use-after-free."));
	assert_non_null(strstr(page, "title: \"t\\u003c1\\u003e\""));   /* escaped for <script> */
	assert_null(strstr(page, "<script src"));
	assert_null(strstr(page, "<link"));
	free(page);
}

static void edges_keep_their_own_style(void **state)
{
	if (access("/usr/bin/dot", X_OK) != 0)
		skip();
	static decl_subsys(bus, &my_ktype, NULL);
	struct kset drivers = { .subsys = &bus_subsys, .ktype = &my_ktype };
	struct my_object *a = new_object("a"), *b = new_object("b");
	subsystem_register(&bus_subsys);
	kobject_set_name(&drivers.kobj, "drivers");
	kset_register(&drivers);
	a->kobj.kset = b->kobj.kset = &drivers;
	kobject_register(&a->kobj);
	b->kobj.parent = &a->kobj; /* a member under another member */
	kobject_register(&b->kobj);

	int rc;
	char err[256];
	char *page = timeline(state, &rc, err);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(page, "[2,1,0,["));  /* drivers -> bus: solid */
	assert_non_null(strstr(page, "[3,2,0,["));  /* a -> drivers: solid */
	assert_non_null(strstr(page, "[4,3,0,["));  /* b -> a: the parent, solid */
	assert_non_null(strstr(page, "[4,2,1,["));  /* b -> drivers: its kset, dashed */
	free(page);
	kobject_unregister(&b->kobj);
	kobject_unregister(&a->kobj);
	kset_unregister(&drivers);
	subsystem_unregister(&bus_subsys);
}

static void missing_graphviz_is_explained(void **state)
{
	char *old = strdup(getenv("PATH"));
	setenv("PATH", "/nonexistent", 1);
	int rc;
	char err[256];
	char *page = timeline(state, &rc, err);
	setenv("PATH", old, 1);
	free(old);
	free(page);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "graphviz's dot was not found"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(one_frame_per_event),
		TEST(edges_keep_their_own_style),
		TEST(missing_graphviz_is_explained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
