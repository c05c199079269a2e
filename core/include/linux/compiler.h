/* <linux/compiler.h>: branch hints and the attributes kernel code writes. */
#ifndef KOBJ_LINUX_COMPILER_H
#define KOBJ_LINUX_COMPILER_H

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define __must_check     __attribute__((warn_unused_result))
#define __maybe_unused   __attribute__((unused))
#define __always_unused  __attribute__((unused))
#define __printf(a, b)   __attribute__((format(printf, a, b)))
#define __aligned(x)     __attribute__((aligned(x)))
#define __packed         __attribute__((packed))
#define __user
#define __iomem

#define READ_ONCE(x)     (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif
