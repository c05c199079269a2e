/* <linux/fs.h>: fs_kobj (/sys/fs, made with the world), and the struct file and loff_t
 * that binary attributes' read() and write() take. The sandbox has no open files: they
 * get a NULL file. */
#ifndef KOBJ_LINUX_FS_H
#define KOBJ_LINUX_FS_H

#include "linux/kobject.h"
#include "linux/types.h"

struct file;

#endif
