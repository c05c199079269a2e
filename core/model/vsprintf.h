/*
 * The kernel's printf (lib/vsprintf.c of Linux 6.1), which pr_*(), printk(), sysfs_emit()
 * and, for code built with the <linux/...> headers, sprintf() and snprintf() format with.
 * Included by core/model/kobject.h.
 *
 * It differs from the C library's where the kernel's does: no floating point and no %n
 * (an unsupported conversion stops the output there and warns "Please remove
 * unsupported %f in format string" in the kernel log); %s of NULL prints "(null)" and of
 * an address below 4096 or an error pointer "(efault)"; "%#x" of 0 is "0x0"; a precision
 * never hides a zero; and every letter after %p is consumed by the pointer extensions:
 *
 *   %p        hashed: 00000000 and 8 hex digits, the same for an object as the
 *             kernel's debug lines print for it (the sandbox's hash, stable from run
 *             to run); NULL and error pointers print raw
 *   %pK       as %p (kptr_restrict 0)
 *   %px       the address: a stand-in, ffff8880 and the digits %p hashes to, since the
 *             host's real addresses would change from run to run
 *   %pa[pd]   *(phys_addr_t *) or *(dma_addr_t *) as 0x and 16 hex digits
 *   %pS %ps   the function: "name+0x10/0x40 [module]" or "name [module]" (module only
 *   %pB %pSR  for a static function of a file with module_init); unknown: 0x address
 *   %pe       an error pointer's name: "-ENOMEM"; any other pointer as %p
 *   %pV       a struct va_format, formatted in place
 *   %ph[CDN]  up to 64 bytes in hex ("%*ph" takes the count from the width)
 *   %pM[FR] %pm  a MAC address; %pI4[hnbl] %pi4  an IPv4 address
 *   %pU[bBlL] a UUID;  %pks %pus  a string
 * Other extensions (%pd, %pOF, %pg...) need kernel objects the sandbox has not: they
 * print as %p.
 */
#ifndef KOBJ_VSPRINTF_H
#define KOBJ_VSPRINTF_H

#include <stdarg.h>
#include <stddef.h>

#include "core/model/slab.h"

/* For %pV: a format and its arguments, passed on to another printf. */
struct va_format {
	const char *fmt;
	va_list *va;
};

/**
 * kobj_vsnprintf() - the kernel's vsnprintf()
 * Return: the length the whole text needs, as vsnprintf() returns it; at most @size - 1
 * bytes and a NUL are written (nothing when @size is 0).
 */
int kobj_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__attribute__((format(printf, 3, 0)));
int kobj_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* kobj_sprintf() - into a buffer the caller knows is large enough (the kernel's sprintf) */
int kobj_sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int kobj_vsprintf(char *buf, const char *fmt, va_list args)
	__attribute__((format(printf, 2, 0)));

/* vscnprintf() / scnprintf() - Return: the bytes written, without the NUL (0 for size 0). */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__attribute__((format(printf, 3, 0)));
int scnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* kasprintf() / kvasprintf() - Return: kmalloc'd text the caller kfree()s, or NULL when
 * the allocation fails (fault injection counts it as one kernel allocation). */
char *kvasprintf(gfp_t gfp, const char *fmt, va_list args) __attribute__((format(printf, 2, 0)));
char *kasprintf(gfp_t gfp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * kobj_printk_line() - printk(): a line of the current world's kernel log
 * @fmt: may start with KERN_ERR and the other level marks ("\0013"); none is the default
 * level (4); KERN_CONT continues the last line if it did not end with a newline.
 * KERN_DEBUG lines are kept only with KOBJ_DEBUG_KOBJECT.
 */
void kobj_printk_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* errname() - "-ENOMEM" for -ENOMEM, "ENOMEM" for ENOMEM, NULL for an unknown number. */
const char *errname(int err);

#endif
