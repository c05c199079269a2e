/* <linux/init.h>: nothing is discarded after boot here, so the section marks are empty. */
#ifndef KOBJ_LINUX_INIT_H
#define KOBJ_LINUX_INIT_H

#define __init
#define __exit
#define __initdata
#define __exitdata
#define __initconst
#define __ro_after_init

#endif
