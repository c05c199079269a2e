/*
 * Today's attributes: struct kobj_attribute through kobj_sysfs_ops, sysfs_create_file,
 * attribute groups (named ones as subdirectories, is_visible), default_groups, links,
 * sysfs_emit and kstrtoint, and reading and writing them through the virtual sysfs.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"

/* ------------------------------------------------------------------ the attributes */

static int level = 7;
static int last_store_count;

static ssize_t level_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", level);
}

static ssize_t level_store(struct kobject *kobj, struct kobj_attribute *attr, const char *buf,
			   size_t count)
{
	int err = kstrtoint(buf, 0, &level);
	last_store_count = (int)count;
	return err ? err : (ssize_t)count;
}

static ssize_t name_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	int n = sysfs_emit(buf, "%s", kobject_name(kobj));
	return n + sysfs_emit_at(buf, n, "/%s\n", attr->attr.name);
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr, const char *buf,
			   size_t count)
{
	level = 0;
	return (ssize_t)count;
}

/* Returns more than a page holds: the kernel complains and cuts. */
static ssize_t huge_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	memset(buf, 'h', PAGE_SIZE);
	return PAGE_SIZE + 10;
}

/* Uses sysfs_emit on its own buffer instead of the page it was lent. */
static ssize_t wrong_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	char mine[64];
	int n = sysfs_emit(mine + 1, "oops\n");
	memcpy(buf, "x\n", 2);
	return n + 2;
}

static struct kobj_attribute level_attr = __ATTR(level, 0664, level_show, level_store);
static struct kobj_attribute name_attr = __ATTR_RO(name);
static struct kobj_attribute reset_attr = __ATTR_WO(reset);
static struct kobj_attribute level_rw = __ATTR_RW(level);
static struct kobj_attribute huge_attr = __ATTR(huge, 0444, huge_show, NULL);
static struct kobj_attribute wrong_attr = __ATTR(wrong, 0444, wrong_show, NULL);

static struct attribute *basic_attrs[] = { &level_attr.attr, &name_attr.attr,
					   &reset_attr.attr, NULL };
static const struct attribute_group basic_group = { .attrs = basic_attrs };
static const struct attribute_group named_group = { .name = "power", .attrs = basic_attrs };

/* ---------------------------------------------------------------------------- helpers */

static int setup(void **state)
{
	level = 7;
	last_store_count = 0;
	return world_setup(state);
}

#define ATEST(f) cmocka_unit_test_setup_teardown(f, setup, world_teardown)

static const char *read_file(void **state, const char *path)
{
	static char buf[PAGE_SIZE + 16];
	ssize_t n = sysfs_read(*state, path, buf, sizeof(buf));
	if (n < 0)
		snprintf(buf, sizeof(buf), "error %zd", n);
	return buf;
}

/* ------------------------------------------------------------------------- the macros */

static void attr_macros_fill_name_mode_and_methods(void **state)
{
	assert_string_equal(level_attr.attr.name, "level");
	assert_int_equal(level_attr.attr.mode, 0664);
	assert_ptr_equal(level_attr.show, level_show);
	assert_ptr_equal(level_attr.store, level_store);
	assert_int_equal(name_attr.attr.mode, 0444);
	assert_ptr_equal(name_attr.show, name_show);
	assert_null(name_attr.store);
	assert_int_equal(reset_attr.attr.mode, 0200);
	assert_null(reset_attr.show);
	assert_int_equal(level_rw.attr.mode, 0644);
	assert_ptr_equal(level_rw.store, level_store);
	assert_int_equal(VERIFY_OCTAL_PERMISSIONS(0644), 0644);
	(void)state;
}

static struct attribute *grouped_attrs[] = { &level_attr.attr, NULL };
ATTRIBUTE_GROUPS(grouped);

static void attribute_groups_makes_a_list(void **state)
{
	assert_ptr_equal(grouped_groups[0], &grouped_group);
	assert_null(grouped_groups[1]);
	assert_ptr_equal(grouped_group.attrs, grouped_attrs);
	assert_null(grouped_group.name);
	(void)state;
}

/* -------------------------------------------------------------------- files and I/O */

