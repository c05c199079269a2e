/*
 * What kernel code reads and calls besides kobjects, built with the <linux/...> headers:
 * the kernel's own top-level kobjects, the fields of struct kobject, today's
 * kset_register() on a caller's kset, kstrtobool(), the small helpers of <linux/...>,
 * completions, sysfs_notify(), binary attributes in groups, and a module whose init
 * fails or that has no exit.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/module.h>

/* ================================================================ a module, no exit */

/* A global, not a static: the module's statics start afresh at every load. */
int test_init_result;

static int __init test_init(void)
{
	return test_init_result;
}
module_init(test_init);

static void module_init_results(void **state)
{
	size_t t = kobj_trace_count(*state);

	test_init_result = -ENODEV;
	assert_int_equal(kobj_insmod("test_kernel_api"), -ENODEV);
	assert_false(kobj_module_loaded("test_kernel_api"));
	test_init_result = 1;
	assert_int_equal(kobj_insmod("test_kernel_api"), 0);
	assert_true(kobj_module_loaded("test_kernel_api"));
	assert_string_equal(kobj_trace_at(*state, t)->text,
			    "do_init_module: 'test_kernel_api'->init suspiciously returned 1, it "
			    "should follow 0/-E convention\ndo_init_module: loading module anyway...");
	/* no module_exit(): the kernel cannot unload it */
	assert_int_equal(kobj_rmmod("test_kernel_api"), -EBUSY);
	assert_last_diag(state, "module-in-use",
			 "rmmod: ERROR: could not remove module test_kernel_api: Device or "
			 "resource busy");
	assert_true(kobj_module_loaded("test_kernel_api"));
}

/* ========================================================== the kernel's kobjects */

static const char *path_of(struct kobject *kobj)
{
	static char path[64];
	char *p = kobject_get_path(kobj, GFP_KERNEL);
	snprintf(path, sizeof(path), "%s", p ? p : "(none)");
	kfree(p);
	return path;
}

