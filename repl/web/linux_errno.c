/*
 * strerror() for the kernel's error numbers (kernel/errno.h of this folder), with the
 * texts of the C library the terminal's kobj uses (glibc), so that a message such as
 * "echo: /sys/kernel/x/foo: Invalid argument" reads the same in the browser.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const texts[] = {
	[EPERM] = "Operation not permitted",
	[ENOENT] = "No such file or directory",
	[ESRCH] = "No such process",
	[EINTR] = "Interrupted system call",
	[EIO] = "Input/output error",
	[ENXIO] = "No such device or address",
	[E2BIG] = "Argument list too long",
	[ENOEXEC] = "Exec format error",
	[EBADF] = "Bad file descriptor",
	[ECHILD] = "No child processes",
	[EAGAIN] = "Resource temporarily unavailable",
	[ENOMEM] = "Cannot allocate memory",
	[EACCES] = "Permission denied",
	[EFAULT] = "Bad address",
	[ENOTBLK] = "Block device required",
	[EBUSY] = "Device or resource busy",
	[EEXIST] = "File exists",
	[EXDEV] = "Invalid cross-device link",
	[ENODEV] = "No such device",
	[ENOTDIR] = "Not a directory",
	[EISDIR] = "Is a directory",
	[EINVAL] = "Invalid argument",
	[ENFILE] = "Too many open files in system",
	[EMFILE] = "Too many open files",
	[ENOTTY] = "Inappropriate ioctl for device",
	[ETXTBSY] = "Text file busy",
	[EFBIG] = "File too large",
	[ENOSPC] = "No space left on device",
	[ESPIPE] = "Illegal seek",
	[EROFS] = "Read-only file system",
	[EMLINK] = "Too many links",
	[EPIPE] = "Broken pipe",
	[EDOM] = "Numerical argument out of domain",
	[ERANGE] = "Numerical result out of range",
	[EDEADLK] = "Resource deadlock avoided",
	[ENAMETOOLONG] = "File name too long",
	[ENOLCK] = "No locks available",
	[ENOSYS] = "Function not implemented",
	[ENOTEMPTY] = "Directory not empty",
	[ELOOP] = "Too many levels of symbolic links",
	[ENODATA] = "No data available",
	[EOVERFLOW] = "Value too large for defined data type",
	[EOPNOTSUPP] = "Operation not supported",
	[ETIMEDOUT] = "Connection timed out",
};

char *kobj_linux_strerror(int code)
{
	static char unknown[32];

	if (code >= 0 && (size_t)code < sizeof(texts) / sizeof(texts[0]) && texts[code])
		return (char *)texts[code];
	snprintf(unknown, sizeof(unknown), "Unknown error %d", code);
	return unknown;
}
