/*
 * <linux/printk.h>: printk() and pr_*() write to the current world's kernel log
 * (core/model/debug.h), formatted as the kernel formats (core/model/vsprintf.h). Code
 * built with the <linux/...> headers gets the kernel's printf for sprintf(),
 * snprintf(), vsprintf() and vsnprintf() too, so "%pa" in a show() prints what it would
 * in a kernel.
 */
#ifndef KOBJ_LINUX_PRINTK_H
#define KOBJ_LINUX_PRINTK_H

#include <stdarg.h>
#include <stdio.h>

#include "core/model/kobject.h"

#define sprintf   kobj_sprintf
#define snprintf  kobj_snprintf
#define vsprintf  kobj_vsprintf
#define vsnprintf kobj_vsnprintf

#define KERN_SOH     "\001"
#define KERN_EMERG   KERN_SOH "0"
#define KERN_ALERT   KERN_SOH "1"
#define KERN_CRIT    KERN_SOH "2"
#define KERN_ERR     KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE  KERN_SOH "5"
#define KERN_INFO    KERN_SOH "6"
#define KERN_DEBUG   KERN_SOH "7"
#define KERN_DEFAULT ""
#define KERN_CONT    KERN_SOH "c"

/* A file may define pr_fmt() before its includes to prefix its lines, as in the kernel. */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define printk(fmt, ...)     KOBJ_CALL(kobj_printk_line(fmt, ##__VA_ARGS__))
#define no_printk(fmt, ...)  ({ if (0) kobj_printk_line(fmt, ##__VA_ARGS__); 0; })

#define pr_emerg(fmt, ...)   printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)   printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)    printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)     printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)    printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)  printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)    printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)    printk(KERN_CONT fmt, ##__VA_ARGS__)
/* Only with KOBJ_DEBUG_KOBJECT, as if DEBUG or dynamic debug enabled it. */
#define pr_debug(fmt, ...)   printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...)   no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

/* Once per call site for the process's life (the kernel: once per boot). */
#define printk_once(fmt, ...)                                                            \
	({                                                                               \
		static bool kobj_printed_;                                               \
		bool kobj_first_ = !kobj_printed_;                                       \
		if (kobj_first_) {                                                       \
			kobj_printed_ = true;                                            \
			printk(fmt, ##__VA_ARGS__);                                      \
		}                                                                        \
		kobj_first_;                                                             \
	})
#define pr_err_once(fmt, ...)  printk_once(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_once(fmt, ...) printk_once(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...) printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)

#endif
