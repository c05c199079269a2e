/* <linux/kstrtox.h>: the sandbox provides it through <linux/kobject.h>. */
#ifndef KOBJ_LINUX_KSTRTOX_H
#define KOBJ_LINUX_KSTRTOX_H

#include "linux/kobject.h"

#endif
