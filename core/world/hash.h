/*
 * The pointer hash and probing of the core's address map (world.c), public so that other
 * maps keyed by address (the Lua bindings' handle map) hash and probe the same way
 * instead of keeping a copy.
 *
 * The tables are open addressing with linear probing: @cap keys (a power of two, never
 * more than half used), 0 marks a free slot, and a value array runs beside the keys.
 * Nothing here allocates, raises or fails: allocating the larger arrays, and what to do
 * when memory runs out, stays with each map (the core aborts; the bindings raise a Lua
 * error, and only before they change their map), which then moves into them.
 */
#ifndef KOBJ_HASH_H
#define KOBJ_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* kobj_hash_ptr() - spreads an address over all bits (two steps of MurmurHash3's fmix64),
 * so that a power-of-two table can use the low bits of aligned, clustered pointers. */
static inline size_t kobj_hash_ptr(uintptr_t p)
{
	uint64_t x = (uint64_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

/* kobj_hash_slot() - the slot of @key in @keys (@cap slots), or the free slot where it
 * would go. Return: an index below @cap; keys[index] is @key or 0. */
static inline size_t kobj_hash_slot(const uintptr_t *keys, size_t cap, uintptr_t key)
{
	size_t j = kobj_hash_ptr(key) & (cap - 1);
	while (keys[j] && keys[j] != key)
		j = (j + 1) & (cap - 1);
	return j;
}

/*
 * kobj_hash_move() - moves every entry of the table @okeys/@ovals (@ocap slots) into the
 * empty, larger table @keys/@vals (@cap slots), then frees the old arrays (malloc'd, or
 * NULL). Values are @size bytes each. Cannot fail.
 */
static inline void kobj_hash_move(uintptr_t *keys, void *vals, size_t cap, uintptr_t *okeys,
				  void *ovals, size_t ocap, size_t size)
{
	for (size_t i = 0; i < ocap; i++) {
		if (!okeys[i])
			continue;
		size_t j = kobj_hash_slot(keys, cap, okeys[i]);
		keys[j] = okeys[i];
		memcpy((char *)vals + j * size, (const char *)ovals + i * size, size);
	}
	free(okeys);
	free(ovals);
}

#endif
