/*
 * Builds a tree of a million kobjects (a subsystem, 1000 ksets of 1000 members), prints
 * it, writes the log and the leak report, and tears it down, timing each step:
 * `bazel run -c opt //core:bench [members-per-kset]`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/model/kobject.h"
#include "core/report/report.h"

#define KSETS 1000

static void release(struct kobject *kobj)
{
	free(kobj);
}

static struct kobj_type ktype = { .release = release };
static decl_subsys(bench, &ktype, NULL);

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void step(const char *what, double *t0)
{
	double t = seconds();
	printf("%-34s %7.3f s\n", what, t - *t0);
	*t0 = t;
}

int main(int argc, char **argv)
{
	int members = argc > 1 ? atoi(argv[1]) : 1000;
	struct kobj_world *w = kobj_world_current();
	struct kset *ksets = calloc(KSETS, sizeof(*ksets));
	struct kobject **objs = malloc((size_t)KSETS * (size_t)members * sizeof(*objs));
	FILE *sink = fopen("/dev/null", "w");
	double t0 = seconds();

	subsystem_register(&bench_subsys);
	for (int i = 0; i < KSETS; i++) {
		kobject_set_name(&ksets[i].kobj, "kset%d", i);
		ksets[i].subsys = &bench_subsys;
		kset_register(&ksets[i]);
		for (int j = 0; j < members; j++) {
			struct kobject *k = calloc(1, sizeof(*k));
			k->ktype = &ktype;
			k->kset = &ksets[i];
			kobject_init(k);
			kobject_set_name(k, "obj%d", j);
			kobject_add(k);
			objs[(size_t)i * (size_t)members + (size_t)j] = k;
		}
	}
	printf("%d kobjects, %zu events\n", KSETS * members + KSETS + 1, kobj_log_count(w));
	step("build", &t0);
	sysfs_print_tree(w, "/sys", sink);
	step("print the tree", &t0);
	kobj_log_print(w, 0, sink);
	step("print the log", &t0);
	kobj_leak_report(w, sink);
	step("leak report", &t0);
	for (size_t i = 0; i < (size_t)KSETS * (size_t)members; i++)
		kobject_unregister(objs[i]);
	for (int i = 0; i < KSETS; i++)
		kset_unregister(&ksets[i]);
	subsystem_unregister(&bench_subsys);
	step("tear down", &t0);
	printf("leaks: %zu, diagnostics: %zu\n", kobj_leak_count(w), kobj_diag_count(w));
	fclose(sink);
	free(objs);
	free(ksets);
	return 0;
}
