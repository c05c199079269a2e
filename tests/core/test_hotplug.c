/* Hotplug events as 2.6.0's kset_hotplug() built them for /sbin/hotplug. */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"

/* ------------------------------------------------------------------- hotplug_ops */

/* What the callbacks saw and what they are told to do; reset by setup(). */
static struct {
	int filter_calls, name_calls, hotplug_calls;
	struct kset *kset_seen;
	struct kobject *kobj_seen;
	int num_envp_seen, buffer_size_seen;
	const char *subsystem;   /* returned by name() */
	int hotplug_result;      /* returned by hotplug() */
	int cancel_next;         /* hotplug() returns -ENOMEM once */
	int add_vars;            /* hotplug() adds MINOR= and NAME= */
	struct my_object *nested;  /* hotplug() adds this object while the event is built */
} hp;

/* Suppresses objects whose names start with "hidden". */
static int hp_filter(struct kset *kset, struct kobject *kobj)
{
	hp.filter_calls++;
	hp.kset_seen = kset;
	hp.kobj_seen = kobj;
	return strncmp(kobject_name(kobj), "hidden", 6) != 0;
}

static const char *hp_name(struct kset *kset, struct kobject *kobj)
{
	(void)kset;
	(void)kobj;
	hp.name_calls++;
	return hp.subsystem;
}

/* As 2.6.0 callbacks do: each string written into @buffer, its start put in @envp. */
static int hp_hotplug(struct kset *kset, struct kobject *kobj, char **envp, int num_envp,
		      char *buffer, int buffer_size)
{
	int i = 0, len = 0;

	hp.hotplug_calls++;
	hp.kset_seen = kset;
	hp.kobj_seen = kobj;
	hp.num_envp_seen = num_envp;
	hp.buffer_size_seen = buffer_size;
	if (hp.nested) {
		struct my_object *n = hp.nested;
		hp.nested = NULL;
		assert_int_equal(kobject_add(&n->kobj), 0);
	}
	if (hp.cancel_next) {
		hp.cancel_next = 0;
		return -ENOMEM;
	}
	if (hp.add_vars) {
		struct my_object *o = container_of(kobj, struct my_object, kobj);
		envp[i++] = buffer + len;
		len += snprintf(buffer + len, (size_t)(buffer_size - len), "MINOR=%d",
				o->value) + 1;
		envp[i++] = buffer + len;
		len += snprintf(buffer + len, (size_t)(buffer_size - len), "NAME=%s",
				kobject_name(kobj)) + 1;
		envp[i] = NULL;
	}
	return hp.hotplug_result;
}

static struct kset_hotplug_ops full_ops = {
	.filter = hp_filter,
	.name = hp_name,
	.hotplug = hp_hotplug,
};

static struct kset_hotplug_ops filter_only_ops = { .filter = hp_filter };

/* ------------------------------------------------------------------------- helpers */

/* /sys/class, and /sys/class/<name> a kset of it with @ops. */
struct classes {
	struct subsystem class_subsys;
	struct kset kset;
};

static void classes_up(struct classes *c, const char *name, struct kset_hotplug_ops *ops)
{
	decl_subsys(class, NULL, NULL);
	memset(&hp, 0, sizeof(hp));
	c->class_subsys = class_subsys;
	memset(&c->kset, 0, sizeof(c->kset));
	c->kset.subsys = &c->class_subsys;
	c->kset.hotplug_ops = ops;
	assert_int_equal(subsystem_register(&c->class_subsys), 0);
	assert_int_equal(kobject_set_name(&c->kset.kobj, "%s", name), 0);
	assert_int_equal(kset_register(&c->kset), 0);
}

static void classes_down(struct classes *c)
{
	kset_unregister(&c->kset);
	subsystem_unregister(&c->class_subsys);
}

/* A member of @kset (NULL: none) under @parent (NULL: the kset's directory), added. */
static struct my_object *member(const char *name, struct kset *kset, struct kobject *parent)
{
	struct my_object *o = new_object(name);
	o->kobj.kset = kset;
	o->kobj.parent = parent;
	kobject_init(&o->kobj);
	assert_int_equal(kobject_add(&o->kobj), 0);
	return o;
}

