/*
 * <linux/version.h>: the kernel release whose kobject API these headers follow (Linux
 * 6.1, the kernel tools/realkernel runs), for code that builds against several kernels.
 */
#ifndef KOBJ_LINUX_VERSION_H
#define KOBJ_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE KERNEL_VERSION(6, 1, 0)

#endif
