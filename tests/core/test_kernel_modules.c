/*
 * Two modules linked into one program, as written for Linux 6.1 (tests/realkernel/cases):
 * uio_maps.c (drivers/uio/uio.c's map objects) and erofs_sysfs.c (fs/erofs/sysfs.c's
 * kset, features and per-superblock kobjects). Each loads and unloads by name, in any
 * order, again after it was unloaded, and leaves nothing behind.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"
#include <linux/module.h>

static const char *cat(void **state, const char *path)
{
	static char buf[128];
	ssize_t n = sysfs_read(*state, path, buf, sizeof(buf));
	if (n < 0)
		snprintf(buf, sizeof(buf), "error %zd", n);
	return buf;
}

static ssize_t echo(void **state, const char *path, const char *text)
{
	return sysfs_write(*state, path, text, strlen(text));
}

/* The kernel log lines since @from, one per line. */
static char *dmesg_since(void **state, size_t from)
{
	char *text = NULL;
	CAPTURE(text, for (size_t i = from; i < kobj_trace_count(*state); i++)
		fprintf(out, "%s", kobj_trace_at(*state, i)->text));
	return text;
}

static void two_modules_in_any_order(void **state)
{
	assert_int_equal(kobj_insmod("erofs_sysfs"), 0);
	assert_int_equal(kobj_insmod("uio_maps"), 0);
	assert_int_equal(kobj_insmod("uio_maps"), -EEXIST);
	assert_int_equal(kobj_insmod("no_such_module"), -ENOENT);
	assert_true(kobj_module_loaded("erofs_sysfs") && kobj_module_loaded("uio_maps"));
	assert_non_null(sysfs_lookup(*state, "/sys/fs/rk_erofs/loop1/readahead"));
	assert_non_null(sysfs_lookup(*state, "/sys/kernel/rk_uio/uio0/maps/map2/offset"));

	/* the first loaded goes first, and comes back */
	assert_int_equal(kobj_rmmod("erofs_sysfs"), 0);
	assert_false(kobj_module_loaded("erofs_sysfs"));
	assert_null(sysfs_lookup(*state, "/sys/fs/rk_erofs"));
	assert_non_null(sysfs_lookup(*state, "/sys/kernel/rk_uio/uio0"));
	assert_int_equal(kobj_rmmod("erofs_sysfs"), -ENOENT);
	assert_int_equal(kobj_insmod("erofs_sysfs"), 0);
	assert_string_equal(cat(state, "/sys/fs/rk_erofs/loop0/max_sync_decompress"), "3\n");

	assert_int_equal(kobj_rmmod("uio_maps"), 0);
	assert_int_equal(kobj_rmmod("erofs_sysfs"), 0);
	assert_null(sysfs_lookup(*state, "/sys/kernel/rk_uio"));
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* kobj_module_init() loads all, in name order; kobj_module_exit() unloads all. */
static void all_modules_at_once(void **state)
{
	assert_int_equal(kobj_module_init(), 0);
	assert_true(kobj_module_loaded("erofs_sysfs") && kobj_module_loaded("uio_maps"));
	kobj_module_exit();
	assert_false(kobj_module_loaded("erofs_sysfs") || kobj_module_loaded("uio_maps"));
	assert_int_equal(kobj_leak_count(*state), 0);
}

/* ============================================================================ uio */

static void uio_maps_show_and_store(void **state)
{
	char *text = NULL;

	assert_int_equal(kobj_insmod("uio_maps"), 0);
	CAPTURE(text, sysfs_print_tree(*state, "/sys/kernel/rk_uio/uio0/maps", out));
	assert_string_equal(text, "/sys/kernel/rk_uio/uio0/maps  [refcount 4]\n"
				  "├── map0  [refcount 1]\n"
				  "│   ├── addr\n"
				  "│   ├── name\n"
				  "│   ├── offset\n"
				  "│   └── size\n"
				  "├── map1  [refcount 1]\n"
				  "│   ├── addr\n"
				  "│   ├── name\n"
				  "│   ├── offset\n"
				  "│   └── size\n"
				  "└── map2  [refcount 1]\n"
				  "    ├── addr\n"
				  "    ├── name\n"
				  "    ├── offset\n"
				  "    └── size\n");
	free(text);
	/* %pa: 0x and all 16 digits of a phys_addr_t, as the kernel prints it */
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map0/addr"),
			    "0x00000000fed40000\n");
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map1/addr"),
			    "0x0000000100000000\n");
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map1/size"),
			    "0x0000000000010000\n");
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map0/name"), "registers\n");
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map2/name"), "\n");
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map1/offset"), "0x10\n");
	assert_int_equal(echo(state, "/sys/kernel/rk_uio/uio0/maps/map1/offset", "0x80"), 4);
	assert_string_equal(cat(state, "/sys/kernel/rk_uio/uio0/maps/map1/offset"), "0x80\n");
	assert_int_equal(echo(state, "/sys/kernel/rk_uio/uio0/maps/map0/offset", "0x2000"),
			 -EINVAL);
	assert_int_equal(echo(state, "/sys/kernel/rk_uio/uio0/maps/map0/addr", "0"), -EACCES);

	assert_int_equal(kobj_rmmod("uio_maps"), 0);
	assert_null(sysfs_lookup(*state, "/sys/kernel/rk_uio"));
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* The device, then each map, is announced; each goes with a "remove" when put. */
static void uio_maps_uevents(void **state)
{
	static const char *const expected[][2] = {
		{ "add", "/kernel/rk_uio/uio0" },
		{ "add", "/kernel/rk_uio/uio0/maps/map0" },
		{ "add", "/kernel/rk_uio/uio0/maps/map1" },
		{ "add", "/kernel/rk_uio/uio0/maps/map2" },
		{ "remove", "/kernel/rk_uio/uio0/maps/map0" },
		{ "remove", "/kernel/rk_uio/uio0/maps/map1" },
		{ "remove", "/kernel/rk_uio/uio0/maps/map2" },
		{ "remove", "/kernel/rk_uio/uio0" },
	};
	size_t before = kobj_hotplug_count(*state);

	assert_int_equal(kobj_insmod("uio_maps"), 0);
	assert_int_equal(kobj_rmmod("uio_maps"), 0);
	assert_int_equal(kobj_hotplug_count(*state) - before, 8);
	for (size_t i = 0; i < 8; i++) {
		const struct kobj_hotplug_event *ev = kobj_hotplug_at(*state, before + i);
		assert_string_equal(ev->action, expected[i][0]);
		assert_string_equal(ev->devpath, expected[i][1]);
		assert_string_equal(ev->subsystem, "rk_uio");
	}
}