static void read_and_write_through_kobj_attributes(void **state)
{
	struct kobject *k = kobject_create_and_add("box", NULL);

	assert_int_equal(sysfs_create_file(k, &level_attr.attr), 0);
	assert_int_equal(sysfs_create_file(k, &name_attr.attr), 0);
	assert_int_equal(sysfs_create_file(k, &reset_attr.attr), 0);
	assert_string_equal(read_file(state, "/sys/box/level"), "7\n");
	assert_string_equal(read_file(state, "/sys/box/name"), "box/name\n");

	assert_int_equal(sysfs_write(*state, "/sys/box/level", "42\n", 3), 3);
	assert_int_equal(last_store_count, 3);
	assert_string_equal(read_file(state, "/sys/box/level"), "42\n");
	assert_int_equal(sysfs_write(*state, "/sys/box/level", "0x10", 4), 4);
	assert_int_equal(level, 16);

	/* store's error reaches the writer; the value stays */
	assert_int_equal(sysfs_write(*state, "/sys/box/level", "forty", 5), -EINVAL);
	assert_int_equal(sysfs_write(*state, "/sys/box/level", "99999999999", 11), -ERANGE);
	assert_int_equal(level, 16);

	/* the mode says who may read or write: a write-only file cannot be read */
	assert_string_equal(read_file(state, "/sys/box/reset"), "error -13");
	assert_int_equal(sysfs_write(*state, "/sys/box/name", "x", 1), -EACCES);
	assert_int_equal(sysfs_write(*state, "/sys/box/reset", "1", 1), 1);
	assert_int_equal(level, 0);
	assert_int_equal(sysfs_write(*state, "/sys/box/level", "", 0), 0); /* store not called */
	assert_int_equal(last_store_count, 11);

	sysfs_remove_file(k, &name_attr.attr);
	assert_null(sysfs_lookup(*state, "/sys/box/name"));
	sysfs_remove_file(k, &name_attr.attr); /* missing: ignored */
	kobject_put(k);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void create_file_errors(void **state)
{
	static const struct kobj_type no_ops = { .release = my_object_release };
	struct kobject *k = kobject_create_and_add("box", NULL);
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);

	assert_int_equal(sysfs_create_file(k, &level_attr.attr), 0);
	assert_int_equal(sysfs_create_file(k, &level_attr.attr), -EEXIST);
	assert_last_diag(state, "duplicate-name",
			 "sysfs: cannot create duplicate filename '/box/level'");

	kobject_init(&o->kobj, &no_ops);
	assert_int_equal(sysfs_create_file(&o->kobj, &level_attr.attr), -EINVAL);
	assert_last_diag(state, "not-in-sysfs",
			 "WARNING: CPU: 0 PID: 1 at fs/sysfs/file.c sysfs_create_file_ns");
	assert_int_equal(sysfs_create_file(NULL, &level_attr.attr), -EINVAL);
	assert_int_equal(sysfs_create_file(k, NULL), -EINVAL);

	assert_int_equal(kobject_add(&o->kobj, NULL, "plain"), 0);
	assert_int_equal(sysfs_create_file(&o->kobj, &level_attr.attr), -EINVAL);
	assert_last_diag(state, "missing-sysfs-ops",
			 "missing sysfs attribute operations for kobject: plain");
	assert_null(sysfs_lookup(*state, "/sys/plain/level"));

	kobject_del(&o->kobj);
	sysfs_remove_file(&o->kobj, &level_attr.attr);
	assert_last_diag(state, "not-in-sysfs", "kernfs: can not remove 'level', no directory");
	kobject_put(&o->kobj);
	kobject_put(k);
}

static void files_work_on_article_objects_too(void **state)
{
	static struct kobj_type article_ktype = {
		.release = my_object_release,
		.sysfs_ops = &kobj_sysfs_ops,
	};
	struct my_object *o = new_object("old");

	o->kobj.ktype = &article_ktype;
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), 0);
	assert_int_equal(sysfs_create_file(&o->kobj, &level_attr.attr), 0);
	assert_string_equal(read_file(state, "/sys/old/level"), "7\n");
	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

