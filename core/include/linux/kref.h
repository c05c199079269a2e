/* <linux/kref.h>: the sandbox provides it through <linux/kobject.h>. */
#ifndef KOBJ_LINUX_KREF_H
#define KOBJ_LINUX_KREF_H

#include "linux/kobject.h"

#endif
