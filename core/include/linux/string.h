/* <linux/string.h>: the C library's string functions, and the kernel's own that store()
 * methods use: skip_spaces(), strim(), sysfs_streq(), kstrdup(), kmemdup(). */
#ifndef KOBJ_LINUX_STRING_H
#define KOBJ_LINUX_STRING_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "linux/kobject.h"

/* skip_spaces() - the first character of @str that is not white space. */
static inline char *skip_spaces(const char *str)
{
	while (isspace((unsigned char)*str))
		++str;
	return (char *)str;
}

/* strim() - cut trailing white space in place; Return: past the leading white space. */
static inline char *strim(char *s)
{
	size_t size = strlen(s);
	char *end;

	if (!size)
		return s;
	end = s + size - 1;
	while (end >= s && isspace((unsigned char)*end))
		end--;
	*(end + 1) = '\0';
	return skip_spaces(s);
}

/* sysfs_streq() - equal, but a newline ending either string is ignored. */
static inline bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	return *s1 == '\n' && !s1[1] && !*s2;
}

/* kmemdup() / kstrdup() - Return: a kmalloc'd copy the caller kfree()s, or NULL. */
static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);
	if (p)
		memcpy(p, src, len);
	return p;
}

static inline char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? (char *)kmemdup(s, strlen(s) + 1, gfp) : NULL;
}

#endif
