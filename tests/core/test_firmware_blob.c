/*
 * tests/realkernel/cases/firmware_blob.c as a module of the sandbox: binary files read
 * and written at offsets, a group with binary attributes and is_bin_visible(),
 * sysfs_notify() as a reader sees it, and what its pr_info() lines print.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"
#include <linux/module.h>

#define BLOB "/sys/firmware/rk_fw/blob"

static int load(void **state)
{
	world_setup(state);
	return kobj_insmod("firmware_blob");
}

static int unload(void **state)
{
	assert_int_equal(kobj_rmmod("firmware_blob"), 0);
	assert_null(sysfs_lookup(*state, "/sys/firmware/rk_fw"));
	assert_int_equal(kobj_leak_count(*state), 0);
	return world_teardown(state);
}

#define LOADED(f) cmocka_unit_test_setup_teardown(f, load, unload)

static void binary_file_at_offsets(void **state)
{
	char buf[64];

	assert_true(sysfs_dirent_is_bin(sysfs_lookup(*state, BLOB)));
	assert_int_equal(sysfs_read_at(*state, BLOB, buf, sizeof(buf), 0), 16);
	assert_memory_equal(buf, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_int_equal(sysfs_write_at(*state, BLOB, "hello", 5, 0), 5);
	assert_int_equal(sysfs_write_at(*state, BLOB, "XY", 2, 14), 2);
	/* cut to end at the size, then nothing fits: -EFBIG */
	assert_int_equal(sysfs_write_at(*state, BLOB, "abcdef", 6, 12), 4);
	assert_int_equal(sysfs_write_at(*state, BLOB, "Z", 1, 16), -EFBIG);
	assert_int_equal(sysfs_write_at(*state, BLOB, "Z", 1, -1), -EINVAL);
	assert_int_equal(sysfs_read_at(*state, BLOB, buf, sizeof(buf), 0), 16);
	assert_memory_equal(buf, "hello\0\0\0\0\0\0\0abcd", 16);
	assert_int_equal(sysfs_read_at(*state, BLOB, buf, 3, 1), 3);
	assert_memory_equal(buf, "ell", 3);
	assert_int_equal(sysfs_read_at(*state, BLOB, buf, sizeof(buf), 12), 4);
	assert_int_equal(sysfs_read_at(*state, BLOB, buf, sizeof(buf), 16), 0); /* the end */
	assert_int_equal(sysfs_read_at(*state, BLOB, buf, sizeof(buf), 99), 0);
	/* a whole-file read is the same, NUL-terminated */
	assert_int_equal(sysfs_read(*state, BLOB, buf, sizeof(buf)), 16);
	assert_string_equal(buf, "hello");
	assert_int_equal(sysfs_read(*state, BLOB, buf, 4), 3);
	assert_string_equal(buf, "hel");
}

static void group_of_binary_attributes(void **state)
{
	char buf[16];

	assert_int_equal(sysfs_read_at(*state, "/sys/firmware/rk_fw/eeprom/id", buf, 16, 4), 4);
	assert_memory_equal(buf, "\xde\xad\xbe\xef", 4);
	assert_int_equal(sysfs_write(*state, "/sys/firmware/rk_fw/eeprom/id", "x", 1), -EACCES);
	assert_int_equal(sysfs_read(*state, "/sys/firmware/rk_fw/eeprom/serial", buf, 16), 9);
	assert_string_equal(buf, "deadbeef\n");
	assert_false(sysfs_dirent_is_bin(sysfs_lookup(*state, "/sys/firmware/rk_fw/eeprom/serial")));
	/* is_bin_visible() hid it */
	assert_null(sysfs_lookup(*state, "/sys/firmware/rk_fw/eeprom/secret"));
	/* init made the blob twice: the second time is the kernel's duplicate warning */
	assert_int_equal(kobj_diag_count(*state), 1);
	assert_last_diag(state, "duplicate-name",
			 "sysfs: cannot create duplicate filename '/firmware/rk_fw/blob'");
}

/* The "sysfs_notify" events of the log, from @from on. */
static size_t notify_events(void **state, size_t from)
{
	struct kobj_event ev;
	size_t n = 0;
	for (size_t i = from; kobj_log_read(*state, i, &ev); i++)
		n += ev.kind == KOBJ_EV_SYSFS && ev.aux == KOBJ_SYSFS_NOTIFIED &&
		     strcmp(ev.op, "sysfs_notify") == 0;
	return n;
}

