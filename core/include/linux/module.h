/*
 * <linux/module.h>: the module boilerplate of kernel code, made to work in a test.
 *
 * module_init(fn) and module_exit(fn) register the file's module with the program when
 * it starts; a program may link several. kobj_insmod("name") and kobj_rmmod("name") load
 * and unload one where insmod and rmmod would, in any order (core/model/insmod.h);
 * kobj_module_init() and kobj_module_exit() load and unload all of them. The module's
 * name is KBUILD_MODNAME when the build defines it, else the file's name without ".c"
 * ('-' becomes '_', as Kbuild does).
 *
 * THIS_MODULE is NULL, as for code built into the kernel: the sandbox's simulated module
 * for a loaded file counts no users. MODULE_LICENSE() and the other MODULE_*() tags
 * declare nothing.
 */
#ifndef KOBJ_LINUX_MODULE_H
#define KOBJ_LINUX_MODULE_H

#include "core/model/insmod.h"
#include "linux/init.h"
#include "linux/kobject.h"

#ifdef KBUILD_MODNAME
#define KOBJ_MODNAME KBUILD_MODNAME
#else
#define KOBJ_MODNAME NULL
#endif

/* The module of the file being compiled (__BASE_FILE__: the .c file, not this header). */
static struct kobj_kmodule kobj_this_kmodule __attribute__((unused)) = {
	.name = KOBJ_MODNAME,
	.file = __BASE_FILE__,
};

/* The trailing extern declaration takes the ';' that follows the macro in kernel code. */
#define module_init(fn)                                                                  \
	__attribute__((constructor)) static void kobj_module_init_ctor(void)             \
	{                                                                                \
		kobj_this_kmodule.init = fn;                                             \
		kobj_kmodule_register(&kobj_this_kmodule);                               \
	}                                                                                \
	extern int kobj_module_boilerplate
#define module_exit(fn)                                                                  \
	__attribute__((constructor)) static void kobj_module_exit_ctor(void)             \
	{                                                                                \
		kobj_this_kmodule.exit = fn;                                             \
		kobj_kmodule_register(&kobj_this_kmodule);                               \
	}                                                                                \
	extern int kobj_module_boilerplate

#define MODULE_LICENSE(s)       extern int kobj_module_boilerplate
#define MODULE_AUTHOR(s)        extern int kobj_module_boilerplate
#define MODULE_DESCRIPTION(s)   extern int kobj_module_boilerplate
#define MODULE_VERSION(s)       extern int kobj_module_boilerplate
#define MODULE_ALIAS(s)         extern int kobj_module_boilerplate

#define THIS_MODULE ((struct module *)0)

#endif