static void builtin_kobjects(void **state)
{
	assert_string_equal(path_of(fs_kobj), "/fs");
	assert_string_equal(path_of(firmware_kobj), "/firmware");
	assert_string_equal(path_of(power_kobj), "/power");
	assert_string_equal(path_of(mm_kobj), "/kernel/mm");
	assert_ptr_equal(mm_kobj->parent, kernel_kobj);
	assert_ptr_equal(fs_kobj, fs_kobj); /* made once */
	struct kobject *mine = kobject_create_and_add("rk", fs_kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/fs/rk"));
	kobject_put(mine);
	assert_null(sysfs_lookup(*state, "/sys/fs/rk"));
	assert_int_equal(kobj_leak_count(*state), 0); /* they live as long as the world */
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ========================================================== struct kobject's fields */

static void fields_kernel_code_reads(void **state)
{
	struct my_object *o = new_object("fields");
	struct kobject *k = &o->kobj;

	assert_false(k->state_initialized);
	kobject_init(k, &my_ktype);
	assert_true(k->state_initialized);
	assert_false(k->state_in_sysfs);
	assert_null(k->sd);
	assert_int_equal(kref_read(&k->kref), 1);
	assert_int_equal(kobject_add(k, kernel_kobj, "%s", "fields"), 0);
	assert_true(k->state_in_sysfs);
	assert_ptr_equal((const void *)k->sd, sysfs_lookup(*state, "/sys/kernel/fields"));
	assert_ptr_equal(kobject_get(k), k);
	assert_int_equal(kref_read(&k->kref), 2);
	kobject_del(k);
	assert_false(k->state_in_sysfs);
	assert_null(k->sd);
	assert_true(k->state_initialized);
	kobject_put(k);
	assert_int_equal(kref_read(&k->kref), 1);
	assert_int_equal(released, 0);
	kobject_put(k);
	assert_int_equal(released, 1);
}

/* ======================================================= kset_register(), today's */

static int kset_released;

static void my_kset_release(struct kobject *kobj)
{
	kset_released++;
}

static const struct kobj_type my_kset_ktype = {
	.release = my_kset_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static void kset_register_of_a_callers_kset(void **state)
{
	static struct kset set = { .kobj = { .ktype = &my_kset_ktype } };
	struct my_object *member = new_object("member");

	kobject_set_name(&set.kobj, "myset");
	set.kobj.parent = fs_kobj;
	assert_int_equal(kset_register(&set), 0);
	const struct kobj_record *r = kobj_record_of(*state, &set.kobj);
	assert_int_equal(r->era, KOBJ_ERA_TODAY);
	assert_int_equal(kref_read(&set.kobj.kref), 1); /* no reference for sysfs */
	assert_non_null(sysfs_lookup(*state, "/sys/fs/myset"));
	member->kobj.kset = &set;
	assert_int_equal(kobject_init_and_add(&member->kobj, &my_ktype, NULL, "m"), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/fs/myset/m"));
	assert_int_equal(kref_read(&set.kobj.kref), 3);
	struct kobject *found = kset_find_obj(&set, "m");
	assert_ptr_equal(found, &member->kobj);
	kobject_put(found); /* today's lookup gives a reference */
	kobject_put(&member->kobj);
	kset_unregister(&set);
	assert_int_equal(kset_released, 1);
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ============================================================ kstrtobool and friends */

static void kstrtobool_words(void **state)
{
	static const struct { const char *s; int ret; bool v; } words[] = {
		{ "1", 0, true },      { "y", 0, true },       { "Yes", 0, true },
		{ "t", 0, true },      { "True", 0, true },    { "on", 0, true },
		{ "ON", 0, true },     { "0", 0, false },      { "n", 0, false },
		{ "f", 0, false },     { "off", 0, false },    { "oFf", 0, false },
		/* 6.1 reads no "enable" or "disable" (later kernels do) */
		{ "enable", -EINVAL, false }, { "disable", -EINVAL, false }, { "o", -EINVAL, false },
		{ "x", -EINVAL, false }, { "", -EINVAL, false }, { " 1", -EINVAL, false },
	};
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		bool v = !words[i].v;
		int ret = kstrtobool(words[i].s, &v);
		assert_int_equal(ret, words[i].ret);
		if (!ret)
			assert_int_equal(v, words[i].v);
		else
			assert_int_equal(v, !words[i].v); /* untouched */
	}
	assert_int_equal(kstrtobool(NULL, &(bool){ false }), -EINVAL);
}

#define ANSWER 42
#define NAMED(x) __stringify(x)

struct outer {
	int a;
	struct kobject inner;
};

static void small_helpers(void **state)
{
	char text[] = "  \t trimmed \n ";
	const struct outer o = { 0 };
	const struct kobject *inner = &o.inner;

	assert_string_equal(NAMED(ANSWER), "42");
	assert_string_equal(__stringify(a  +  b), "a + b");
	assert_int_equal(S_IRUGO, 0444);
	assert_int_equal(S_IWUGO, 0222);
	assert_int_equal(S_IXUGO, 0111);
	assert_int_equal(S_IRWXUGO, 0777);
	assert_string_equal(skip_spaces("\n\t  x y"), "x y");
	assert_string_equal(strim(text), "trimmed");
	assert_true(sysfs_streq("on\n", "on") && sysfs_streq("on", "on\n"));
	assert_false(sysfs_streq("on\n\n", "on") || sysfs_streq("o", "on"));
	/* container_of_const() keeps a const pointer const */
	_Static_assert(_Generic(container_of_const(inner, struct outer, inner),
				const struct outer *: 1, default: 0), "const kept");
	_Static_assert(_Generic(container_of_const((struct kobject *)inner, struct outer, inner),
				struct outer *: 1, default: 0), "plain stays plain");
	assert_ptr_equal(container_of_const(inner, struct outer, inner), &o);
	assert_true(likely(1 + 1 == 2) && !unlikely(0));
	assert_int_equal(min(3, 5) + max(3, 5) + clamp(9, 1, 4), 12);
	assert_true(IS_ERR(ERR_PTR(-ENOMEM)) && PTR_ERR(ERR_PTR(-ENOMEM)) == -ENOMEM);
	assert_true(IS_ERR_OR_NULL(NULL) && !IS_ERR(&o));
	assert_int_equal(PTR_ERR_OR_ZERO(&o), 0);
	char *copy = kstrdup("dup", GFP_KERNEL);
	assert_string_equal(copy, "dup");
	kfree(copy);
}

/* ========================================================================= completions */

static DECLARE_COMPLETION(done);

static void completing_release(struct kobject *kobj)
{
	complete(&done);
}

static const struct kobj_type completing_ktype = { .release = completing_release };

static void completion_waits_for_delayed_release(void **state)
{
	static struct kobject k;

	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	reinit_completion(&done);
	kobject_init(&k, &completing_ktype);
	kobject_put(&k);
	assert_false(completion_done(&done)); /* the release is queued, not run */
	unsigned long before = kobj_world_now(*state);
	wait_for_completion(&done);
	assert_true(kobj_world_now(*state) - before >= HZ);
	assert_false(completion_done(&done)); /* the wait took it */
	complete_all(&done);
	assert_true(try_wait_for_completion(&done) && try_wait_for_completion(&done));
	assert_int_equal(kobj_diag_count(*state), 0);
	memset(&k, 0, sizeof(k)); /* static: zeroed again for the next world */
}

static void hung_wait_is_reported(void **state)
{
	struct completion never;

	init_completion(&never);
	assert_int_equal(wait_for_completion_timeout(&never, 50), 0);
	assert_int_equal(kobj_world_now(*state), 50);
	assert_int_equal(kobj_diag_count(*state), 0);
	wait_for_completion(&never); /* line of the wait */
	assert_last_diag(state, "deadlock", "INFO: task kobj:1 blocked for more than 120 seconds.");
	assert_int_equal(last_diag(state)->origin.line, __LINE__ - 2);
	complete(&never);
	assert_int_equal(wait_for_completion_timeout(&never, 50), 50);
}

/* ========================================================================= sysfs_notify */

static ssize_t value_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "v\n");
}

static struct kobj_attribute value_attr = __ATTR_RO(value);

static void notify_counts_for_readers(void **state)
{
	struct kobject *k = kobject_create_and_add("watched", kernel_kobj);

	assert_int_equal(sysfs_create_file(k, &value_attr.attr), 0);
	sysfs_notify(k, NULL, "value");
	sysfs_notify(k, NULL, "value");
	sysfs_notify(k, NULL, "absent");
	sysfs_notify(k, "nodir", "value");
	sysfs_notify(k, NULL, NULL); /* the directory itself */
	assert_int_equal(sysfs_dirent_events(sysfs_lookup(*state, "/sys/kernel/watched/value")), 2);
	assert_int_equal(sysfs_dirent_events(sysfs_lookup(*state, "/sys/kernel/watched")), 1);
	assert_int_equal(kobj_diag_count(*state), 0);
	sysfs_notify(NULL, NULL, "value");
	assert_last_diag(state, "invalid-pointer",
			 "BUG: kernel NULL pointer dereference, address: 0000000000000030");
	kobject_put(k);
}

/* ================================================================ binary attributes */

static char store[4];

static ssize_t greedy_read(struct file *f, struct kobject *kobj, struct bin_attribute *a,
			   char *buf, loff_t off, size_t count)
{
	memset(buf, 'g', count + 2);
	return (ssize_t)count + 2; /* more than asked: the kernel would copy past its buffer */
}

static ssize_t store_write(struct file *f, struct kobject *kobj, struct bin_attribute *a,
			   char *buf, loff_t off, size_t count)
{
	memcpy(store + off, buf, count);
	return (ssize_t)count;
}

static BIN_ATTR(greedy, 0444, greedy_read, NULL, 0);
static BIN_ATTR_WO(store, sizeof(store));
static struct bin_attribute *raw_attrs[] = { &bin_attr_greedy, &bin_attr_store, NULL };
BIN_ATTRIBUTE_GROUPS(raw);

static umode_t too_open(struct kobject *kobj, struct bin_attribute *attr, int n)
{
	return 0755;
}

static void binary_attributes_in_groups(void **state)
{
	struct kobject *k = kobject_create_and_add("raw", kernel_kobj);
	char buf[8];

	assert_int_equal(sysfs_create_groups(k, raw_groups), 0);
	assert_true(sysfs_dirent_is_bin(sysfs_lookup(*state, "/sys/kernel/raw/store")));
	assert_int_equal(sysfs_read(*state, "/sys/kernel/raw/store", buf, sizeof(buf)), -EACCES);
	assert_int_equal(sysfs_write(*state, "/sys/kernel/raw/greedy", "x", 1), -EACCES);
	assert_int_equal(sysfs_write_at(*state, "/sys/kernel/raw/store", "abcdef", 6, 1), 3);
	assert_memory_equal(store, "\0abc", 4);
	assert_int_equal(sysfs_read_at(*state, "/sys/kernel/raw/greedy", buf, 4, 0), 4);
	assert_last_diag(state, "show-bad-count", "BUG: KASAN: slab-out-of-bounds in _copy_to_iter");
	sysfs_remove_groups(k, raw_groups);
	assert_null(sysfs_lookup(*state, "/sys/kernel/raw/store"));

	/* neither attrs nor bin_attrs; an is_bin_visible() mode sysfs refuses */
	struct attribute_group empty = { .name = "e" };
	assert_int_equal(sysfs_create_group(k, &empty), -EINVAL);
	assert_last_diag(state, "empty-group",
			 "sysfs: (bin_)attrs not set by subsystem for group: raw/e");
	struct attribute_group open = { .bin_attrs = raw_attrs, .is_bin_visible = too_open };
	assert_int_equal(sysfs_create_group(k, &open), 0);
	assert_last_diag(state, "invalid-permissions", "Attribute store: Invalid permissions 0755");
	assert_int_equal(sysfs_dirent_mode(sysfs_lookup(*state, "/sys/kernel/raw/greedy")), 0644);
	assert_int_equal(sysfs_create_bin_file(k, &bin_attr_store), -EEXIST);
	sysfs_remove_bin_file(k, &bin_attr_store);
	assert_null(sysfs_lookup(*state, "/sys/kernel/raw/store"));
	assert_int_equal(sysfs_create_bin_file(NULL, &bin_attr_store), -EINVAL);
	kobject_put(k);
	assert_int_equal(kobj_leak_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(module_init_results),
		TEST(builtin_kobjects),
		TEST(fields_kernel_code_reads),
		TEST(kset_register_of_a_callers_kset),
		TEST(kstrtobool_words),
		TEST(small_helpers),
		TEST(completion_waits_for_delayed_release),
		TEST(hung_wait_is_reported),
		TEST(notify_counts_for_readers),
		TEST(binary_attributes_in_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
