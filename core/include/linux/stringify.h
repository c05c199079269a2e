/* <linux/stringify.h>: __stringify() expands its argument first, then quotes it. */
#ifndef KOBJ_LINUX_STRINGIFY_H
#define KOBJ_LINUX_STRINGIFY_H

#define __stringify_1(...) #__VA_ARGS__
#define __stringify(...)   __stringify_1(__VA_ARGS__)

#endif
