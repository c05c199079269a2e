/*
 * Today's uevents: kobject_uevent/kobject_uevent_env, the nearest kset's uevent_ops,
 * the variables in the kernel's order with SEQNUM counted from 1, the add/remove state
 * flags, add_uevent_var's limits, and how they sit beside 2.6.0's hotplug events.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"

static const struct kobj_type modern_ktype = { .release = my_object_release };

/* What the uevent_ops saw and are told to do. */
static struct {
	int filter_calls, uevent_calls;
	const char *subsystem; /* returned by name(); NULL drops the event */
	int uevent_result;
	int extra_vars;        /* how many FOO<n>= uevent() adds */
} u;

static int u_filter(struct kobject *kobj)
{
	u.filter_calls++;
	return strncmp(kobject_name(kobj), "hidden", 6) != 0;
}

static const char *u_name(struct kobject *kobj)
{
	(void)kobj;
	return u.subsystem;
}

static int u_uevent(struct kobject *kobj, struct kobj_uevent_env *env)
{
	u.uevent_calls++;
	if (u.uevent_result)
		return u.uevent_result;
	for (int i = 0; i < u.extra_vars; i++) {
		int err = add_uevent_var(env, "FOO%d=%s", i, kobject_name(kobj));
		if (err)
			return err;
	}
	return 0;
}

static const struct kset_uevent_ops full_ops = {
	.filter = u_filter, .name = u_name, .uevent = u_uevent,
};

static int setup(void **state)
{
	memset(&u, 0, sizeof(u));
	u.subsystem = "subsys";
	return world_setup(state);
}

#define UTEST(f) cmocka_unit_test_setup_teardown(f, setup, world_teardown)

/* A member of @set named @name, added. */
static struct my_object *member(struct kset *set, const char *name)
{
	struct my_object *o = calloc(1, sizeof(*o));
	o->kobj.kset = set;
	assert_int_equal(kobject_init_and_add(&o->kobj, &modern_ktype, NULL, "%s", name), 0);
	return o;
}

/* The environment of event @i as one string, lines joined by '|'. */
static const char *env_of(void **state, size_t i)
{
	static char buf[1024];
	const struct kobj_hotplug_event *ev = kobj_hotplug_at(*state, i);
	buf[0] = '\0';
	assert_non_null(ev);
	for (int j = 0; j < ev->envc; j++) {
		strcat(buf, ev->envp[j]);
		if (j + 1 < ev->envc)
			strcat(buf, "|");
	}
	return buf;
}

/* ----------------------------------------------------------------------- the event */

static void add_event_has_todays_variables(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "dev0");

	assert_int_equal(kobj_hotplug_count(*state), 0); /* add alone sends nothing */
	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_ADD), 0);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	const struct kobj_hotplug_event *ev = kobj_hotplug_at(*state, 0);
	assert_string_equal(ev->action, "add");
	assert_string_equal(ev->devpath, "/bus/dev0");
	assert_string_equal(ev->subsystem, "bus");
	assert_int_equal(ev->seqnum, 1); /* today's SEQNUM starts at 1 */
	assert_int_equal(ev->obj, kobj_record_of(*state, o)->id);
	assert_string_equal(env_of(state, 0),
			    "ACTION=add|DEVPATH=/bus/dev0|SUBSYSTEM=bus|SEQNUM=1");
	assert_true(kobj_record_of(*state, o)->add_uevent_sent);

	char *text = NULL;
	CAPTURE(text, kobj_hotplug_print(ev, out));
	assert_string_equal(text, "KERNEL[1] add    /bus/dev0 (bus)\n"
				  "ACTION=add\nDEVPATH=/bus/dev0\nSUBSYSTEM=bus\nSEQNUM=1\n\n");
	free(text);

	/* the log names the call */
	const struct kobj_event *last = event_at(*state, kobj_log_count(*state) - 1);
	assert_int_equal(last->kind, KOBJ_EV_HOTPLUG);
	assert_string_equal(last->op, "kobject_uevent");

	kobject_put(&o->kobj);
	kset_unregister(set);
}

