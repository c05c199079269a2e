/* <linux/completion.h>: see core/model/completion.h for how a wait ends in a sandbox. */
#ifndef KOBJ_LINUX_COMPLETION_H
#define KOBJ_LINUX_COMPLETION_H

#include "linux/kobject.h"
#include "core/model/completion.h"

#endif
