/* <linux/stat.h>: the file mode bits, and the kernel's names for user, group and other
 * together (S_IRUGO is 0444); the system's uapi header of this name comes too, as the C
 * library's <sys/stat.h> may include it. */
#ifndef KOBJ_LINUX_STAT_H
#define KOBJ_LINUX_STAT_H

#include <sys/stat.h>
#include_next <linux/stat.h>

#define S_IRWXUGO (S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO (S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IRUGO   (S_IRUSR | S_IRGRP | S_IROTH)
#define S_IWUGO   (S_IWUSR | S_IWGRP | S_IWOTH)
#define S_IXUGO   (S_IXUSR | S_IXGRP | S_IXOTH)

#endif