static void every_action_has_its_name(void **state)
{
	static const char *const names[] = { "add", "remove", "change", "move",
					     "online", "offline", "bind", "unbind" };
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");

	for (int a = KOBJ_ADD; a <= KOBJ_UNBIND; a++) {
		assert_string_equal(kobject_action_name(a), names[a]);
		assert_int_equal(kobject_uevent(&o->kobj, a), 0);
		assert_string_equal(kobj_hotplug_at(*state, (size_t)a)->action, names[a]);
		assert_int_equal(kobj_hotplug_at(*state, (size_t)a)->seqnum, a + 1);
	}
	assert_null(kobject_action_name(99));
	assert_int_equal(kobject_uevent(&o->kobj, 99), -EINVAL);
	kobject_put(&o->kobj);
	kset_unregister(set);
}

static void seqnum_is_separate_from_2_6_0_hotplug(void **state)
{
	static struct kset_hotplug_ops old_ops = { 0 };
	decl_subsys(old, NULL, &old_ops);
	struct kset *set = kset_create_and_add("new", NULL, NULL);
	struct my_object *a = new_object("a");
	struct my_object *m = member(set, "m");

	assert_int_equal(subsystem_register(&old_subsys), 0);
	a->kobj.kset = &old_subsys.kset;
	kobject_init(&a->kobj);
	assert_int_equal(kobject_add(&a->kobj), 0);         /* 2.6.0: hotplug "add", seq 0 */
	assert_int_equal(kobject_uevent(&m->kobj, KOBJ_ADD), 0); /* today: SEQNUM 1 */
	assert_int_equal(kobj_hotplug_at(*state, 0)->seqnum, 0);
	assert_non_null(strstr(env_of(state, 0), "HOME=/|PATH="));
	assert_int_equal(kobj_hotplug_at(*state, 1)->seqnum, 1);
	assert_null(strstr(env_of(state, 1), "HOME="));

	kobject_unregister(&a->kobj);
	subsystem_unregister(&old_subsys);
	kobject_put(&m->kobj);
	kset_unregister(set);
	assert_int_equal(kobj_hotplug_at(*state, 2)->seqnum, 1); /* 2.6.0's remove */
	assert_int_equal(kobj_hotplug_at(*state, 3)->seqnum, 2); /* today's auto remove */
}

