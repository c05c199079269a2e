/*
 * The project beside its anchors, in one run: `bazel run //tools/bench` (the full table,
 * a minute or two), `-- --quick` (small sizes: shows every row works, measures nothing
 * worth reading). Prints Markdown: the README's performance section is this output.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/bench/bench.h"

/* CPU time of this thread, the kernel's work for it included (page faults): on a
 * machine that other work shares, time spent waiting for a core is not ours. */
double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The sanitizers' allocator keeps its own count (glibc's then counts nothing). */
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

double bench_heap(void)
{
	if (__sanitizer_get_current_allocated_bytes)
		return (double)__sanitizer_get_current_allocated_bytes();
	struct mallinfo2 m = mallinfo2();
	return (double)m.uordblks + (double)m.hblkhd;
}

void bench_pair(struct bench_row *row, int reps, bench_fn project, void *parg,
		bench_fn anchor, void *aarg)
{
	double p[64], a[64], r[64];

	if (reps > 64)
		reps = 64;
	for (int i = 0; i < reps; i++) {
		if (i % 2) {
			a[i] = anchor(aarg);
			p[i] = project(parg);
		} else {
			p[i] = project(parg);
			a[i] = anchor(aarg);
		}
		r[i] = a[i] > 0 ? p[i] / a[i] : 0;
	}
	row->project = bench_median(p, reps);
	row->anchor_value = bench_median(a, reps);
	row->ratio = bench_median(r, reps);
}

static const char *verdict(const struct bench_row *row)
{
	double v = row->project * row->scale;
	switch (row->kind) {
	case GOAL_RATIO:
		return row->ratio <= row->goal ? "met" : "not met";
	case GOAL_BELOW:
		return v < row->goal ? "met" : "not met";
	case GOAL_AT_MOST:
		return v <= row->goal ? "met" : "not met";
	default:
		return "";
	}
}

/* A value in its unit, with as many digits as it deserves. */
static void put_value(double v, const char *unit)
{
	if (v >= 100)
		printf("%.0f %s", v, unit);
	else if (v >= 10)
		printf("%.1f %s", v, unit);
	else
		printf("%.2f %s", v, unit);
}

void bench_print(const struct bench_row *row)
{
	printf("| %s | ", row->what);
	put_value(row->project * row->scale, row->unit);
	printf(" | %s ", row->anchor);
	put_value(row->anchor_value * row->scale, row->unit);
	printf(" | %.2fx | %s | %s |\n", row->ratio, row->goal_text ? row->goal_text : "",
	       verdict(row));
	fflush(stdout);
}

static const struct bench_size full = {
	.pairs = 1000000, .lua_pairs = 1000000, .build = 1000000,
	.growth = { 10000, 100000, 1000000 }, .dot = 100000, .starts = 60,
	.reps = 11, .heavy_reps = 5,
};

static const struct bench_size quick = {
	.pairs = 2000, .lua_pairs = 2000, .build = 3000, .growth = { 100, 1000, 3000 },
	.dot = 1000, .starts = 2, .reps = 3, .heavy_reps = 1,
};

/* The kobj program: --kobj PATH, else the one in our runfiles. */
static const char *find_kobj(const char *argv0, char *buf, size_t size)
{
	const char *dir = getenv("RUNFILES_DIR");
	if (dir)
		snprintf(buf, size, "%s/kobject_sandbox/repl/kobj", dir);
	else
		snprintf(buf, size, "%s.runfiles/kobject_sandbox/repl/kobj", argv0);
	return access(buf, X_OK) == 0 ? buf : NULL;
}

static int usage(void)
{
	fputs("usage: bench [--quick] [--reps N] [--kobj PATH] "
	      "[--only c|lua|build|dot|start|growth]\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct bench_size s = full;
	char kobj[4096];
	double load[1] = { 0 };
	const char *only = NULL;

	/* GObjects from malloc, so that the heap counts them as it counts ours (GSlice
	 * would keep freed ones for the next run and hide what they cost). GLib reads it
	 * before main, hence the new start. */
	if (!getenv("G_SLICE")) {
		setenv("G_SLICE", "always-malloc", 1);
		execv("/proc/self/exe", argv);
	}
	s.kobj = find_kobj(argv[0], kobj, sizeof(kobj));
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			const char *k = s.kobj;
			s = quick;
			s.kobj = k;
		} else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
			s.reps = s.heavy_reps = atoi(argv[++i]);
			if (s.reps < 1)
				return usage();
		} else if (strcmp(argv[i], "--kobj") == 0 && i + 1 < argc) {
			s.kobj = argv[++i];
		} else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else {
			return usage();
		}
	}
	getloadavg(load, 1);
	printf("%ld cores, load average %.1f at the start. CPU time (user and system), medians "
	       "of %d repetitions (%d for the rows that build a million objects), project and "
	       "anchor interleaved.\n\n",
	       sysconf(_SC_NPROCESSORS_ONLN), load[0], s.reps, s.heavy_reps);
	printf("| what | project | anchor | ratio | goal | |\n|---|---|---|---|---|---|\n");
	static const struct {
		const char *name;
		void (*run)(const struct bench_size *s);
	} parts[] = {
		{ "c", bench_c_pairs }, { "lua", bench_lua }, { "build", bench_build },
		{ "dot", bench_dot },   { "start", bench_start }, { "growth", bench_growth },
	};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!only || strcmp(only, parts[i].name) == 0)
			parts[i].run(&s);
	return 0;
}
