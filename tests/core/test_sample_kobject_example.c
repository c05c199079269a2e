/*
 * Loads and unloads sample_kobject_example.c as insmod and rmmod would, and checks what
 * user space sees in /sys/kernel/kobject_example.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"
#include <linux/module.h>

static const char *cat(void **state, const char *path)
{
	static char buf[64];
	ssize_t n = sysfs_read(*state, path, buf, sizeof(buf));
	if (n < 0)
		snprintf(buf, sizeof(buf), "error %zd", n);
	return buf;
}

static void files_read_and_write(void **state)
{
	char *text = NULL;

	assert_int_equal(kobj_module_init(), 0);
	assert_string_equal(cat(state, "/sys/kernel/kobject_example/foo"), "0\n");
	assert_int_equal(sysfs_write(*state, "/sys/kernel/kobject_example/foo", "42", 2), 2);
	assert_string_equal(cat(state, "/sys/kernel/kobject_example/foo"), "42\n");
	assert_int_equal(sysfs_write(*state, "/sys/kernel/kobject_example/bar", "-7\n", 3), 3);
	assert_string_equal(cat(state, "/sys/kernel/kobject_example/bar"), "-7\n");
	assert_string_equal(cat(state, "/sys/kernel/kobject_example/baz"), "0\n");
	assert_int_equal(sysfs_write(*state, "/sys/kernel/kobject_example/baz", "abc", 3),
			 -EINVAL);
	assert_string_equal(cat(state, "/sys/kernel/kobject_example/baz"), "0\n");

	CAPTURE(text, sysfs_print_tree(*state, "/sys/kernel", out));
	assert_string_equal(text, "/sys/kernel  [refcount 2]\n"
				  "└── kobject_example  [refcount 1]\n"
				  "    ├── bar\n"
				  "    ├── baz\n"
				  "    └── foo\n");
	free(text);
	assert_int_equal(kobj_hotplug_count(*state), 0); /* a plain directory sends none */

	kobj_module_exit();
	assert_null(sysfs_lookup(*state, "/sys/kernel/kobject_example"));
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* Whichever allocation fails, init either works or leaves nothing behind. */
static void every_failed_allocation_unwinds(void **state)
{
	int failures = 0;

	assert_non_null(kernel_kobj); /* the kernel's own objects exist before modules */
	for (unsigned n = 1; n <= 30; n++) {
		kobj_world_fail_alloc(*state, n);
		int rc = kobj_module_init();
		kobj_world_fail_alloc(*state, 0);
		if (rc == 0) {
			kobj_module_exit();
			continue;
		}
		failures++;
		assert_int_equal(rc, -ENOMEM);
		assert_null(sysfs_lookup(*state, "/sys/kernel/kobject_example"));
		assert_int_equal(kobj_leak_count(*state), 0);
	}
	assert_int_equal(failures, 6); /* the object, its name, its directory, 3 files */
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void exit_with_delayed_release(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE | KOBJ_DEBUG_KOBJECT);
	assert_int_equal(kobj_module_init(), 0);
	assert_int_equal(sysfs_write(*state, "/sys/kernel/kobject_example/foo", "42", 2), 2);
	kobj_module_exit();
	/* released later, still in sysfs until then: the files stay readable meanwhile */
	assert_int_equal(kobj_world_pending_releases(*state), 1);
	assert_string_equal(cat(state, "/sys/kernel/kobject_example/foo"), "42\n");
	assert_int_equal(kobj_world_advance(*state, 4 * HZ), 1);
	assert_null(sysfs_lookup(*state, "/sys/kernel/kobject_example"));
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(files_read_and_write),
		TEST(every_failed_allocation_unwinds),
		TEST(exit_with_delayed_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
