/*
 * Kernel code beyond the samples, as drivers write it: under firmware_kobj
 * (/sys/firmware/rk_fw) a 16-byte binary file "blob" (BIN_ATTR_RW, read and written at
 * offsets), a named group "eeprom" holding binary attributes (id, and secret, which
 * is_bin_visible() hides) beside a text attribute, and an "enabled" switch parsed with
 * kstrtobool() whose store calls sysfs_notify(); rk_mm under mm_kobj (power_kobj is not
 * exported to modules). Loading prints with the kernel's printf where it differs from the C
 * library's (%pa, %pe, %ps, %pV, %ph, %pM, %pI4, %pU, numbers, an unsupported %n), and
 * kstrtobool()'s verdict on a list of words.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/module.h>
#include <linux/init.h>

//! read /sys/firmware/rk_fw/blob
//! write /sys/firmware/rk_fw/blob hello
//! read /sys/firmware/rk_fw/blob
//! read /sys/firmware/rk_fw/eeprom/id
//! read /sys/firmware/rk_fw/eeprom/serial
//! write /sys/firmware/rk_fw/eeprom/id x
//! read /sys/firmware/rk_fw/eeprom/secret
//! write /sys/firmware/rk_fw/enabled on
//! read /sys/firmware/rk_fw/enabled
//! write /sys/firmware/rk_fw/enabled sure
//! read /sys/kernel/mm/rk_mm/pages
//! read /sys/kernel/mm/rk_mm/state

static char blob[16];
static u8 eeprom_id[8] = { 0x52, 0x4b, 0x00, 0x01, 0xde, 0xad, 0xbe, 0xef };
static bool enabled;

/* ------------------------------------------------------------------- binary files */

static ssize_t blob_read(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
			 char *buf, loff_t off, size_t count)
{
	memcpy(buf, blob + off, count);
	return count;
}

static ssize_t blob_write(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
			  char *buf, loff_t off, size_t count)
{
	memcpy(blob + off, buf, count);
	return count;
}
static BIN_ATTR_RW(blob, sizeof(blob));

static ssize_t id_read(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
		       char *buf, loff_t off, size_t count)
{
	memcpy(buf, eeprom_id + off, count);
	return count;
}
static BIN_ATTR_RO(id, sizeof(eeprom_id));

static ssize_t secret_read(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
			   char *buf, loff_t off, size_t count)
{
	return -EPERM;
}
static BIN_ATTR_RO(secret, 4);

static struct bin_attribute *eeprom_bin_attrs[] = { &bin_attr_id, &bin_attr_secret, NULL };

static umode_t eeprom_bin_visible(struct kobject *kobj, struct bin_attribute *attr, int n)
{
	return attr == &bin_attr_secret ? 0 : attr->attr.mode;
}

static ssize_t serial_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%*phN\n", 4, eeprom_id + 4);
}
static struct kobj_attribute serial_attr = __ATTR_RO(serial);
static struct attribute *eeprom_attrs[] = { &serial_attr.attr, NULL };

static const struct attribute_group eeprom_group = {
	.name = "eeprom",
	.attrs = eeprom_attrs,
	.bin_attrs = eeprom_bin_attrs,
	.is_bin_visible = eeprom_bin_visible,
};

/* ------------------------------------------------------------------ text attributes */

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", enabled);
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	int ret = kstrtobool(buf, &enabled);

	if (ret)
		return ret;
	sysfs_notify(kobj, NULL, "enabled");
	return count;
}
static struct kobj_attribute enabled_attr = __ATTR_RW(enabled);

static ssize_t pages_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", 4096UL);
}
static struct kobj_attribute pages_attr = __ATTR(pages, S_IRUGO, pages_show, NULL);

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", likely(enabled) ? "on" : "off");
}
static struct kobj_attribute state_attr = __ATTR_RO_MODE(state, 0400);

/* --------------------------------------------------------------------- printing */

static __printf(1, 2) void rk_note(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("rk_fw: note: %pV\n", &vaf);
	va_end(args);
}

static void print_formats(void)
{
	static const char *const words[] = {
		"1", "y", "Yes", "on", "oFF", "t", "False", "enable", "disable", "0", "x", "", "o",
	};
	static const u8 mac[6] = { 0x00, 0x16, 0x3e, 0x12, 0x34, 0x56 };
	static const u8 ip[4] = { 192, 168, 1, 10 };
	static const u8 uuid[16] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
				     0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };
	phys_addr_t base = 0x1000;
	int n = 0;

	pr_info("rk_fw: base %pa\n", &base);
	pr_info("rk_fw: errors %pe %pe %pe\n", ERR_PTR(-ENOMEM), ERR_PTR(-EPROBE_DEFER),
		ERR_PTR(-1234));
	pr_info("rk_fw: store is %ps\n", enabled_store);
	rk_note("%d objects, %s", 3, "ready");
	pr_info("rk_fw: id %*ph, %*phC, %*phN\n", 4, eeprom_id, 2, eeprom_id, 3, eeprom_id);
	pr_info("rk_fw: mac %pM %pMF %pmR\n", mac, mac, mac);
	pr_info("rk_fw: ip %pI4 %pi4\n", ip, ip);
	pr_info("rk_fw: uuid %pUb %pUL\n", uuid, uuid);
	pr_info("rk_fw: numbers %#x %#o %.0d %5.2s| %-4d| %+d %03d %hhd %lld %zu %c%%\n", 0, 0,
		0, "abcdef", 7, 5, -7, 300, -5LL, sizeof(u64), 'k');
	pr_info("rk_fw: stops at %n here\n", &n);
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		bool v = false;
		int ret = kstrtobool(words[i], &v);

		pr_info("rk_fw: kstrtobool '%s' %d %d\n", words[i], ret, v);
	}
}

/* ------------------------------------------------------------------------ module */

static struct kobject *fw, *mm;

static int __init rk_fw_init(void)
{
	int ret = -ENOMEM;

	fw = kobject_create_and_add("rk_fw", firmware_kobj);
	mm = kobject_create_and_add("rk_mm", mm_kobj);
	if (!fw || !mm)
		goto put;
	ret = sysfs_create_bin_file(fw, &bin_attr_blob);
	if (!ret)
		ret = sysfs_create_group(fw, &eeprom_group);
	if (!ret)
		ret = sysfs_create_file(fw, &enabled_attr.attr);
	if (!ret)
		ret = sysfs_create_file(mm, &pages_attr.attr);
	if (!ret)
		ret = sysfs_create_file(mm, &state_attr.attr);
	if (ret)
		goto put;
	pr_info("rk_fw: again %d\n", sysfs_create_bin_file(fw, &bin_attr_blob));
	sysfs_notify(fw, "eeprom", "id");
	sysfs_notify(fw, NULL, "missing");
	pr_info("kref rk_fw %u\n", kref_read(&fw->kref));
	pr_info("rk_fw: initialized %d, in sysfs %d, sd %s\n", fw->state_initialized,
		fw->state_in_sysfs, fw->sd ? "set" : "NULL");
	print_formats();
	return 0;

put:
	kobject_put(mm);
	kobject_put(fw);
	return ret;
}

static void __exit rk_fw_exit(void)
{
	sysfs_remove_group(fw, &eeprom_group);
	sysfs_remove_bin_file(fw, &bin_attr_blob);
	kobject_put(mm);
	kobject_put(fw);
}

module_init(rk_fw_init);
module_exit(rk_fw_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("binary attributes, sysfs_notify and the kernel's printf");
