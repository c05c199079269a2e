/*
 * Grading a class (`kobj lesson verify`): what lesson_verify.c finds and measures, and
 * what verify_report.c writes from it. verify_cell.c holds what a graded cell's process
 * does before and after the student's code: its operating-system limits and its verdict.
 */
#ifndef KOBJ_REPL_VERIFY_H
#define KOBJ_REPL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <lua.h>

#include "repl/lesson.h"

/* Bytes of a cell's output that the reports keep (the start of it). */
#define VERIFY_OUTPUT_KEPT 16384

enum outcome { MISSING, PASS, FAIL, ERROR, TIMEOUT, CRASH };

/* One student's file for one lesson. */
struct cell {
	int student, lesson;      /* indexes into the class's students and the course */
	char *file;               /* the solution's path; NULL: no solution */
	enum outcome outcome;
	int passed, failed;
	char message[320];        /* one line: why this outcome */
	double seconds;           /* wall time of the cell's process */
	long peak_kib;            /* its peak resident memory */
	unsigned long long instructions;
	char *output;             /* the first VERIFY_OUTPUT_KEPT bytes it printed (not text) */
	size_t kept, printed;     /* bytes kept, bytes printed in all */
};

/* A folder or file of the class that was not graded, and why. */
struct not_graded {
	char *path;               /* relative to the class folder */
	char *reason;
};

struct class {
	char **students;          /* folder names, sorted */
	int nstudents;
	struct not_graded *skipped;
	int nskipped;
	struct cell *cells;       /* nstudents x course->count, student-major */
};

/* What the grader was asked for. */
struct verify_opts {
	const char *dir, *out;
	unsigned seconds;         /* wall time per cell */
	int jobs;
	size_t cell_memory_mib;   /* address space per cell; 0: none */
};

/* The verdict a cell's process sends its parent on a pipe of its own, as bytes. */
struct cell_verdict {
	uint32_t magic;
	int32_t passed, failed, lua_error;
	int32_t stop;             /* enum kobj_fatal: the first limit that stopped the run */
	uint64_t instructions;
	char error[200];          /* the first line of a Lua error, NUL-terminated */
};
#define CELL_VERDICT_MAGIC 0x6b6f626aU

/* ---------------------------------------------------------------- verify_cell.c */

/*
 * cell_run() - in the cell's forked process: a process group of its own, standard
 * output and error on @out, the verdict on @verdict, every other descriptor closed, the
 * operating system's limits on, then the check; never returns.
 */
void cell_run(lua_State *L, const struct lesson *l, const char *file, int out, int verdict,
	      const struct verify_opts *o) __attribute__((noreturn));
/* The operating system's limits per cell, in words, for the table's footer. */
void cell_limits_text(const struct verify_opts *o, char *buf, size_t size);

/* -------------------------------------------------------------- verify_report.c */

/* Appends @len bytes of @s to @f as valid UTF-8 text: invalid bytes become U+FFFD,
 * control characters other than newline and tab are dropped (@flat: newlines and tabs
 * become spaces too). */
void text_put(FILE *f, const char *s, size_t len, bool flat);
void report_table(const struct course *c, const struct class *k, const struct verify_opts *o,
		  double seconds);
void report_tap(FILE *f, const struct course *c, const struct class *k);
void report_junit(FILE *f, const struct course *c, const struct class *k);
extern const char *const outcome_names[];

#endif
