/*
 * Lesson 16 (struct kref and refcount_t) in C, the reference solution: the -EFBIG path
 * jumps to put_fw, whose one put gives back the reference fw_get() took.
 *
 * A firmware cache shaped like the kernel's firmware loader: devices that ask for the
 * same image share one copy, counted by a struct kref; the last kref_put() runs
 * fw_release(). The cache holds no reference: lookups use kref_get_unless_zero(). Init
 * plays the lesson's checks and prints each count with kref_read(). The images live in
 * a static pool, so a put too many finds a count of 0 (refcount_t warns and saturates)
 * instead of freed memory.
 */
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/string.h>

struct fw_image {
	struct kref kref;
	const char *name;
	size_t size;
	int cached;
};

struct device_slot {
	const char *name;
	size_t buf_size;
	struct fw_image *fw;
};

static struct fw_image pool[4];
static int used;

static void fw_release(struct kref *kref)
{
	struct fw_image *fw = container_of(kref, struct fw_image, kref);

	pr_info("fw_release %s\n", fw->name);
	fw->cached = 0;
}

static struct fw_image *fw_lookup(const char *name)
{
	for (int i = 0; i < used; i++)
		if (pool[i].cached && !strcmp(pool[i].name, name) &&
		    kref_get_unless_zero(&pool[i].kref))
			return &pool[i];
	return NULL;
}

static struct fw_image *fw_get(const char *name)
{
	struct fw_image *fw = fw_lookup(name);

	if (fw || used == 4)
		return fw;
	fw = &pool[used++];
	fw->name = name;
	fw->size = !strcmp(name, "iwlwifi.ucode") ? 1200000 : 6000;
	fw->cached = 1;
	kref_init(&fw->kref);
	return fw;
}

static int request_firmware(struct device_slot *dev, const char *name)
{
	struct fw_image *fw = fw_get(name);
	int err;

	if (!fw)
		return -ENOENT;
	if (fw->size > dev->buf_size) {
		err = -EFBIG;
		goto put_fw;
	}
	if (dev->fw) {
		err = -EBUSY;
		goto put_fw;
	}
	dev->fw = fw;
	return 0;

put_fw:
	kref_put(&fw->kref, fw_release);
	return err;
}

static void release_firmware(struct device_slot *dev)
{
	struct fw_image *fw = dev->fw;

	dev->fw = NULL;
	kref_put(&fw->kref, fw_release);
}

static struct device_slot wlan0 = { "wlan0", 2 << 20 }, wlan1 = { "wlan1", 2 << 20 };
static struct device_slot eth0 = { "eth0", 64 << 10 };

static int __init fw_init(void)
{
	struct fw_image *image;

	pr_info("request wlan0: %d\n", request_firmware(&wlan0, "iwlwifi.ucode"));
	image = wlan0.fw;
	pr_info("kref iwlwifi %u\n", kref_read(&image->kref));
	pr_info("request wlan1: %d\n", request_firmware(&wlan1, "iwlwifi.ucode"));
	pr_info("kref iwlwifi %u\n", kref_read(&image->kref));
	pr_info("request eth0: %d\n", request_firmware(&eth0, "iwlwifi.ucode"));
	pr_info("kref iwlwifi %u\n", kref_read(&image->kref));
	pr_info("request wlan0 again: %d\n", request_firmware(&wlan0, "rtl8168g.fw"));
	release_firmware(&wlan0);
	pr_info("kref iwlwifi %u\n", kref_read(&image->kref));
	release_firmware(&wlan1);
	pr_info("kref iwlwifi %u\n", kref_read(&image->kref));
	return 0;
}

static void __exit fw_exit(void)
{
}

module_init(fw_init);
module_exit(fw_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lesson 16, struct kref and refcount_t");
