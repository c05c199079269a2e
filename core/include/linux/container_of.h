/* <linux/container_of.h>: container_of(), and container_of_const(), which gives a const
 * container for a const member pointer and a plain one otherwise. */
#ifndef KOBJ_LINUX_CONTAINER_OF_H
#define KOBJ_LINUX_CONTAINER_OF_H

#include "core/model/list.h"

#define container_of_const(ptr, type, member)                                            \
	_Generic(ptr,                                                                    \
		const __typeof__(*(ptr)) *: ((const type *)container_of(ptr, type, member)), \
		default: ((type *)container_of(ptr, type, member)))

#endif
