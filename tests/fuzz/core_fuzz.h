/*
 * The core fuzzer: an input is a sequence of operations, decoded byte by byte, over a
 * small pool of objects of both eras (things that embed a kobject, ksets, subsystems,
 * the kernel's own allocated objects, modules), run in a fresh world with the model's
 * invariants checked after every step.
 *
 * The same code runs under libFuzzer (tools/fuzz, clang -fsanitize=fuzzer) and under the
 * replay driver that `bazel test` builds with gcc (replay_main.c). Callbacks the core
 * makes (release, show, store, is_visible, filter, name, hotplug, uevent) read the input
 * too, and may do anything a caller may: delete or put their own object, or run a
 * nested operation.
 *
 * The harness behaves as a C caller that respects what C cannot check for it: it never
 * writes into memory it knows was freed, and, like the Lua bindings, it forgets a parent
 * or kset pointer it assigned once that object's memory is freed. Everything else, stale
 * pointers included, is fair game: the sandbox must report it and stay whole.
 */
#ifndef KOBJ_FUZZ_CORE_H
#define KOBJ_FUZZ_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/model/kobject.h"

#define FZ_SLOTS 8
#define FZ_MODULES 3
#define FZ_MAX_OPS 256
#define FZ_MAX_DEPTH 2

enum fz_kind { FZ_EMPTY, FZ_THING, FZ_KSET, FZ_SUBSYS, FZ_DYN, FZ_DYN_KSET, FZ_BUILTIN };

/* A block of memory the run made: by the harness (kzalloc) or by the core. */
struct fz_block {
	void *mem;
	size_t size;
	struct kobject *kobj;    /* the kobject in it */
	enum fz_kind kind;
	bool core;               /* the core's memory (kobject_create_and_add...) */
	bool freed;              /* given back: the pointer is stale */
	unsigned char *snapshot; /* its bytes when it was freed: nobody may write there */
};

struct fz_slot {
	enum fz_kind kind;
	unsigned block;          /* index into fz.blocks + 1; 0 for none */
	struct kobject *kobj;
};

struct fz {
	const uint8_t *data;
	size_t size, pos;
	struct kobj_world *w;
	struct fz_slot slot[FZ_SLOTS];
	struct module *mod[FZ_MODULES];
	struct fz_block *blocks;
	size_t nblocks, blocks_cap;
	unsigned depth;          /* callbacks nested in operations */
	unsigned step;           /* operations run */
	FILE *trace;             /* each operation as a line of C, or NULL */
};

extern struct fz fz;

/* The next input byte (0 once the input is used up). */
uint8_t fz_byte(void);
bool fz_more(void);

/* One operation, decoded from the input and run. */
void fz_op(void);
/* What the pool holds at the end goes back: the harness's memory kfree()d. */
void fz_pool_free(void);
/* The slot's kobject if its memory is there (NULL for an empty or stale slot). */
struct kobject *fz_live_kobj(unsigned s);

/* The model's invariants after a step; fz_fail() on the first one broken. */
void fz_check(void);
/* Every text view of the world into @out (log, diagnostics, leaks, tree, DOT, events). */
void fz_views(FILE *out);

/* Writes the input being run to standard error as hex; safe in a signal handler. */
void fz_dump_input(void);
/* Reports a broken invariant with the step that broke it, then aborts. */
void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/**
 * fz_run() - run one input in a fresh world and check it
 * @trace: print each operation there (NULL: quiet)
 * Return: 0. Every failure aborts, so that libFuzzer and the replay driver both see it.
 */
int fz_run(const uint8_t *data, size_t size, FILE *trace);

#endif
