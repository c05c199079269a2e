/* <linux/printk.h>: pr_*() write to the current world's kernel log (core/model/debug.h). */
#ifndef KOBJ_LINUX_PRINTK_H
#define KOBJ_LINUX_PRINTK_H

#include "core/model/kobject.h"

/* A file may define pr_fmt() before its includes to prefix its lines, as in the kernel. */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_err(fmt, ...)     kobj_printk(KOBJ_LOGLEVEL_ERR, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)    kobj_printk(KOBJ_LOGLEVEL_WARNING, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)  kobj_printk((enum kobj_loglevel)5, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)    kobj_printk(KOBJ_LOGLEVEL_INFO, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)   kobj_printk(KOBJ_LOGLEVEL_DEBUG, pr_fmt(fmt), ##__VA_ARGS__)

#endif
