/*
 * A filesystem's sysfs in the style of fs/erofs/sysfs.c: a kset of its own, declared
 * statically with its ktype and registered under fs_kobj (/sys/fs/rk_erofs); a static
 * "features" kobject whose read-only files say what this copy supports; and one kobject
 * per mounted superblock (loop0, loop1) with tunables in default_groups, described by a
 * table of attributes that point into the superblock's options. Unmounting deletes the
 * superblock's kobject, puts it, and waits on a completion that its release completes
 * before the superblock is freed.
 */
#include <linux/kobject.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/module.h>
#include <linux/init.h>

//! read /sys/fs/rk_erofs/features/zero_padding
//! write /sys/fs/rk_erofs/loop0/sync_decompress 2
//! read /sys/fs/rk_erofs/loop0/sync_decompress
//! write /sys/fs/rk_erofs/loop0/sync_decompress 7
//! write /sys/fs/rk_erofs/loop1/sync_decompress \n 1
//! read /sys/fs/rk_erofs/loop1/sync_decompress
//! write /sys/fs/rk_erofs/loop0/readahead yes
//! read /sys/fs/rk_erofs/loop0/readahead
//! write /sys/fs/rk_erofs/loop0/readahead maybe
//! write /sys/fs/rk_erofs/loop0/max_sync_decompress 4294967296
//! write /sys/fs/rk_erofs/features/zero_padding 1

enum { attr_feature, attr_pointer_ui, attr_pointer_bool };
enum { struct_rk_sb_info, struct_rk_mount_opts };

struct rk_mount_opts {
	unsigned int sync_decompress;
	unsigned int max_sync_decompress;
	bool readahead;
};

struct rk_sb_info {
	struct rk_mount_opts opt;
	const char *s_id;
	struct kobject s_kobj;
	struct completion s_kobj_unregister;
};

struct rk_attr {
	struct attribute attr;
	short attr_id;
	int struct_type, offset;
};

#define RK_ATTR(_name, _mode, _id)                                                       \
	static struct rk_attr rk_attr_##_name = {                                         \
		.attr = { .name = __stringify(_name), .mode = _mode },                   \
		.attr_id = attr_##_id,                                                   \
	}
#define RK_ATTR_FEATURE(_name) RK_ATTR(_name, 0444, feature)
#define RK_ATTR_RW(_name, _id, _struct)                                                  \
	static struct rk_attr rk_attr_##_name = {                                         \
		.attr = { .name = __stringify(_name), .mode = 0644 },                    \
		.attr_id = attr_##_id,                                                   \
		.struct_type = struct_##_struct,                                         \
		.offset = offsetof(struct _struct, _name),                               \
	}
#define ATTR_LIST(name) (&rk_attr_##name.attr)

RK_ATTR_RW(sync_decompress, pointer_ui, rk_mount_opts);
RK_ATTR_RW(max_sync_decompress, pointer_ui, rk_mount_opts);
RK_ATTR_RW(readahead, pointer_bool, rk_mount_opts);

static struct attribute *rk_sb_attrs[] = {
	ATTR_LIST(sync_decompress),
	ATTR_LIST(max_sync_decompress),
	ATTR_LIST(readahead),
	NULL,
};
ATTRIBUTE_GROUPS(rk_sb);

RK_ATTR_FEATURE(zero_padding);
RK_ATTR_FEATURE(compr_cfgs);
RK_ATTR_FEATURE(big_pcluster);

static struct attribute *rk_feat_attrs[] = {
	ATTR_LIST(zero_padding),
	ATTR_LIST(compr_cfgs),
	ATTR_LIST(big_pcluster),
	NULL,
};
ATTRIBUTE_GROUPS(rk_feat);

static unsigned char *field(struct rk_sb_info *sbi, const struct rk_attr *a)
{
	if (a->struct_type == struct_rk_sb_info)
		return (unsigned char *)sbi + a->offset;
	if (a->struct_type == struct_rk_mount_opts)
		return (unsigned char *)&sbi->opt + a->offset;
	return NULL;
}

static ssize_t rk_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct rk_sb_info *sbi = container_of(kobj, struct rk_sb_info, s_kobj);
	const struct attribute *cattr = attr;
	const struct rk_attr *a = container_of_const(cattr, struct rk_attr, attr);

	switch (a->attr_id) {
	case attr_feature:
		return sysfs_emit(buf, "supported\n");
	case attr_pointer_ui:
		return sysfs_emit(buf, "%u\n", *(unsigned int *)field(sbi, a));
	case attr_pointer_bool:
		return sysfs_emit(buf, "%d\n", *(bool *)field(sbi, a));
	}
	return 0;
}

