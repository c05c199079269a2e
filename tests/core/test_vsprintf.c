/*
 * The kernel's printf (core/model/vsprintf.c): where it differs from the C library's,
 * the %p extensions, sizes and truncation, and printk()'s levels and continuations.
 * Expected texts are what lib/vsprintf.c of Linux 6.1 prints.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/core/fixture.h"
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/printk.h>

static char buf[256];

/* kobj_snprintf() into buf, then the text must be @want. */
#define PRINTS(want, ...)                                                                \
	do {                                                                             \
		int n_ = kobj_snprintf(buf, sizeof(buf), __VA_ARGS__);                   \
		assert_string_equal(buf, want);                                          \
		assert_int_equal(n_, strlen(want));                                      \
	} while (0)

static void numbers(void **state)
{
	PRINTS("42|   42|42   |00042|+42| 42|-42", "%d|%5d|%-5d|%05d|%+d|% d|%i", 42, 42, 42,
	       42, 42, 42, -42);
	/* where the C library differs: "%#x" of 0 is "0x0", a precision never hides 0 */
	PRINTS("0x0 0X0 0 0", "%#x %#X %#o %.0d", 0, 0, 0, 0);
	PRINTS("0x1f 0X1F 017 1f", "%#x %#X %#o %x", 31, 31, 15, 31);
	PRINTS("005|     005|-005", "%.3d|%8.3d|%.3d", 5, 5, -5);
	PRINTS("-07|44|-56|65535|-1", "%03d|%hhd|%hhd|%hu|%hd", -7, 300, 200, 65535, 65535);
	PRINTS("-5 18446744073709551615 -9 7 -3", "%lld %llu %ld %zu %td", -5LL,
	       18446744073709551615ULL, -9L, (size_t)7, (ptrdiff_t)-3);
	PRINTS("|  x|x  |%", "|%3c|%-3c|%%", 'x', 'x');
	int w = -4;
	PRINTS("[ab  ][   7]", "[%*s][%*d]", w, "ab", 4, 7);
}

static void strings(void **state)
{
	/* volatile: the compiler may not see through them and warn at -O2 */
	const char *volatile none = NULL, *low = (const char *)16, *err = ERR_PTR(-EIO);

	PRINTS("abc|ab|  abc|abc  ", "%s|%.2s|%5s|%-5s", "abc", "abc", "abc", "abc");
	/* what no kernel code may read prints as what it is */
	PRINTS("(null)|(efault)|(efault)|    (null)", "%s|%s|%s|%10s", none, low, err, none);
}

static void truncation(void **state)
{
	char small[5] = "zzzz";

	assert_int_equal(kobj_snprintf(small, sizeof(small), "%s", "abcdefgh"), 8);
	assert_string_equal(small, "abcd");
	assert_int_equal(kobj_snprintf(small, 0, "%d", 12345), 5);
	assert_string_equal(small, "abcd"); /* nothing written for size 0 */
	assert_int_equal(scnprintf(small, sizeof(small), "%s", "abcdefgh"), 4);
	assert_int_equal(scnprintf(small, 0, "%s", "abc"), 0);
	/* <linux/kernel.h> makes snprintf() the kernel's */
	phys_addr_t a = 0xfeed;
	assert_int_equal(snprintf(buf, sizeof(buf), "%pa", &a), 18);
	assert_string_equal(buf, "0x000000000000feed");
}

static void kasprintf_allocates_as_the_kernel(void **state)
{
	char *s = kasprintf(GFP_KERNEL, "%s-%d", "map", 3);

	assert_string_equal(s, "map-3");
	kfree(s);
	kobj_world_fail_alloc(*state, 1);
	assert_null(kasprintf(GFP_KERNEL, "%s", "x"));
	assert_int_equal(kobj_leak_count(*state), 0);
}

/* %p hashes: an object's pointer as the debug lines print it, NULL raw. */
static void hashed_pointers(void **state)
{
	struct my_object *o = new_object("hashed");
	char p[17], again[32];
	int local = 0, other = 0;

	kobject_init(&o->kobj, &my_ktype);
	const struct kobj_record *r = kobj_record_of(*state, &o->kobj);
	PRINTS(kobj_fake_pointer(r->id, p), "%p", (void *)&o->kobj);
	PRINTS(kobj_fake_pointer(r->id, p), "%pK", (void *)&o->kobj);
	PRINTS("0000000000000000", "%p", (void *)NULL);
	PRINTS("fffffffffffffff4", "%p", ERR_PTR(-ENOMEM));
	kobj_snprintf(again, sizeof(again), "%p", (void *)&local);
	PRINTS(again, "%p", (void *)&local);
	assert_memory_equal(again, "00000000", 8);
	kobj_snprintf(buf, sizeof(buf), "%p", (void *)&other);
	assert_string_not_equal(buf, again);
	/* %px: a stable stand-in for the address, with the digits %p hashes to */
	kobj_snprintf(buf, sizeof(buf), "%px", (void *)&local);
	assert_memory_equal(buf, "ffff8880", 8);
	assert_string_equal(buf + 8, again + 8);
	kobject_put(&o->kobj);
}

static int some_function(int x)
{
	return x + 1;
}

