/*
 * <linux/version.h>: the kernel release whose kobject API these headers follow, for
 * code that builds against several kernels. 6.2 made kset_uevent_ops' callbacks take a
 * const struct kobject *, as the sandbox's do; code for 6.1 and earlier tests
 * LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0).
 */
#ifndef KOBJ_LINUX_VERSION_H
#define KOBJ_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE KERNEL_VERSION(6, 2, 0)

#endif