/* Whichever allocation fails, loading either works or unwinds all it made. */
static void uio_maps_every_failed_allocation_unwinds(void **state)
{
	int failures = 0;

	for (unsigned n = 1; n <= 80; n++) {
		kobj_world_fail_alloc(*state, n);
		int rc = kobj_insmod("uio_maps");
		kobj_world_fail_alloc(*state, 0);
		if (rc == 0) {
			assert_int_equal(kobj_rmmod("uio_maps"), 0);
			continue;
		}
		failures++;
		/* -ENOENT: kobject_uevent() could not make the path (lib/kobject_uevent.c) */
		assert_true(rc == -ENOMEM || rc == -ENOENT);
		assert_false(kobj_module_loaded("uio_maps"));
		assert_null(sysfs_lookup(*state, "/sys/kernel/rk_uio"));
		assert_int_equal(kobj_leak_count(*state), 0);
	}
	assert_true(failures > 10);
	assert_true(failures < 80); /* and from some n on, nothing fails */
}

/* ========================================================================== erofs */

static void erofs_kset_features_and_superblocks(void **state)
{
	size_t trace = kobj_trace_count(*state);
	char *text = NULL;

	assert_int_equal(kobj_insmod("erofs_sysfs"), 0);
	/* a caller-owned kset with a ktype follows today's rules: no reference on itself
	 * for being in sysfs; each member holds it twice, as kset and as parent */
	CAPTURE(text, sysfs_print_tree(*state, "/sys/fs/rk_erofs", out));
	assert_string_equal(text, "/sys/fs/rk_erofs  [kset, refcount 7]\n"
				  "├── features  [refcount 1]\n"
				  "│   ├── big_pcluster\n"
				  "│   ├── compr_cfgs\n"
				  "│   └── zero_padding\n"
				  "├── loop0  [refcount 1]\n"
				  "│   ├── max_sync_decompress\n"
				  "│   ├── readahead\n"
				  "│   └── sync_decompress\n"
				  "└── loop1  [refcount 1]\n"
				  "    ├── max_sync_decompress\n"
				  "    ├── readahead\n"
				  "    └── sync_decompress\n");
	free(text);
	assert_string_equal(cat(state, "/sys/fs/rk_erofs/features/zero_padding"), "supported\n");
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/features/zero_padding", "1"), -EACCES);
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/loop0/sync_decompress", "2"), 1);
	assert_string_equal(cat(state, "/sys/fs/rk_erofs/loop0/sync_decompress"), "2\n");
	assert_string_equal(cat(state, "/sys/fs/rk_erofs/loop1/sync_decompress"), "0\n");
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/loop0/sync_decompress", "7"), -EINVAL);
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/loop1/sync_decompress", " \t1"), 3);
	assert_string_equal(cat(state, "/sys/fs/rk_erofs/loop1/sync_decompress"), "1\n");
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/loop0/readahead", "yes"), 3);
	assert_string_equal(cat(state, "/sys/fs/rk_erofs/loop0/readahead"), "1\n");
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/loop0/readahead", "maybe"), -EINVAL);
	assert_int_equal(echo(state, "/sys/fs/rk_erofs/loop0/max_sync_decompress", "4294967296"),
			 -ERANGE);
	assert_int_equal(kobj_hotplug_count(*state), 0); /* nothing above the kset has one */

	assert_int_equal(kobj_rmmod("erofs_sysfs"), 0);
	assert_null(sysfs_lookup(*state, "/sys/fs/rk_erofs"));
	assert_non_null(sysfs_lookup(*state, "/sys/fs"));
	text = dmesg_since(state, trace);
	assert_string_equal(text, "kref rk_erofs 7\n"
				  "kref loop0 1\n"
				  "rk_erofs: loop0 in sysfs 1, sd set\n"
				  "rk_erofs: loop1 unmounted, in sysfs 0, initialized 1\n"
				  "rk_erofs: loop0 unmounted, in sysfs 0, initialized 1\n"
				  "rk_erofs: features released\n"
				  "rk_erofs: root released\n");
	free(text);
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* Its static kset and kobject start zeroed at every load, as a module's data does. */
static void erofs_reloads_start_fresh(void **state)
{
	for (int i = 0; i < 3; i++) {
		assert_int_equal(kobj_insmod("erofs_sysfs"), 0);
		assert_string_equal(cat(state, "/sys/fs/rk_erofs/loop1/max_sync_decompress"),
				    "3\n");
		assert_int_equal(kobj_rmmod("erofs_sysfs"), 0);
	}
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* With releases delayed, unmounting waits for the superblock's release to complete:
 * the wait runs the clock on until it has, and nothing hangs. */
static void erofs_umount_waits_for_delayed_release(void **state)
{
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE);
	unsigned long start = kobj_world_now(*state);

	assert_int_equal(kobj_insmod("erofs_sysfs"), 0);
	assert_int_equal(kobj_rmmod("erofs_sysfs"), 0);
	assert_true(kobj_world_now(*state) - start >= 2 * HZ); /* two waits of 1 to 4 s */
	while (kobj_world_pending_releases(*state))
		kobj_world_advance(*state, HZ);
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(two_modules_in_any_order),
		TEST(all_modules_at_once),
		TEST(uio_maps_show_and_store),
		TEST(uio_maps_uevents),
		TEST(uio_maps_every_failed_allocation_unwinds),
		TEST(erofs_kset_features_and_superblocks),
		TEST(erofs_reloads_start_fresh),
		TEST(erofs_umount_waits_for_delayed_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
