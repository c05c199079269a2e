/*
 * Which reference a C put drops: an open get taken in the same function first, then one
 * taken in the same file, then the creator's, then the newest.
 */
#include "tests/core/fixture.h"

static struct my_object *obj;

/* The references outstanding on obj, as "kind@function" oldest first. */
static const char *refs_text(void **state)
{
	static char text[512];
	struct kobj_ref refs[8];
	size_t n = kobj_refs_of(*state, kobj_record_of(*state, &obj->kobj)->id, refs, 8);
	text[0] = '\0';
	for (size_t i = 0; i < n && i < 8; i++) {
		struct kobj_origin o = site(*state, refs[i].site);
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s@%s",
			 i ? " " : "", kobj_ref_kind_name(refs[i].kind), o.func);
	}
	return text;
}

static void probe(void)
{
	kobject_get(&obj->kobj);
}

static void open_file(void)
{
	kobject_get(&obj->kobj);
}

static void close_file(void)
{
	kobject_get(&obj->kobj); /* a get and its put in one function */
	kobject_put(&obj->kobj);
}

/* A put from another file: its site is noted by hand, as KOBJ_CALL would there. */
static void put_from_another_file(void **state)
{
	kobj_note_site_id(kobj_site(*state, "drivers/other.c", 12, "other_remove"));
	(kobject_put)(&obj->kobj);
}

static void make(void)
{
	obj = new_object("dev");
	kobject_init(&obj->kobj, &my_ktype);
}

static void a_put_drops_a_get_of_its_own_function_first(void **state)
{
	make();
	probe();
	open_file();
	close_file();
	assert_string_equal(refs_text(state), "creator@make get@probe get@open_file");
	for (int i = 0; i < 3; i++)
		kobject_put(&obj->kobj);
	assert_int_equal(released, 1);
}

static void then_a_get_of_its_own_file_then_the_creators(void **state)
{
	make();
	probe();
	probe();
	open_file();
	/* this function took none: the newest taken in this file */
	kobject_put(&obj->kobj);
	assert_string_equal(refs_text(state), "creator@make get@probe get@probe");
	/* from another file: the creator's */
	put_from_another_file(state);
	assert_string_equal(refs_text(state), "get@probe get@probe");
	const struct kobj_event *ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_false(ev->chosen);
	/* two alike, neither of that file: the newest, and the log says it chose */
	put_from_another_file(state);
	ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(ev->kind, KOBJ_EV_PUT);
	assert_true(ev->chosen);
	put_from_another_file(state);
	assert_int_equal(released, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(a_put_drops_a_get_of_its_own_function_first),
		TEST(then_a_get_of_its_own_file_then_the_creators),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