static void no_kset_means_einval(void **state)
{
	struct kobject *k = kobject_create_and_add("lonely", NULL);

	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	assert_int_equal(kobject_uevent(k, KOBJ_CHANGE), -EINVAL);
	assert_int_equal(kobj_hotplug_count(*state), 0);
	size_t n = kobj_trace_count(*state);
	assert_non_null(strstr(kobj_trace_at(*state, n - 1)->text,
			       "): kobject_uevent_env: attempted to send uevent without kset!"));
	assert_non_null(strstr(kobj_trace_at(*state, n - 2)->text, "): kobject_uevent_env"));
	assert_int_equal(kobject_uevent(NULL, KOBJ_ADD), -EINVAL);
	kobject_put(k);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void the_nearest_kset_of_an_ancestor_decides(void **state)
{
	struct kset *set = kset_create_and_add("class", &full_ops, NULL);
	struct my_object *dev = member(set, "dev");
	struct kobject *queue = kobject_create_and_add("queue", &dev->kobj);

	assert_int_equal(kobject_uevent(queue, KOBJ_CHANGE), 0);
	assert_string_equal(kobj_hotplug_at(*state, 0)->devpath, "/class/dev/queue");
	assert_string_equal(kobj_hotplug_at(*state, 0)->subsystem, "subsys");
	kobject_put(queue);
	kobject_put(&dev->kobj);
	kset_unregister(set);
}

/* -------------------------------------------------------------------- uevent_ops */

static void ops_filter_name_and_uevent(void **state)
{
	struct kset *set = kset_create_and_add("bus", &full_ops, NULL);
	struct my_object *o = member(set, "d");
	struct my_object *hidden = member(set, "hidden0");
	char *ext[] = { "EXTRA=1", "MORE=two", NULL };

	u.extra_vars = 2;
	assert_int_equal(kobject_uevent_env(&o->kobj, KOBJ_CHANGE, ext), 0);
	assert_string_equal(env_of(state, 0), "ACTION=change|DEVPATH=/bus/d|SUBSYSTEM=subsys|"
			    "EXTRA=1|MORE=two|FOO0=d|FOO1=d|SEQNUM=1");
	assert_string_equal(event_at(*state, kobj_log_count(*state) - 1)->op,
			    "kobject_uevent_env");

	assert_int_equal(kobject_uevent(&hidden->kobj, KOBJ_ADD), 0); /* filtered */
	assert_int_equal(kobj_hotplug_count(*state), 1);
	assert_false(kobj_record_of(*state, hidden)->add_uevent_sent);

	u.subsystem = NULL; /* an unset subsystem drops it */
	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_ADD), 0);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	u.subsystem = "subsys";

	u.uevent_result = -EBUSY; /* uevent() refuses: its error is returned */
	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_ADD), -EBUSY);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	assert_false(kobj_record_of(*state, o)->add_uevent_sent);
	u.uevent_result = 0;

	o->kobj.uevent_suppress = 1;
	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_ADD), 0);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	o->kobj.uevent_suppress = 0;

	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_ADD), 0);
	assert_int_equal(kobj_hotplug_at(*state, 1)->seqnum, 2); /* dropped ones used none */
	assert_int_equal(u.filter_calls, 5);
	kobject_put(&hidden->kobj);
	kobject_put(&o->kobj);
	kset_unregister(set);
}

static void unbind_drops_modalias(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");
	char *ext[] = { "MODALIAS=pci:v1234", "DRIVER=x", NULL };

	assert_int_equal(kobject_uevent_env(&o->kobj, KOBJ_UNBIND, ext), 0);
	assert_string_equal(env_of(state, 0),
			    "ACTION=unbind|DEVPATH=/bus/d|SUBSYSTEM=bus|DRIVER=x|SEQNUM=1");
	assert_int_equal(kobject_uevent_env(&o->kobj, KOBJ_BIND, ext), 0);
	assert_non_null(strstr(env_of(state, 1), "MODALIAS=pci:v1234"));
	kobject_put(&o->kobj);
	kset_unregister(set);
}

/* ---------------------------------------------------------------------- the limits */

static void too_many_keys(void **state)
{
	struct kset *set = kset_create_and_add("bus", &full_ops, NULL);
	struct my_object *o = member(set, "d");

	u.extra_vars = UEVENT_NUM_ENVP; /* with ACTION, DEVPATH, SUBSYSTEM: too many */
	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_ADD), -ENOMEM);
	assert_last_diag(state, "uevent-env-full", "add_uevent_var: too many keys");
	assert_non_null(strstr(last_diag(state)->explanation, "test_uevent.c:"));
	assert_int_equal(kobj_hotplug_count(*state), 0);
	assert_false(kobj_record_of(*state, o)->add_uevent_sent);
	kobject_put(&o->kobj);
	kset_unregister(set);
}

static void buffer_too_small(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");
	char big[UEVENT_BUFFER_SIZE];
	char *ext[] = { big, NULL };

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(kobject_uevent_env(&o->kobj, KOBJ_CHANGE, ext), -ENOMEM);
	assert_last_diag(state, "uevent-env-full", "add_uevent_var: buffer size too small");
	assert_int_equal(kobj_hotplug_count(*state), 0);
	kobject_put(&o->kobj);
	kset_unregister(set);
}

