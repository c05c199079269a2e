/* <linux/kref.h>: struct kref and kref_*() come with the sandbox (core/model/kref.h). A
 * kobject's kref mirrors the count the world keeps, so kref_read(&kobj->kref) reads it. */
#ifndef KOBJ_LINUX_KREF_H
#define KOBJ_LINUX_KREF_H

#include "core/model/kobject.h"

#endif
