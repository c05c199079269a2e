/* Pictures: DOT text compared with golden files, and rendering through graphviz. */
#include <errno.h>
#include <math.h>
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
	assert_null(strstr(text, "<b>bus<"));
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
	assert_non_null(strstr(one, "ktype 1 · refcount 2")); /* unnamed ktypes are numbered */
	free(one);
	free(two);
	kobject_unregister(&a->kobj);
}

static void states_follow_the_record(void **state)
{
	struct kobj_record r = { 0 };
	assert_int_equal(kobj_record_state(&r), KOBJ_STATE_INITIALIZED);
	r.in_sysfs = r.was_added = true;
	assert_int_equal(kobj_record_state(&r), KOBJ_STATE_IN_SYSFS);
	r.in_sysfs = false;
	assert_int_equal(kobj_record_state(&r), KOBJ_STATE_DELETED);
	r.release_pending = true;
	assert_int_equal(kobj_record_state(&r), KOBJ_STATE_PENDING);
	r.released = true;
	r.no_release = true; /* released all the same: the diagnostic says what was lost */
	assert_int_equal(kobj_record_state(&r), KOBJ_STATE_RELEASED);
	assert_string_equal(kobj_state_name(KOBJ_STATE_DELETED), "deleted, still held");
}

/* ---------------------------------------------------------------- legible for everyone */

