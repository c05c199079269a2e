/* <linux/kernel.h>: sscanf(), snprintf() and the kernel's helpers kernel code expects. */
#ifndef KOBJ_LINUX_KERNEL_H
#define KOBJ_LINUX_KERNEL_H

#include <stdio.h>

#include "linux/kobject.h"

#endif
