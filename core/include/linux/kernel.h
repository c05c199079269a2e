/* <linux/kernel.h>: the helpers kernel code expects from it: the kernel's printf
 * (sprintf and friends format as the kernel does, see linux/printk.h), the type-checked
 * min() and max(), ARRAY_SIZE(), and what it includes in the kernel. */
#ifndef KOBJ_LINUX_KERNEL_H
#define KOBJ_LINUX_KERNEL_H

#include <stdio.h>

#include "linux/compiler.h"
#include "linux/container_of.h"
#include "linux/err.h"
#include "linux/kobject.h"
#include "linux/kstrtox.h"
#include "linux/stringify.h"
#include "linux/types.h"

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

/* min() and max() refuse to compare different types, as the kernel's do; each use has
 * names of its own, so that they nest. */
#define KOBJ_CMP_(x, y, op, a, b)                                                        \
	({                                                                               \
		__typeof__(x) a = (x);                                                   \
		__typeof__(y) b = (y);                                                   \
		(void)(&a == &b);                                                        \
		a op b ? a : b;                                                          \
	})
#define KOBJ_CMP(x, y, op)                                                               \
	KOBJ_CMP_(x, y, op, KOBJ_CAT(kobj_x, __COUNTER__), KOBJ_CAT(kobj_y, __COUNTER__))
#define min(x, y) KOBJ_CMP(x, y, <)
#define max(x, y) KOBJ_CMP(x, y, >)
#define min_t(type, x, y) ((type)(x) < (type)(y) ? (type)(x) : (type)(y))
#define max_t(type, x, y) ((type)(x) > (type)(y) ? (type)(x) : (type)(y))
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)

#endif
