/*
 * kstrtoint() and friends as lib/kstrtox.c parses: an optional sign, a radix prefix when
 * the base is 0 (or "0x" with base 16), at least one digit, at most one trailing newline
 * (what `echo 42 > file` writes), nothing else. No leading spaces.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include "core/model/sysfs_attr.h"

static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 16;
}

/* _parse_integer_fixup_radix(): base 0 looks at the prefix; base 16 skips "0x". */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	bool hex_prefix = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit(s[2]) < 16;

	if (*base == 0)
		*base = hex_prefix ? 16 : s[0] == '0' ? 8 : 10;
	if (*base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	return s;
}

/* _kstrtoull(): no sign allowed here. */
static int parse_ull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	const char *start;
	bool overflow = false;

	if (base == 1 || base > 16)
		return -EINVAL;
	s = fixup_radix(s, &base);
	for (start = s; digit(*s) < (int)base; s++) {
		unsigned d = (unsigned)digit(*s);
		if (v > (ULLONG_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (s == start)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return parse_ull(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int err;

	if (s[0] == '-') {
		err = parse_ull(s + 1, base, &v);
		if (err)
			return err;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
		return 0;
	}
	err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = (long long)v;
	return 0;
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);
	if (err)
		return err;
	if (v != (long)v) /* as the kernel checks, whatever the width of long */
		return -ERANGE;
	*res = (long)v;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v != (unsigned long)v)
		return -ERANGE;
	*res = (unsigned long)v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);
	if (err)
		return err;
	if (v != (int)v)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v != (unsigned int)v)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}
