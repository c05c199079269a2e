/* The virtual sysfs: directories made by kobject_add, attribute files, lookups, the tree. */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"

/* ------------------------------------------------------------------ attribute ktypes */

static struct attribute value_attr = { .name = "value", .mode = 0644 };
static struct attribute name_attr = { .name = "name", .mode = 0444 };
static struct attribute *object_attrs[] = { &value_attr, &name_attr, NULL };

static ssize_t object_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct my_object *o = container_of(kobj, struct my_object, kobj);
	if (attr == &value_attr)
		return sprintf(buf, "%d\n", o->value);
	return sprintf(buf, "%s\n", kobject_name(kobj));
}

static ssize_t object_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			    size_t count)
{
	struct my_object *o = container_of(kobj, struct my_object, kobj);
	char *end;
	if (attr != &value_attr)
		return -EPERM;
	long v = strtol(buf, &end, 10);
	if (end == buf)
		return -EINVAL;
	o->value = (int)v;
	return (ssize_t)count;
}

static struct sysfs_ops object_ops = { .show = object_show, .store = object_store };
static struct sysfs_ops show_only_ops = { .show = object_show };

static struct kobj_type attr_ktype = {
	.release = my_object_release,
	.sysfs_ops = &object_ops,
	.default_attrs = object_attrs,
};

/* Files but no sysfs_ops: reads and writes have nothing to call. */
static struct kobj_type no_ops_ktype = {
	.release = my_object_release,
	.default_attrs = object_attrs,
};

static struct kobj_type show_only_ktype = {
	.release = my_object_release,
	.sysfs_ops = &show_only_ops,
	.default_attrs = object_attrs,
};

/* ---------------------------------------------------------------------------- helpers */

/* A new object of @ktype (NULL: the fixture's), initialised and added under @parent. */
static struct my_object *added(const char *name, struct kobject *parent, struct kobj_type *ktype)
{
	struct my_object *o = new_object(name);
	if (ktype)
		o->kobj.ktype = ktype;
	o->kobj.parent = parent;
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), 0);
	return o;
}

static const char *path_of(const struct sysfs_dirent *d, char *buf, size_t size)
{
	assert_non_null(d);
	sysfs_dirent_path(d, buf, size);
	return buf;
}

/* ------------------------------------------------------------------------ directories */

static void add_creates_top_level_directory(void **state)
{
	struct my_object *o = added("alpha", NULL, NULL);
	const struct sysfs_dirent *d = sysfs_lookup(*state, "/sys/alpha");

	assert_non_null(d);
	assert_int_equal(sysfs_dirent_type(d), SYSFS_DIR);
	assert_string_equal(sysfs_dirent_name(d), "alpha");
	assert_ptr_equal(sysfs_dirent_kobj(d), &o->kobj);
	assert_null(sysfs_dirent_attr(d));
	assert_ptr_equal(o->kobj.dentry, d);
	assert_null(o->kobj.parent);
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	assert_int_equal(kobj_diag_count(*state), 0);

	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

static void add_with_parent_nests_directory(void **state)
{
	struct my_object *p = added("parent", NULL, NULL);
	struct my_object *c = added("child", &p->kobj, NULL);
	char buf[64];

	assert_non_null(sysfs_lookup(*state, "/sys/parent/child"));
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/parent/child")), &c->kobj);
	assert_null(sysfs_lookup(*state, "/sys/child"));
	assert_string_equal(path_of(c->kobj.dentry, buf, sizeof(buf)), "/sys/parent/child");
	assert_ptr_equal(c->kobj.parent, &p->kobj);
	/* init + add + the child's hold */
	assert_int_equal(kobject_refcount(&p->kobj), 3);
	assert_int_equal(kobject_refcount(&c->kobj), 2);

	kobject_unregister(&c->kobj);
	assert_int_equal(kobject_refcount(&p->kobj), 2);
	kobject_unregister(&p->kobj);
	assert_int_equal(released, 2);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void kset_member_without_parent_lands_in_kset_directory(void **state)
{
	decl_subsys(bus, NULL, NULL);
	struct kset drivers = { .subsys = &bus_subsys };
	char buf[64];

	assert_int_equal(subsystem_register(&bus_subsys), 0);
	assert_int_equal(kobject_set_name(&drivers.kobj, "drivers"), 0);
	assert_int_equal(kset_register(&drivers), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/bus/drivers"));

	struct my_object *m = new_object("member");
	m->kobj.kset = &drivers;
	kobject_init(&m->kobj);
	assert_int_equal(kobject_add(&m->kobj), 0);

	const struct sysfs_dirent *d = sysfs_lookup(*state, "/sys/bus/drivers/member");
	assert_non_null(d);
	assert_ptr_equal(sysfs_dirent_kobj(d), &m->kobj);
	assert_string_equal(path_of(m->kobj.dentry, buf, sizeof(buf)), "/sys/bus/drivers/member");
	assert_ptr_equal(m->kobj.parent, &drivers.kobj);
	assert_null(sysfs_lookup(*state, "/sys/member"));
	assert_ptr_equal(kset_find_obj(&drivers, "member"), &m->kobj);
	/* the kset: init + add + the member's parent and kset references */
	assert_int_equal(kobject_refcount(&drivers.kobj), 4);
	assert_int_equal(kobj_diag_count(*state), 0);

	kobject_unregister(&m->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobject_refcount(&drivers.kobj), 2);
	kset_unregister(&drivers);
	subsystem_unregister(&bus_subsys);
	assert_null(sysfs_lookup(*state, "/sys/bus"));
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ---------------------------------------------------------------------------- lookups */

static void lookup_accepts_paths_with_or_without_sys_prefix(void **state)
{
	struct my_object *p = added("p", NULL, NULL);
	struct my_object *c = added("c", &p->kobj, &attr_ktype);
	const struct sysfs_dirent *root = sysfs_lookup(*state, "/sys");

	assert_non_null(root);
	assert_int_equal(sysfs_dirent_type(root), SYSFS_DIR);
	assert_string_equal(sysfs_dirent_name(root), "sys");
	assert_null(sysfs_dirent_kobj(root));
	assert_ptr_equal(sysfs_lookup(*state, "/sys/"), root);
	assert_ptr_equal(sysfs_lookup(*state, "/"), root);
	assert_ptr_equal(sysfs_lookup(*state, ""), root);

	const struct sysfs_dirent *d = c->kobj.dentry;
	assert_non_null(d);
	assert_ptr_equal(sysfs_lookup(*state, "/sys/p/c"), d);
	assert_ptr_equal(sysfs_lookup(*state, "/p/c"), d);
	assert_ptr_equal(sysfs_lookup(*state, "p/c"), d);
	assert_ptr_equal(sysfs_lookup(*state, "/sys/p/c/"), d);
	assert_ptr_equal(sysfs_lookup(*state, "/sys/p/c//"), d);
	assert_ptr_equal(sysfs_lookup(*state, "/sys//p//c"), d);
	assert_ptr_equal(sysfs_lookup(*state, "/p/"), p->kobj.dentry);

	const struct sysfs_dirent *f = sysfs_lookup(*state, "/sys/p/c/value");
	assert_non_null(f);
	assert_int_equal(sysfs_dirent_type(f), SYSFS_FILE);
	assert_ptr_equal(sysfs_lookup(*state, "p/c/value"), f);

	assert_null(sysfs_lookup(*state, NULL));
	assert_null(sysfs_lookup(*state, "/sys/nope"));
	assert_null(sysfs_lookup(*state, "/sys/p/nope"));
	assert_null(sysfs_lookup(*state, "/sys/p/c/value/x")); /* a file has no entries */
	assert_null(sysfs_lookup(*state, "/sysp"));            /* not the /sys prefix */
	assert_null(sysfs_lookup(*state, "/sys/c"));

	kobject_unregister(&c->kobj);
	kobject_unregister(&p->kobj);
	assert_int_equal(released, 2);
}

static void list_is_sorted_by_name(void **state)
{
	struct my_object *z = added("zeta", NULL, NULL);
	struct my_object *a = added("alpha", NULL, NULL);
	struct my_object *m = added("mid", NULL, &attr_ktype);
	const struct sysfs_dirent **list = NULL;

	assert_int_equal(sysfs_list(*state, "/sys", &list), 3);
	assert_non_null(list);
	assert_string_equal(sysfs_dirent_name(list[0]), "alpha");
	assert_string_equal(sysfs_dirent_name(list[1]), "mid");
	assert_string_equal(sysfs_dirent_name(list[2]), "zeta");
	assert_ptr_equal(sysfs_dirent_kobj(list[0]), &a->kobj);
	free(list);

	/* default_attrs declared value, name: listed name, value */
	assert_int_equal(sysfs_list(*state, "mid", &list), 2);
	assert_string_equal(sysfs_dirent_name(list[0]), "name");
	assert_string_equal(sysfs_dirent_name(list[1]), "value");
	assert_int_equal(sysfs_dirent_type(list[0]), SYSFS_FILE);
	free(list);

	list = (const struct sysfs_dirent **)&list; /* must be reset */
	assert_int_equal(sysfs_list(*state, "/sys/alpha/", &list), 0);
	assert_null(list);

	kobject_unregister(&z->kobj);
	kobject_unregister(&a->kobj);
	kobject_unregister(&m->kobj);
	assert_int_equal(released, 3);
}

static void list_of_missing_path_or_file_fails(void **state)
{
	struct my_object *o = added("obj", NULL, &attr_ktype);
	const struct sysfs_dirent **list = (const struct sysfs_dirent **)&list;

	assert_int_equal(sysfs_list(*state, "/sys/none", &list), -ENOENT);
	assert_null(list);
	list = (const struct sysfs_dirent **)&list;
	assert_int_equal(sysfs_list(*state, "/sys/obj/value", &list), -ENOTDIR);
	assert_null(list);

	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

/* ----------------------------------------------------------------------------- names */

static void duplicate_top_level_name_fails_with_eexist(void **state)
{
	struct my_object *first = added("dup", NULL, NULL);
	struct my_object *second = new_object("dup");
	size_t diags;

	kobject_init(&second->kobj);
	assert_int_equal(kobject_add(&second->kobj), -EEXIST);
	assert_last_diag(state, "duplicate-name", "sysfs: cannot create duplicate filename '//dup'");
	assert_last_diag(state, "duplicate-name",
			 "kobject_add_internal failed for dup with -EEXIST, don't try to "
			 "register things with the same name in the same directory.");
	assert_int_equal(last_diag(state)->obj, kobj_record_of(*state, second)->id);

	/* nothing was taken, and the first object still owns the name */
	assert_int_equal(kobject_refcount(&second->kobj), 1);
	assert_int_equal(second->kobj.refcount, 1);
	assert_null(second->kobj.dentry);
	assert_int_equal(kobject_refcount(&first->kobj), 2);
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/dup")), &first->kobj);
	assert_false(kobj_record_of(*state, second)->in_sysfs);

	diags = kobj_diag_count(*state);
	kobject_put(&second->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), diags);
	assert_non_null(sysfs_lookup(*state, "/sys/dup"));

	kobject_unregister(&first->kobj);
	assert_int_equal(released, 2);
	assert_int_equal(kobj_diag_count(*state), diags);
}

static void duplicate_under_parent_takes_no_reference(void **state)
{
	struct my_object *p = added("p", NULL, NULL);
	struct my_object *c = added("c", &p->kobj, NULL);
	struct my_object *again = new_object("c");
	size_t diags;

	assert_int_equal(kobject_refcount(&p->kobj), 3);
	again->kobj.parent = &p->kobj;
	kobject_init(&again->kobj);
	assert_int_equal(kobject_add(&again->kobj), -EEXIST);
	assert_last_diag(state, "duplicate-name",
			 "sysfs: cannot create duplicate filename '/p/c'");
	assert_last_diag(state, "duplicate-name",
			 "kobject_add_internal failed for c with -EEXIST, don't try to "
			 "register things with the same name in the same directory.");
	assert_int_equal(kobject_refcount(&again->kobj), 1);
	assert_int_equal(kobject_refcount(&p->kobj), 3);

	diags = kobj_diag_count(*state);
	kobject_put(&again->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobject_refcount(&p->kobj), 3);
	assert_int_equal(kobj_diag_count(*state), diags);

	kobject_unregister(&c->kobj);
	kobject_unregister(&p->kobj);
	assert_int_equal(released, 3);
	assert_int_equal(kobj_diag_count(*state), diags);
}

static void duplicate_in_kset_takes_no_reference(void **state)
{
	decl_subsys(bus, NULL, NULL);
	struct kset drivers = { .subsys = &bus_subsys };
	struct my_object *a = new_object("same");
	struct my_object *b = new_object("same");

	assert_int_equal(subsystem_register(&bus_subsys), 0);
	kobject_set_name(&drivers.kobj, "drivers");
	assert_int_equal(kset_register(&drivers), 0);
	a->kobj.kset = &drivers;
	b->kobj.kset = &drivers;
	kobject_init(&a->kobj);
	kobject_init(&b->kobj);
	assert_int_equal(kobject_add(&a->kobj), 0);
	assert_int_equal(kobject_refcount(&drivers.kobj), 4);

	assert_int_equal(kobject_add(&b->kobj), -EEXIST);
	assert_last_diag(state, "duplicate-name",
			 "sysfs: cannot create duplicate filename '/bus/drivers/same'");
	assert_int_equal(kobject_refcount(&drivers.kobj), 4);
	assert_int_equal(kobject_refcount(&b->kobj), 1);
	/* b did not join the kset's list */
	assert_ptr_equal(drivers.list.next, &a->kobj.entry);
	assert_ptr_equal(drivers.list.prev, &a->kobj.entry);

	kobject_put(&b->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobject_refcount(&drivers.kobj), 4);
	kobject_unregister(&a->kobj);
	assert_int_equal(kobject_refcount(&drivers.kobj), 2);
	kset_unregister(&drivers);
	subsystem_unregister(&bus_subsys);
	assert_int_equal(released, 2);
}

static void same_name_in_different_directories_is_fine(void **state)
{
	struct my_object *p1 = added("p1", NULL, NULL);
	struct my_object *p2 = added("p2", NULL, NULL);
	struct my_object *x1 = added("x", &p1->kobj, NULL);
	struct my_object *x2 = added("x", &p2->kobj, NULL);
	struct my_object *x0 = added("x", NULL, NULL);

	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/p1/x")), &x1->kobj);
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/p2/x")), &x2->kobj);
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/x")), &x0->kobj);
	assert_int_equal(kobj_diag_count(*state), 0);

	kobject_unregister(&x0->kobj);
	kobject_unregister(&x1->kobj);
	kobject_unregister(&x2->kobj);
	kobject_unregister(&p1->kobj);
	kobject_unregister(&p2->kobj);
	assert_int_equal(released, 5);
}

/* ------------------------------------------------------------------ attribute files */

static void default_attrs_appear_as_files(void **state)
{
	struct my_object *o = added("obj", NULL, &attr_ktype);
	const struct sysfs_dirent *v = sysfs_lookup(*state, "/sys/obj/value");
	const struct sysfs_dirent *n = sysfs_lookup(*state, "/sys/obj/name");

	assert_non_null(v);
	assert_non_null(n);
	assert_int_equal(sysfs_dirent_type(v), SYSFS_FILE);
	assert_string_equal(sysfs_dirent_name(v), "value");
	assert_ptr_equal(sysfs_dirent_attr(v), &value_attr);
	assert_ptr_equal(sysfs_dirent_attr(n), &name_attr);
	assert_ptr_equal(sysfs_dirent_kobj(v), &o->kobj);

	/* an object of a ktype without default_attrs gets an empty directory */
	struct my_object *bare = added("bare", NULL, NULL);
	const struct sysfs_dirent **list;
	assert_int_equal(sysfs_list(*state, "/sys/bare", &list), 0);

	kobject_unregister(&o->kobj);
	kobject_unregister(&bare->kobj);
	assert_int_equal(released, 2);
}

static void read_goes_through_show(void **state)
{
	struct my_object *o = added("obj", NULL, &attr_ktype);
	char buf[64];

	o->value = 42;
	assert_int_equal(sysfs_read(*state, "/sys/obj/value", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "42\n");
	assert_int_equal(sysfs_read(*state, "obj/name", buf, sizeof(buf)), 4);
	assert_string_equal(buf, "obj\n");

	/* at most size - 1 bytes, NUL-terminated */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(sysfs_read(*state, "/sys/obj/value", buf, 2), 1);
	assert_string_equal(buf, "4");

	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

static void write_goes_through_store(void **state)
{
	struct my_object *o = added("obj", NULL, &attr_ktype);
	char buf[64];

	assert_int_equal(sysfs_write(*state, "/sys/obj/value", "17", 2), 2);
	assert_int_equal(o->value, 17);
	assert_int_equal(sysfs_read(*state, "/sys/obj/value", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "17\n");

	/* store's error reaches the caller unchanged */
	assert_int_equal(sysfs_write(*state, "/sys/obj/value", "abc", 3), -EINVAL);
	assert_int_equal(o->value, 17);
	/* name is 0444: the mode stops the write before store() */
	assert_int_equal(sysfs_write(*state, "/sys/obj/name", "new", 3), -EACCES);

	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

static void read_and_write_errors(void **state)
{
	struct my_object *no_ops = added("noops", NULL, &no_ops_ktype);
	struct my_object *ro = added("ro", NULL, &show_only_ktype);
	char buf[64];

	assert_non_null(sysfs_lookup(*state, "/sys/noops/value"));
	assert_int_equal(sysfs_read(*state, "/sys/noops/value", buf, sizeof(buf)), -EIO);
	assert_int_equal(sysfs_write(*state, "/sys/noops/value", "1", 1), -EIO);

	ro->value = 5;
	assert_int_equal(sysfs_read(*state, "/sys/ro/value", buf, sizeof(buf)), 2);
	assert_string_equal(buf, "5\n");
	assert_int_equal(sysfs_write(*state, "/sys/ro/value", "1", 1), -EIO);
	assert_int_equal(ro->value, 5);

	assert_int_equal(sysfs_read(*state, "/sys/ro", buf, sizeof(buf)), -EISDIR);
	assert_int_equal(sysfs_write(*state, "/sys/ro", "1", 1), -EISDIR);
	assert_int_equal(sysfs_read(*state, "/sys", buf, sizeof(buf)), -EISDIR);
	assert_int_equal(sysfs_read(*state, "/sys/ro/missing", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sysfs_write(*state, "/sys/ro/missing", "1", 1), -ENOENT);
	assert_int_equal(sysfs_read(*state, "/sys/gone/value", buf, sizeof(buf)), -ENOENT);

	kobject_unregister(&no_ops->kobj);
	kobject_unregister(&ro->kobj);
	assert_int_equal(released, 2);
}

/* -------------------------------------------------------------------------- removal */

static void del_removes_directory_and_files(void **state)
{
	struct my_object *o = added("obj", NULL, &attr_ktype);
	const struct sysfs_dirent **list;
	char buf[16];

	kobject_del(&o->kobj);
	assert_null(sysfs_lookup(*state, "/sys/obj"));
	assert_null(sysfs_lookup(*state, "/sys/obj/value"));
	assert_null(sysfs_lookup(*state, "/sys/obj/name"));
	assert_int_equal(sysfs_read(*state, "/sys/obj/value", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sysfs_list(*state, "/sys", &list), 0);
	assert_null(o->kobj.dentry);
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	assert_false(kobj_record_of(*state, o)->in_sysfs);
	assert_int_equal(released, 0);

	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void del_of_parent_removes_child_directories(void **state)
{
	struct my_object *p = added("p", NULL, NULL);
	struct my_object *c = added("c", &p->kobj, NULL);
	struct my_object *g = added("g", &c->kobj, &attr_ktype);
	const struct sysfs_dirent **list;

	kobject_del(&p->kobj);
	assert_null(sysfs_lookup(*state, "/sys/p"));
	assert_null(sysfs_lookup(*state, "/sys/p/c"));
	assert_null(sysfs_lookup(*state, "/sys/p/c/g"));
	assert_null(sysfs_lookup(*state, "/sys/p/c/g/value"));
	assert_int_equal(sysfs_list(*state, "/sys", &list), 0);
	assert_null(p->kobj.dentry);
	assert_null(c->kobj.dentry);
	assert_null(g->kobj.dentry);
	/* the child still holds its parent */
	assert_int_equal(kobject_refcount(&p->kobj), 2);

	/* the name is free again at the top */
	struct my_object *p2 = added("p", NULL, NULL);
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/p")), &p2->kobj);

	kobject_put(&p->kobj);
	assert_int_equal(released, 0);
	kobject_del(&g->kobj);
	kobject_put(&g->kobj);
	assert_int_equal(released, 1);
	kobject_del(&c->kobj);
	kobject_put(&c->kobj);
	assert_int_equal(released, 3); /* c, then p whose last holder c was */
	assert_int_equal(kobj_diag_count(*state), 0);
	/* the newcomer's directory was not touched */
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/p")), &p2->kobj);
	kobject_unregister(&p2->kobj);
	assert_int_equal(released, 4);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* -------------------------------------------------------------------- fault injection */

static void failed_allocation_makes_add_fail_with_enomem(void **state)
{
	struct my_object *o = new_object("victim");

	kobject_init(&o->kobj);
	kobj_world_fail_alloc(*state, 1);
	assert_int_equal(kobject_add(&o->kobj), -ENOMEM);
	assert_last_diag(state, "add-failed",
			 "kobject_add_internal failed for victim (error: -12 parent: 'none')");
	assert_null(sysfs_lookup(*state, "/sys/victim"));
	assert_null(o->kobj.dentry);
	assert_int_equal(kobject_refcount(&o->kobj), 1);

	/* the fault was used up: a retry works */
	assert_int_equal(kobject_add(&o->kobj), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/victim"));
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
}

static void failed_attribute_removes_the_directory(void **state)
{
	struct my_object *o = new_object("victim");
	size_t diags;

	o->kobj.ktype = &attr_ktype;
	kobject_init(&o->kobj);
	kobj_world_fail_alloc(*state, 2); /* the directory works, its first file fails */
	assert_int_equal(kobject_add(&o->kobj), -ENOMEM);
	assert_last_diag(state, "add-failed", "kobject_add_internal failed for victim (error: -12");
	assert_null(sysfs_lookup(*state, "/sys/victim"));
	assert_null(sysfs_lookup(*state, "/sys/victim/value"));
	assert_null(o->kobj.dentry);
	assert_int_equal(kobject_refcount(&o->kobj), 1);

	diags = kobj_diag_count(*state);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), diags);
}

/* ------------------------------------------------------------------------- printing */

static void print_tree_draws_the_hierarchy(void **state)
{
	decl_subsys(bus, NULL, NULL);
	struct kset drivers = { .subsys = &bus_subsys };
	char *text = NULL;
	int rc;

	assert_int_equal(subsystem_register(&bus_subsys), 0);
	kobject_set_name(&drivers.kobj, "drivers");
	assert_int_equal(kset_register(&drivers), 0);
	struct my_object *a = new_object("a");
	a->kobj.kset = &drivers;
	kobject_init(&a->kobj);
	assert_int_equal(kobject_add(&a->kobj), 0);
	struct my_object *b = added("b", NULL, &attr_ktype);

	CAPTURE(text, rc = sysfs_print_tree(*state, "/sys", out));
	assert_int_equal(rc, 0);
	assert_string_equal(text,
			    "/sys\n"
			    "├── b  [refcount 2]\n"
			    "│   ├── name\n"
			    "│   └── value\n"
			    "└── bus  [subsystem, refcount 3]\n"
			    "    └── drivers  [kset, refcount 4]\n"
			    "        └── a  [refcount 2]\n");
	free(text);

	CAPTURE(text, rc = sysfs_print_tree(*state, "bus", out));
	assert_int_equal(rc, 0);
	assert_string_equal(text,
			    "/sys/bus  [subsystem, refcount 3]\n"
			    "└── drivers  [kset, refcount 4]\n"
			    "    └── a  [refcount 2]\n");
	free(text);

	CAPTURE(text, rc = sysfs_print_tree(*state, "/sys/b/value", out));
	assert_int_equal(rc, 0);
	assert_string_equal(text, "/sys/b/value\n");
	free(text);

	CAPTURE(text, rc = sysfs_print_tree(*state, "/sys/none", out));
	assert_int_equal(rc, -ENOENT);
	assert_string_equal(text, "");
	free(text);

	kobject_unregister(&a->kobj);
	kobject_unregister(&b->kobj);
	kset_unregister(&drivers);
	subsystem_unregister(&bus_subsys);
	assert_int_equal(released, 2);

	CAPTURE(text, rc = sysfs_print_tree(*state, "/sys", out));
	assert_string_equal(text, "/sys\n");
	free(text);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void dirent_path_gives_the_full_path(void **state)
{
	struct my_object *p = added("p", NULL, NULL);
	struct my_object *c = added("c", &p->kobj, &attr_ktype);
	char buf[64];

	assert_int_equal(sysfs_dirent_path(sysfs_lookup(*state, "/"), buf, sizeof(buf)), 4);
	assert_string_equal(buf, "/sys");
	assert_int_equal(sysfs_dirent_path(p->kobj.dentry, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "/sys/p");
	assert_int_equal(sysfs_dirent_path(c->kobj.dentry, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "/sys/p/c");
	assert_int_equal(sysfs_dirent_path(sysfs_lookup(*state, "p/c/value"), buf, sizeof(buf)),
			 14);
	assert_string_equal(buf, "/sys/p/c/value");

	/* like snprintf: truncated, NUL-terminated, the needed length returned */
	assert_int_equal(sysfs_dirent_path(c->kobj.dentry, buf, 5), 8);
	assert_string_equal(buf, "/sys");
	assert_int_equal(sysfs_dirent_path(c->kobj.dentry, NULL, 0), 8);

	kobject_unregister(&c->kobj);
	kobject_unregister(&p->kobj);
	assert_int_equal(released, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(add_creates_top_level_directory),
		TEST(add_with_parent_nests_directory),
		TEST(kset_member_without_parent_lands_in_kset_directory),
		TEST(lookup_accepts_paths_with_or_without_sys_prefix),
		TEST(list_is_sorted_by_name),
		TEST(list_of_missing_path_or_file_fails),
		TEST(duplicate_top_level_name_fails_with_eexist),
		TEST(duplicate_under_parent_takes_no_reference),
		TEST(duplicate_in_kset_takes_no_reference),
		TEST(same_name_in_different_directories_is_fine),
		TEST(default_attrs_appear_as_files),
		TEST(read_goes_through_show),
		TEST(write_goes_through_store),
		TEST(read_and_write_errors),
		TEST(del_removes_directory_and_files),
		TEST(del_of_parent_removes_child_directories),
		TEST(failed_allocation_makes_add_fail_with_enomem),
		TEST(failed_attribute_removes_the_directory),
		TEST(print_tree_draws_the_hierarchy),
		TEST(dirent_path_gives_the_full_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
