/*
 * Kernel modules linked into the program: each file with module_init() (in
 * <linux/module.h>) registers itself when the program starts, and a test loads and
 * unloads them by name as insmod and rmmod would, in the current world.
 *
 * Loading makes a simulated module (module_load(), with its record and log events) and
 * runs the init function; a negative result unloads it again without its exit, as the
 * kernel does, and a positive one is warned ("suspiciously returned"). Unloading runs
 * the exit function while the module is GOING. A world remembers which modules it has
 * loaded, so a fresh world starts with none.
 *
 * As the kernel loads a module's data afresh each time, every load after the first
 * writes the file's static variables back to what they were before the first (found in
 * the program's symbol table): a static kobject or kset starts zeroed again. Variables
 * of other files, and everything when the program has no symbol table, keep their
 * values.
 */
#ifndef KOBJ_INSMOD_H
#define KOBJ_INSMOD_H

/* One module file; <linux/module.h> defines one per file that includes it. */
struct kobj_kmodule {
	const char *name;         /* KBUILD_MODNAME, or NULL: from @file */
	const char *file;         /* the .c file that made it */
	int (*init)(void);
	void (*exit)(void);
	struct kobj_kmodule *next;
	char modname[56];         /* the name in use */
	struct kobj_kmodule_image *image; /* its static variables before the first load */
};

/* kobj_kmodule_register() - called by module_init()/module_exit(); idempotent. */
void kobj_kmodule_register(struct kobj_kmodule *m);

/**
 * kobj_insmod() - load the linked module @name in the current world and run its init
 * Return: 0 (a positive result of init is warned and loaded all the same), init's
 * negative result (the module is gone again), -ENOENT if no linked module has that name,
 * or -EEXIST if it is loaded already.
 */
int kobj_insmod(const char *name);

/**
 * kobj_rmmod() - run the exit of the loaded module @name and unload it
 * Return: 0; -ENOENT if it is not loaded; -EBUSY if it has no exit function (the kernel
 * refuses to unload such a module) or users (module_unload()).
 */
int kobj_rmmod(const char *name);

/* kobj_module_loaded() - whether the linked module @name is loaded in the current world. */
int kobj_module_loaded(const char *name);

/**
 * kobj_module_init() - load every linked module not loaded yet, in name order
 * Return: 0, or the first failure; the modules this call loaded before it are unloaded.
 */
int kobj_module_init(void);
/* kobj_module_exit() - unload every loaded linked module, in reverse name order. */
void kobj_module_exit(void);

/* kobj_current_task() - "insmod" while a module's init runs, "rmmod" while its exit
 * does, else "kobj": the task the kernel's messages name. */
const char *kobj_current_task(void);

#define kobj_insmod(n)  KOBJ_CALL((kobj_insmod)(n))
#define kobj_rmmod(n)   KOBJ_CALL((kobj_rmmod)(n))

#endif
