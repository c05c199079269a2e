/*
 * Building many kobjects under one kset (calloc, kobject_init, kobject_set_name,
 * kobject_add), against g_object_new; the heap each object costs, with the log on and
 * off; and how the time per object grows from ten thousand to a million.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/model/kobject.h"
#include "core/report/report.h"
#include "tools/bench/bench.h"

struct build {
	size_t n;
	bool log;
	double bytes; /* out: heap per object */
};

static double build(void *arg)
{
	struct build *b = arg;
	struct kobj_world *w = kobj_world_new(), *was = kobj_world_use(w);
	struct kset *kset = calloc(1, sizeof(*kset));
	struct kobject **objs = malloc(b->n * sizeof(*objs));
	static struct subsystem sub;

	if (!kset || !objs)
		abort();
	kobj_world_set_logging(w, b->log);
	sub = (struct subsystem){ .kset = { .kobj = { .name = "bench" } },
				  .rwsem = RWSEM_INITIALIZER };
	subsystem_register(&sub);
	kobject_set_name(&kset->kobj, "members");
	kset->subsys = &sub;
	kset_register(kset);
	double heap = bench_heap(), t0 = bench_now();
	for (size_t i = 0; i < b->n; i++) {
		struct kobject *k = calloc(1, sizeof(*k));
		if (!k)
			abort();
		k->ktype = &bench_ktype;
		k->kset = kset;
		kobject_init(k);
		kobject_set_name(k, "obj%zu", i);
		if (kobject_add(k))
			abort();
		objs[i] = k;
	}
	double t = bench_now() - t0;
	b->bytes = (bench_heap() - heap) / (double)b->n;
	for (size_t i = b->n; i-- > 0;)
		kobject_unregister(objs[i]);
	kset_unregister(kset);
	subsystem_unregister(&sub);
	if (kobj_leak_count(w) || kobj_diag_count(w))
		abort(); /* all released, nothing reported */
	kobj_world_free(w);
	kobj_world_use(was);
	free(objs);
	free(kset);
	return t;
}

static double build_bytes(void *arg)
{
	build(arg);
	return ((struct build *)arg)->bytes;
}

/* Time per object, for the growth rows. */
static double build_each(void *arg)
{
	return build(arg) / (double)((struct build *)arg)->n;
}

static double new_memory_total(void *arg)
{
	return anchor_new_memory(arg) * (double)((struct new_memory *)arg)->n;
}

static double gobject_each(void *arg)
{
	return anchor_gobject_new(arg) / (double)*(size_t *)arg;
}

void bench_build(const struct bench_size *s)
{
	size_t n = s->build;
	struct build on = { n, true, 0 }, off = { n, false, 0 };
	char what[64];
	snprintf(what, sizeof(what), "build %zu kobjects under one kset", n);
	struct bench_row row = {
		.what = what, .anchor = "g_object_new", .unit = "s", .scale = 1,
		.kind = GOAL_BELOW, .goal = 0.5, .goal_text = "< 0.5 s",
	};
	bench_pair(&row, s->heavy_reps, build, &on, anchor_gobject_new, &n);
	bench_print(&row);
	struct bench_row heap = {
		.what = "heap per kobject, log on", .anchor = "GObject", .unit = "B",
		.scale = 1, .kind = GOAL_NONE,
	};
	bench_pair(&heap, s->heavy_reps, build_bytes, &on, anchor_gobject_bytes, &n);
	/* what writing that much new memory costs, whatever is written */
	char floor[96];
	snprintf(floor, sizeof(floor), "its heap (%.0f B per kobject) written to new memory",
		 heap.project);
	struct new_memory fresh = { n, (size_t)heap.project };
	row = (struct bench_row){
		.what = "the same build", .anchor = floor, .unit = "s", .scale = 1,
		.kind = GOAL_NONE,
	};
	bench_pair(&row, s->heavy_reps, build, &on, new_memory_total, &fresh);
	bench_print(&row);
	bench_print(&heap);
	row = (struct bench_row){
		.what = "heap per kobject, log off", .anchor = "GObject", .unit = "B",
		.scale = 1, .kind = GOAL_AT_MOST, .goal = 256, .goal_text = "<= 256 B",
	};
	bench_pair(&row, s->heavy_reps, build_bytes, &off, anchor_gobject_bytes, &n);
	bench_print(&row);
}

void bench_growth(const struct bench_size *s)
{
	double each[3];

	printf("\n| built under one kset | per object | heap per object | "
	       "g_object_new per object | ratio |\n|---|---|---|---|---|\n");
	for (int i = 0; i < 3; i++) {
		size_t n = s->growth[i];
		struct build b = { n, true, 0 };
		struct bench_row row = { .scale = 1e9 };
		bench_pair(&row, s->heavy_reps, build_each, &b, gobject_each, &n);
		each[i] = row.project;
		printf("| %zu kobjects | %.0f ns | %.0f B | %.0f ns | %.2fx |\n", n, row.project * 1e9,
		       b.bytes, row.anchor_value * 1e9, row.ratio);
		fflush(stdout);
	}
	double lo = each[0], hi = each[0];
	for (int i = 1; i < 3; i++) {
		lo = each[i] < lo ? each[i] : lo;
		hi = each[i] > hi ? each[i] : hi;
	}
	printf("\nPer-object time, slowest size over fastest: %.2fx (goal <= 1.5x: %s).\n",
	       hi / lo, hi / lo <= 1.5 ? "met" : "not met");
}