static ssize_t rk_attr_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			     size_t len)
{
	struct rk_sb_info *sbi = container_of(kobj, struct rk_sb_info, s_kobj);
	struct rk_attr *a = container_of(attr, struct rk_attr, attr);
	unsigned long t;
	bool b;
	int ret;

	switch (a->attr_id) {
	case attr_pointer_ui:
		ret = kstrtoul(skip_spaces(buf), 0, &t);
		if (ret)
			return ret;
		if (t != (unsigned int)t)
			return -ERANGE;
		if (!strcmp(a->attr.name, "sync_decompress") && t > 3)
			return -EINVAL;
		*(unsigned int *)field(sbi, a) = (unsigned int)t;
		return len;
	case attr_pointer_bool:
		ret = kstrtobool(skip_spaces(buf), &b);
		if (ret)
			return ret;
		*(bool *)field(sbi, a) = b;
		return len;
	}
	return 0;
}

static const struct sysfs_ops rk_attr_ops = {
	.show = rk_attr_show,
	.store = rk_attr_store,
};

/* ------------------------------------------------------------ the kset and features */

static void rk_root_release(struct kobject *kobj)
{
	pr_info("rk_erofs: root released\n");
}

static const struct kobj_type rk_root_ktype = {
	.release = rk_root_release,
};

static struct kset rk_root = {
	.kobj = { .ktype = &rk_root_ktype },
};

static void rk_feat_release(struct kobject *kobj)
{
	pr_info("rk_erofs: features released\n");
}

static const struct kobj_type rk_feat_ktype = {
	.default_groups = rk_feat_groups,
	.sysfs_ops = &rk_attr_ops,
	.release = rk_feat_release,
};

static struct kobject rk_feat = {
	.kset = &rk_root,
};

/* ------------------------------------------------------------------ superblocks */

static void rk_sb_release(struct kobject *kobj)
{
	struct rk_sb_info *sbi = container_of(kobj, struct rk_sb_info, s_kobj);

	complete(&sbi->s_kobj_unregister);
}

static const struct kobj_type rk_sb_ktype = {
	.default_groups = rk_sb_groups,
	.sysfs_ops = &rk_attr_ops,
	.release = rk_sb_release,
};

static int rk_register_sysfs(struct rk_sb_info *sbi)
{
	int err;

	sbi->s_kobj.kset = &rk_root;
	init_completion(&sbi->s_kobj_unregister);
	err = kobject_init_and_add(&sbi->s_kobj, &rk_sb_ktype, NULL, "%s", sbi->s_id);
	if (err) {
		kobject_put(&sbi->s_kobj);
		wait_for_completion(&sbi->s_kobj_unregister);
	}
	return err;
}

static void rk_unregister_sysfs(struct rk_sb_info *sbi)
{
	if (sbi->s_kobj.state_in_sysfs) {
		kobject_del(&sbi->s_kobj);
		kobject_put(&sbi->s_kobj);
		wait_for_completion(&sbi->s_kobj_unregister);
	}
}

static struct rk_sb_info *rk_mount(const char *id)
{
	struct rk_sb_info *sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);

	if (!sbi)
		return NULL;
	sbi->s_id = id;
	sbi->opt.max_sync_decompress = 3;
	if (rk_register_sysfs(sbi)) {
		kfree(sbi);
		return NULL;
	}
	return sbi;
}

static void rk_umount(struct rk_sb_info *sbi)
{
	rk_unregister_sysfs(sbi);
	pr_info("rk_erofs: %s unmounted, in sysfs %d, initialized %d\n", sbi->s_id,
		sbi->s_kobj.state_in_sysfs, sbi->s_kobj.state_initialized);
	kfree(sbi);
}

/* ------------------------------------------------------------------------ module */

static struct rk_sb_info *sb0, *sb1;

static int __init rk_erofs_init(void)
{
	int ret;

	kobject_set_name(&rk_root.kobj, "rk_erofs");
	rk_root.kobj.parent = fs_kobj;
	ret = kset_register(&rk_root);
	if (ret)
		return ret;
	ret = kobject_init_and_add(&rk_feat, &rk_feat_ktype, NULL, "features");
	if (ret)
		goto put_features;
	sb0 = rk_mount("loop0");
	sb1 = rk_mount("loop1");
	if (!sb0 || !sb1) {
		ret = -ENOMEM;
		goto umount;
	}
	pr_info("kref rk_erofs %u\n", kref_read(&rk_root.kobj.kref));
	pr_info("kref loop0 %u\n", kref_read(&sb0->s_kobj.kref));
	pr_info("rk_erofs: loop0 in sysfs %d, sd %s\n", sb0->s_kobj.state_in_sysfs,
		sb0->s_kobj.sd ? "set" : "NULL");
	return 0;

umount:
	if (sb1)
		rk_umount(sb1);
	if (sb0)
		rk_umount(sb0);
put_features:
	kobject_put(&rk_feat);
	kset_unregister(&rk_root);
	return ret;
}

static void __exit rk_erofs_exit(void)
{
	rk_umount(sb1);
	rk_umount(sb0);
	kobject_put(&rk_feat);
	kset_unregister(&rk_root);
}

module_init(rk_erofs_init);
module_exit(rk_erofs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("erofs-style filesystem sysfs for the kobject sandbox");
