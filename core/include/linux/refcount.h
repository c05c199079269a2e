/* <linux/refcount.h>: the sandbox provides it through <linux/kobject.h>. */
#ifndef KOBJ_LINUX_REFCOUNT_H
#define KOBJ_LINUX_REFCOUNT_H

#include "linux/kobject.h"

#endif
