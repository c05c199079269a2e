/*
 * One input, one fresh world: the operations run with the invariants checked after each,
 * then every view of the world is printed, the pool's memory given back, and the world
 * freed, after which the core must hold exactly the memory it held before.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/report/report.h"
#include "tests/fuzz/core_fuzz.h"
#include "tests/fuzz/core_types.h"

struct fz fz;

/* The input being run, for failure reports: fz itself is reset between runs. */
static const uint8_t *input;
static size_t input_size;

/* Set by the replay driver: run every input twice and compare what the views print. */
bool fz_twice;

uint8_t fz_byte(void)
{
	return fz.pos < fz.size ? fz.data[fz.pos++] : 0;
}

bool fz_more(void)
{
	return fz.pos < fz.size;
}

/* The input as hex, with plain write()s: also from a signal handler or a sanitizer's
 * death callback. */
void fz_dump_input(void)
{
	static const char msg[] = "input (hex; `xxd -r -p` makes the file back, `replay_main "
				  "--trace FILE` shows its steps as C):\n";
	static const char digits[] = "0123456789abcdef";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		return;
	for (size_t i = 0; i < input_size; i++) {
		char hex[3] = { digits[input[i] >> 4], digits[input[i] & 15], '\n' };
		if (write(2, hex, i % 32 == 31 || i + 1 == input_size ? 3 : 2) < 0)
			return;
	}
}

void fz_fail(const char *fmt, ...)
{
	va_list ap;
	fflush(NULL); /* the trace so far */
	fprintf(stderr, "core fuzz: invariant broken after step %u: ", fz.step);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	fz_dump_input();
	abort();
}

/* ========================================================================= blocks */

unsigned fz_block_new(void *mem, size_t size, struct kobject *kobj, enum fz_kind kind,
		      bool core)
{
	for (size_t i = 0; i < fz.nblocks; i++) /* the same object again (a builtin) */
		if (fz.blocks[i].mem == mem && !fz.blocks[i].freed)
			return (unsigned)i + 1;
	if (fz.nblocks == fz.blocks_cap) {
		fz.blocks_cap = fz.blocks_cap ? 2 * fz.blocks_cap : 32;
		fz.blocks = realloc(fz.blocks, fz.blocks_cap * sizeof(*fz.blocks));
		if (!fz.blocks)
			abort();
	}
	fz.blocks[fz.nblocks] = (struct fz_block){ .mem = mem, .size = size, .kobj = kobj,
						   .kind = kind, .core = core };
	return (unsigned)++fz.nblocks;
}

static bool inside(const void *p, const struct fz_block *b)
{
	return p && (const char *)p >= (const char *)b->mem &&
	       (const char *)p < (const char *)b->mem + b->size;
}

/* Pointers the harness assigned into memory now freed are forgotten, as the Lua
 * bindings forget them: a caller must not follow them any more. */
static void forget(const struct fz_block *gone)
{
	for (size_t i = 0; i < fz.nblocks; i++) {
		const struct fz_block *b = &fz.blocks[i];
		struct kobject *k = b->kobj;
		if (b->freed)
			continue;
		if (b->kind == FZ_KSET || b->kind == FZ_SUBSYS) {
			struct kset *kset = container_of(k, struct kset, kobj);
			if (inside(kset->subsys, gone))
				kset->subsys = NULL;
		}
		const struct kobj_record *r = kobj_record_of(fz.w, k);
		if (r && !r->released && r->in_sysfs)
			continue; /* it holds them, by reference */
		if (inside(k->parent, gone))
			k->parent = NULL;
		if (inside(k->kset, gone))
			k->kset = NULL;
	}
}

void fz_block_freed(const void *mem)
{
	for (size_t i = fz.nblocks; i-- > 0;) {
		struct fz_block *b = &fz.blocks[i];
		if (b->mem != mem || b->freed)
			continue;
		b->freed = true;
		b->snapshot = malloc(b->size);
		if (!b->snapshot)
			abort();
		memcpy(b->snapshot, b->mem, b->size);
		forget(b);
		return;
	}
}

/* The core freed an object's memory in its release (its own objects). */
static void on_release(const struct kobj_record *r, void *ctx)
{
	(void)ctx;
	for (size_t i = fz.nblocks; i-- > 0;)
		if (fz.blocks[i].core && !fz.blocks[i].freed && inside(r->ptr, &fz.blocks[i])) {
			fz_block_freed(fz.blocks[i].mem);
			return;
		}
}

/* ======================================================================== the run */

static void reset_pool(void)
{
	for (size_t i = 0; i < fz.nblocks; i++)
		free(fz.blocks[i].snapshot);
	free(fz.blocks);
	memset(&fz, 0, sizeof(fz));
}

/* Runs the input once; Return: what the views printed at the end (malloc'd). */
static char *run_once(const uint8_t *data, size_t size, FILE *trace)
{
	char *text = NULL;
	size_t len = 0;

	reset_pool();
	fz.data = data;
	fz.size = size;
	fz.trace = trace;
	fz.w = kobj_world_new();
	struct kobj_world *was = kobj_world_use(fz.w);
	kobj_world_on_release(fz.w, on_release, NULL);
	while (fz_more() && fz.step < FZ_MAX_OPS) {
		fz.step++;
		fz_op();
		fz_check();
	}
	FILE *out = open_memstream(&text, &len);
	if (!out)
		abort();
	fz_views(out);
	fclose(out);
	fz_pool_free();
	kobj_world_free(fz.w);
	kobj_world_use(was);
	reset_pool();
	return text;
}

int fz_run(const uint8_t *data, size_t size, FILE *trace)
{
	input = data;
	input_size = size;
	size_t before = kobj_mem_in_use();
	char *first = run_once(data, size, trace);
	size_t after = kobj_mem_in_use();

	/* The first run may have grown what the process keeps (the names of calls): a second
	 * run of the same input must give back exactly what it took. */
	if (after != before || fz_twice) {
		before = kobj_mem_in_use();
		char *second = run_once(data, size, NULL);
		after = kobj_mem_in_use();
		if (after != before)
			fz_fail("the core holds %ld bytes more after kobj_world_free()",
				(long)after - (long)before);
		if (strcmp(first, second) != 0)
			fz_fail("two runs of the same input printed different views");
		free(second);
	}
	free(first);
	return 0;
}

/* libFuzzer's entry (tools/fuzz); the replay driver calls fz_run() itself. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fz_run(data, size, NULL);
}
