/*
 * Views of many objects. DOT for three shapes: all members of one kset, a chain in which
 * each object is the parent of the next, and ksets of ksets; then the sysfs tree, the
 * log and the leak report of the first. The anchor is the floor of any such text: one
 * fprintf of a node and one of an edge per object.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/model/kobject.h"
#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "tools/bench/bench.h"

/* Nothing is released here: each drawing's world is freed with its objects alive. */
static void release(struct kobject *kobj)
{
	(void)kobj;
	abort();
}

static struct kobj_type ktype = { .release = release };

enum shape { FLAT, CHAIN, NESTED };

static double floor_text(void *arg);

struct scene {
	enum shape shape;
	size_t n;
	struct kobj_world *w;
	FILE *sink;
	void **mem;   /* every object made: freed with the world, unreleased */
	size_t nmem;
};

static void *object(struct scene *s, size_t size)
{
	void *p = calloc(1, size);
	if (!p)
		abort();
	s->mem[s->nmem++] = p;
	return p;
}

static struct kobject *new_kobject(struct scene *s, struct kobject *parent, struct kset *kset,
				   size_t i)
{
	struct kobject *k = object(s, sizeof(*k));
	k->ktype = &ktype;
	k->parent = parent;
	k->kset = kset;
	kobject_init(k);
	kobject_set_name(k, "obj%zu", i);
	if (kobject_add(k))
		abort();
	return k;
}

static struct kset *new_kset(struct scene *s, struct kset *in, struct subsystem *sub,
			     size_t i)
{
	struct kset *k = object(s, sizeof(*k));
	k->kobj.ktype = &ktype;
	k->kobj.kset = in;
	k->subsys = sub;
	kobject_set_name(&k->kobj, "kset%zu", i);
	if (kset_register(k))
		abort();
	return k;
}

/* Builds the shape in a fresh world (the log on, for the log's text). */
static void build(struct scene *s)
{
	static struct subsystem sub;
	struct kobject *last = NULL;

	s->mem = malloc((s->n + 1) * sizeof(*s->mem));
	if (!s->mem)
		abort();
	s->w = kobj_world_new();
	kobj_world_use(s->w);
	sub = (struct subsystem){ .kset = { .kobj = { .name = "bench" } },
				  .rwsem = RWSEM_INITIALIZER };
	subsystem_register(&sub);
	struct kset *top = new_kset(s, &sub.kset, &sub, 0), *in = top;
	for (size_t i = 0; i < s->n; i++) {
		if (s->shape == CHAIN)
			last = new_kobject(s, last, NULL, i);
		else if (s->shape == FLAT)
			new_kobject(s, NULL, top, i);
		else if (i % 100 == 0)
			in = new_kset(s, top, &sub, i + 1);
		else
			new_kobject(s, NULL, in, i);
	}
}

static double draw(void *arg)
{
	struct scene *s = arg;
	const struct kobj_dot_options o = { .legend = true };
	double t0 = bench_now();
	kobj_dot(s->w, &o, s->sink);
	fflush(s->sink);
	return bench_now() - t0;
}

static double tree(void *arg)
{
	struct scene *s = arg;
	double t0 = bench_now();
	sysfs_print_tree(s->w, "/sys", s->sink);
	fflush(s->sink);
	return bench_now() - t0;
}

static double log_text(void *arg)
{
	struct scene *s = arg;
	double t0 = bench_now();
	kobj_log_print(s->w, 0, s->sink);
	fflush(s->sink);
	return bench_now() - t0;
}

static double leak_report(void *arg)
{
	struct scene *s = arg;
	double t0 = bench_now();
	kobj_leak_report(s->w, s->sink);
	fflush(s->sink);
	return bench_now() - t0;
}

/* The text views of @sc, a kset's members, each against the fprintf floor. */
static void texts(const struct bench_size *s, struct scene *sc)
{
	static const struct {
		const char *what;
		bench_fn fn;
	} views[] = {
		{ "sysfs tree", tree }, { "log text", log_text }, { "leak report", leak_report },
	};
	char what[96];

	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		snprintf(what, sizeof(what), "%s of %zu objects", views[i].what, s->dot);
		struct bench_row row = {
			.what = what, .anchor = "fprintf floor", .unit = "s", .scale = 1,
			.kind = GOAL_NONE,
		};
		bench_pair(&row, s->reps, views[i].fn, sc, floor_text, sc);
		bench_print(&row);
	}
}

static double floor_text(void *arg)
{
	struct scene *s = arg;
	double t0 = bench_now();
	for (unsigned i = 1; i <= s->n; i++) {
		fprintf(s->sink, "  k%u [label=\"obj%u\\nrefcount %d\"];\n", i, i, 1);
		fprintf(s->sink, "  k%u -> k%u;\n", i, i - 1);
	}
	fflush(s->sink);
	return bench_now() - t0;
}

void bench_dot(const struct bench_size *s)
{
	static const char *const names[] = {
		[FLAT] = "members of one kset", [CHAIN] = "a chain of parents",
		[NESTED] = "ksets of 100 in a kset",
	};
	FILE *sink = fopen("/dev/null", "w");
	char what[96];

	if (!sink)
		abort();
	for (enum shape shape = FLAT; shape <= NESTED; shape++) {
		struct scene sc = { shape, s->dot, NULL, sink, NULL, 0 };
		build(&sc);
		snprintf(what, sizeof(what), "DOT of %zu objects: %s", s->dot, names[shape]);
		struct bench_row row = {
			.what = what, .anchor = "fprintf floor", .unit = "s", .scale = 1,
			.kind = GOAL_BELOW, .goal = 0.2, .goal_text = "< 0.2 s",
		};
		bench_pair(&row, s->reps, draw, &sc, floor_text, &sc);
		bench_print(&row);
		if (shape == FLAT)
			texts(s, &sc);
		kobj_world_use(NULL);
		kobj_world_free(sc.w); /* it never reads the objects, which are ours */
		for (size_t i = 0; i < sc.nmem; i++)
			free(sc.mem[i]);
		free(sc.mem);
	}
	fclose(sink);
}
