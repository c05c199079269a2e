/* <linux/types.h>: the kernel's fixed-size and address types, as on x86_64, after the
 * system's uapi header of this name (__u32 and friends), which other headers include. */
#ifndef KOBJ_LINUX_TYPES_H
#define KOBJ_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;

typedef u64 phys_addr_t;
typedef u64 dma_addr_t;
typedef phys_addr_t resource_size_t;
typedef unsigned short umode_t;
/* The C library's own loff_t, so that both may be declared; 64 bits, as the kernel's. */
typedef __loff_t loff_t;

#endif
