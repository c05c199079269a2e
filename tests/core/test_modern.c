/*
 * Today's kobject lifecycle beside the article's: kobject_init(kobj, ktype), kobject_add
 * with a parent and a name, init_and_add, create_and_add, kset_create_and_add, get_unless
 * _zero, get_path, rename and move, with today's bookkeeping and messages; and objects of
 * both eras in one world.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"

/* Names of released objects, in order, as release() saw them. */
static char release_log[256];

static void modern_release(struct kobject *kobj)
{
	size_t n = strlen(release_log);
	snprintf(release_log + n, sizeof(release_log) - n, "%s%s", n ? " " : "",
		 kobject_name(kobj));
	my_object_release(kobj);
}

static const struct kobj_type modern_ktype = { .release = modern_release };
static const struct kobj_type no_release_ktype = { 0 };

static int setup(void **state)
{
	release_log[0] = '\0';
	return world_setup(state);
}

#define MTEST(f) cmocka_unit_test_setup_teardown(f, setup, world_teardown)

/* A zeroed object, initialised the modern way, not added. */
static struct my_object *modern_object(void)
{
	struct my_object *o = calloc(1, sizeof(*o));
	kobject_init(&o->kobj, &modern_ktype);
	return o;
}

static const struct kobj_record *rec(void **state, const void *obj)
{
	return kobj_record_of(*state, obj);
}

/* ------------------------------------------------------------------------------ init */

