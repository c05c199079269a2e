/*
 * The kernel's printf, as lib/vsprintf.c of Linux 6.1 formats (see vsprintf.h): the
 * same flags, qualifiers and padding rules, and the %p extensions kernel code prints
 * with. Written for the sandbox: output goes through struct out, which counts what the
 * whole text needs and stores what fits.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/ksym.h"
#include "core/model/model_internal.h"

/* printf_spec's flags, with the kernel's values: ZEROPAD + ' ' is '0'. */
enum { SIGN = 1, LEFT = 2, PLUS = 4, SPACE = 8, ZEROPAD = 16, SMALL = 32, SPECIAL = 64 };

#define FIELD_WIDTH_MAX ((1 << 23) - 1)
#define PRECISION_MAX ((1 << 15) - 1)
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((uintptr_t)(x) >= (uintptr_t)-MAX_ERRNO)

struct spec {
	int flags;
	int width;     /* -1: none */
	int precision; /* -1: none */
	int base;
};

static const struct spec NO_SPEC = { 0, -1, -1, 10 };

struct out {
	char *buf;
	size_t size; /* room in buf, the NUL included */
	size_t len;  /* what the text needs so far */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* =========================================================================== numbers */

static const char hex_upper[] = "0123456789ABCDEF";

/* number(): sign, "0x" or "0" prefix, padding and precision as the kernel orders them. */
static void number(struct out *o, unsigned long long num, struct spec s)
{
	char tmp[3 * sizeof(num)];
	char sign = 0, locase = (char)(s.flags & SMALL);
	bool need_pfx = (s.flags & SPECIAL) && s.base != 10, is_zero = num == 0;
	int width = s.width, precision = s.precision, i = 0;

	if (s.flags & LEFT)
		s.flags &= ~ZEROPAD;
	if (s.flags & SIGN) {
		if ((long long)num < 0) {
			sign = '-';
			num = -(unsigned long long)num;
			width--;
		} else if (s.flags & (PLUS | SPACE)) {
			sign = s.flags & PLUS ? '+' : ' ';
			width--;
		}
	}
	if (need_pfx)
		width -= s.base == 16 ? 2 : !is_zero;
	do {
		tmp[i++] = (char)(hex_upper[num % (unsigned)s.base] | locase);
		num /= (unsigned)s.base;
	} while (num);
	if (i > precision)
		precision = i; /* a precision never hides digits, nor a lone 0 */
	width -= precision;
	if (!(s.flags & (ZEROPAD | LEFT))) {
		pad(o, ' ', width);
		width = 0;
	}
	if (sign)
		put(o, sign);
	if (need_pfx && (s.base == 16 || !is_zero))
		put(o, '0');
	if (need_pfx && s.base == 16)
		put(o, (char)('X' | locase));
	if (!(s.flags & LEFT)) {
		pad(o, (char)(' ' + (s.flags & ZEROPAD)), width);
		width = 0;
	}
	pad(o, '0', precision - i);
	while (--i >= 0)
		put(o, tmp[i]);
	pad(o, ' ', width);
}

/* special_hex_number(): 0x and all the digits of a @size-byte value. */
static void hex_number(struct out *o, unsigned long long num, int size)
{
	struct spec s = { SPECIAL | SMALL | ZEROPAD, 2 + 2 * size, -1, 16 };
	number(o, num, s);
}

/* ========================================================================== strings */

/* string_nocheck() and widen_string(): at most precision bytes, padded to the width. */
static void text(struct out *o, const char *s, struct spec sp)
{
	size_t n = sp.precision < 0 ? strlen(s) : strnlen(s, (size_t)sp.precision);
	int fill = sp.width > (int)n ? sp.width - (int)n : 0;

	if (!(sp.flags & LEFT))
		pad(o, ' ', fill);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (sp.flags & LEFT)
		pad(o, ' ', fill);
}

/* error_string(): a message in place of what could not be read, 16 bytes at most. */
static void error_text(struct out *o, const char *msg, struct spec sp)
{
	if (sp.precision == -1)
		sp.precision = 2 * (int)sizeof(void *);
	text(o, msg, sp);
}

/* check_pointer(): "(null)" or "(efault)" for what no kernel code may read. */
static bool bad_pointer(struct out *o, const void *p, struct spec sp)
{
	if (!p) {
		error_text(o, "(null)", sp);
		return true;
	}
	if ((uintptr_t)p < PAGE_SIZE || IS_ERR_VALUE(p)) {
		error_text(o, "(efault)", sp);
		return true;
	}
	return false;
}

/* ========================================================================= pointers */

/* The 32-bit value the sandbox hashes @p to: an object's own, else a stable one. */
static unsigned long hash_of(const void *p)
{
	struct kobj_world *w = kobj_world_current();
	char text[17];

	/* Newest first: an address freed and reused belongs to its newest object. */
	for (size_t id = kobj_record_count(w); id > 0; id--) {
		const struct kobj_record *r = kobj_record_by_id(w, (unsigned)id);
		if (r->ptr == p) {
			if (r->memory_gone)
				break;
			return strtoul(kobj_fake_pointer(r->id, text) + 8, NULL, 16);
		}
	}
	return strtoul(kobj_unknown_pointer(w, p, text) + 8, NULL, 16);
}

/* pointer_string(): as hex, 16 digits unless a width says otherwise. */
static void raw_pointer(struct out *o, uintptr_t v, struct spec sp)
{
	sp.base = 16;
	sp.flags |= SMALL;
	if (sp.width == -1) {
		sp.width = 2 * (int)sizeof(void *);
		sp.flags |= ZEROPAD;
	}
	number(o, v, sp);
}

/* The stand-in for a real address (%px, an unknown symbol): stable, kernel-shaped. */
static uintptr_t stand_in(const void *p)
{
	if (!p || IS_ERR_VALUE(p))
		return (uintptr_t)p;
	return (uintptr_t)0xffff888000000000ull | hash_of(p);
}

/* default_pointer() and ptr_to_id(): hashed, but NULL and error pointers print raw. */
static void hashed_pointer(struct out *o, const void *p, struct spec sp)
{
	raw_pointer(o, !p || IS_ERR_VALUE(p) ? (uintptr_t)p : hash_of(p), sp);
}

/* symbol_string(): "name+0xoff/0xsize [module]"; 's' leaves out the offset. */
static void symbol(struct out *o, const void *p, struct spec sp, const char *fmt)
{
	char line[512];
	struct kobj_ksym sym;
	bool backtrace = fmt[0] == 'B';
	const void *at = backtrace ? (const char *)p - 1 : p;

	if (!kobj_ksym_lookup(at, &sym)) {
		kobj_snprintf(line, sizeof(line), "0x%lx", (unsigned long)stand_in(p));
	} else {
		int n = snprintf(line, sizeof(line), "%s", sym.name);
		if (fmt[0] != 's' && n < (int)sizeof(line))
			n += kobj_snprintf(line + n, sizeof(line) - (size_t)n, "+%#lx/%#lx",
					   (unsigned long)sym.offset + backtrace,
					   (unsigned long)sym.size);
		if (sym.module && n < (int)sizeof(line))
			snprintf(line + n, sizeof(line) - (size_t)n, " [%s]", sym.module);
	}
	text(o, line, sp);
}

/* err_ptr(): the error's name, or its number when it has none. */
static void error_pointer(struct out *o, const void *p, struct spec sp)
{
	int err = (int)(intptr_t)p;
	const char *name = errname(err);

	if (name) {
		text(o, name, sp);
		return;
	}
	sp.flags |= SIGN;
	sp.base = 10;
	number(o, (unsigned long long)(long long)err, sp);
}

/* hex_string(): "%*ph" - the width is the byte count (1 by default, 64 at most). */
static void hex_bytes(struct out *o, const unsigned char *p, struct spec sp, const char *fmt)
{
	char sep = fmt[1] == 'C' ? ':' : fmt[1] == 'D' ? '-' : fmt[1] == 'N' ? 0 : ' ';
	int len = sp.width > 0 ? (sp.width < 64 ? sp.width : 64) : 1;

	if (sp.width == 0 || bad_pointer(o, p, sp))
		return;
	for (int i = 0; i < len; i++) {
		put(o, hex_upper[p[i] >> 4] | 0x20);
		put(o, hex_upper[p[i] & 15] | 0x20);
		if (sep && i != len - 1)
			put(o, sep);
	}
}

/* mac_address_string(): six bytes; 'M' separates them, 'F' with '-', 'R' reversed. */
static void mac_address(struct out *o, const unsigned char *p, struct spec sp, const char *fmt)
{
	char mac[18], *q = mac;
	bool reversed = fmt[1] == 'R';

	if (bad_pointer(o, p, sp))
		return;
	for (int i = 0; i < 6; i++) {
		unsigned char b = p[reversed ? 5 - i : i];
		*q++ = (char)(hex_upper[b >> 4] | 0x20);
		*q++ = (char)(hex_upper[b & 15] | 0x20);
		if (fmt[0] == 'M' && i != 5)
			*q++ = fmt[1] == 'F' ? '-' : ':';
	}
	*q = '\0';
	text(o, mac, sp);
}

/* ip4_addr_string(): 'I' as 1.2.3.4, 'i' as 001.002.003.004; 'h' and 'l' read the
 * address in host order (little-endian here). */
static void ipv4_address(struct out *o, const unsigned char *p, struct spec sp, const char *fmt)
{
	char ip[16];
	bool host = fmt[2] == 'h' || fmt[2] == 'l';
	size_t n = 0;

	if (bad_pointer(o, p, sp))
		return;
	for (int i = 0; i < 4; i++) {
		unsigned b = p[host ? 3 - i : i];
		n += (size_t)snprintf(ip + n, sizeof(ip) - n, fmt[0] == 'i' ? "%03u%s" : "%u%s",
				      b, i < 3 ? "." : "");
	}
	text(o, ip, sp);
}

/* uuid_string(): 'l'/'L' as a little-endian GUID, 'B'/'L' in capitals. */
static void uuid(struct out *o, const unsigned char *p, struct spec sp, const char *fmt)
{
	static const unsigned char be[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const unsigned char le[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	const unsigned char *index = fmt[1] == 'l' || fmt[1] == 'L' ? le : be;
	char locase = fmt[1] == 'B' || fmt[1] == 'L' ? 0 : 0x20, s[37], *q = s;

	if (bad_pointer(o, p, sp))
		return;
	for (int i = 0; i < 16; i++) {
		*q++ = (char)(hex_upper[p[index[i]] >> 4] | locase);
		*q++ = (char)(hex_upper[p[index[i]] & 15] | locase);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*q++ = '-';
	}
	*q = '\0';
	text(o, s, sp);
}

/* va_format(): another format with its own arguments, written here. */
static void nested(struct out *o, const struct va_format *vf, struct spec sp)
{
	va_list va;

	if (bad_pointer(o, vf, sp))
		return;
	va_copy(va, *vf->va);
	size_t room = o->len < o->size ? o->size - o->len : 0;
	o->len += (size_t)kobj_vsnprintf(room ? o->buf + o->len : NULL, room, vf->fmt, va);
	va_end(va);
}

/* phys_addr_t and dma_addr_t are 64 bits here, as on x86_64. */
static void address_value(struct out *o, const void *p, struct spec sp)
{
	if (!bad_pointer(o, p, sp))
		hex_number(o, *(const unsigned long long *)p, 8);
}

/* pointer(): @fmt is what follows "%p". */
static void pointer(struct out *o, const char *fmt, const void *p, struct spec sp)
{
	switch (fmt[0]) {
	case 'S': case 's': case 'B':
		symbol(o, p, sp, fmt);
		return;
	case 'h':
		hex_bytes(o, p, sp, fmt);
		return;
	case 'M': case 'm':
		mac_address(o, p, sp, fmt);
		return;
	case 'I': case 'i':
		if (fmt[1] == '4') {
			ipv4_address(o, p, sp, fmt);
			return;
		}
		break;
	case 'U':
		uuid(o, p, sp, fmt);
		return;
	case 'V':
		nested(o, p, sp);
		return;
	case 'a':
		address_value(o, p, sp);
		return;
	case 'x':
		raw_pointer(o, stand_in(p), sp);
		return;
	case 'e':
		if (IS_ERR_VALUE(p)) {
			error_pointer(o, p, sp);
			return;
		}
		break;
	case 'u': case 'k':
		if (fmt[1] != 's')
			error_text(o, "(einval)", sp);
		else if (!bad_pointer(o, p, sp))
			text(o, p, sp);
		return;
	}
	hashed_pointer(o, p, sp); /* %p, %pK (kptr_restrict 0) and the rest */
}

/* ===================================================================== the format */

static int atoi_skip(const char **fmt)
{
	int n = 0;
	while (isdigit((unsigned char)**fmt) && n < FIELD_WIDTH_MAX / 10)
		n = n * 10 + *(*fmt)++ - '0';
	return n;
}

/* Flags, width, precision and qualifier of the conversion after '%'; Return: the
 * qualifier ('H' is hh, 'L' is ll). */
static char decode(const char **fmt, struct spec *s, va_list *ap)
{
	char q = 0;

	*s = NO_SPEC;
	for (;; (*fmt)++) {
		int f = **fmt == '-' ? LEFT : **fmt == '+' ? PLUS : **fmt == ' ' ? SPACE
			: **fmt == '#' ? SPECIAL : **fmt == '0' ? ZEROPAD : 0;
		if (!f)
			break;
		s->flags |= f;
	}
	if (isdigit((unsigned char)**fmt)) {
		s->width = atoi_skip(fmt);
	} else if (**fmt == '*') {
		(*fmt)++;
		int w = va_arg(*ap, int);
		if (w < 0) {
			s->flags |= LEFT;
			w = w == INT32_MIN ? FIELD_WIDTH_MAX : -w;
		}
		s->width = w > FIELD_WIDTH_MAX ? FIELD_WIDTH_MAX : w;
	}
	if (**fmt == '.') {
		(*fmt)++;
		if (isdigit((unsigned char)**fmt)) {
			s->precision = atoi_skip(fmt);
		} else if (**fmt == '*') {
			(*fmt)++;
			int p = va_arg(*ap, int);
			s->precision = p < 0 ? 0 : p > PRECISION_MAX ? PRECISION_MAX : p;
		}
	}
	if (**fmt == 'h' || **fmt == 'l' || **fmt == 'L' || **fmt == 'z' || **fmt == 't') {
		q = *(*fmt)++;
		if ((q == 'h' || q == 'l') && **fmt == q) {
			q = q == 'h' ? 'H' : 'L';
			(*fmt)++;
		}
	}
	return q;
}

/* The integer argument for qualifier @q, sign-extended when the conversion is signed. */
static unsigned long long integer(va_list *ap, char q, bool sign)
{
	switch (q) {
	case 'L':
		return sign ? (unsigned long long)va_arg(*ap, long long)
			    : va_arg(*ap, unsigned long long);
	case 'l':
		return sign ? (unsigned long long)va_arg(*ap, long) : va_arg(*ap, unsigned long);
	case 'z':
		return sign ? (unsigned long long)(long long)va_arg(*ap, ssize_t)
			    : va_arg(*ap, size_t);
	case 't':
		return (unsigned long long)va_arg(*ap, ptrdiff_t);
	case 'H':
		return sign ? (unsigned long long)(signed char)va_arg(*ap, int)
			    : (unsigned char)va_arg(*ap, int);
	case 'h':
		return sign ? (unsigned long long)(short)va_arg(*ap, int)
			    : (unsigned short)va_arg(*ap, int);
	default:
		return sign ? (unsigned long long)va_arg(*ap, int) : va_arg(*ap, unsigned int);
	}
}

/* The kernel's WARN_ONCE for a conversion it does not have; the sandbox warns at each
 * call that writes (a pass that only measures the text stays quiet). */
static void unsupported(const struct out *o, char c)
{
	if (o->size)
		kobj_trace(kobj_world_current(), KOBJ_LOGLEVEL_WARNING, 0, 0,
			   "Please remove unsupported %%%c in format string", c ? c : ' ');
}

/* One conversion at *@fmt (just after '%'); Return: false to stop (unsupported). */
static bool convert(struct out *o, const char **fmt, va_list *ap)
{
	struct spec s;
	char q = decode(fmt, &s, ap);
	char c = *(*fmt)++;

	switch (c) {
	case 'c':
		if (!(s.flags & LEFT))
			pad(o, ' ', s.width - 1);
		put(o, (char)(unsigned char)va_arg(*ap, int));
		if (s.flags & LEFT)
			pad(o, ' ', s.width - 1);
		return true;
	case 's': {
		const char *str = va_arg(*ap, const char *);
		if (!bad_pointer(o, str, s))
			text(o, str, s);
		return true;
	}
	case 'p':
		pointer(o, *fmt, va_arg(*ap, const void *), s);
		while (isalnum((unsigned char)**fmt))
			(*fmt)++;
		return true;
	case '%':
		put(o, '%');
		return true;
	case 'o': case 'x': case 'X': case 'd': case 'i': case 'u':
		s.base = c == 'o' ? 8 : c == 'x' || c == 'X' ? 16 : 10;
		s.flags |= (c == 'x' ? SMALL : 0) | (c == 'd' || c == 'i' ? SIGN : 0);
		number(o, integer(ap, q, s.flags & SIGN), s);
		return true;
	default:
		unsupported(o, c);
		return false;
	}
}

static int format(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		if (!convert(&o, &fmt, &args))
			break;
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}

/* ================================================================== the entry points */

int kobj_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	if (size > INT32_MAX) /* the kernel's WARN_ON_ONCE: nothing is written */
		return 0;
	return format(buf, size, fmt ? fmt : "", args);
}

int kobj_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kobj_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int kobj_vsprintf(char *buf, const char *fmt, va_list args)
{
	return kobj_vsnprintf(buf, INT32_MAX, fmt, args);
}

int kobj_sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kobj_vsprintf(buf, fmt, ap);
	va_end(ap);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int n = kobj_vsnprintf(buf, size, fmt, args);
	if ((size_t)n < size)
		return n;
	return size ? (int)size - 1 : 0;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

char *kvasprintf(gfp_t gfp, const char *fmt, va_list args)
{
	va_list again;
	va_copy(again, args);
	int n = kobj_vsnprintf(NULL, 0, fmt, args);
	char *p = kmalloc((size_t)n + 1, gfp);
	if (p)
		kobj_vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = kvasprintf(gfp, fmt, ap);
	va_end(ap);
	return p;
}