static double channel(unsigned v)
{
	double c = v / 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static void linear_rgb(const char *hex, double rgb[3])
{
	unsigned r, g, b;
	assert_int_equal(sscanf(hex, "#%2x%2x%2x", &r, &g, &b), 3);
	rgb[0] = channel(r), rgb[1] = channel(g), rgb[2] = channel(b);
}

static double luminance(const char *hex)
{
	double v[3];
	linear_rgb(hex, v);
	return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

/* CIE L*a*b* of a linear RGB colour. */
static void lab(const double v[3], double out[3])
{
	double x = (0.4124 * v[0] + 0.3576 * v[1] + 0.1805 * v[2]) / 0.95047;
	double y = 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
	double z = (0.0193 * v[0] + 0.1192 * v[1] + 0.9505 * v[2]) / 1.08883;
	double f[3] = { x, y, z };
	for (int i = 0; i < 3; i++)
		f[i] = f[i] > 0.008856 ? cbrt(f[i]) : 7.787 * f[i] + 16.0 / 116;
	out[0] = 116 * f[1] - 16, out[1] = 500 * (f[0] - f[1]), out[2] = 200 * (f[1] - f[2]);
}

/* Text on every state's fill reaches WCAG AA (4.5:1), and the fills stay at least
 * 12 apart (CIE76) as people with protanopia, deuteranopia and tritanopia see them
 * (Machado, Oliveira and Fernandes, 2009, severity 1). */
static void palette_is_legible_and_colour_blind_safe(void **state)
{
	static const double seen[4][3][3] = {
		{ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
		{ { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 },
		  { -0.003882, -0.048116, 1.051998 } },
		{ { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 },
		  { -0.011820, 0.042940, 0.968881 } },
		{ { 1.255528, -0.076749, -0.178779 }, { -0.078411, 0.930809, 0.147602 },
		  { 0.004733, 0.691367, 0.303900 } },
	};
	const char *fill[KOBJ_STATE_COUNT], *ink;
	for (int st = 0; st < KOBJ_STATE_COUNT; st++) {
		kobj_state_colours(st, &fill[st], &ink);
		double a = luminance(fill[st]) + 0.05, b = luminance(ink) + 0.05;
		assert_true((a > b ? a / b : b / a) >= 4.5);
	}
	for (int m = 0; m < 4; m++)
		for (int i = 0; i < KOBJ_STATE_COUNT; i++)
			for (int j = i + 1; j < KOBJ_STATE_COUNT; j++) {
				if (strcmp(fill[i], fill[j]) == 0)
					continue; /* same fill, told apart by border and words */
				double v[2][3], l[2][3];
				for (int k = 0; k < 2; k++) {
					double c[3];
					linear_rgb(k ? fill[j] : fill[i], c);
					for (int r = 0; r < 3; r++)
						v[k][r] = fmin(1, fmax(0, seen[m][r][0] * c[0] +
									 seen[m][r][1] * c[1] +
									 seen[m][r][2] * c[2]));
					lab(v[k], l[k]);
				}
				double d = sqrt(pow(l[0][0] - l[1][0], 2) + pow(l[0][1] - l[1][1], 2) +
						pow(l[0][2] - l[1][2], 2));
				if (d < 12)
					print_error("%s and %s: %.1f apart (vision %d)\n", fill[i],
						    fill[j], d, m);
				assert_true(d >= 12);
			}
	(void)state;
}

/* Every state is said in words in its box, and the legend lists only what is drawn. */
static void state_in_words_and_a_legend_of_what_is_drawn(void **state)
{
	struct my_object *a = new_object("a"), *b = new_object("b");
	kobject_register(&a->kobj);
	kobject_init(&b->kobj);
	char *text = dot_text(state, NULL);
	assert_non_null(strstr(text, "<i>in sysfs</i>"));
	assert_non_null(strstr(text, "<i>initialised, not added</i>"));
	assert_non_null(strstr(text, ">in sysfs</td>"));          /* in the legend */
	assert_null(strstr(text, ">deleted from sysfs, still held</td>")); /* not drawn */
	assert_null(strstr(text, "leaked"));
	free(text);
	kobject_unregister(&a->kobj);
	kobject_put(&b->kobj);
}

/* ------------------------------------------------------------------- holders drawn */

/* A caller's get is a row with its line; a member's references are one edge, labelled. */
static void references_are_rows_and_edges(void **state)
{
	static struct kset drivers;
	memset(&drivers, 0, sizeof(drivers));
	struct article world = build_article_world(&drivers);
	struct my_object *port1 = new_object("port1");
	port1->kobj.parent = &world.a->kobj;
	port1->kobj.kset = &drivers;
	kobject_register(&port1->kobj);
	kobj_note_origin("script.lua", 42);
	(kobject_get)(&world.a->kobj); /* the function: its origin is the one noted */
	char *text = dot_text(state, NULL);
	assert_non_null(strstr(text, "creator, sysfs · test_dot.c:"));
	assert_non_null(strstr(text, "get · script.lua:42"));
	/* e1000 is drivers' member and child: one edge, both references */
	assert_non_null(strstr(text, "k2 -> k3 [dir=back, label=\"parent, kset\""));
	/* port1's parent is e1000, its kset drivers: two edges */
	assert_non_null(strstr(text, "k3 -> k7 [dir=back, label=\"parent\""));
	assert_non_null(strstr(text, "k2 -> k7 [dir=back, style=dashed, label=\"kset\""));
	free(text);
	kobj_note_origin("script.lua", 43);
	(kobject_put)(&world.a->kobj);
	kobject_unregister(&port1->kobj);
	teardown_article_world(&world, &drivers);
}

/* A released object is a ghost labelled with its id, its old edges faded, no arrow. */
static void ghosts_have_ids_and_faded_edges(void **state)
{
	static struct kset drivers;
	memset(&drivers, 0, sizeof(drivers));
	struct article world = build_article_world(&drivers);
	struct my_object *eth = new_object("eth0");
	eth->kobj.kset = &drivers;
	kobject_register(&eth->kobj);
	kobject_unregister(&eth->kobj);
	eth = new_object("eth0");
	eth->kobj.kset = &drivers;
	kobject_register(&eth->kobj);
	kobject_unregister(&eth->kobj);
	char *text = dot_text(state, NULL);
	assert_non_null(strstr(text, "<b>eth0</b></font> #7"));
	assert_non_null(strstr(text, "<b>eth0</b></font> #8"));
	assert_non_null(strstr(text, "k2 -> k8 [dir=none, style=dotted"));
	assert_null(strstr(text, "k2 -> k8 [dir=back"));
	free(text);
	teardown_article_world(&world, &drivers);
}

/* --------------------------------------------------------------------- the leak picture */

/* At exit the report decides: a caller's reference never put is a leak, with a note
 * naming its line; an object still in sysfs was never unregistered; one held only by a
 * leaked object is kept alive by it; /sys/kernel is never a leak. */
static void leak_picture_agrees_with_the_report(void **state)
{
	static decl_subsys(pci, &my_ktype, NULL);
	struct my_object *held = new_object(NULL), *child = new_object(NULL);
	struct my_object *left = new_object(NULL);
	kobj_note_origin("leak.lua", 1);
	subsystem_register(&pci_subsys);
	kobject_init_and_add(&held->kobj, &my_ktype, &pci_subsys.kset.kobj, "held");
	kobject_init_and_add(&child->kobj, &my_ktype, &held->kobj, "child");
	kobject_init_and_add(&left->kobj, &my_ktype, kernel_kobj, "left");
	kobj_note_origin("leak.lua", 7);
	(kobject_get)(&held->kobj);
	kobject_del(&held->kobj);
	kobject_put(&held->kobj); /* the creator's (C's rules): the get of line 7 keeps it */
	kobject_del(&child->kobj);
	kobject_put(&child->kobj); /* child goes; then: */
	kobject_put(&left->kobj);  /* left goes, /sys/kernel stays */
	struct kobj_dot_options o = { .at_exit = true, .legend = true };
	char *text = dot_text(state, &o);
	assert_golden("leak-at-exit.dot", text);
	assert_non_null(strstr(text, "class=\"kobject leaked\""));
	assert_non_null(strstr(text, "class=\"subsystem registered\""));
	assert_null(strstr(text, "<b>kernel</b></font> #"));
	assert_non_null(strstr(text, "class=\"note\""));
	assert_non_null(strstr(text, "<b>leak.lua:7</b><br/>kobject_get<br/><i>get, never put"));
	assert_non_null(strstr(text, "dynamic_kobj_ktype"));
	free(text);
	kobj_note_origin("leak.lua", 9);
	(kobject_put)(&held->kobj);
	subsystem_unregister(&pci_subsys);
}

static void kept_alive_objects_point_at_their_root(void **state)
{
	struct my_object *parent = new_object(NULL), *child = new_object(NULL);
	kobject_init_and_add(&parent->kobj, &my_ktype, NULL, "parent");
	kobject_init_and_add(&child->kobj, &my_ktype, &parent->kobj, "child");
	kobject_put(&parent->kobj); /* the parent's creator lets go; the child still holds it */
	struct kobj_dot_options o = { .at_exit = true };
	char *text = dot_text(state, &o);
	assert_non_null(strstr(text, "<i>kept alive by 'child', in sysfs</i>"));
	/* the edge from the leaked child to the parent it keeps is the chain, drawn in red */
	assert_non_null(strstr(text, "k1 -> k2 [dir=back, color=\"#c2410c\""));
	free(text);
	kobject_put(&child->kobj);
}

/* ----------------------------------------------------------------------- wide ksets */

static void wide_ksets_fold_in_creation_order(void **state)
{
	static decl_subsys(wide, &my_ktype, NULL);
	static struct kset set;
	memset(&set, 0, sizeof(set));
	struct my_object *m[10];
	subsystem_register(&wide_subsys);
	kobject_set_name(&set.kobj, "set");
	set.subsys = &wide_subsys;
	kset_register(&set);
	for (int i = 0; i < 10; i++) {
		char name[8];
		snprintf(name, sizeof(name), "m%d", i);
		m[i] = new_object(name);
		m[i]->kobj.kset = &set;
		kobject_register(&m[i]->kobj);
	}
	kobject_init(&m[5]->kobj); /* init twice: a diagnostic names m5, which stays drawn */
	char *text = dot_text(state, NULL);
	assert_golden("fold.dot", text);
	const char *order[] = { "<b>m0<", "<b>m1<", "<b>m2<", "… 3 more", "<b>m5<",
				"<b>m7<", "<b>m8<", "<b>m9<" };
	const char *at = text;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *next = strstr(at, order[i]);
		assert_non_null(next); /* and after the one before */
		at = next;
	}
	assert_null(strstr(text, "<b>m3<"));
	assert_non_null(strstr(text, "3 in sysfs"));
	assert_non_null(strstr(text, "label=\"parent, kset ×3\""));
	free(text);
	struct kobj_dot_options all = { .fold = KOBJ_DOT_NO_FOLD };
	text = dot_text(state, &all);
	assert_non_null(strstr(text, "<b>m3<"));
	assert_null(strstr(text, "more</b>"));
	free(text);
	for (int i = 9; i >= 0; i--)
		kobject_unregister(&m[i]->kobj);
	kset_unregister(&set);
	subsystem_unregister(&wide_subsys);
}

/* -------------------------------------------------------------------- today's sysfs */

static ssize_t show_nothing(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0\n");
}

static struct kobj_attribute speed = __ATTR(speed, 0444, show_nothing, NULL);
static struct kobj_attribute mtu = __ATTR(mtu, 0644, show_nothing, NULL);
static struct attribute *power_attrs[] = { &mtu.attr, NULL };
static const struct attribute_group power = { .name = "power", .attrs = power_attrs };

static void files_groups_and_links_are_drawn(void **state)
{
	struct kset *net = kset_create_and_add("net", NULL, NULL);
	struct kobject *eth = kobject_create_and_add("eth0", &net->kobj);
	struct kobject *phy = kobject_create_and_add("phy0", NULL);
	assert_int_equal(sysfs_create_file(eth, &speed.attr), 0);
	assert_int_equal(sysfs_create_group(eth, &power), 0);
	assert_int_equal(sysfs_create_link(eth, phy, "phy"), 0);
	char *text = dot_text(state, NULL);
	assert_golden("sysfs.dot", text);
	assert_non_null(strstr(text, "speed 0444"));
	assert_non_null(strstr(text, "power/"));
	assert_non_null(strstr(text, "  mtu 0644"));
	assert_non_null(strstr(text, "k2 -> k3 [style=dotted, color=\"#0072b2\""));
	assert_non_null(strstr(text, "label=\"phy\""));
	assert_non_null(strstr(text, "dynamic_kobj_ktype · refcount 1"));
	free(text);
	sysfs_remove_link(eth, "phy");
	sysfs_remove_group(eth, &power);
	kobject_put(phy);
	kobject_put(eth);
	kset_unregister(net);
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
		TEST(states_follow_the_record),
		TEST(palette_is_legible_and_colour_blind_safe),
		TEST(state_in_words_and_a_legend_of_what_is_drawn),
		TEST(references_are_rows_and_edges),
		TEST(ghosts_have_ids_and_faded_edges),
		TEST(leak_picture_agrees_with_the_report),
		TEST(kept_alive_objects_point_at_their_root),
		TEST(wide_ksets_fold_in_creation_order),
		TEST(files_groups_and_links_are_drawn),
		TEST(renders_svg_and_png),
		TEST(render_explains_failures),
		TEST(tree_shows_ktypes_marks_and_colour),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