static const struct kobj_hotplug_event *event(void **state, size_t i)
{
	const struct kobj_hotplug_event *ev = kobj_hotplug_at(*state, i);
	assert_non_null(ev);
	return ev;
}

static void assert_env(const struct kobj_hotplug_event *ev, const char *const *expect, int n)
{
	assert_int_equal(ev->envc, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(ev->envp[i], expect[i]);
}

static size_t hotplug_log_entries(void **state)
{
	size_t n = 0;
	for (size_t i = 0; i < kobj_log_count(*state); i++)
		n += event_at(*state, i)->kind == KOBJ_EV_HOTPLUG;
	return n;
}

/* --------------------------------------------------------------------------- tests */

static void add_and_del_send_events_with_env_in_order(void **state)
{
	struct classes c;
	classes_up(&c, "input", &full_ops);
	hp.add_vars = 1;
	assert_int_equal(kobj_hotplug_count(*state), 0); /* the subsystem and kset: none */

	struct my_object *m = new_object("mouse0");
	m->value = 3;
	m->kobj.kset = &c.kset;
	kobject_init(&m->kobj);
	assert_int_equal(kobject_add(&m->kobj), 0);

	assert_int_equal(kobj_hotplug_count(*state), 1);
	const struct kobj_hotplug_event *ev = event(state, 0);
	assert_int_equal(ev->seqnum, 0);
	assert_string_equal(ev->action, "add");
	assert_string_equal(ev->devpath, "/class/input/mouse0");
	assert_string_equal(ev->subsystem, "input");
	assert_int_equal(ev->obj, kobj_record_of(*state, m)->id);
	const char *const add_env[] = {
		"HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", "ACTION=add", "SEQNUM=0",
		"DEVPATH=/class/input/mouse0", "SUBSYSTEM=input", "MINOR=3", "NAME=mouse0",
	};
	assert_env(ev, add_env, 8);
	assert_ptr_equal(hp.kset_seen, &c.kset);
	assert_ptr_equal(hp.kobj_seen, &m->kobj);
	assert_int_equal(hp.filter_calls, 1);
	assert_int_equal(hp.hotplug_calls, 1);
	assert_true(hp.num_envp_seen >= 2);
	assert_true(hp.buffer_size_seen >= 64);

	kobject_del(&m->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	ev = event(state, 1);
	assert_int_equal(ev->seqnum, 1);
	assert_string_equal(ev->action, "remove");
	assert_string_equal(ev->devpath, "/class/input/mouse0");
	const char *const remove_env[] = {
		"HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", "ACTION=remove", "SEQNUM=1",
		"DEVPATH=/class/input/mouse0", "SUBSYSTEM=input", "MINOR=3", "NAME=mouse0",
	};
	assert_env(ev, remove_env, 8);
	/* the first event is untouched by the second */
	assert_string_equal(event(state, 0)->action, "add");
	assert_string_equal(event(state, 0)->envp[3], "SEQNUM=0");

	kobject_put(&m->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2); /* the release sends nothing more */
	classes_down(&c);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void filter_returning_zero_suppresses_event(void **state)
{
	struct classes c;
	classes_up(&c, "input", &filter_only_ops);

	struct my_object *h = member("hidden0", &c.kset, NULL);
	assert_int_equal(hp.filter_calls, 1);
	assert_ptr_equal(hp.kobj_seen, &h->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 0);

	struct my_object *s = member("shown0", &c.kset, NULL);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	/* a filtered event takes no sequence number */
	assert_int_equal(event(state, 0)->seqnum, 0);
	assert_string_equal(event(state, 0)->devpath, "/class/input/shown0");
	/* without name() or hotplug(): the kset's name and the kernel's variables only */
	const char *const env[] = {
		"HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", "ACTION=add", "SEQNUM=0",
		"DEVPATH=/class/input/shown0", "SUBSYSTEM=input",
	};
	assert_env(event(state, 0), env, 6);

	kobject_unregister(&h->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	kobject_unregister(&s->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	assert_string_equal(event(state, 1)->action, "remove");
	assert_int_equal(event(state, 1)->seqnum, 1);
	assert_int_equal(hotplug_log_entries(state), 2);
	classes_down(&c);
	assert_int_equal(released, 2);
}

static void name_callback_sets_the_subsystem(void **state)
{
	struct classes c;
	char *text = NULL;
	classes_up(&c, "input", &full_ops);
	hp.subsystem = "usb";

	struct my_object *m = member("mouse0", &c.kset, NULL);
	const struct kobj_hotplug_event *ev = event(state, 0);
	assert_int_equal(hp.name_calls, 1);
	assert_string_equal(ev->subsystem, "usb");
	assert_string_equal(ev->envp[5], "SUBSYSTEM=usb");
	assert_int_equal(ev->envc, 6);
	CAPTURE(text, kobj_hotplug_print(ev, out));
	assert_non_null(strstr(text, "KERNEL[0] add    /class/input/mouse0 (usb)\n"));
	free(text);

	/* NULL from name(): the kset's own name */
	hp.subsystem = NULL;
	kobject_del(&m->kobj);
	ev = event(state, 1);
	assert_string_equal(ev->subsystem, "input");
	assert_string_equal(ev->envp[5], "SUBSYSTEM=input");

	kobject_put(&m->kobj);
	classes_down(&c);
	assert_int_equal(released, 1);
}

static void hotplug_error_cancels_event_but_uses_seqnum(void **state)
{
	struct classes c;
	classes_up(&c, "input", &full_ops);
	hp.cancel_next = 1;

	struct my_object *a = member("a", &c.kset, NULL);
	assert_int_equal(hp.hotplug_calls, 1);
	assert_int_equal(kobj_hotplug_count(*state), 0);
	assert_int_equal(hotplug_log_entries(state), 0);

	struct my_object *b = member("b", &c.kset, NULL);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	assert_int_equal(event(state, 0)->seqnum, 1);
	assert_string_equal(event(state, 0)->envp[3], "SEQNUM=1");
	assert_string_equal(event(state, 0)->devpath, "/class/input/b");
	assert_int_equal(hotplug_log_entries(state), 1);

	/* any non-zero return cancels, positive too */
	hp.hotplug_result = 1;
	kobject_unregister(&a->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	hp.hotplug_result = 0;
	kobject_unregister(&b->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	assert_int_equal(event(state, 1)->seqnum, 3);
	classes_down(&c);
	assert_int_equal(released, 2);
}

static void no_hotplug_ops_no_event(void **state)
{
	struct classes c;
	classes_up(&c, "plain", NULL);

	struct my_object *m = member("m", &c.kset, NULL);
	struct my_object *top = member("top", NULL, NULL);
	struct my_object *child = member("child", NULL, &m->kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/class/plain/m/child"));
	kobject_unregister(&child->kobj);
	kobject_unregister(&top->kobj);
	kobject_unregister(&m->kobj);

	assert_int_equal(kobj_hotplug_count(*state), 0);
	assert_int_equal(hotplug_log_entries(state), 0);
	classes_down(&c);
	assert_int_equal(released, 3);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void child_event_uses_nearest_kset_up_the_chain(void **state)
{
	struct classes c;
	classes_up(&c, "input", &full_ops);
	struct kset quiet = { .subsys = &c.class_subsys }; /* a kset without hotplug_ops */
	kobject_set_name(&quiet.kobj, "quiet");
	assert_int_equal(kset_register(&quiet), 0);

	struct my_object *dev = member("mouse0", &c.kset, NULL);
	struct my_object *ev0 = member("event0", NULL, &dev->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	const struct kobj_hotplug_event *ev = event(state, 1);
	assert_string_equal(ev->devpath, "/class/input/mouse0/event0");
	assert_string_equal(ev->subsystem, "input");
	assert_string_equal(ev->envp[4], "DEVPATH=/class/input/mouse0/event0");
	assert_int_equal(ev->obj, kobj_record_of(*state, ev0)->id);
	/* the callbacks are given the kset found and the object itself */
	assert_ptr_equal(hp.kset_seen, &c.kset);
	assert_ptr_equal(hp.kobj_seen, &ev0->kobj);

	/* a nearer kset without hotplug_ops decides: no event */
	struct my_object *sub = member("sub", &quiet, &dev->kobj);
	struct my_object *leaf = member("leaf", NULL, &sub->kobj);
	assert_non_null(sysfs_lookup(*state, "/sys/class/input/mouse0/sub/leaf"));
	assert_int_equal(kobj_hotplug_count(*state), 2);
	kobject_unregister(&leaf->kobj);
	kobject_unregister(&sub->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 2);

	kobject_unregister(&ev0->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 3);
	assert_string_equal(event(state, 2)->action, "remove");
	assert_string_equal(event(state, 2)->devpath, "/class/input/mouse0/event0");
	kobject_unregister(&dev->kobj);
	assert_int_equal(kobj_hotplug_count(*state), 4);
	kset_unregister(&quiet);
	classes_down(&c);
	assert_int_equal(released, 4);
	assert_int_equal(kobj_diag_count(*state), 0);
}

static void print_looks_like_udevadm_monitor(void **state)
{
	struct classes c;
	char *text = NULL;
	classes_up(&c, "input", &filter_only_ops);

	struct my_object *m = member("mouse0", &c.kset, NULL);
	kobject_del(&m->kobj);
	CAPTURE(text, kobj_hotplug_print(event(state, 0), out));
	assert_string_equal(text,
			    "KERNEL[0] add    /class/input/mouse0 (input)\n"
			    "HOME=/\n"
			    "PATH=/sbin:/bin:/usr/sbin:/usr/bin\n"
			    "ACTION=add\n"
			    "SEQNUM=0\n"
			    "DEVPATH=/class/input/mouse0\n"
			    "SUBSYSTEM=input\n"
			    "\n");
	free(text);
	CAPTURE(text, kobj_hotplug_print(event(state, 1), out));
	assert_string_equal(text,
			    "KERNEL[1] remove /class/input/mouse0 (input)\n"
			    "HOME=/\n"
			    "PATH=/sbin:/bin:/usr/sbin:/usr/bin\n"
			    "ACTION=remove\n"
			    "SEQNUM=1\n"
			    "DEVPATH=/class/input/mouse0\n"
			    "SUBSYSTEM=input\n"
			    "\n");
	free(text);

	kobject_put(&m->kobj);
	classes_down(&c);
	assert_int_equal(released, 1);
}

static void log_has_hotplug_entry_pointing_at_the_event(void **state)
{
	struct classes c;
	classes_up(&c, "input", &filter_only_ops);

	struct my_object *h = member("hidden", &c.kset, NULL);
	struct my_object *a = member("a", &c.kset, NULL);
	struct my_object *b = member("b", &c.kset, NULL);
	kobject_del(&a->kobj);

	const char *const actions[] = { "add", "add", "remove" };
	const struct my_object *const objs[] = { a, b, a };
	size_t found = 0;
	for (size_t i = 0; i < kobj_log_count(*state); i++) {
		const struct kobj_event *le = event_at(*state, i);
		if (le->kind != KOBJ_EV_HOTPLUG)
			continue;
		assert_true(found < 3);
		assert_int_equal(le->aux, found);
		assert_non_null(le->op); /* the call that sent it */
		assert_int_equal(le->obj, kobj_record_of(*state, objs[found])->id);
		const struct kobj_hotplug_event *ev = event(state, le->aux);
		assert_int_equal(ev->obj, le->obj);
		assert_string_equal(ev->action, actions[found]);
		found++;
	}
	assert_int_equal(found, 3);
	assert_int_equal(kobj_hotplug_count(*state), 3);
	assert_string_equal(kobj_event_kind_name(KOBJ_EV_HOTPLUG), "hotplug");

	/* the printed log line names the event */
	char *text = NULL;
	for (size_t i = 0; i < kobj_log_count(*state); i++) {
		const struct kobj_event *le = event_at(*state, i);
		if (le->kind == KOBJ_EV_HOTPLUG && le->aux == 2) {
			CAPTURE(text, kobj_event_print(*state, le, out));
			assert_non_null(strstr(text, "remove /class/input/a"));
			free(text);
		}
	}

	kobject_put(&a->kobj);
	kobject_unregister(&b->kobj);
	kobject_unregister(&h->kobj);
	classes_down(&c);
	assert_int_equal(released, 3);
}

/* A put cannot take the sysfs registration's reference: only del drops it, and sends
 * "remove" on its way. */
static void only_del_ends_the_registration_and_sends_remove(void **state)
{
	struct classes c;
	classes_up(&c, "input", &filter_only_ops);

	struct my_object *m = member("m", &c.kset, NULL);
	kobject_put(&m->kobj); /* the creator's */
	kobject_put(&m->kobj); /* sysfs's would be next: refused */
	assert_last_diag(state, "put-not-owned", "refcount_t: underflow; use-after-free.");
	assert_int_equal(released, 0);
	assert_int_equal(kobj_hotplug_count(*state), 1);
	kobject_del(&m->kobj);
	assert_int_equal(released, 1);
	assert_int_equal(kobj_hotplug_count(*state), 2);
	assert_string_equal(event(state, 1)->action, "remove");
	assert_string_equal(event(state, 1)->devpath, "/class/input/m");
	assert_null(sysfs_lookup(*state, "/sys/class/input/m"));
	classes_down(&c);
}

/*
 * A hotplug() method that itself adds an object: 2.6.0's kset_hotplug() keeps its envp
 * and buffer in locals, so a nested event is independent of the one being built.
 */
static void nested_event_from_hotplug_callback_keeps_both(void **state)
{
	struct classes c;
	classes_up(&c, "input", &full_ops);

	struct my_object *inner = new_object("inner");
	inner->kobj.kset = &c.kset;
	kobject_init(&inner->kobj);
	hp.nested = inner;
	struct my_object *outer = member("outer", &c.kset, NULL);

	assert_int_equal(kobj_hotplug_count(*state), 2);
	const struct kobj_hotplug_event *ev_outer = NULL, *ev_inner = NULL;
	for (size_t i = 0; i < 2; i++) {
		const struct kobj_hotplug_event *ev = event(state, i);
		assert_non_null(ev->devpath);
		if (strcmp(ev->devpath, "/class/input/outer") == 0)
			ev_outer = ev;
		else if (strcmp(ev->devpath, "/class/input/inner") == 0)
			ev_inner = ev;
	}
	assert_non_null(ev_outer);
	assert_non_null(ev_inner);
	assert_int_equal(ev_outer->seqnum, 0);
	assert_int_equal(ev_inner->seqnum, 1);
	assert_int_equal(ev_outer->envc, 6);
	assert_string_equal(ev_outer->envp[4], "DEVPATH=/class/input/outer");
	assert_string_equal(ev_inner->envp[4], "DEVPATH=/class/input/inner");

	kobject_unregister(&inner->kobj);
	kobject_unregister(&outer->kobj);
	classes_down(&c);
	assert_int_equal(released, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(add_and_del_send_events_with_env_in_order),
		TEST(filter_returning_zero_suppresses_event),
		TEST(name_callback_sets_the_subsystem),
		TEST(hotplug_error_cancels_event_but_uses_seqnum),
		TEST(no_hotplug_ops_no_event),
		TEST(child_event_uses_nearest_kset_up_the_chain),
		TEST(print_looks_like_udevadm_monitor),
		TEST(log_has_hotplug_entry_pointing_at_the_event),
		TEST(only_del_ends_the_registration_and_sends_remove),
		/* last: if the core corrupts memory here, the tests above have reported */
		TEST(nested_event_from_hotplug_callback_keeps_both),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
