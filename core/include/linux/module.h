/*
 * <linux/module.h>: the module boilerplate of kernel code, made to work in a test.
 * module_init(fn) defines kobj_module_init(), which calls fn; module_exit(fn) defines
 * kobj_module_exit(). A test calls them where insmod and rmmod would. MODULE_LICENSE()
 * and the other MODULE_*() tags declare nothing.
 */
#ifndef KOBJ_LINUX_MODULE_H
#define KOBJ_LINUX_MODULE_H

#include "linux/init.h"
#include "linux/kobject.h"

int kobj_module_init(void);
void kobj_module_exit(void);

/* The trailing extern declaration takes the ';' that follows the macro in kernel code. */
#define module_init(fn)                                                                  \
	int kobj_module_init(void) { return fn(); } extern int kobj_module_boilerplate
#define module_exit(fn)                                                                  \
	void kobj_module_exit(void) { fn(); } extern int kobj_module_boilerplate

#define MODULE_LICENSE(s)       extern int kobj_module_boilerplate
#define MODULE_AUTHOR(s)        extern int kobj_module_boilerplate
#define MODULE_DESCRIPTION(s)   extern int kobj_module_boilerplate
#define MODULE_VERSION(s)       extern int kobj_module_boilerplate
#define MODULE_ALIAS(s)         extern int kobj_module_boilerplate

#define THIS_MODULE ((struct module *)0)

#endif
