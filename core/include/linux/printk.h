/* <linux/printk.h>: pr_*() write to the current world's kernel log (core/model/debug.h). */
#ifndef KOBJ_LINUX_PRINTK_H
#define KOBJ_LINUX_PRINTK_H

#include "core/model/kobject.h"

#define pr_err(...)     kobj_printk(KOBJ_LOGLEVEL_ERR, __VA_ARGS__)
#define pr_warn(...)    kobj_printk(KOBJ_LOGLEVEL_WARNING, __VA_ARGS__)
#define pr_info(...)    kobj_printk(KOBJ_LOGLEVEL_INFO, __VA_ARGS__)
#define pr_debug(...)   kobj_printk(KOBJ_LOGLEVEL_DEBUG, __VA_ARGS__)

#endif
