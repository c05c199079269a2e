/* <linux/kstrtox.h>: kstrtoint(), kstrtobool() and friends (core/model/sysfs_attr.h). */
#ifndef KOBJ_LINUX_KSTRTOX_H
#define KOBJ_LINUX_KSTRTOX_H

#include "linux/kobject.h"

#endif
