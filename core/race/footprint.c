/*
 * Footprints: what a step used, as keys (the kind of thing in the top byte, its id
 * below) with whether the step changed it. Two steps of different threads are dependent
 * when one changed a key the other used; "everything" conflicts with all.
 */
#include <stdlib.h>
#include <string.h>

#include "core/race/race_internal.h"

#define KEY(res, id) ((uint64_t)(res) << 56 | ((uint64_t)(id) & ((UINT64_C(1) << 56) - 1)))
#define ALL KEY(KOBJ_RES_ALL, 0)

void race_fp_add(struct race_footprint *fp, enum kobj_sched_res res, uintptr_t id, bool write)
{
	if (fp->n && fp->uses[fp->n - 1].key == KEY(res, id)) { /* the usual repeat */
		fp->uses[fp->n - 1].write |= write;
		return;
	}
	kobj_grow((void **)&fp->uses, &fp->cap, fp->n + 1, sizeof(*fp->uses));
	fp->uses[fp->n++] = (struct race_use){ KEY(res, id), write };
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct race_use *)a)->key, y = ((const struct race_use *)b)->key;
	return x < y ? -1 : x > y;
}

void race_fp_close(struct race_footprint *fp)
{
	size_t out = 0;

	if (fp->n < 2)
		return;
	qsort(fp->uses, fp->n, sizeof(*fp->uses), by_key);
	for (size_t i = 0; i < fp->n; i++) {
		if (out && fp->uses[out - 1].key == fp->uses[i].key)
			fp->uses[out - 1].write |= fp->uses[i].write;
		else
			fp->uses[out++] = fp->uses[i];
	}
	fp->n = out;
}

/* Whether a footprint has the key "everything" (the largest: it sorts last). */
static bool all(const struct race_footprint *fp)
{
	return fp->n && fp->uses[fp->n - 1].key == ALL;
}

/* A key as compared across runs: an address stands for any address. */
static uint64_t across(uint64_t key)
{
	return key >> 56 == KOBJ_RES_ADDRESS ? KEY(KOBJ_RES_ADDRESS, 0) : key;
}

static uint64_t same(uint64_t key)
{
	return key;
}

static bool conflict(const struct race_footprint *a, const struct race_footprint *b,
		     uint64_t (*key)(uint64_t))
{
	if ((all(a) && b->n) || (all(b) && a->n))
		return true;
	for (size_t i = 0, j = 0; i < a->n && j < b->n;) {
		uint64_t x = key(a->uses[i].key), y = key(b->uses[j].key);
		if (x < y) {
			i++;
		} else if (x > y) {
			j++;
		} else if (a->uses[i].write || b->uses[j].write) {
			return true;
		} else if (i + 1 < a->n && key(a->uses[i + 1].key) == x) {
			i++; /* several addresses in a: each may meet b's written one */
		} else {
			j++;
		}
	}
	return false;
}

bool race_fp_conflict(const struct race_footprint *a, const struct race_footprint *b)
{
	return conflict(a, b, same);
}

bool race_fp_conflict_across(const struct race_footprint *a, const struct race_footprint *b)
{
	return conflict(a, b, across);
}

void race_fp_copy(struct race_footprint *dst, const struct race_footprint *src)
{
	kobj_grow((void **)&dst->uses, &dst->cap, src->n, sizeof(*dst->uses));
	if (src->n)
		memcpy(dst->uses, src->uses, src->n * sizeof(*src->uses));
	dst->n = src->n;
}

void race_fp_free(struct race_footprint *fp)
{
	kobj_xfree(fp->uses);
	*fp = (struct race_footprint){ 0 };
}

void race_path_free(struct race_path *path)
{
	for (size_t i = 0; i < path->cap; i++) {
		race_fp_free(&path->nodes[i].fp);
		for (unsigned t = 0; t <= KOBJ_RACE_MAX_THREADS; t++)
			race_fp_free(&path->nodes[i].asleep[t]);
	}
	kobj_xfree(path->nodes);
	*path = (struct race_path){ 0 };
}