static void bad_count_is_reported_and_cut(void **state)
{
	struct kobject *k = kobject_create_and_add("box", NULL);
	static char buf[2 * PAGE_SIZE];

	assert_int_equal(sysfs_create_file(k, &huge_attr.attr), 0);
	assert_int_equal(sysfs_read(*state, "/sys/box/huge", buf, sizeof(buf)), PAGE_SIZE - 1);
	assert_int_equal(strlen(buf), PAGE_SIZE - 1);
	assert_last_diag(state, "show-bad-count",
			 "fill_read_buffer: kobj_attr_show returned bad count");
	assert_non_null(strstr(last_diag(state)->explanation, "/sys/box/huge"));
	assert_non_null(strstr(last_diag(state)->explanation, "4106"));
	kobject_put(k);
}

static void sysfs_emit_wants_the_page(void **state)
{
	struct kobject *k = kobject_create_and_add("box", NULL);

	assert_int_equal(sysfs_create_file(k, &wrong_attr.attr), 0);
	assert_string_equal(read_file(state, "/sys/box/wrong"), "x\n");
	assert_last_diag(state, "invalid-sysfs-emit", "invalid sysfs_emit: buf:");
	assert_non_null(strstr(last_diag(state)->explanation, "test_attr.c:"));

	char *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	assert_int_equal(sysfs_emit(page, "%s", "abc"), 3);
	assert_int_equal(sysfs_emit_at(page, 3, "%d", 42), 2);
	assert_string_equal(page, "abc42");
	assert_int_equal(sysfs_emit_at(page, PAGE_SIZE, "x"), 0);
	assert_last_diag(state, "invalid-sysfs-emit", "invalid sysfs_emit_at: buf:");
	assert_non_null(strstr(last_diag(state)->message, " at:4096"));
	memset(page, 0, PAGE_SIZE);
	char *big = malloc(2 * PAGE_SIZE);
	memset(big, 'b', 2 * PAGE_SIZE - 1);
	big[2 * PAGE_SIZE - 1] = '\0';
	assert_int_equal(sysfs_emit(page, "%s", big), PAGE_SIZE - 1); /* vscnprintf's count */
	assert_int_equal(sysfs_emit_at(page, PAGE_SIZE - 10, "%s", big), 9);
	free(big);
	free(page);
	kobject_put(k);
}

/* --------------------------------------------------------------------------- groups */

static void unnamed_and_named_groups(void **state)
{
	struct kobject *k = kobject_create_and_add("box", NULL);
	const struct sysfs_dirent **list;

	assert_int_equal(sysfs_create_group(k, &basic_group), 0);
	assert_int_equal(sysfs_list(*state, "/sys/box", &list), 3);
	free(list);
	assert_int_equal(sysfs_create_group(k, &named_group), 0);
	const struct sysfs_dirent *power = sysfs_lookup(*state, "/sys/box/power");
	assert_int_equal(sysfs_dirent_type(power), SYSFS_DIR);
	assert_ptr_equal(sysfs_dirent_kobj(power), k);
	assert_string_equal(read_file(state, "/sys/box/power/name"), "box/name\n");
	assert_int_equal(sysfs_create_group(k, &named_group), -EEXIST);
	assert_last_diag(state, "duplicate-name",
			 "sysfs: cannot create duplicate filename '/box/power'");

	sysfs_remove_group(k, &named_group);
	assert_null(sysfs_lookup(*state, "/sys/box/power"));
	sysfs_remove_group(k, &named_group);
	assert_last_diag(state, "group-not-found",
			 "sysfs group 'power' not found for kobject 'box'");
	sysfs_remove_group(k, &basic_group);
	assert_int_equal(sysfs_list(*state, "/sys/box", &list), 0);
	kobject_put(k);
}

static umode_t only_level(struct kobject *kobj, struct attribute *attr, int n)
{
	if (attr == &level_attr.attr)
		return 0444; /* shown read-only here */
	return n == 2 ? 0777 : 0;
}

