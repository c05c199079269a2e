/*
 * The article's char device: a kobject for the memory, a module owner for the code.
 * cdev_get() must win both references or neither.
 */
#ifndef KOBJ_CDEV_H
#define KOBJ_CDEV_H

#include "core/model/kobject.h"

struct file_operations;

struct cdev {
	struct kobject kobj;
	struct module *owner;
	struct file_operations *ops;
	struct list_head list;
};

/* cdev_alloc() - a zeroed, initialised cdev whose release frees it; NULL on no memory. */
struct cdev *cdev_alloc(void);
/* cdev_init() - set up a cdev the caller owns; its release does nothing. */
void cdev_init(struct cdev *cdev, struct file_operations *fops);
/* cdev_get() - Return: the kobject with both references taken, or NULL with neither. */
struct kobject *cdev_get(struct cdev *p);
/* cdev_put() - drop what cdev_get() took. */
void cdev_put(struct cdev *p);

#endif
