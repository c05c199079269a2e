/*
 * Memory maps in the style of drivers/uio/uio.c: a device kobject in a class-like kset
 * (/sys/kernel/rk_uio/uio0), a "maps" kobject under it, and one struct uio_map per
 * memory region, its kobject embedded, named map0, map1... The map files (name, addr,
 * size, offset) are struct map_sysfs_entry attributes that a custom sysfs_ops turns back
 * into the region: addr and size print with %pa, offset can be written (within the
 * region). Removal puts each map and then the maps directory.
 */
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/module.h>
#include <linux/init.h>

//! read /sys/kernel/rk_uio/uio0/maps/map0/addr
//! read /sys/kernel/rk_uio/uio0/maps/map1/size
//! write /sys/kernel/rk_uio/uio0/maps/map1/offset 0x80
//! read /sys/kernel/rk_uio/uio0/maps/map1/offset
//! write /sys/kernel/rk_uio/uio0/maps/map0/offset 0x2000
//! write /sys/kernel/rk_uio/uio0/maps/map0/addr 0
//! read /sys/kernel/rk_uio/uio0/maps/map2/name

#define RK_MAX_MAPS 4

struct uio_map;

/* A memory region a driver exports; size 0 ends the list. */
struct uio_mem {
	const char *name;
	phys_addr_t addr;
	unsigned long offs;
	resource_size_t size;
	struct uio_map *map;
};

struct uio_device {
	struct kobject kobj;
	struct kobject *map_dir;
	struct uio_mem mem[RK_MAX_MAPS];
};

/* The sysfs face of one region. */
struct uio_map {
	struct kobject kobj;
	struct uio_mem *mem;
};
#define to_map(k) container_of(k, struct uio_map, kobj)

/* ------------------------------------------------------------------- map attributes */

struct map_sysfs_entry {
	struct attribute attr;
	ssize_t (*show)(struct uio_mem *mem, char *buf);
	ssize_t (*store)(struct uio_mem *mem, const char *buf, size_t count);
};

static ssize_t map_name_show(struct uio_mem *mem, char *buf)
{
	return sprintf(buf, "%s\n", unlikely(!mem->name) ? "" : mem->name);
}

static ssize_t map_addr_show(struct uio_mem *mem, char *buf)
{
	return sprintf(buf, "%pa\n", &mem->addr);
}

static ssize_t map_size_show(struct uio_mem *mem, char *buf)
{
	return sprintf(buf, "%pa\n", &mem->size);
}

static ssize_t map_offset_show(struct uio_mem *mem, char *buf)
{
	return sprintf(buf, "0x%lx\n", mem->offs);
}

static ssize_t map_offset_store(struct uio_mem *mem, const char *buf, size_t count)
{
	unsigned long offs;
	int ret = kstrtoul(buf, 0, &offs);

	if (ret)
		return ret;
	if (offs >= mem->size)
		return -EINVAL;
	mem->offs = offs;
	return count;
}

static struct map_sysfs_entry name_attribute = __ATTR(name, S_IRUGO, map_name_show, NULL);
static struct map_sysfs_entry addr_attribute = __ATTR(addr, S_IRUGO, map_addr_show, NULL);
static struct map_sysfs_entry size_attribute = __ATTR(size, S_IRUGO, map_size_show, NULL);
static struct map_sysfs_entry offset_attribute =
	__ATTR(offset, S_IRUGO | S_IWUSR, map_offset_show, map_offset_store);

static struct attribute *map_attrs[] = {
	&name_attribute.attr,
	&addr_attribute.attr,
	&size_attribute.attr,
	&offset_attribute.attr,
	NULL,
};
ATTRIBUTE_GROUPS(map);

static ssize_t map_type_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct map_sysfs_entry *entry = container_of(attr, struct map_sysfs_entry, attr);

	if (!entry->show)
		return -EIO;
	return entry->show(to_map(kobj)->mem, buf);
}

static ssize_t map_type_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			      size_t count)
{
	struct map_sysfs_entry *entry = container_of(attr, struct map_sysfs_entry, attr);

	if (!entry->store)
		return -EIO;
	return entry->store(to_map(kobj)->mem, buf, count);
}

