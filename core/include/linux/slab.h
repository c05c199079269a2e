/* <linux/slab.h>: the sandbox provides it through <linux/kobject.h>. */
#ifndef KOBJ_LINUX_SLAB_H
#define KOBJ_LINUX_SLAB_H

#include "linux/kobject.h"

#endif
