/*
 * kallsyms for the sandbox: the function or data symbol at an address of the running
 * program, read from the ELF symbol table of the executable or shared library that holds
 * it, for %pS and %ps. Internal to core/model.
 */
#ifndef KOBJ_KSYM_H
#define KOBJ_KSYM_H

#include <stdbool.h>

struct kobj_ksym {
	const char *name;       /* valid for the process's life */
	unsigned long offset;   /* from the symbol's start */
	unsigned long size;
	const char *module;     /* the module a static symbol's file makes, or NULL */
};

/* kobj_ksym_lookup() - Return: true with *@sym filled, false if no symbol holds @addr. */
bool kobj_ksym_lookup(const void *addr, struct kobj_ksym *sym);

/* A static variable of a source file: where it is, and its size. */
struct kobj_ksym_var {
	void *addr;
	unsigned long size;
};

/**
 * kobj_ksym_file_vars() - the writable static variables (.data, .bss) of the source file
 * @file (a base name) in the loaded object that holds @anchor, but not @except
 * Return: how many; *@out is a malloc'd array (NULL when none), freed with free().
 */
size_t kobj_ksym_file_vars(const void *anchor, const char *file, const char *except,
			   struct kobj_ksym_var **out);

/* kobj_kmodule_of_file() - the name of the module that source file @file (a base name)
 * makes with module_init(), or NULL (insmod.c). */
const char *kobj_kmodule_of_file(const char *file);

#endif