static void store_notifies_pollers(void **state)
{
	const char *enabled = "/sys/firmware/rk_fw/enabled";
	size_t log = kobj_log_count(*state);

	/* init notified eeprom/id; "missing" is not there, which the kernel ignores */
	assert_int_equal(sysfs_dirent_events(sysfs_lookup(*state, "/sys/firmware/rk_fw/eeprom/id")), 1);
	assert_int_equal(sysfs_dirent_events(sysfs_lookup(*state, enabled)), 0);
	assert_int_equal(sysfs_write(*state, enabled, "on", 2), 2);
	assert_int_equal(sysfs_dirent_events(sysfs_lookup(*state, enabled)), 1);
	assert_int_equal(notify_events(state, log), 1);
	assert_int_equal(sysfs_write(*state, enabled, "sure", 4), -EINVAL);
	assert_int_equal(sysfs_write(*state, enabled, "N\n", 2), 2);
	assert_int_equal(sysfs_dirent_events(sysfs_lookup(*state, enabled)), 2);
	assert_int_equal(notify_events(state, log), 2);
	char buf[8];
	assert_int_equal(sysfs_read(*state, "/sys/kernel/mm/rk_mm/state", buf, sizeof(buf)), 4);
	assert_string_equal(buf, "off\n");
}

/* What init printed: the kernel's printf, line by line. */
static void printed_as_the_kernel_prints(void **state)
{
	static const char *const lines[] = {
		"rk_fw: again -17\n",
		"kref rk_fw 1\n",
		"rk_fw: initialized 1, in sysfs 1, sd set\n",
		"rk_fw: base 0x0000000000001000\n",
		"rk_fw: errors -ENOMEM -EPROBE_DEFER -1234\n",
		"rk_fw: store is enabled_store [firmware_blob]\n",
		"rk_fw: note: 3 objects, ready\n",
		"rk_fw: id 52 4b 00 01, 52:4b, 524b00\n",
		"rk_fw: mac 00:16:3e:12:34:56 00-16-3e-12-34-56 5634123e1600\n",
		"rk_fw: ip 192.168.1.10 192.168.001.010\n",
		"rk_fw: uuid 12345678-9abc-def0-0123-456789abcdef "
		"78563412-BC9A-F0DE-0123-456789ABCDEF\n",
		"rk_fw: numbers 0x0 0 0    ab| 7   | +5 -07 44 -5 8 k%\n",
		"Please remove unsupported %n in format string",
		"rk_fw: stops at ",
		"rk_fw: kstrtobool '1' 0 1\n",
		"rk_fw: kstrtobool 'y' 0 1\n",
		"rk_fw: kstrtobool 'Yes' 0 1\n",
		"rk_fw: kstrtobool 'on' 0 1\n",
		"rk_fw: kstrtobool 'oFF' 0 0\n",
		"rk_fw: kstrtobool 't' 0 1\n",
		"rk_fw: kstrtobool 'False' 0 0\n",
		"rk_fw: kstrtobool 'enable' -22 0\n", /* 6.1 has no 'e' and 'd' */
		"rk_fw: kstrtobool 'disable' -22 0\n",
		"rk_fw: kstrtobool '0' 0 0\n",
		"rk_fw: kstrtobool 'x' -22 0\n",
		"rk_fw: kstrtobool '' -22 0\n",
		"rk_fw: kstrtobool 'o' -22 0\n",
	};
	size_t n = sizeof(lines) / sizeof(lines[0]);
	size_t first = kobj_trace_count(*state) - n;

	for (size_t i = 0; i < n; i++)
		assert_string_equal(kobj_trace_at(*state, first + i)->text, lines[i]);
	assert_int_equal(kobj_trace_at(*state, first + 12)->level, KOBJ_LOGLEVEL_WARNING);
	assert_int_equal(kobj_trace_at(*state, first + 13)->level, KOBJ_LOGLEVEL_INFO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		LOADED(binary_file_at_offsets),
		LOADED(group_of_binary_attributes),
		LOADED(store_notifies_pollers),
		LOADED(printed_as_the_kernel_prints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
