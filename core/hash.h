/*
 * The pointer hash of the core's address map (world.c), public so that other maps keyed
 * by address (the Lua bindings' handle map) hash the same way instead of keeping a copy.
 */
#ifndef KOBJ_HASH_H
#define KOBJ_HASH_H

#include <stddef.h>
#include <stdint.h>

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

#endif
