/* <linux/sysfs.h>: the sandbox provides it through <linux/kobject.h>. */
#ifndef KOBJ_LINUX_SYSFS_H
#define KOBJ_LINUX_SYSFS_H

#include "linux/kobject.h"

#endif
