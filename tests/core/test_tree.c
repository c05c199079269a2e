/* `tree /sys` as text: depth and file limits (tree -L, --filelimit), objects deleted but
 * still held, and files and links. */
#include "tests/core/fixture.h"

static decl_subsys(net, &my_ktype, NULL);

/* /sys/net/eth0/port0 and eth1..eth4 under net, eth2 deleted but still held. */
static struct my_object *objs[6];

static void build(void)
{
	static const char *const names[] = { "eth0", "port0", "eth1", "eth2", "eth3", "eth4" };
	subsystem_register(&net_subsys);
	for (int i = 0; i < 6; i++) {
		objs[i] = new_object(names[i]);
		objs[i]->kobj.parent = i == 1 ? &objs[0]->kobj : &net_subsys.kset.kobj;
		kobject_register(&objs[i]->kobj);
	}
	kobject_get(&objs[3]->kobj);
	kobject_del(&objs[3]->kobj);
}

static void teardown_objects(void)
{
	kobject_put(&objs[3]->kobj);
	kobject_put(&objs[3]->kobj);
	for (int i = 5; i >= 0; i--)
		if (i != 3)
			kobject_unregister(&objs[i]->kobj);
	subsystem_unregister(&net_subsys);
	assert_int_equal(kobj_leak_count(kobj_world_current()), 0);
}

static char *tree(void **state, const struct kobj_tree_options *o)
{
	char *text = NULL;
	CAPTURE(text, assert_int_equal(kobj_print_tree(*state, "/sys/net", o, out), 0));
	return text;
}

static void the_whole_tree_shows_held_objects(void **state)
{
	build();
	char *text = tree(state, NULL);
	assert_string_equal(text,
			    "/sys/net  [subsystem, refcount 7]\n"
			    "├── eth0  [refcount 3]\n"
			    "│   └── port0  [refcount 2]\n"
			    "├── eth1  [refcount 2]\n"
			    "├── eth3  [refcount 2]\n"
			    "├── eth4  [refcount 2]\n"
			    "└── eth2  [refcount 2, deleted from sysfs, still held]\n");
	free(text);
	teardown_objects();
}

static void depth_limit_stops_below_it(void **state)
{
	build();
	const struct kobj_tree_options o = { .max_depth = 1, .held = true };
	char *text = tree(state, &o);
	assert_null(strstr(text, "port0"));
	assert_non_null(strstr(text, "├── eth0  [refcount 3]\n"));
	assert_non_null(strstr(text, "eth2  [refcount 2, deleted"));
	free(text);
	teardown_objects();
}

static void file_limit_folds_a_crowded_directory(void **state)
{
	build();
	const struct kobj_tree_options o = { .file_limit = 3, .held = false };
	char *text = tree(state, &o);
	assert_string_equal(text,
			    "/sys/net  [subsystem, refcount 7]\n"
			    "├── eth0  [refcount 3]\n"
			    "│   └── port0  [refcount 2]\n"
			    "├── eth1  [refcount 2]\n"
			    "├── ... 1 more entries\n"
			    "└── eth4  [refcount 2]\n");
	free(text);
	teardown_objects();
}

static void held_objects_can_be_left_out(void **state)
{
	build();
	const struct kobj_tree_options o = { .held = false };
	char *text = tree(state, &o);
	assert_null(strstr(text, "eth2"));
	free(text);
	teardown_objects();
}

static void files_and_links_are_listed(void **state)
{
	struct kobject *dev = kobject_create_and_add("dev", NULL);
	struct kobject *other = kobject_create_and_add("other", NULL);
	static struct kobj_attribute attr = __ATTR(speed, 0444, NULL, NULL);
	assert_int_equal(sysfs_create_file(dev, &attr.attr), 0);
	assert_int_equal(sysfs_create_link(dev, other, "peer"), 0);
	char *text = NULL;
	CAPTURE(text, assert_int_equal(kobj_print_tree(*state, "/sys/dev", NULL, out), 0));
	assert_string_equal(text, "/sys/dev  [refcount 1]\n"   /* in name order, as tree */
				  "├── peer -> /sys/other\n"
				  "└── speed\n");
	free(text);
	sysfs_remove_link(dev, "peer");
	kobject_put(other);
	kobject_put(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(the_whole_tree_shows_held_objects),
		TEST(depth_limit_stops_below_it),
		TEST(file_limit_folds_a_crowded_directory),
		TEST(held_objects_can_be_left_out),
		TEST(files_and_links_are_listed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