static void add_uevent_var_by_itself(void **state)
{
	struct kobj_uevent_env *env = calloc(1, sizeof(*env));

	assert_int_equal(add_uevent_var(env, "A=%d", 1), 0);
	assert_int_equal(add_uevent_var(env, "B=%s", "two"), 0);
	assert_int_equal(env->envp_idx, 2);
	assert_string_equal(env->envp[1], "B=two");
	assert_int_equal(env->buflen, 10);
	free(env);
	assert_int_equal(kobj_diag_count(*state), 0);
}

/* ------------------------------------------------------------ remove, automatically */

static void del_sends_remove_after_add(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");
	struct my_object *quiet = member(set, "q");

	kobject_uevent(&o->kobj, KOBJ_ADD);
	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	kobject_del(&o->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	assert_string_equal(kobj_hotplug_at(*state, 1)->action, "remove");
	assert_string_equal(kobj_hotplug_at(*state, 1)->devpath, "/bus/d"); /* before it went */
	assert_true(kobj_record_of(*state, o)->remove_uevent_sent);
	int found = 0;
	for (size_t i = 0; i < kobj_trace_count(*state); i++)
		found += strstr(kobj_trace_at(*state, i)->text, "auto cleanup 'remove' event") != 0;
	assert_int_equal(found, 1);

	kobject_del(&quiet->kobj); /* never announced: no remove either */
	assert_int_equal(kobj_hotplug_count(*state), 2);
	kobject_put(&o->kobj);
	kobject_put(&quiet->kobj);
	kset_unregister(set);
}

static void remove_is_not_repeated(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");

	kobject_uevent(&o->kobj, KOBJ_ADD);
	kobject_uevent(&o->kobj, KOBJ_REMOVE);
	kobject_put(&o->kobj); /* auto cleanup: "remove" was sent, so not again */
	assert_int_equal(kobj_hotplug_count(*state), 2);

	/* a dropped remove still counts as sent, as in the kernel */
	struct my_object *p = member(set, "p");
	kobject_uevent(&p->kobj, KOBJ_ADD);
	p->kobj.uevent_suppress = 1;
	kobject_uevent(&p->kobj, KOBJ_REMOVE);
	p->kobj.uevent_suppress = 0;
	kobject_put(&p->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 3);
	kset_unregister(set);
}

static void last_put_sends_remove(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");

	kobject_uevent(&o->kobj, KOBJ_ADD);
	kobject_put(&o->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	assert_string_equal(kobj_hotplug_at(*state, 1)->action, "remove");
	assert_string_equal(env_of(state, 1),
			    "ACTION=remove|DEVPATH=/bus/d|SUBSYSTEM=bus|SEQNUM=2");
	assert_int_equal(released, 1);
	kset_unregister(set);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void uevent_of_a_released_object_is_reported(void **state)
{
	struct kset *set = kset_create_and_add("bus", NULL, NULL);
	struct my_object *o = member(set, "d");

	kobject_put(&o->kobj);
	assert_int_equal(kobject_uevent(&o->kobj, KOBJ_CHANGE), -EINVAL);
	assert_last_diag(state, "use-after-free", "BUG: KASAN: slab-use-after-free in "
			 "kobject_uevent_env");
	assert_int_equal(kobj_hotplug_count(*state), 0);
	kset_unregister(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		UTEST(add_event_has_todays_variables),
		UTEST(every_action_has_its_name),
		UTEST(seqnum_is_separate_from_2_6_0_hotplug),
		UTEST(no_kset_means_einval),
		UTEST(the_nearest_kset_of_an_ancestor_decides),
		UTEST(ops_filter_name_and_uevent),
		UTEST(unbind_drops_modalias),
		UTEST(too_many_keys),
		UTEST(buffer_too_small),
		UTEST(add_uevent_var_by_itself),
		UTEST(del_sends_remove_after_add),
		UTEST(remove_is_not_repeated),
		UTEST(last_put_sends_remove),
		UTEST(uevent_of_a_released_object_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
