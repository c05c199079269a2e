/*
 * The benchmark's rows: each measures the project and an anchor in the same run,
 * interleaved repetition by repetition, so that a busy machine slows both alike; a row
 * reports the medians and the median of the per-repetition ratios.
 */
#ifndef KOBJ_BENCH_H
#define KOBJ_BENCH_H

#include <stdbool.h>
#include <stddef.h>

/* One repetition of one side: Return: the value measured (seconds per op, bytes...). */
typedef double (*bench_fn)(void *arg);

/* When a row meets its goal. */
enum bench_goal {
	GOAL_RATIO,     /* ratio <= goal */
	GOAL_BELOW,     /* project < goal (in the row's unit) */
	GOAL_AT_MOST,   /* project <= goal (in the row's unit) */
	GOAL_NONE,      /* a figure to read, not a goal */
};

struct bench_row {
	const char *what, *anchor;
	const char *unit;        /* "ns", "s", "ms", "B" */
	double scale;            /* value * scale is in @unit */
	enum bench_goal kind;
	double goal;             /* in @unit, or as a ratio */
	const char *goal_text;   /* "<= 1x GObject" */
	double project, anchor_value, ratio; /* medians, unscaled */
};

/* The sizes of a run: the full table, or small ones that only show it works. */
struct bench_size {
	size_t pairs;            /* get+put pairs per repetition, C */
	size_t lua_pairs;        /* the same from Lua */
	size_t build;            /* kobjects of the build row */
	size_t growth[3];        /* kobjects of the growth rows */
	size_t dot;              /* objects drawn */
	int starts;              /* process starts per side */
	int reps, heavy_reps;    /* repetitions of light and of heavy rows */
	const char *kobj;        /* the kobj program */
};

double bench_now(void);
double bench_median(double *v, int n);
/* Bytes the C heap holds now (mallinfo2: in use in the arenas, plus mmap'd blocks; the
 * sanitizers' count in an asan build). */
double bench_heap(void);
/* Runs @project and @anchor @reps times each, alternating which goes first. */
void bench_pair(struct bench_row *row, int reps, bench_fn project, void *parg,
		bench_fn anchor, void *aarg);
void bench_print(const struct bench_row *row);

/* A ktype whose release frees the kobject (c_rows.c): for objects made with calloc. */
struct kobj_type;
extern struct kobj_type bench_ktype;

/* The rows, by file. Each prints its own lines. */
void bench_c_pairs(const struct bench_size *s);    /* c_rows.c */
void bench_build(const struct bench_size *s);      /* build_rows.c */
void bench_growth(const struct bench_size *s);     /* build_rows.c: its own table */
void bench_dot(const struct bench_size *s);        /* view_rows.c: DOT and text views */
void bench_lua(const struct bench_size *s);        /* lua_rows.c */
void bench_start(const struct bench_size *s);      /* start_row.c */

/* The anchors (anchors.c). */
double anchor_gobject_pair(void *n);   /* g_object_ref + g_object_unref, per pair */
double anchor_atomic_pair(void *n);    /* atomic inc + dec-and-test, per pair */
struct new_memory {
	size_t n, bytes;
};
double anchor_new_memory(void *m);     /* m->bytes written to memory never used, per op */
double anchor_gobject_new(void *n);    /* g_object_new, seconds for *(size_t *)n */
double anchor_gobject_bytes(void *n);  /* heap bytes per GObject */

#endif
