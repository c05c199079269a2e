/*
 * Loads and unloads sample_kset_example.c as insmod and rmmod would, and checks the
 * objects, files and uevents user space sees under /sys/kernel/kset_example.
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

static const char *const objects[] = { "foo", "bar", "baz" };

static void objects_files_and_uevents(void **state)
{
	char path[128], env[160];
	char *text = NULL;

	assert_int_equal(kobj_module_init(), 0);
	CAPTURE(text, sysfs_print_tree(*state, "/sys/kernel/kset_example", out));
	assert_string_equal(text, "/sys/kernel/kset_example  [kset, refcount 7]\n"
				  "├── bar  [refcount 1]\n"
				  "│   ├── bar\n"
				  "│   ├── baz\n"
				  "│   └── foo\n"
				  "├── baz  [refcount 1]\n"
				  "│   ├── bar\n"
				  "│   ├── baz\n"
				  "│   └── foo\n"
				  "└── foo  [refcount 1]\n"
				  "    ├── bar\n"
				  "    ├── baz\n"
				  "    └── foo\n");
	free(text);

	/* each object announced itself once its files existed */
	assert_int_equal(kobj_hotplug_count(*state), 3);
	for (size_t i = 0; i < 3; i++) {
		const struct kobj_hotplug_event *ev = kobj_hotplug_at(*state, i);
		snprintf(path, sizeof(path), "/kernel/kset_example/%s", objects[i]);
		assert_string_equal(ev->action, "add");
		assert_string_equal(ev->devpath, path);
		assert_string_equal(ev->subsystem, "kset_example");
		assert_int_equal(ev->seqnum, i + 1);
		assert_int_equal(ev->envc, 4);
		snprintf(env, sizeof(env), "DEVPATH=%s", path);
		assert_string_equal(ev->envp[1], env);
		assert_string_equal(ev->envp[2], "SUBSYSTEM=kset_example");
	}

	/* every object has its own three numbers */
	assert_string_equal(cat(state, "/sys/kernel/kset_example/bar/baz"), "0\n");
	assert_int_equal(sysfs_write(*state, "/sys/kernel/kset_example/bar/baz", "42", 2), 2);
	assert_string_equal(cat(state, "/sys/kernel/kset_example/bar/baz"), "42\n");
	assert_string_equal(cat(state, "/sys/kernel/kset_example/baz/baz"), "0\n");
	assert_string_equal(cat(state, "/sys/kernel/kset_example/bar/bar"), "0\n");
	assert_int_equal(sysfs_write(*state, "/sys/kernel/kset_example/foo/foo", "x", 1),
			 -EINVAL);
	struct kset *set = to_kset(sysfs_dirent_kobj(sysfs_lookup(*state,
								 "/sys/kernel/kset_example")));
	struct kobject *bar = kset_find_obj(set, "bar");
	assert_non_null(bar);
	kobject_put(bar); /* today's kset_find_obj hands a reference */

	kobj_module_exit();
	assert_null(sysfs_lookup(*state, "/sys/kernel/kset_example"));
	assert_int_equal(kobj_hotplug_count(*state), 6); /* "remove" for each, automatically */
	for (size_t i = 3; i < 6; i++)
		assert_string_equal(kobj_hotplug_at(*state, i)->action, "remove");
	assert_string_equal(kobj_hotplug_at(*state, 3)->devpath, "/kernel/kset_example/baz");
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* Whichever allocation fails, init either works or unwinds all it made. */
static void every_failed_allocation_unwinds(void **state)
{
	int failures = 0;

	assert_non_null(kernel_kobj); /* the kernel's own objects exist before modules */
	for (unsigned n = 1; n <= 60; n++) {
		kobj_world_fail_alloc(*state, n);
		int rc = kobj_module_init();
		kobj_world_fail_alloc(*state, 0);
		if (rc == 0) {
			kobj_module_exit();
			continue;
		}
		failures++;
		assert_true(rc == -ENOMEM || rc == -EINVAL);
		assert_null(sysfs_lookup(*state, "/sys/kernel/kset_example"));
		assert_int_equal(kobj_leak_count(*state), 0);
	}
	/* the kset (3 allocations) and each object (memory, name, directory, 3 files) */
	assert_int_equal(failures, 3 + 3 * 6);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void exit_with_delayed_release(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	assert_int_equal(kobj_module_init(), 0);
	kobj_module_exit();
	/* the objects wait for their release, holding the kset, whose directory (with
	 * theirs inside) kset_unregister() removed at once */
	assert_int_equal(kobj_world_pending_releases(*state), 3);
	assert_null(sysfs_lookup(*state, "/sys/kernel/kset_example"));
	while (kobj_world_pending_releases(*state))
		kobj_world_advance(*state, HZ);
	assert_null(sysfs_lookup(*state, "/sys/kernel/kset_example"));
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(objects_files_and_uevents),
		TEST(every_failed_allocation_unwinds),
		TEST(exit_with_delayed_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