static const struct sysfs_ops map_sysfs_ops = {
	.show = map_type_show,
	.store = map_type_store,
};

static void map_release(struct kobject *kobj)
{
	kfree(to_map(kobj));
}

static const struct kobj_type map_attr_type = {
	.release = map_release,
	.sysfs_ops = &map_sysfs_ops,
	.default_groups = map_groups,
};

/* --------------------------------------------------------------------- the device */

static void device_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct uio_device, kobj));
}

static const struct kobj_type device_type = {
	.release = device_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

/* One kobject per region with a size, under "maps"; on failure none is left. */
static int add_maps(struct uio_device *idev)
{
	struct uio_mem *mem;
	struct uio_map *map;
	int mi, ret;

	idev->map_dir = kobject_create_and_add("maps", &idev->kobj);
	if (!idev->map_dir)
		return -ENOMEM;
	for (mi = 0; mi < RK_MAX_MAPS && idev->mem[mi].size; mi++) {
		mem = &idev->mem[mi];
		map = kzalloc(sizeof(*map), GFP_KERNEL);
		if (!map) {
			ret = -ENOMEM;
			goto put_maps;
		}
		map->mem = mem;
		mem->map = map;
		ret = kobject_init_and_add(&map->kobj, &map_attr_type, idev->map_dir, "map%d", mi);
		if (ret)
			goto put_this_map;
		ret = kobject_uevent(&map->kobj, KOBJ_ADD);
		if (ret)
			goto put_this_map;
	}
	return 0;

put_this_map:
	kobject_put(&map->kobj);
	idev->mem[mi].map = NULL;
put_maps:
	while (--mi >= 0) {
		kobject_put(&idev->mem[mi].map->kobj);
		idev->mem[mi].map = NULL;
	}
	kobject_put(idev->map_dir);
	return ret;
}

static void del_maps(struct uio_device *idev)
{
	for (int mi = 0; mi < RK_MAX_MAPS && idev->mem[mi].map; mi++)
		kobject_put(&idev->mem[mi].map->kobj);
	kobject_put(idev->map_dir);
}

/* ------------------------------------------------------------------------ module */

static struct kset *uio_class;
static struct uio_device *idev;

static int __init rk_uio_init(void)
{
	static const struct uio_mem regions[] = {
		{ .name = "registers", .addr = 0xfed40000, .size = 0x1000 },
		{ .name = "buffer", .addr = 0x100000000ULL, .offs = 0x10, .size = 0x10000 },
		{ .addr = 0xc0000000, .size = 0x200 },
	};
	int ret;

	uio_class = kset_create_and_add("rk_uio", NULL, kernel_kobj);
	if (!uio_class)
		return -ENOMEM;
	idev = kzalloc(sizeof(*idev), GFP_KERNEL);
	if (!idev) {
		ret = -ENOMEM;
		goto unregister_class;
	}
	memcpy(idev->mem, regions, sizeof(regions));
	idev->kobj.kset = uio_class;
	ret = kobject_init_and_add(&idev->kobj, &device_type, NULL, "uio%d", 0);
	if (ret)
		goto put_device;
	kobject_uevent(&idev->kobj, KOBJ_ADD);
	ret = add_maps(idev);
	if (ret)
		goto put_device;
	pr_info("rk_uio: uio0 with %zu maps\n", ARRAY_SIZE(regions));
	pr_info("kref map1 %u\n", kref_read(&idev->mem[1].map->kobj.kref));
	pr_info("kref maps %u\n", kref_read(&idev->map_dir->kref));
	return 0;

put_device:
	kobject_put(&idev->kobj);
unregister_class:
	kset_unregister(uio_class);
	return ret;
}

static void __exit rk_uio_exit(void)
{
	del_maps(idev);
	kobject_put(&idev->kobj);
	kset_unregister(uio_class);
}

module_init(rk_uio_init);
module_exit(rk_uio_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("uio-style memory maps for the kobject sandbox");
