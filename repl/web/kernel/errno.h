/*
 * The kernel's error numbers in the browser's build. Emscripten's C library numbers
 * errors as WASI does (ENOMEM is 48 there), but the sandbox reports the kernel's own
 * codes ("kobject_add_internal failed for x (error: -12 ...)") and its lessons print
 * them, so the model's C files (core/, lua_bindings/) see Linux's numbers
 * (include/uapi/asm-generic/errno*.h) and a strerror() that reads them. The program's
 * own files (repl/), which compare errno with what the C library set, and Debian's Lua
 * are built without this header.
 */
#ifndef KOBJ_WEB_LINUX_ERRNO_H
#define KOBJ_WEB_LINUX_ERRNO_H

#include_next <errno.h>

#undef EPERM
#undef ENOENT
#undef ESRCH
#undef EINTR
#undef EIO
#undef ENXIO
#undef E2BIG
#undef ENOEXEC
#undef EBADF
#undef ECHILD
#undef EAGAIN
#undef ENOMEM
#undef EACCES
#undef EFAULT
#undef ENOTBLK
#undef EBUSY
#undef EEXIST
#undef EXDEV
#undef ENODEV
#undef ENOTDIR
#undef EISDIR
#undef EINVAL
#undef ENFILE
#undef EMFILE
#undef ENOTTY
#undef ETXTBSY
#undef EFBIG
#undef ENOSPC
#undef ESPIPE
#undef EROFS
#undef EMLINK
#undef EPIPE
#undef EDOM
#undef ERANGE
#undef EDEADLK
#undef ENAMETOOLONG
#undef ENOLCK
#undef ENOSYS
#undef ENOTEMPTY
#undef ELOOP
#undef EWOULDBLOCK
#undef ENODATA
#undef EOVERFLOW
#undef EOPNOTSUPP
#undef ENOTSUP
#undef ETIMEDOUT

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define ENOTBLK 15
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOTTY 25
#define ETXTBSY 26
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EMLINK 31
#define EPIPE 32
#define EDOM 33
#define ERANGE 34
#define EDEADLK 35
#define ENAMETOOLONG 36
#define ENOLCK 37
#define ENOSYS 38
#define ENOTEMPTY 39
#define ELOOP 40
#define EWOULDBLOCK EAGAIN
#define ENODATA 61
#define EOVERFLOW 75
#define EOPNOTSUPP 95
#define ENOTSUP EOPNOTSUPP
#define ETIMEDOUT 110

/* The C library's strerror() reads its own numbers: these are Linux's. */
char *kobj_linux_strerror(int code);
#define strerror(code) kobj_linux_strerror(code)

#endif
