/*
 * <linux/kobject.h> for kernel code built against the sandbox: the whole of today's and
 * the article's API (core/model/kobject.h), with pr_*() as kernel code expects them.
 */
#ifndef KOBJ_LINUX_KOBJECT_H
#define KOBJ_LINUX_KOBJECT_H

#include <errno.h>

#include "core/model/kobject.h"
#include "linux/kref.h"
#include "linux/printk.h"

#endif