static void init_with_ktype_is_todays_era(void **state)
{
	struct my_object *o = modern_object();
	const struct kobj_record *r = rec(state, o);

	assert_true(r->era == KOBJ_ERA_TODAY);
	assert_int_equal(r->refcount, 1);
	assert_ptr_equal(o->kobj.ktype, &modern_ktype);
	assert_ptr_equal(r->ktype, &modern_ktype);
	assert_string_equal(event_at(*state, 0)->op, "kobject_init");
	assert_non_null(strstr(event_at(*state, 0)->origin.file, "test_modern.c"));
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void the_argument_count_picks_the_era(void **state)
{
	struct my_object *a = new_object("article");
	struct my_object *m = calloc(1, sizeof(*m));

	kobject_init(&a->kobj);                /* the article's */
	kobject_init(&m->kobj, &modern_ktype); /* today's */
	assert_false(rec(state, a)->era == KOBJ_ERA_TODAY);
	assert_true(rec(state, m)->era == KOBJ_ERA_TODAY);

	assert_int_equal(kobject_add(&a->kobj), 0);                 /* the article's */
	assert_int_equal(kobject_add(&m->kobj, NULL, "%s-%d", "today", 6), 0); /* today's */
	assert_int_equal(kobject_refcount(&a->kobj), 2); /* the registration reference */
	assert_int_equal(kobject_refcount(&m->kobj), 1); /* none */
	assert_string_equal(kobject_name(&m->kobj), "today-6");

	/* the bare names are the article's functions, for pointers */
	void (*init)(struct kobject *) = kobject_init;
	int (*add)(struct kobject *) = kobject_add;
	void (*init_ktype)(struct kobject *, const struct kobj_type *) = kobject_init_ktype;
	int (*add_named)(struct kobject *, struct kobject *, const char *, ...) = kobject_add_named;
	assert_non_null(init);
	assert_non_null(add);
	assert_non_null(init_ktype);
	assert_non_null(add_named);

	kobject_unregister(&a->kobj);
	kobject_put(&m->kobj);
	assert_int_equal(released, 2);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void explicit_names_do_the_same(void **state)
{
	struct my_object *o = calloc(1, sizeof(*o));

	kobject_init_ktype(&o->kobj, &modern_ktype);
	assert_int_equal(kobject_add_named(&o->kobj, NULL, "named"), 0);
	assert_non_null(sysfs_lookup(*state, "/sys/named"));
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	kobject_put(&o->kobj);
	assert_null(sysfs_lookup(*state, "/sys/named"));
	assert_int_equal(released, 1);
}

static void init_null_and_init_without_ktype(void **state)
{
	struct my_object o = { 0 };

	kobject_init(NULL, &modern_ktype);
	assert_last_diag(state, "invalid-pointer",
			 "kobject (0000000000000000): invalid kobject pointer!");
	kobject_init(&o.kobj, NULL);
	assert_last_diag(state, "no-ktype", "kobject (");
	assert_non_null(strstr(last_diag(state)->message,
			       "): must have a ktype to be initialized properly!"));
	assert_null(rec(state, &o)); /* nothing was initialised */
	assert_int_equal(kobject_init_and_add(&o.kobj, NULL, NULL, "x"), -EINVAL);
	assert_null(sysfs_lookup(*state, "/sys/x"));
}

static void init_twice_is_refused(void **state)
{
	struct my_object *o = modern_object();

	kobject_get(&o->kobj);
	kobject_init(&o->kobj, &modern_ktype);
	assert_last_diag(state, "init-twice",
			 "tried to init an initialized object, something is seriously wrong.");
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

/* ------------------------------------------------------------------------------- add */

static void add_takes_parent_and_kset_references_only(void **state)
{
	struct kset *set = kset_create_and_add("things", NULL, NULL);
	struct my_object *p = modern_object();
	struct my_object *c = modern_object();

	assert_non_null(set);
	assert_int_equal(kobject_refcount(&set->kobj), 1);
	assert_int_equal(kobject_add(&p->kobj, NULL, "parent"), 0);
	c->kobj.kset = set;
	assert_int_equal(kobject_add(&c->kobj, &p->kobj, "child"), 0);

	assert_int_equal(kobject_refcount(&c->kobj), 1);   /* nothing on itself */
	assert_int_equal(kobject_refcount(&p->kobj), 2);   /* the child's parent reference */
	assert_int_equal(kobject_refcount(&set->kobj), 2); /* the child's kset reference */
	assert_ptr_equal(c->kobj.parent, &p->kobj);        /* an explicit parent wins */
	assert_non_null(sysfs_lookup(*state, "/sys/parent/child"));
	assert_ptr_equal(kset_find_obj(set, "child"), &c->kobj);
	assert_int_equal(kobject_refcount(&c->kobj), 2);   /* today's find hands a reference */
	kobject_put(&c->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 0);    /* add sends no uevent */
	const struct kobj_record *r = rec(state, c);
	assert_true(r->in_sysfs);
	assert_int_equal(r->parent, rec(state, p)->id);
	assert_int_equal(r->kset, rec(state, &set->kobj)->id);

	kobject_put(&c->kobj);
	kobject_put(&p->kobj);
	kset_unregister(set);
	assert_string_equal(release_log, "child parent");
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void parent_defaults_to_the_kset(void **state)
{
	struct kset *set = kset_create_and_add("set", NULL, NULL);
	struct my_object *o = calloc(1, sizeof(*o));

	o->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&o->kobj, &modern_ktype, NULL, "%s", "member"), 0);
	assert_ptr_equal(o->kobj.parent, &set->kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/set/member"));
	assert_int_equal(kobject_refcount(&set->kobj), 3); /* its own, parent, kset */
	kobject_put(&o->kobj);
	assert_int_equal(kobject_refcount(&set->kobj), 1);
	kset_unregister(set);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void del_drops_parent_and_kset_but_not_the_object(void **state)
{
	struct kset *set = kset_create_and_add("set", NULL, NULL);
	struct my_object *o = calloc(1, sizeof(*o));

	o->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&o->kobj, &modern_ktype, NULL, "m"), 0);
	kobject_del(&o->kobj);
	assert_null(sysfs_lookup(*state, "/sys/set/m"));
	assert_null(o->kobj.parent);
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	assert_int_equal(kobject_refcount(&set->kobj), 1);
	assert_false(rec(state, o)->in_sysfs);
	assert_int_equal(rec(state, o)->parent, 0);
	assert_ptr_equal(set->list.next, &set->list); /* it left the kset */
	assert_int_equal(released, 0);

	kobject_del(&o->kobj); /* twice: reported, nothing changes */
	assert_last_diag(state, "del-not-added", "kernfs: can not remove 'm', no directory");
	assert_int_equal(kobject_refcount(&set->kobj), 1);
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
	kset_unregister(set);
}

static void last_put_in_sysfs_cleans_up_by_itself(void **state)
{
	struct my_object *p = modern_object();
	struct my_object *c = modern_object();

	assert_int_equal(kobject_add(&p->kobj, NULL, "p"), 0);
	assert_int_equal(kobject_add(&c->kobj, &p->kobj, "c"), 0);
	kobject_put(&p->kobj); /* the child still holds its parent */
	assert_int_equal(released, 0);
	assert_non_null(sysfs_lookup(*state, "/sys/p/c"));

	size_t before = kobj_log_count(*state);
	kobject_put(&c->kobj);
	assert_string_equal(release_log, "c p"); /* the child first, then its parent */
	assert_null(sysfs_lookup(*state, "/sys/p"));
	assert_int_equal(kobj_diag_count(*state), 0); /* auto cleanup is no mistake today */

	/* put c, del c (auto), release c, put p (held by c), del p (auto), release p */
	const char *ops[] = { "kobject_put", "kobject_cleanup", "release", "kobject_put",
			      "kobject_cleanup", "release" };
	enum kobj_event_kind kinds[] = { KOBJ_EV_PUT, KOBJ_EV_DEL, KOBJ_EV_RELEASE,
					 KOBJ_EV_PUT, KOBJ_EV_DEL, KOBJ_EV_RELEASE };
	assert_int_equal(kobj_log_count(*state) - before, 6);
	for (size_t i = 0; i < 6; i++) {
		const struct kobj_event *ev = event_at(*state, before + i);
		assert_int_equal(ev->kind, kinds[i]);
		assert_string_equal(ev->step ? ev->step : ev->op, ops[i]);
	}
	assert_int_equal(event_at(*state, before + 3)->holder, rec(state, c)->id);
}

static void add_errors_have_todays_messages(void **state)
{
	struct my_object *u = new_object("uninit");
	assert_int_equal(kobject_add(&u->kobj, NULL, "uninit"), -EINVAL);
	assert_last_diag(state, "add-uninitialized", "kobject 'uninit' (");
	assert_non_null(strstr(last_diag(state)->message,
			       "): tried to add an uninitialized object, something is seriously "
			       "wrong."));
	free(u);

	struct my_object *e = modern_object();
	assert_int_equal(kobject_add(&e->kobj, NULL, "%s", ""), -EINVAL);
	assert_last_diag(state, "empty-name", "attempted to be registered with empty name!");

	struct my_object *a = modern_object();
	assert_int_equal(kobject_add(&a->kobj, NULL, "dup"), 0);
	assert_int_equal(kobject_add(&a->kobj, NULL, "dup"), -EEXIST);
	assert_last_diag(state, "add-twice", "kobject_add_internal failed for dup with -EEXIST");

	struct my_object *b = modern_object();
	assert_int_equal(kobject_add(&b->kobj, NULL, "dup"), -EEXIST);
	assert_last_diag(state, "duplicate-name", "sysfs: cannot create duplicate filename '//dup'\n"
			 "kobject_add_internal failed for dup with -EEXIST, don't try "
			 "to register things with the same name in the same directory.");
	assert_int_equal(kobject_refcount(&b->kobj), 1);

	struct my_object *orphan = modern_object();
	struct my_object *c = modern_object();
	kobject_set_name(&orphan->kobj, "orphan");
	assert_int_equal(kobject_add(&c->kobj, &orphan->kobj, "c"), -ENOENT);
	assert_last_diag(state, "add-failed",
			 "kobject_add_internal failed for c (error: -2 parent: orphan)");
	assert_null(c->kobj.parent);
	assert_int_equal(kobject_refcount(&orphan->kobj), 1); /* given back */

	/* on failure the caller still puts, which frees the name and the object */
	kobject_put(&e->kobj);
	kobject_put(&b->kobj);
	kobject_put(&c->kobj);
	kobject_put(&orphan->kobj);
	kobject_put(&a->kobj);
	assert_int_equal(released, 5);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void add_with_a_failed_name_reports_it(void **state)
{
	struct my_object *o = modern_object();
	/* through a pointer: the compiler would refuse a NULL format in a direct call */
	int (*add)(struct kobject *, struct kobject *, const char *, ...) = kobject_add_named;

	kobj_world_fail_alloc(*state, 1);
	assert_int_equal(kobject_add(&o->kobj, NULL, "%s", "a-name"), -ENOMEM);
	assert_last_diag(state, "set-name-failed", "kobject: can not set name properly!");
	assert_int_equal(add(&o->kobj, NULL, NULL), -EINVAL); /* no name yet */
	assert_last_diag(state, "set-name-failed", "kobject: can not set name properly!");
	assert_int_equal(kobject_add(&o->kobj, NULL, "long-name-%040d", 0), 0);
	assert_int_equal(add(&o->kobj, NULL, NULL), -EEXIST); /* NULL keeps the name */
	kobject_put(&o->kobj);
	assert_int_equal(released, 1);
}

static void init_and_add_failure_is_freed_by_put(void **state)
{
	struct my_object *a = calloc(1, sizeof(*a));
	struct my_object *b = calloc(1, sizeof(*b));

	assert_int_equal(kobject_init_and_add(&a->kobj, &modern_ktype, NULL, "same-name-but-"
					      "longer-than-twenty"), 0);
	assert_int_equal(kobject_init_and_add(&b->kobj, &modern_ktype, NULL, "same-name-but-"
					      "longer-than-twenty"), -EEXIST);
	assert_string_equal(event_at(*state, 0)->op, "kobject_init_and_add");
	kobject_put(&b->kobj); /* frees its long name: ASan would see a leak otherwise */
	kobject_put(&a->kobj);
	assert_int_equal(released, 2);
}

/* ------------------------------------------------------------------------ get / put */

static void double_put_and_get_after_release(void **state)
{
	struct my_object *o = modern_object();

	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_last_diag(state, "double-put", "refcount_t: underflow; use-after-free.");
	assert_null(kobject_get(&o->kobj));
	assert_last_diag(state, "get-released", "refcount_t: addition on 0; use-after-free.");
	assert_non_null(strstr(last_diag(state)->explanation, "cannot fail"));
	assert_int_equal(released, 1);
	assert_int_equal(rec(state, o)->refcount, 0);
}

static void missing_release_is_a_leak(void **state)
{
	struct kobject *k = calloc(1, sizeof(*k));

	kobject_init(k, &no_release_ktype);
	assert_int_equal(kobject_add(k, NULL, "broken"), 0);
	kobject_put(k);
	assert_last_diag(state, "no-release", "kobject: 'broken' (");
	assert_non_null(strstr(last_diag(state)->message, "does not have a release() function"));
	assert_true(rec(state, k)->no_release);
	assert_null(sysfs_lookup(*state, "/sys/broken"));
	free(k);
}

static void get_unless_zero(void **state)
{
	struct my_object *o = modern_object();
	struct my_object *old = new_object("old");
	struct my_object u = { 0 };

	assert_null(kobject_get_unless_zero(NULL));
	assert_null(kobject_get_unless_zero(&u.kobj)); /* never initialised: count 0 */
	assert_ptr_equal(kobject_get_unless_zero(&o->kobj), &o->kobj);
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	kobject_init(&old->kobj);
	assert_ptr_equal(kobject_get_unless_zero(&old->kobj), &old->kobj);
	assert_int_equal(kobject_refcount(&old->kobj), 2);
	kobject_put(&old->kobj);
	kobject_put(&old->kobj);
	assert_null(kobject_get_unless_zero(&old->kobj)); /* released: quietly NULL */
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	assert_int_equal(released, 2);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ------------------------------------------------------------------- create and add */

static void create_and_add_makes_a_dynamic_object(void **state)
{
	struct kobject *k = kobject_create_and_add("dyn", NULL);

	assert_non_null(k);
	assert_true(rec(state, k)->era == KOBJ_ERA_TODAY);
	assert_int_equal(kobject_refcount(k), 1);
	assert_non_null(sysfs_lookup(*state, "/sys/dyn"));
	assert_ptr_equal(k->ktype->sysfs_ops, &kobj_sysfs_ops);
	struct kobject *sub = kobject_create_and_add("sub", k);
	assert_non_null(sysfs_lookup(*state, "/sys/dyn/sub"));

	assert_null(kobject_create_and_add("dyn", NULL));
	assert_last_diag(state, "duplicate-name", "sysfs: cannot create duplicate filename");
	const struct kobj_trace *t = kobj_trace_at(*state, kobj_trace_count(*state) - 1);
	assert_string_equal(t->text, "kobject_create_and_add: kobject_add error: -17");
	assert_int_equal(t->level, KOBJ_LOGLEVEL_WARNING);

	kobj_world_fail_alloc(*state, 1);
	assert_null(kobject_create_and_add("nomem", NULL));
	assert_null(kobject_create_and_add(NULL, NULL));
	assert_last_diag(state, "set-name-failed", "can not set name properly!");

	kobject_put(sub);
	kobject_put(k);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void kernel_kobj_is_the_worlds(void **state)
{
	struct kobject *k = kernel_kobj;

	assert_non_null(k);
	assert_ptr_equal(kernel_kobj, k);
	assert_non_null(sysfs_lookup(*state, "/sys/kernel"));
	assert_true(rec(state, k)->builtin);
	assert_int_equal(kobj_leak_count(*state), 0); /* it lives as long as the world */

	struct kobject *mine = kobject_create_and_add("mine", kernel_kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/kernel/mine"));
	assert_int_equal(kobject_refcount(k), 2);
	kobject_put(mine);
	assert_int_equal(kobject_refcount(k), 1);
	assert_int_equal(kobj_diag_count(*state), 0);
	/* the world frees it (LeakSanitizer checks) */
}

/* ----------------------------------------------------------------------------- ksets */

static void kset_create_and_add_and_unregister(void **state)
{
	struct kset *parent = kset_create_and_add("outer", NULL, NULL);
	struct kset *set = kset_create_and_add("inner", NULL, &parent->kobj);

	assert_non_null(set);
	assert_non_null(sysfs_lookup(*state, "/sys/outer/inner"));
	assert_int_equal(rec(state, &set->kobj)->kind, KOBJ_KIND_KSET);
	assert_true(rec(state, &set->kobj)->era == KOBJ_ERA_TODAY);
	assert_null(kset_create_and_add("inner", NULL, &parent->kobj));
	assert_null(kset_create_and_add(NULL, NULL, NULL));

	struct my_object *m = calloc(1, sizeof(*m));
	m->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&m->kobj, &modern_ktype, NULL, "m"), 0);
	kset_unregister(set); /* the member still holds it */
	assert_null(sysfs_lookup(*state, "/sys/outer/inner"));
	assert_int_equal(kobject_refcount(&set->kobj), 2);
	kobject_put(&m->kobj);
	kset_unregister(parent);
	kset_unregister(NULL);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void kset_find_obj_skips_a_dying_member(void **state)
{
	struct kset *set = kset_create_and_add("set", NULL, NULL);
	struct my_object *m = calloc(1, sizeof(*m));

	m->kobj.kset = set;
	kobj_world_set_debug(*state, KOBJ_DEBUG_RELEASE); /* the last put leaves it listed */
	assert_int_equal(kobject_init_and_add(&m->kobj, &modern_ktype, NULL, "m"), 0);
	kobject_put(&m->kobj);
	assert_ptr_equal(set->list.next, &m->kobj.entry);
	assert_null(kset_find_obj(set, "m")); /* count 0: get_unless_zero refuses */
	assert_int_equal(kobj_world_advance(*state, 4 * HZ), 1);
	assert_int_equal(released, 1);
	kset_unregister(set);
	assert_int_equal(kobj_world_advance(*state, 4 * HZ), 1); /* the kset's own release */
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ------------------------------------------------------------------ paths and moves */

static void get_path_names_every_ancestor(void **state)
{
	struct kobject *a = kobject_create_and_add("a", NULL);
	struct kobject *b = kobject_create_and_add("b", a);
	struct kobject *c = kobject_create_and_add("c", b);
	struct my_object *unnamed = modern_object();

	char *path = kobject_get_path(c, GFP_KERNEL);
	assert_string_equal(path, "/a/b/c");
	kfree(path);
	path = kobject_get_path(a, GFP_KERNEL);
	assert_string_equal(path, "/a");
	kfree(path);
	assert_null(kobject_get_path(&unnamed->kobj, GFP_KERNEL));
	kobj_world_fail_alloc(*state, 1);
	assert_null(kobject_get_path(c, GFP_KERNEL));

	kobject_put(&unnamed->kobj);
	kobject_put(c);
	kobject_put(b);
	kobject_put(a);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void rename_renames_the_directory(void **state)
{
	struct kset *set = kset_create_and_add("set", NULL, NULL);
	struct my_object *o = calloc(1, sizeof(*o));
	struct kobject *top = kobject_create_and_add("top", NULL);

	o->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&o->kobj, &modern_ktype, NULL, "old"), 0);
	assert_int_equal(kobject_rename(&o->kobj, "a-new-name-longer-than-twenty"), 0);
	assert_string_equal(kobject_name(&o->kobj), "a-new-name-longer-than-twenty");
	assert_null(sysfs_lookup(*state, "/sys/set/old"));
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state,
						       "/sys/set/a-new-name-longer-than-twenty")),
			 &o->kobj);
	const struct kobj_hotplug_event *ev = kobj_hotplug_at(*state, 0);
	assert_string_equal(ev->action, "move");
	assert_string_equal(ev->devpath, "/set/a-new-name-longer-than-twenty");
	assert_string_equal(ev->envp[3], "DEVPATH_OLD=/set/old");

	struct my_object *other = calloc(1, sizeof(*other));
	other->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&other->kobj, &modern_ktype, NULL, "taken"), 0);
	assert_int_equal(kobject_rename(&o->kobj, "taken"), -EEXIST);
	assert_int_equal(kobject_rename(top, "x"), -EINVAL); /* top level: no parent */
	assert_int_equal(kobject_rename(NULL, "x"), -EINVAL);
	assert_int_equal(kobject_refcount(&o->kobj), 1);

	kobject_put(&other->kobj);
	kobject_put(&o->kobj);
	kobject_put(top);
	kset_unregister(set);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void move_swaps_the_parent(void **state)
{
	struct kobject *a = kobject_create_and_add("a", NULL);
	struct kobject *b = kobject_create_and_add("b", NULL);
	struct kobject *c = kobject_create_and_add("c", a);

	assert_int_equal(kobject_move(c, b), 0);
	assert_null(sysfs_lookup(*state, "/sys/a/c"));
	assert_ptr_equal(sysfs_dirent_kobj(sysfs_lookup(*state, "/sys/b/c")), c);
	assert_ptr_equal(c->parent, b);
	assert_int_equal(kobject_refcount(a), 1);
	assert_int_equal(kobject_refcount(b), 2);
	assert_int_equal(kobject_refcount(c), 1);
	assert_int_equal(kobj_record_of(*state, c)->parent, kobj_record_of(*state, b)->id);

	assert_int_equal(kobject_move(b, c), -EINVAL); /* into its own subtree */
	assert_int_equal(kobject_move(c, NULL), 0);    /* no kset: to /sys */
	assert_non_null(sysfs_lookup(*state, "/sys/c"));
	assert_int_equal(kobject_refcount(b), 1);
	struct kobject *dup = kobject_create_and_add("c", a);
	assert_int_equal(kobject_move(dup, NULL), -EEXIST);
	assert_int_equal(kobject_refcount(a), 2);

	struct my_object *loose = modern_object();
	kobject_set_name(&loose->kobj, "loose");
	assert_int_equal(kobject_move(&loose->kobj, a), -ENOENT); /* not in sysfs */
	assert_int_equal(kobject_refcount(a), 2);
	kobject_put(&loose->kobj);
	kobject_put(dup);
	kobject_put(c);
	kobject_put(b);
	kobject_put(a);
	assert_int_equal(kobj_leak_count(*state), 0);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* -------------------------------------------------------------------- eras together */

static void todays_add_on_an_article_object_keeps_2_6_0_rules(void **state)
{
	struct my_object *o = new_object(NULL);

	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj, NULL, "old-%s", "style"), 0);
	assert_false(rec(state, o)->era == KOBJ_ERA_TODAY);
	assert_int_equal(kobject_refcount(&o->kobj), 2);
	assert_non_null(sysfs_lookup(*state, "/sys/old-style"));
	kobject_unregister(&o->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void article_calls_on_a_modern_object_keep_todays_rules(void **state)
{
	struct my_object *o = modern_object();
	struct my_object *a = new_object("article-parent");

	kobject_init(&a->kobj);
	assert_int_equal(kobject_add(&a->kobj), 0);
	kobject_set_name(&o->kobj, "modern-child");
	o->kobj.parent = &a->kobj;
	assert_int_equal(kobject_add(&o->kobj), 0); /* the article's call, today's rules */
	assert_int_equal(kobject_refcount(&o->kobj), 1);
	assert_int_equal(kobject_refcount(&a->kobj), 3);
	assert_ptr_equal(kobject_get(&o->kobj), &o->kobj);
	kobject_put(&o->kobj);
	kobject_unregister(&o->kobj); /* del + put: today's del drops the parent */
	assert_int_equal(kobject_refcount(&a->kobj), 2);
	kobject_unregister(&a->kobj);
	assert_int_equal(released, 2);
	assert_int_equal(kobj_diag_count(*state), 0);
	assert_int_equal(kobj_leak_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		MTEST(init_with_ktype_is_todays_era),
		MTEST(the_argument_count_picks_the_era),
		MTEST(explicit_names_do_the_same),
		MTEST(init_null_and_init_without_ktype),
		MTEST(init_twice_is_refused),
		MTEST(add_takes_parent_and_kset_references_only),
		MTEST(parent_defaults_to_the_kset),
		MTEST(del_drops_parent_and_kset_but_not_the_object),
		MTEST(last_put_in_sysfs_cleans_up_by_itself),
		MTEST(add_errors_have_todays_messages),
		MTEST(add_with_a_failed_name_reports_it),
		MTEST(init_and_add_failure_is_freed_by_put),
		MTEST(double_put_and_get_after_release),
		MTEST(missing_release_is_a_leak),
		MTEST(get_unless_zero),
		MTEST(create_and_add_makes_a_dynamic_object),
		MTEST(kernel_kobj_is_the_worlds),
		MTEST(kset_create_and_add_and_unregister),
		MTEST(kset_find_obj_skips_a_dying_member),
		MTEST(get_path_names_every_ancestor),
		MTEST(rename_renames_the_directory),
		MTEST(move_swaps_the_parent),
		MTEST(todays_add_on_an_article_object_keeps_2_6_0_rules),
		MTEST(article_calls_on_a_modern_object_keep_todays_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
