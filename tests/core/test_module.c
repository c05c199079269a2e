/* Simulated modules (insmod, rmmod, try_module_get) and the article's cdev_get(). */
#include <errno.h>
#include <stdio.h>

#include "core/model/cdev.h"
#include "tests/core/fixture.h"

/* ----------------------------------------------------------------------------- modules */

static void load_gives_a_live_module_with_no_users(void **state)
{
	int err = 1;
	struct module *mod = module_load("snd", &err);

	assert_non_null(mod);
	assert_int_equal(err, 0);
	assert_string_equal(mod->name, "snd");
	assert_int_equal(mod->state, MODULE_STATE_LIVE);
	assert_int_equal(mod->refcnt, 0);
	assert_int_equal(module_refcount(mod), 0);
	const struct kobj_record *r = kobj_record_by_id(*state, mod->id);
	assert_non_null(r);
	assert_int_equal(r->kind, KOBJ_KIND_MODULE);
	assert_int_equal(r->id, mod->id);
	assert_string_equal(r->name, "snd");
	assert_int_equal(event_at(*state, kobj_log_count(*state) - 1)->kind,
			 KOBJ_EV_MODULE_LOAD);

	assert_int_equal(module_unload(mod), 0);
	assert_int_equal(mod->state, MODULE_STATE_UNLOADED);
	assert_true(kobj_record_by_id(*state, mod->id)->released);
	assert_int_equal(event_at(*state, kobj_log_count(*state) - 1)->kind,
			 KOBJ_EV_MODULE_UNLOAD);
	assert_int_equal(kobj_diag_count(*state), 0);
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void load_refuses_a_duplicate_live_name(void **state)
{
	int err = 0;
	struct module *first = module_load("dup", NULL);

	assert_non_null(first);
	assert_null(module_load("dup", &err));
	assert_int_equal(err, -EEXIST);
	assert_null(module_load("dup", NULL));

	/* once unloaded, the name can be loaded again: a new module */
	assert_int_equal(module_unload(first), 0);
	struct module *second = module_load("dup", &err);
	assert_non_null(second);
	assert_int_equal(err, 0);
	assert_ptr_not_equal(second, first);
	assert_int_equal(second->state, MODULE_STATE_LIVE);
	assert_int_equal(first->state, MODULE_STATE_UNLOADED);

	/* names the kernel would not load */
	assert_null(module_load("", &err));
	assert_int_equal(err, -EINVAL);
	assert_null(module_load(NULL, &err));
	assert_int_equal(err, -EINVAL);
	char longname[80];
	memset(longname, 'm', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_null(module_load(longname, &err));
	assert_int_equal(err, -EINVAL);

	assert_int_equal(module_unload(second), 0);
	(void)state;
}

static void try_module_get_and_module_put_count_users(void **state)
{
	struct module *mod = module_load("snd", NULL);

	assert_true(try_module_get(mod));
	assert_true(try_module_get(mod));
	assert_int_equal(module_refcount(mod), 2);
	assert_int_equal(kobj_record_by_id(*state, mod->id)->refcount, 2);
	const struct kobj_event *ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(ev->kind, KOBJ_EV_GET);
	assert_string_equal(ev->op, "try_module_get");
	assert_int_equal(ev->before, 1);
	assert_int_equal(ev->after, 2);

	module_put(mod);
	assert_int_equal(module_refcount(mod), 1);
	ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(ev->kind, KOBJ_EV_PUT);
	assert_string_equal(ev->op, "module_put");
	module_put(mod);
	assert_int_equal(module_refcount(mod), 0);
	assert_int_equal(kobj_record_by_id(*state, mod->id)->refcount, 0);
	assert_int_equal(kobj_diag_count(*state), 0);
	assert_int_equal(module_unload(mod), 0);
}

static void unload_is_refused_while_in_use(void **state)
{
	struct module *mod = module_load("snd", NULL);

	assert_true(try_module_get(mod));
	assert_int_equal(module_unload(mod), -EBUSY);
	assert_last_diag(state, "module-in-use", "rmmod: ERROR: Module snd is in use");
	assert_int_equal(last_diag(state)->obj, mod->id);
	assert_int_equal(mod->state, MODULE_STATE_LIVE);
	assert_int_equal(module_refcount(mod), 1);
	assert_false(kobj_record_by_id(*state, mod->id)->released);

	/* still usable */
	assert_true(try_module_get(mod));
	module_put(mod);
	module_put(mod);
	assert_int_equal(module_unload(mod), 0);
	assert_int_equal(mod->state, MODULE_STATE_UNLOADED);
}

static void get_after_unload_fails(void **state)
{
	struct module *mod = module_load("snd", NULL);

	assert_int_equal(module_unload(mod), 0);
	assert_false(try_module_get(mod));
	assert_last_diag(state, "module-unloaded", "try_module_get");
	assert_int_equal(last_diag(state)->obj, mod->id);
	assert_int_equal(module_refcount(mod), 0);

	size_t diags = kobj_diag_count(*state);
	module_put(mod);
	assert_int_equal(kobj_diag_count(*state), diags + 1);
	assert_last_diag(state, "module-unloaded", "module_put");
	assert_int_equal(module_refcount(mod), 0);

	assert_int_equal(module_unload(mod), -ENOENT);
}

static void put_below_zero_is_diagnosed(void **state)
{
	struct module *mod = module_load("snd", NULL);
	size_t events = kobj_log_count(*state);

	module_put(mod);
	assert_last_diag(state, "module-put-below-zero", "module_put");
	assert_int_equal(last_diag(state)->obj, mod->id);
	assert_int_equal(module_refcount(mod), 0);
	/* only the diagnostic was logged, no put */
	assert_int_equal(kobj_log_count(*state), events + 1);
	assert_int_equal(event_at(*state, events)->kind, KOBJ_EV_DIAG);

	assert_true(try_module_get(mod));
	assert_int_equal(module_refcount(mod), 1);
	module_put(mod);
	assert_int_equal(module_unload(mod), 0);
}

static void null_module_is_always_there(void **state)
{
	size_t events = kobj_log_count(*state);

	assert_true(try_module_get(NULL));
	module_put(NULL);
	assert_int_equal(module_refcount(NULL), 0);
	assert_int_equal(module_unload(NULL), -EINVAL);
	assert_int_equal(kobj_diag_count(*state), 0);
	assert_int_equal(kobj_log_count(*state), events);
}

/* What the exit callback saw; the test sets exit_cdev to try a cdev_get there too. */
static struct {
	int calls;
	enum module_state state;
	bool got;
	int refcnt_after;
	struct cdev *cdev;
	struct kobject *cdev_got;
	int cdev_count;
} ex;

static void record_exit(struct module *mod)
{
	ex.calls++;
	ex.state = mod->state;
	ex.got = try_module_get(mod);
	ex.refcnt_after = module_refcount(mod);
	if (ex.cdev) {
		ex.cdev_got = cdev_get(ex.cdev);
		ex.cdev_count = kobject_refcount(&ex.cdev->kobj);
	}
}

static void exit_runs_while_going_and_refuses_new_users(void **state)
{
	struct module *mod = module_load("snd", NULL);

	memset(&ex, 0, sizeof(ex));
	ex.got = true;
	mod->exit = record_exit;
	assert_int_equal(module_unload(mod), 0);
	assert_int_equal(ex.calls, 1);
	assert_int_equal(ex.state, MODULE_STATE_GOING);
	assert_false(ex.got);
	assert_int_equal(ex.refcnt_after, 0);
	assert_int_equal(mod->state, MODULE_STATE_UNLOADED);
	assert_int_equal(module_refcount(mod), 0);
	(void)state;
}

/* ------------------------------------------------------------------------------ cdevs */

static void cdev_alloc_gives_an_initialised_cdev(void **state)
{
	struct cdev *p = cdev_alloc();

	assert_non_null(p);
	assert_int_equal(kobject_refcount(&p->kobj), 1);
	assert_null(p->owner);
	assert_null(p->ops);
	assert_ptr_equal(p->list.next, &p->list);
	assert_ptr_equal(p->list.prev, &p->list);
	assert_non_null(p->kobj.ktype);
	assert_non_null(p->kobj.ktype->release);
	assert_int_equal(kobj_record_of(*state, p)->kind, KOBJ_KIND_KOBJECT);

	kobject_put(&p->kobj); /* its release frees it (ASan checks) */
	assert_true(kobj_record_of(*state, p)->released);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void cdev_init_sets_up_a_caller_owned_cdev(void **state)
{
	static int fops_storage;
	struct file_operations *fops = (struct file_operations *)(void *)&fops_storage;
	struct cdev c;

	memset(&c, 0xa5, sizeof(c));
	cdev_init(&c, fops);
	assert_ptr_equal(c.ops, fops);
	assert_null(c.owner);
	assert_null(c.kobj.parent);
	assert_null(c.kobj.kset);
	assert_ptr_equal(c.list.next, &c.list);
	assert_int_equal(kobject_refcount(&c.kobj), 1);
	assert_non_null(c.kobj.ktype);

	kobject_put(&c.kobj); /* released; the memory is the caller's */
	assert_true(kobj_record_of(*state, &c)->released);
	assert_false(kobj_record_of(*state, &c)->no_release);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void cdev_get_takes_both_references_and_cdev_put_drops_both(void **state)
{
	struct module *mod = module_load("snd", NULL);
	struct cdev *p = cdev_alloc();

	p->owner = mod;
	assert_ptr_equal(cdev_get(p), &p->kobj);
	assert_int_equal(module_refcount(mod), 1);
	assert_int_equal(kobject_refcount(&p->kobj), 2);
	assert_ptr_equal(cdev_get(p), &p->kobj);
	assert_int_equal(module_refcount(mod), 2);
	assert_int_equal(kobject_refcount(&p->kobj), 3);
	assert_int_equal(module_unload(mod), -EBUSY);

	cdev_put(p);
	cdev_put(p);
	assert_int_equal(module_refcount(mod), 0);
	assert_int_equal(kobject_refcount(&p->kobj), 1);
	kobject_put(&p->kobj);
	assert_true(kobj_record_of(*state, p)->released);
	assert_int_equal(module_unload(mod), 0);

	/* no owner: only the kobject's count moves */
	struct cdev *q = cdev_alloc();
	assert_ptr_equal(cdev_get(q), &q->kobj);
	assert_int_equal(kobject_refcount(&q->kobj), 2);
	cdev_put(q);
	assert_int_equal(kobject_refcount(&q->kobj), 1);
	kobject_put(&q->kobj);
	cdev_put(NULL);
	assert_int_equal(kobj_diag_count(*state), 1); /* the -EBUSY above */
	assert_int_equal(kobj_leak_count(*state), 0);
}

static void cdev_get_fails_when_the_module_is_unloaded(void **state)
{
	struct module *mod = module_load("snd", NULL);
	struct cdev *p = cdev_alloc();

	p->owner = mod;
	assert_int_equal(module_unload(mod), 0);
	assert_null(cdev_get(p));
	assert_int_equal(kobject_refcount(&p->kobj), 1);
	assert_int_equal(module_refcount(mod), 0);
	assert_last_diag(state, "module-unloaded", "try_module_get");

	kobject_put(&p->kobj);
	assert_true(kobj_record_of(*state, p)->released);
}

static void cdev_get_fails_while_the_module_is_going(void **state)
{
	struct module *mod = module_load("snd", NULL);
	struct cdev *p = cdev_alloc();

	p->owner = mod;
	memset(&ex, 0, sizeof(ex));
	ex.cdev = p;
	ex.cdev_got = &p->kobj;
	mod->exit = record_exit;
	assert_int_equal(module_unload(mod), 0);
	assert_int_equal(ex.calls, 1);
	assert_null(ex.cdev_got);
	assert_int_equal(ex.cdev_count, 1);
	assert_int_equal(module_refcount(mod), 0);
	assert_int_equal(kobject_refcount(&p->kobj), 1);

	kobject_put(&p->kobj);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void cdev_get_fails_when_the_kobject_was_released(void **state)
{
	struct module *mod = module_load("snd", NULL);
	struct cdev c;

	cdev_init(&c, NULL); /* caller-owned: the memory outlives the release */
	c.owner = mod;
	kobject_put(&c.kobj);
	assert_true(kobj_record_of(*state, &c)->released);

	assert_null(cdev_get(&c));
	assert_last_diag(state, "get-released", "Badness in kobject_get at lib/kobject.c:431");
	/* the failure branch gave the module reference back */
	assert_int_equal(module_refcount(mod), 0);
	const struct kobj_event *ev = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(ev->kind, KOBJ_EV_PUT);
	assert_string_equal(ev->op, "module_put");
	assert_int_equal(ev->obj, mod->id);
	assert_int_equal(module_unload(mod), 0);
	assert_int_equal(kobj_leak_count(*state), 0);
}

/* ------------------------------------------------------------------------------ leaks */

static void leak_report_lists_a_module_with_users(void **state)
{
	struct module *mod = module_load("snd", NULL);
	char *text = NULL;
	size_t n = 0;

	assert_true(try_module_get(mod)); /* never put */
	assert_int_equal(kobj_leak_count(*state), 1);
	CAPTURE(text, n = kobj_leak_report(*state, out));
	assert_int_equal(n, 1);
	assert_non_null(strstr(text, "Not released:\n"));
	assert_non_null(strstr(text, "  module 'snd' still has 1 user(s), loaded at "));
	assert_non_null(strstr(text, "test_module.c:"));
	assert_non_null(strstr(text, "module user, taken at "));
	assert_non_null(strstr(text, "by try_module_get in "));
	assert_non_null(strstr(text, ", never put"));
	free(text);

	/* a module with no users is not a leak, loaded or not */
	module_put(mod);
	assert_int_equal(kobj_leak_count(*state), 0);
	CAPTURE(text, n = kobj_leak_report(*state, out));
	assert_int_equal(n, 0);
	assert_null(strstr(text, "snd"));
	free(text);
	assert_int_equal(module_unload(mod), 0);
	assert_int_equal(kobj_leak_count(*state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(load_gives_a_live_module_with_no_users),
		TEST(load_refuses_a_duplicate_live_name),
		TEST(try_module_get_and_module_put_count_users),
		TEST(unload_is_refused_while_in_use),
		TEST(get_after_unload_fails),
		TEST(put_below_zero_is_diagnosed),
		TEST(null_module_is_always_there),
		TEST(exit_runs_while_going_and_refuses_new_users),
		TEST(cdev_alloc_gives_an_initialised_cdev),
		TEST(cdev_init_sets_up_a_caller_owned_cdev),
		TEST(cdev_get_takes_both_references_and_cdev_put_drops_both),
		TEST(cdev_get_fails_when_the_module_is_unloaded),
		TEST(cdev_get_fails_while_the_module_is_going),
		TEST(cdev_get_fails_when_the_kobject_was_released),
		TEST(leak_report_lists_a_module_with_users),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
