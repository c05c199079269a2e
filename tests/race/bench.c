/*
 * How fast the explorer runs: `bazel run -c opt //tests/race:bench`. The kset_find_obj
 * race (a lookup that takes its reference after unlocking, against the last put) is
 * found, then today's kset_find_obj is explored to the end, with partial-order reduction
 * and naively (up to 20000 schedules); then the same with a second lookup thread. Each
 * line gives schedules, time and schedules per second.
 */
#include <stdio.h>
#include <time.h>

#include "tests/race/programs.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int measure(const char *what, struct scene *s, unsigned nthreads, bool naive)
{
	struct kobj_race_options o = { .naive = naive, .preemptions = -1,
				       .max_schedules = 20000 };
	struct kobj_race_program p = scene_program(s, nthreads);
	struct kobj_race_result res;
	double start = now();
	int rc = kobj_race_explore(&p, &o, &res);
	double took = now() - start;

	if (rc != 0) {
		fprintf(stderr, "bench: %s\n", res.error);
		kobj_race_result_free(&res);
		return 1;
	}
	printf("%-36s %-7s %6lu schedules %8.1f ms %7.0f/s  %s%s\n", what,
	       naive ? "naive" : "reduced", res.schedules, took * 1000, res.schedules / took,
	       res.schedule ? "fails: " : res.complete ? "passes" : "passes (stopped at the "
	       "limit)", res.schedule ? res.schedule : "");
	kobj_race_result_free(&res);
	return 0;
}

int main(void)
{
	struct scene bug = { .threads = { lookup_then_get, last_put } };
	struct scene fixed = { .threads = { find_obj, last_put } };
	struct scene two = { .threads = { find_obj, find_obj, last_put } };
	int failed = 0;
	struct kobj_race_result warm;
	struct kobj_race_program p = scene_program(&fixed, 2);

	/* the first exploration in a process also pays for page faults and thread start */
	kobj_race_explore(&p, NULL, &warm);
	kobj_race_result_free(&warm);
	failed |= measure("lookup, unlock, get  vs  last put", &bug, 2, false);
	failed |= measure("lookup, unlock, get  vs  last put", &bug, 2, true);
	failed |= measure("kset_find_obj  vs  last put", &fixed, 2, false);
	failed |= measure("kset_find_obj  vs  last put", &fixed, 2, true);
	failed |= measure("kset_find_obj x2  vs  last put", &two, 3, false);
	failed |= measure("kset_find_obj x2  vs  last put", &two, 3, true);
	return failed;
}