static void is_visible_hides_and_checks_modes(void **state)
{
	static const struct attribute_group vis = { .attrs = basic_attrs,
						     .is_visible = only_level };
	struct kobject *k = kobject_create_and_add("box", NULL);

	assert_int_equal(sysfs_create_group(k, &vis), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/box/level"));
	assert_null(sysfs_lookup(*state, "/sys/box/name"));   /* hidden */
	assert_non_null(sysfs_lookup(*state, "/sys/box/reset"));
	assert_last_diag(state, "invalid-permissions", "Attribute reset: Invalid permissions 0777");
	assert_int_equal(kobj_diag_count(*state), 1);
	kobject_put(k);
}

static void group_errors_leave_nothing(void **state)
{
	static const struct attribute_group empty = { .name = "none" };
	static const struct attribute_group *both[] = { &named_group, &basic_group, NULL };
	struct kobject *k = kobject_create_and_add("box", NULL);
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);
	static const struct kobj_type t = { .release = my_object_release,
					    .sysfs_ops = &kobj_sysfs_ops };
	const struct sysfs_dirent **list;

	assert_int_equal(sysfs_create_group(k, &empty), -EINVAL);
	assert_last_diag(state, "empty-group",
			 "sysfs: (bin_)attrs not set by subsystem for group: box/none");

	/* a clash in an unnamed group: the group's files go, the clashing file stays */
	assert_int_equal(sysfs_create_file(k, &reset_attr.attr), 0);
	assert_int_equal(sysfs_create_group(k, &basic_group), -EEXIST);
	assert_last_diag(state, "duplicate-name", "filename '/box/reset'");
	assert_int_equal(sysfs_list(*state, "/sys/box", &list), 1);
	assert_ptr_equal(sysfs_dirent_attr(list[0]), &reset_attr.attr);
	free(list);

	/* the list rolls back the groups it made before the failure */
	assert_int_equal(sysfs_create_groups(k, both), -EEXIST);
	assert_null(sysfs_lookup(*state, "/sys/box/power"));
	sysfs_remove_file(k, &reset_attr.attr);
	assert_int_equal(sysfs_create_groups(k, both), 0);
	assert_int_equal(sysfs_list(*state, "/sys/box", &list), 4);
	free(list);
	sysfs_remove_groups(k, both);
	assert_int_equal(sysfs_list(*state, "/sys/box", &list), 0);
	assert_int_equal(sysfs_create_groups(k, NULL), 0);

	kobject_init(&o->kobj, &t);
	assert_int_equal(sysfs_create_group(&o->kobj, &basic_group), -EINVAL);
	assert_last_diag(state, "not-in-sysfs", "fs/sysfs/group.c internal_create_group");
	kobject_put(&o->kobj);
	kobject_put(k);
}

/* -------------------------------------------------------------------- default groups */

static struct attribute *thing_attrs[] = { &level_attr.attr, &name_attr.attr, NULL };
static const struct attribute_group thing_power = { .name = "power", .attrs = thing_attrs };
static const struct attribute_group thing_plain = { .attrs = thing_attrs };
static const struct attribute_group *thing_groups[] = { &thing_plain, &thing_power, NULL };
static const struct kobj_type thing_ktype = {
	.release = my_object_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = thing_groups,
};

static void default_groups_appear_on_add(void **state)
{
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);
	char *text = NULL;

	assert_int_equal(kobject_init_and_add(&o->kobj, &thing_ktype, NULL, "thing"), 0);
	assert_string_equal(read_file(state, "/sys/thing/level"), "7\n");
	assert_string_equal(read_file(state, "/sys/thing/power/name"), "thing/name\n");
	CAPTURE(text, sysfs_print_tree(*state, "/sys/thing", out));
	assert_string_equal(text, "/sys/thing  [refcount 1]\n"
				  "├── level\n"
				  "├── name\n"
				  "└── power\n"
				  "    ├── level\n"
				  "    └── name\n");
	free(text);
	kobject_del(&o->kobj);
	assert_null(sysfs_lookup(*state, "/sys/thing/power"));
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void a_clash_in_default_groups_fails_the_add(void **state)
{
	static const struct attribute_group *twice[] = { &thing_plain, &thing_plain, NULL };
	static const struct kobj_type twice_ktype = {
		.release = my_object_release,
		.sysfs_ops = &kobj_sysfs_ops,
		.default_groups = twice,
	};
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);

	assert_int_equal(kobject_init_and_add(&o->kobj, &twice_ktype, NULL, "t"), -EEXIST);
	assert_int_equal(kobj_diag_count(*state), 2);
	assert_string_equal(kobj_diag_tag(kobj_diag_at(*state, 0)->kind), "duplicate-name");
	assert_non_null(strstr(kobj_diag_at(*state, 0)->message,
			       "sysfs: cannot create duplicate filename '/t/level'"));
	assert_last_diag(state, "add-failed",
			 "kobject_add_internal failed for t with -EEXIST, don't try to "
			 "register things with the same name in the same directory.");
	assert_null(sysfs_lookup(*state, "/sys/t"));
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

