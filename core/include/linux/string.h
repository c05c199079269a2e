/* <linux/string.h>: the C library's string functions, as kernel code uses them. */
#ifndef KOBJ_LINUX_STRING_H
#define KOBJ_LINUX_STRING_H

#include <stdio.h>
#include <string.h>

#include "linux/kobject.h"

#endif
