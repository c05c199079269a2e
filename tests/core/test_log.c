/* The event log and the leak report. */
#include <errno.h>

#include "tests/core/fixture.h"

static void events_record_counts_and_origins(void **state)
{
	struct my_object *o = new_object("ev");
	kobject_init(&o->kobj);
	int line = __LINE__ + 1;
	kobject_get(&o->kobj);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);

	assert_int_equal(kobj_log_count(*state), 5);
	const struct kobj_event *ev = event_at(*state, 1);
	assert_int_equal(ev->kind, KOBJ_EV_GET);
	assert_string_equal(ev->op, "kobject_get");
	assert_int_equal(ev->before, 1);
	assert_int_equal(ev->after, 2);
	assert_int_equal(ev->seq, 2);
	assert_int_equal(ev->origin.line, line);
	assert_non_null(strstr(ev->origin.file, "test_log.c"));
	assert_int_equal(event_at(*state, 0)->kind, KOBJ_EV_INIT);
	assert_int_equal(event_at(*state, 3)->kind, KOBJ_EV_PUT);
	assert_int_equal(event_at(*state, 3)->after, 0);
	assert_int_equal(event_at(*state, 4)->kind, KOBJ_EV_RELEASE);
	assert_null(event_at(*state, 5));
}

static void add_records_who_holds_what(void **state)
{
	struct my_object *parent = new_object("parent"), *child = new_object("child");
	kobject_register(&parent->kobj);
	child->kobj.parent = &parent->kobj;
	kobject_register(&child->kobj);
	size_t n = kobj_log_count(*state);
	/* init, get self, get parent, add, for the child */
	const struct kobj_event *self = event_at(*state, n - 3);
	const struct kobj_event *par = event_at(*state, n - 2);
	assert_int_equal(self->kind, KOBJ_EV_GET);
	assert_int_equal(self->obj, 2);
	assert_int_equal(self->holder, 2);
	assert_string_equal(self->op, "kobject_register");
	assert_int_equal(par->obj, 1);
	assert_int_equal(par->holder, 2);
	assert_int_equal(event_at(*state, n - 1)->kind, KOBJ_EV_ADD);
	assert_int_equal(kobj_record_by_id(*state, 2)->parent, 1);
	kobject_unregister(&child->kobj);
	kobject_unregister(&parent->kobj);
}

static void log_prints_one_line_per_event(void **state)
{
	struct my_object *o = new_object("line");
	kobj_note_origin("demo.c", 10);
	(kobject_init)(&o->kobj);
	kobj_note_origin("demo.c", 11);
	(kobject_put)(&o->kobj);
	char *text = NULL;
	CAPTURE(text, kobj_log_print(*state, 0, out));
	assert_string_equal(text,
		"    1  demo.c:10                kobject_init         'line'  init 0 -> 1 [creator]\n"
		"    2  demo.c:11                kobject_put          -1 'line' 1 -> 0 [creator]\n"
		"    3  demo.c:11                release              'line'  release 0 -> 0\n");
	free(text);
	CAPTURE(text, kobj_log_print(*state, 1, out));
	assert_non_null(strstr(text, "    3  demo.c:11"));
	assert_null(strstr(text, "    2  "));
	free(text);
}

static void no_leaks_when_all_released(void **state)
{
	struct my_object *o = new_object("tidy");
	kobject_register(&o->kobj);
	kobject_unregister(&o->kobj);
	char *text = NULL;
	size_t n;
	CAPTURE(text, n = kobj_leak_report(*state, out));
	assert_int_equal(n, 0);
	assert_string_equal(text, "No leaks: every object was released.\n");
	free(text);
}

/* A script's put gives back the creator's reference first: the gets are what leaked. */
static void leak_report_names_unmatched_references(void **state)
{
	struct my_object *o = new_object("leaky");
	kobj_note_origin("lesson.lua", 3);
	(kobject_init)(&o->kobj);
	kobj_note_origin("lesson.lua", 4);
	(kobject_get)(&o->kobj);
	kobj_note_origin("lesson.lua", 5);
	(kobject_get)(&o->kobj);
	kobj_note_origin("lesson.lua", 6);
	(kobject_put)(&o->kobj);

	char *text = NULL, p[17];
	size_t n;
	CAPTURE(text, n = kobj_leak_report(*state, out));
	assert_int_equal(n, 1);
	assert_int_equal(kobj_leak_count(*state), 1);
	char expected[512];
	snprintf(expected, sizeof(expected),
		 "Not released:\n"
		 "  'leaky' (%s) refcount 2, initialised at lesson.lua:3\n"
		 "    get, taken at lesson.lua:4 by kobject_get, never put\n"
		 "    get, taken at lesson.lua:5 by kobject_get, never put\n",
		 kobj_fake_pointer(1, p));
	assert_string_equal(text, expected);
	free(text);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void leak_report_explains_internal_holders(void **state)
{
	struct my_object *parent = new_object("kept"), *child = new_object("leaker");
	kobject_register(&parent->kobj);
	child->kobj.parent = &parent->kobj;
	kobject_register(&child->kobj);
	kobject_unregister(&parent->kobj); /* the child still holds it */
	kobject_del(&child->kobj);         /* but never the final put */

	char *text = NULL;
	CAPTURE(text, kobj_leak_report(*state, out));
	assert_non_null(strstr(text, "'kept' ("));
	assert_non_null(strstr(text, "parent of 'leaker', taken at "));
	assert_non_null(strstr(text, "by kobject_register, held by 'leaker', which is not "
				     "released either"));
	assert_non_null(strstr(text, "'leaker' ("));
	assert_null(strstr(text, "its sysfs registration")); /* del dropped that one */
	free(text);
	kobject_put(&child->kobj);
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(released, 2);
}

static void leak_report_matches_puts_to_their_holders(void **state)
{
	struct my_object *o = new_object("reg");
	kobject_register(&o->kobj);
	kobject_put(&o->kobj); /* drops the creator's, not the sysfs one */
	char *text = NULL;
	CAPTURE(text, kobj_leak_report(*state, out));
	assert_non_null(strstr(text, "its sysfs registration, taken at "));
	assert_non_null(strstr(text, "(kobject_del() drops it), never deleted"));
	assert_null(strstr(text, "never put"));
	free(text);
	kobject_del(&o->kobj);
}

static void fake_pointers_are_stable_and_distinct(void **state)
{
	char a[17], b[17];
	assert_string_equal(kobj_fake_pointer(1, a), kobj_fake_pointer(1, b));
	assert_string_not_equal(kobj_fake_pointer(1, a), kobj_fake_pointer(2, b));
	assert_int_equal(strlen(a), 16);
	assert_memory_equal(a, "00000000", 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(events_record_counts_and_origins),
		TEST(add_records_who_holds_what),
		TEST(log_prints_one_line_per_event),
		TEST(no_leaks_when_all_released),
		TEST(leak_report_names_unmatched_references),
		TEST(leak_report_explains_internal_holders),
		TEST(leak_report_matches_puts_to_their_holders),
		TEST(fake_pointers_are_stable_and_distinct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
