/* <linux/ref_tracker.h>: the kernel's reference trackers, kept by the sandbox's world
 * (core/model/ref_tracker.h). */
#ifndef KOBJ_LINUX_REF_TRACKER_H
#define KOBJ_LINUX_REF_TRACKER_H

#include "core/model/ref_tracker.h"

#endif