static void default_attrs_still_work_for_todays_objects(void **state)
{
	static const struct kobj_type old_field = {
		.release = my_object_release,
		.sysfs_ops = &kobj_sysfs_ops,
		.default_attrs = basic_attrs,
	};
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);

	assert_int_equal(kobject_init_and_add(&o->kobj, &old_field, NULL, "o"), 0);
	assert_string_equal(read_file(state, "/sys/o/level"), "7\n");
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

/* ----------------------------------------------------------------------------- links */

static void links_lead_to_their_target(void **state)
{
	struct kobject *devices = kobject_create_and_add("devices", NULL);
	struct kobject *dev = kobject_create_and_add("dev0", devices);
	struct kobject *bus = kobject_create_and_add("bus", NULL);
	const struct sysfs_dirent **list;
	char *text = NULL;

	assert_int_equal(sysfs_create_file(dev, &level_attr.attr), 0);
	assert_int_equal(sysfs_create_link(bus, dev, "dev0"), 0);
	const struct sysfs_dirent *dir = sysfs_lookup(*state, "/sys/devices/dev0");
	assert_ptr_equal(sysfs_lookup(*state, "/sys/bus/dev0"), dir);
	assert_string_equal(read_file(state, "/sys/bus/dev0/level"), "7\n");
	assert_int_equal(sysfs_list(*state, "/sys/bus", &list), 1);
	assert_int_equal(sysfs_dirent_type(list[0]), SYSFS_LINK);
	assert_ptr_equal(sysfs_dirent_link_target(*state, list[0]), dir);
	char target[256];
	sysfs_dirent_link_path(*state, list[0], target, sizeof(target));
	assert_string_equal(target, "/sys/devices/dev0");
	assert_ptr_equal(sysfs_dirent_kobj(list[0]), bus);
	free(list);
	CAPTURE(text, sysfs_print_tree(*state, "/sys/bus", out));
	assert_string_equal(text, "/sys/bus  [refcount 1]\n"
				  "└── dev0 -> /sys/devices/dev0\n");
	free(text);

	assert_int_equal(sysfs_create_link(bus, dev, "dev0"), -EEXIST);
	assert_last_diag(state, "duplicate-name",
			 "sysfs: cannot create duplicate filename '/bus/dev0'");
	assert_int_equal(sysfs_create_link(NULL, dev, "top"), 0); /* NULL: in /sys */
	assert_ptr_equal(sysfs_lookup(*state, "/sys/top/level"),
			 sysfs_lookup(*state, "/sys/devices/dev0/level"));

	/* the link follows a rename of its target */
	assert_int_equal(kobject_rename(dev, "renamed"), 0);
	assert_ptr_equal(sysfs_lookup(*state, "/sys/bus/dev0"),
			 sysfs_lookup(*state, "/sys/devices/renamed"));
	CAPTURE(text, sysfs_print_tree(*state, "/sys/bus", out));
	assert_string_equal(text, "/sys/bus  [refcount 1] !\n" /* named by the duplicate */
				  "└── dev0 -> /sys/devices/renamed\n");
	free(text);

	sysfs_remove_link(bus, "dev0");
	assert_null(sysfs_lookup(*state, "/sys/bus/dev0"));
	sysfs_remove_link(bus, "dev0"); /* missing: ignored */
	sysfs_remove_link(NULL, "top");
	kobject_put(dev);
	kobject_put(devices);
	kobject_put(bus);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void a_link_to_a_removed_target_leads_nowhere(void **state)
{
	struct kobject *a = kobject_create_and_add("a", NULL);
	struct kobject *b = kobject_create_and_add("b", NULL);
	char *text = NULL;

	assert_int_equal(sysfs_create_link(a, b, "to-b"), 0);
	kobject_put(b); /* released and freed: the link must not reach its memory */
	assert_null(sysfs_lookup(*state, "/sys/a/to-b"));
	assert_string_equal(read_file(state, "/sys/a/to-b/x"), "error -2");
	CAPTURE(text, sysfs_print_tree(*state, "/sys/a", out));
	assert_string_equal(text, "/sys/a  [refcount 1]\n"
				  "└── to-b -> /sys/b (gone)\n");
	free(text);
	struct kobject *b2 = kobject_create_and_add("b", NULL);
	assert_null(sysfs_lookup(*state, "/sys/a/to-b")); /* not the newcomer of that name */
	kobject_put(b2);
	kobject_put(a);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void link_errors(void **state)
{
	struct kobject *a = kobject_create_and_add("a", NULL);
	struct kobject *loose = calloc(1, sizeof(*loose));
	static const struct kobj_type t = { .release = my_object_release };

	kobject_init(loose, &t);
	assert_int_equal(sysfs_create_link(loose, a, "x"), -EFAULT);
	assert_int_equal(sysfs_create_link(a, loose, "x"), -ENOENT);
	assert_int_equal(sysfs_create_link(a, NULL, "x"), -ENOENT);
	assert_int_equal(sysfs_create_link(a, a, ""), -EINVAL);
	assert_int_equal(sysfs_create_link(a, a, "self"), 0); /* a loop is fine for lookups */
	assert_ptr_equal(sysfs_lookup(*state, "/sys/a/self/self/self"),
			 sysfs_lookup(*state, "/sys/a"));
	sysfs_remove_link(loose, "x");
	assert_last_diag(state, "not-in-sysfs", "kernfs: can not remove 'x', no directory");
	/* a file of the same name is not a link: sysfs_remove_link leaves it */
	assert_int_equal(sysfs_create_file(a, &level_attr.attr), 0);
	sysfs_remove_link(a, "level");
	assert_non_null(sysfs_lookup(*state, "/sys/a/level"));
	kobject_put((struct kobject *)loose);
	kobject_put(a);
}

/* -------------------------------------------------------------------------- kstrtoint */

static void kstrtoint_parses_like_the_kernel(void **state)
{
	int v = -1;
	unsigned u = 0;
	long l = 0;
	unsigned long ul = 0;
	long long ll = 0;

	assert_int_equal(kstrtoint("42", 10, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(kstrtoint("42\n", 10, &v), 0);
	assert_int_equal(kstrtoint("-17", 10, &v), 0);
	assert_int_equal(v, -17);
	assert_int_equal(kstrtoint("+5", 10, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(kstrtoint("0x1f", 0, &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(kstrtoint("010", 0, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(kstrtoint("0x1F", 16, &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(kstrtoint("ff", 16, &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(kstrtoint("-2147483648", 10, &v), 0);
	assert_int_equal(v, -2147483647 - 1);
	v = 3;
	assert_int_equal(kstrtoint("2147483648", 10, &v), -ERANGE);
	assert_int_equal(kstrtoint("", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint(" 1", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint("1 ", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint("1\n\n", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint("12abc", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint("-", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint("--1", 10, &v), -EINVAL);
	assert_int_equal(kstrtoint("99999999999999999999999", 10, &v), -ERANGE);
	assert_int_equal(v, 3); /* untouched on error */
	assert_int_equal(kstrtouint("-1", 10, &u), -EINVAL);
	assert_int_equal(kstrtouint("4294967295", 10, &u), 0);
	assert_int_equal(u, 4294967295u);
	assert_int_equal(kstrtol("-9", 10, &l), 0);
	assert_int_equal(l, -9);
	assert_int_equal(kstrtoul("7", 10, &ul), 0);
	assert_int_equal(kstrtoll("-9223372036854775808", 10, &ll), 0);
	assert_true(ll < 0);
	assert_int_equal(kstrtoll("9223372036854775808", 10, &ll), -ERANGE);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		ATEST(attr_macros_fill_name_mode_and_methods),
		ATEST(attribute_groups_makes_a_list),
		ATEST(read_and_write_through_kobj_attributes),
		ATEST(create_file_errors),
		ATEST(files_work_on_article_objects_too),
		ATEST(bad_count_is_reported_and_cut),
		ATEST(sysfs_emit_wants_the_page),
		ATEST(unnamed_and_named_groups),
		ATEST(is_visible_hides_and_checks_modes),
		ATEST(group_errors_leave_nothing),
		ATEST(default_groups_appear_on_add),
		ATEST(a_clash_in_default_groups_fails_the_add),
		ATEST(default_attrs_still_work_for_todays_objects),
		ATEST(links_lead_to_their_target),
		ATEST(a_link_to_a_removed_target_leads_nowhere),
		ATEST(link_errors),
		ATEST(kstrtoint_parses_like_the_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
