/*
 * A reference taken and given back from C: kobject_get() then kobject_put() on one
 * object, with the world's log on (every event kept) and off (the ledger still records
 * each reference and the line that took it).
 */
#include <stdlib.h>

#include "core/model/kobject.h"
#include "tools/bench/bench.h"

static void release(struct kobject *kobj)
{
	free(kobj);
}

struct kobj_type bench_ktype = { .release = release };

struct pairs {
	size_t n;
	bool log;
};

static double pairs(void *arg)
{
	const struct pairs *p = arg;
	struct kobj_world *w = kobj_world_new(), *was = kobj_world_use(w);
	struct kobject *k = calloc(1, sizeof(*k));

	if (!k)
		abort();
	kobj_world_set_logging(w, p->log);
	k->ktype = &bench_ktype;
	kobject_init(k);
	double t0 = bench_now();
	for (size_t i = 0; i < p->n; i++) {
		kobject_get(k);
		kobject_put(k);
	}
	double t = bench_now() - t0;
	if (kobject_refcount(k) != 1 || kobj_diag_count(w))
		abort(); /* every put gave back the get's reference */
	kobject_put(k);
	kobj_world_free(w);
	kobj_world_use(was);
	return t / (double)p->n;
}

void bench_c_pairs(const struct bench_size *s)
{
	struct pairs on = { s->pairs, true }, off = { s->pairs, false };
	size_t n = s->pairs;
	struct bench_row row = {
		.what = "C get+put pair, log on", .anchor = "GObject g_object_ref+unref",
		.unit = "ns", .scale = 1e9, .kind = GOAL_RATIO, .goal = 1,
		.goal_text = "<= 1x GObject",
	};
	bench_pair(&row, s->reps, pairs, &on, anchor_gobject_pair, &n);
	bench_print(&row);
	row = (struct bench_row){
		.what = "the same pair", .anchor = "64 bytes written to new memory (its two events)",
		.unit = "ns", .scale = 1e9, .kind = GOAL_NONE,
	};
	struct new_memory events = { n, 64 };
	bench_pair(&row, s->reps, pairs, &on, anchor_new_memory, &events);
	bench_print(&row);
	row = (struct bench_row){
		.what = "C get+put pair, log off", .anchor = "C11 atomic inc + dec-and-test",
		.unit = "ns", .scale = 1e9, .kind = GOAL_RATIO, .goal = 1.2,
		.goal_text = "<= 1.2x atomic",
	};
	bench_pair(&row, s->reps, pairs, &off, anchor_atomic_pair, &n);
	bench_print(&row);
}
