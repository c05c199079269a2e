/* <linux/err.h>: error codes carried in pointers (the last page of the address space). */
#ifndef KOBJ_LINUX_ERR_H
#define KOBJ_LINUX_ERR_H

#include <stdbool.h>
#include <stdint.h>

#include "linux/compiler.h"

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) unlikely((uintptr_t)(void *)(x) >= (uintptr_t)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((uintptr_t)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return unlikely(!ptr) || IS_ERR_VALUE((uintptr_t)ptr);
}

static inline void *ERR_CAST(const void *ptr)
{
	return (void *)(uintptr_t)ptr;
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif
