/* Pictures: DOT text compared with golden files, and rendering through graphviz. */
#include <errno.h>
#include <unistd.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "tests/core/fixture.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, out);
	fclose(out);
	fclose(f);
	return text;
}

/* Compares with tests/core/golden/<name>; KOBJ_GOLDEN_DIR=dir rewrites the file there. */
static void assert_golden(const char *name, const char *text)
{
	char path[512];
	const char *update = getenv("KOBJ_GOLDEN_DIR");
	if (update) {
		snprintf(path, sizeof(path), "%s/%s", update, name);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "tests/core/golden/%s", name);
	char *want = slurp(path);
	assert_string_equal(text, want);
	free(want);
}

static decl_subsys(bus, &my_ktype, NULL);

struct article {
	struct my_object *a, *b, *port;
};

/* The article's picture: a subsystem, a kset in it, members, a child, a mistake. */
static struct article build_article_world(struct kset *drivers)
{
	kobj_world_name_ktype(kobj_world_current(), &my_ktype, "my_ktype");
	subsystem_register(&bus_subsys);
	kobject_set_name(&drivers->kobj, "drivers");
	drivers->subsys = &bus_subsys;
	drivers->ktype = &my_ktype;
	kset_register(drivers);
	struct my_object *a = new_object("e1000"), *b = new_object("tg3");
	struct my_object *port = new_object("port0"), *gone = new_object("gone");
	a->kobj.kset = b->kobj.kset = drivers;
	kobject_register(&a->kobj);
	kobject_register(&b->kobj);
	port->kobj.parent = &a->kobj;
	kobject_register(&port->kobj);
	kobject_init(&gone->kobj);
	kobject_put(&gone->kobj);
	kobject_put(&gone->kobj); /* a double put: drawn with a red border */
	kobject_del(&b->kobj);    /* deleted, still referenced */
	return (struct article){ a, b, port };
}

static void teardown_article_world(struct article *w, struct kset *drivers)
{
	kobject_unregister(&w->port->kobj);
	kobject_unregister(&w->a->kobj);
	kobject_put(&w->b->kobj);
	kset_unregister(drivers);
	subsystem_unregister(&bus_subsys);
	assert_int_equal(kobj_leak_count(kobj_world_current()), 0);
}

static char *dot_text(void **state, const struct kobj_dot_options *o)
{
	char *text = NULL;
	CAPTURE(text, assert_int_equal(kobj_dot(*state, o, out), 0));
	return text;
}

static void article_world_matches_golden(void **state)
{
	static struct kset drivers;
	memset(&drivers, 0, sizeof(drivers));
	struct article world = build_article_world(&drivers);
	struct kobj_dot_options o = { .legend = true };
	char *text = dot_text(state, &o);
	assert_golden("article.dot", text);
	free(text);
	teardown_article_world(&world, &drivers);
}

static void subtree_and_exit_view_match_golden(void **state)
{
	static struct kset drivers;
	memset(&drivers, 0, sizeof(drivers));
	struct article world = build_article_world(&drivers);
	struct kobj_dot_options o = { .path = "/sys/bus/drivers", .at_exit = true };
	char *text = dot_text(state, &o);
	assert_golden("drivers-at-exit.dot", text);
	/* the subtree leaves out the subsystem above it and the unrelated object */
	assert_null(strstr(text, "\"bus\\n"));
	assert_null(strstr(text, "gone"));
	free(text);
	teardown_article_world(&world, &drivers);
}

static void missing_subtree_is_an_error(void **state)
{
	struct kobj_dot_options o = { .path = "/sys/nothing" };
	FILE *out = fopen("/dev/null", "w");
	assert_int_equal(kobj_dot(*state, &o, out), -ENOENT);
	fclose(out);
}

static void same_world_same_text(void **state)
{
	struct my_object *a = new_object("a");
	kobject_register(&a->kobj);
	char *one = dot_text(state, NULL), *two = dot_text(state, NULL);
	assert_string_equal(one, two);
	assert_non_null(strstr(one, "ktype 1")); /* unnamed ktypes are numbered */
	free(one);
	free(two);
	kobject_unregister(&a->kobj);
}