/* %pS and %ps name what is at an address from the program's symbol table. */
static void symbols(void **state)
{
	char want[64];
	void *fn = (void *)(uintptr_t)some_function;

	assert_int_equal(some_function(1), 2);
	kobj_snprintf(buf, sizeof(buf), "%pS", fn);
	assert_memory_equal(buf, "some_function+0x0/0x", 20);
	assert_null(strchr(buf, '[')); /* no module's file: no [module] */
	PRINTS("some_function", "%ps", fn);
	kobj_snprintf(buf, sizeof(buf), "%pS", (char *)fn + 1);
	assert_memory_equal(buf, "some_function+0x1/0x", 20);
	/* a return address: the call before it, and the offset as it was */
	kobj_snprintf(buf, sizeof(buf), "%pB", (char *)fn + 1);
	assert_memory_equal(buf, "some_function+0x1/0x", 20);
	snprintf(want, sizeof(want), "%s", buf);
	assert_non_null(strchr(want, '/'));
	/* nothing there: the address (a stand-in, as for %px) */
	kobj_snprintf(buf, sizeof(buf), "%pS", (void *)64);
	assert_memory_equal(buf, "0xffff8880", 10);
}

static void pointer_extensions(void **state)
{
	static const unsigned char bytes[70] = { 0x01, 0xab, 0x7f, 0x00, 0x10, 0x20 };
	static const unsigned char ip[4] = { 10, 0, 0, 1 };
	phys_addr_t phys = 0x1000;
	dma_addr_t dma = 0xdeadbeef;

	PRINTS("0x0000000000001000 0x00000000deadbeef", "%pa %pad", &phys, &dma);
	PRINTS("-EINVAL -EPROBE_DEFER -4000 (null)", "%pe %pe %pe %pa", ERR_PTR(-EINVAL),
	       ERR_PTR(-EPROBE_DEFER), ERR_PTR(-4000), (void *)NULL);
	PRINTS("01 01 ab 7f 01:ab 01-ab 01ab||", "%ph %*ph %*phC %*phD %*phN|%*ph|", bytes, 3,
	       bytes, 2, bytes, 2, bytes, 2, bytes, 0, bytes);
	kobj_snprintf(buf, sizeof(buf), "%*ph", 70, bytes);
	assert_int_equal(strlen(buf), 64 * 3 - 1); /* 64 bytes at most */
	PRINTS("10.0.0.1 1.0.0.10 010.000.000.001", "%pI4 %pI4h %pi4", ip, ip, ip);
	PRINTS("01:ab:7f:00:10:20 01ab7f001020 20:10:00:7f:ab:01", "%pM %pm %pMR", bytes, bytes,
	       bytes);
	PRINTS("xy(einval)", "%pks%pus%pkx", "x", "y", "z"); /* only 'ks' and 'us' read */
	/* every letter after %p belongs to it, known or not */
	PRINTS("0000000000000000!", "%pzzz!", (void *)NULL);
}

static void nested(const char *want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void nested(const char *want, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	PRINTS(want, "<%pV>", &vaf);
	va_end(args);
}

static void va_format(void **state)
{
	nested("<3 maps, 0x10>", "%d maps, %#x", 3, 16);
}

/* A conversion the kernel has not got: the output stops there, with the kernel's warning. */
static void unsupported_conversions_stop(void **state)
{
	int n = 0;
	size_t t = kobj_trace_count(*state);

	PRINTS("a=", "a=%f b=%d", 1.5, 2);
	PRINTS("b=", "b=%n c", &n);
	assert_int_equal(kobj_trace_count(*state) - t, 2);
	assert_string_equal(kobj_trace_at(*state, t)->text,
			    "Please remove unsupported %f in format string");
	assert_string_equal(kobj_trace_at(*state, t + 1)->text,
			    "Please remove unsupported %n in format string");
	assert_int_equal(n, 0); /* %n wrote nothing */
}

static void printk_levels_and_continuations(void **state)
{
	size_t t = kobj_trace_count(*state);

	printk(KERN_ERR "bad %d\n", 1);
	printk("plain\n");
	pr_info("a");
	pr_cont("b%s", "c");
	pr_cont("d\n");
	pr_cont("e\n");
	pr_debug("hidden\n");
	for (int i = 0; i < 2; i++)
		pr_warn_once("once\n");
	assert_int_equal(kobj_trace_count(*state) - t, 5);
	const struct kobj_trace *l = kobj_trace_at(*state, t);
	assert_int_equal(l[0].level, KOBJ_LOGLEVEL_ERR);
	assert_string_equal(l[0].text, "bad 1\n");
	assert_int_equal(l[1].level, KOBJ_LOGLEVEL_WARNING); /* the default level */
	assert_string_equal(l[2].text, "abcd\n");
	assert_int_equal(l[2].level, KOBJ_LOGLEVEL_INFO);
	assert_string_equal(l[3].text, "e\n"); /* after a newline: a line of its own */
	assert_string_equal(l[4].text, "once\n");
	kobj_world_set_debug(*state, KOBJ_DEBUG_KOBJECT);
	pr_debug("shown %s\n", "now");
	assert_string_equal(kobj_trace_at(*state, t + 5)->text, "shown now\n");
	assert_int_equal(kobj_trace_at(*state, t + 5)->level, KOBJ_LOGLEVEL_DEBUG);
}

static void error_names(void **state)
{
	assert_string_equal(errname(-ENOMEM), "-ENOMEM");
	assert_string_equal(errname(EAGAIN), "EAGAIN"); /* not EWOULDBLOCK */
	assert_string_equal(errname(-EDEADLOCK), "-EDEADLK");
	assert_string_equal(errname(-ENOTSUPP), "-ENOTSUPP");
	assert_null(errname(-520));
	assert_null(errname(0));
	assert_null(errname(-4095));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(numbers),
		TEST(strings),
		TEST(truncation),
		TEST(kasprintf_allocates_as_the_kernel),
		TEST(hashed_pointers),
		TEST(symbols),
		TEST(pointer_extensions),
		TEST(va_format),
		TEST(unsupported_conversions_stop),
		TEST(printk_levels_and_continuations),
		TEST(error_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