static void states_have_their_own_colours(void **state)
{
	struct kobj_record r = { 0 };
	assert_int_equal(kobj_record_state(&r, false), KOBJ_STATE_INITIALIZED);
	assert_int_equal(kobj_record_state(&r, true), KOBJ_STATE_LEAKED);
	r.in_sysfs = r.was_added = true;
	assert_int_equal(kobj_record_state(&r, false), KOBJ_STATE_IN_SYSFS);
	r.in_sysfs = false;
	assert_int_equal(kobj_record_state(&r, false), KOBJ_STATE_DELETED);
	r.released = true;
	assert_int_equal(kobj_record_state(&r, true), KOBJ_STATE_RELEASED);
	r.no_release = true;
	assert_int_equal(kobj_record_state(&r, false), KOBJ_STATE_LEAKED);
	assert_string_equal(kobj_state_name(KOBJ_STATE_DELETED), "deleted");
}

static char *temp_path(const char *ext)
{
	static char path[512];
	const char *dir = getenv("TEST_TMPDIR");
	snprintf(path, sizeof(path), "%s/picture.%s", dir ? dir : "/tmp", ext);
	return path;
}

static void renders_svg_and_png(void **state)
{
	if (access("/usr/bin/dot", X_OK) != 0)
		skip();
	struct my_object *a = new_object("a");
	kobject_register(&a->kobj);
	char *text = dot_text(state, NULL), err[256] = "";
	assert_int_equal(kobj_render(text, temp_path("svg"), err, sizeof(err)), 0);
	char *svg = slurp(temp_path("svg"));
	assert_non_null(strstr(svg, "<svg"));
	assert_non_null(strstr(svg, ">a</text>"));
	free(svg);
	assert_int_equal(kobj_render(text, temp_path("png"), err, sizeof(err)), 0);
	FILE *f = fopen(temp_path("png"), "rb");
	unsigned char magic[4] = { 0 };
	assert_int_equal(fread(magic, 1, 4, f), 4);
	fclose(f);
	assert_memory_equal(magic, "\x89PNG", 4);
	free(text);
	kobject_unregister(&a->kobj);
}

static void render_explains_failures(void **state)
{
	char err[256] = "";
	assert_int_equal(kobj_render("digraph {}", temp_path("gif"), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown picture format"));
	char *old = strdup(getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(kobj_render("digraph {}", temp_path("svg"), err, sizeof(err)), -1);
	setenv("PATH", old, 1);
	free(old);
	assert_non_null(strstr(err, "graphviz's dot was not found"));
	assert_int_equal(kobj_render("digraph {}", temp_path("dot"), err, sizeof(err)), 0);
	(void)state;
}

static void tree_shows_ktypes_marks_and_colour(void **state)
{
	kobj_world_name_ktype(*state, &my_ktype, "my_ktype");
	struct my_object *a = new_object("a");
	kobject_register(&a->kobj);
	kobject_init(&a->kobj); /* init twice: a diagnostic names it */
	char *plain = NULL, *colour = NULL;
	CAPTURE(plain, sysfs_print_tree(*state, "/sys", out));
	assert_string_equal(plain, "/sys\n└── a  [refcount 2, my_ktype] !\n");
	static const struct kobj_tree_style style = {
		.object = "\033[32m", .kset = "\033[1m", .file = "\033[2m", .mark = "\033[1;31m",
		.faded = "\033[2m", .end = "\033[0m",
	};
	const struct kobj_tree_options o = { .style = &style };
	CAPTURE(colour, kobj_print_tree(*state, "/sys", &o, out));
	assert_string_equal(colour, "/sys\n└── \033[32ma\033[0m  [refcount 2, my_ktype]"
				    "\033[1;31m !\033[0m\n");
	free(plain);
	free(colour);
	kobject_unregister(&a->kobj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(article_world_matches_golden),
		TEST(subtree_and_exit_view_match_golden),
		TEST(missing_subtree_is_an_error),
		TEST(same_world_same_text),
		TEST(states_have_their_own_colours),
		TEST(renders_svg_and_png),
		TEST(render_explains_failures),
		TEST(tree_shows_ktypes_marks_and_colour),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
