/*
 * The sandbox's side of a module run: loads the module (kobj_module_init), does the
 * user-space steps, unloads it (kobj_module_exit) and prints what the world saw in the
 * format rkguest prints inside the real kernel (guest.c), so one reader (fields.lua)
 * turns both into the same fields.
 *
 * Usage: NAME [write /sys/PATH TEXT | read /sys/PATH]...   (linked with the module)
 *
 * This is the one file that reads the world for the comparison: kernel log lines and
 * diagnostics (kobj_trace_*, kobj_diag_*), uevents (kobj_hotplug_*) and sysfs
 * (sysfs_list, sysfs_read, sysfs_write). The world runs with KOBJ_DEBUG_KOBJECT, as the
 * guest boots with lib/kobject.c's pr_debug lines on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/module.h>

#include "core/report/report.h"

/* A diagnostic is a WARN or pr_err in the kernel: warning level for all of them. */
#define DIAG_LEVEL 4

static void print_escaped(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\\')
			fputs("\\\\", stdout);
		else if (c < 0x20 || c > 0x7e)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static void print_file(struct kobj_world *w, const char *path, const struct sysfs_dirent *d,
		       int values)
{
	char buf[PAGE_SIZE];
	ssize_t n;

	printf("f %04o %s", sysfs_dirent_mode(d), path + 4);
	if (!values) {
		putchar('\n');
		return;
	}
	n = sysfs_read(w, path, buf, sizeof(buf));
	if (n < 0) {
		printf(" ! %zd\n", n);
		return;
	}
	putchar(' ');
	print_escaped(buf, (size_t)n);
	putchar('\n');
}

/* @d at @path, and all below it. @d comes from its directory's listing: a lookup by
 * path would go through a link to its target. */
static void dump(struct kobj_world *w, const char *path, const struct sysfs_dirent *d,
		 int values)
{
	const struct sysfs_dirent **kids = NULL;
	char target[4096];

	switch (sysfs_dirent_type(d)) {
	case SYSFS_LINK: {
		const struct sysfs_dirent *t = sysfs_dirent_link_target(w, d);
		if (t)
			sysfs_dirent_path(t, target, sizeof(target));
		printf("l %s -> %s\n", path + 4, t ? target + 4 : "(gone)");
		return;
	}
	case SYSFS_FILE:
		print_file(w, path, d, values);
		return;
	case SYSFS_DIR:
		break;
	}
	printf("d %s\n", path + 4);
	long n = sysfs_list(w, path, &kids);
	for (long i = 0; i < n; i++) {
		char child[4096];
		snprintf(child, sizeof(child), "%s/%s", path, sysfs_dirent_name(kids[i]));
		dump(w, child, kids[i], values);
	}
	free(kids);
}

/* The names in a directory, as a malloc'd NULL-terminated array of copies. */
static char **names_in(struct kobj_world *w, const char *dir)
{
	const struct sysfs_dirent **kids = NULL;
	long n = sysfs_list(w, dir, &kids);
	char **names = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*names));

	for (long i = 0; i < n; i++)
		names[i] = strdup(sysfs_dirent_name(kids[i]));
	free(kids);
	return names;
}

static int listed(char **names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return 1;
	return 0;
}

static void free_names(char **names)
{
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

/* Where modules make their directories, as guest.c watches them. */
static const char *const watched[] = {
	"/sys", "/sys/kernel", "/sys/kernel/mm", "/sys/fs", "/sys/firmware", "/sys/power",
};
#define NWATCHED (sizeof(watched) / sizeof(watched[0]))

static void dump_new(struct kobj_world *w, char **before[NWATCHED], int values)
{
	for (size_t i = 0; i < NWATCHED; i++) {
		const struct sysfs_dirent **now = NULL;
		long n = sysfs_list(w, watched[i], &now);
		for (long j = 0; j < n; j++) {
			char path[4096];
			if (listed(before[i], sysfs_dirent_name(now[j])))
				continue;
			snprintf(path, sizeof(path), "%s/%s", watched[i], sysfs_dirent_name(now[j]));
			dump(w, path, now[j], values);
		}
		free(now);
	}
}

/* "\n" in a step's text is a newline, "\\" a backslash, as the case file writes them. */
static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == '\\' && (s[1] == 'n' || s[1] == '\\'))
			*o++ = *++s == 'n' ? '\n' : '\\';
		else
			*o++ = *s;
	}
	*o = '\0';
	return out;
}

static int user_steps(struct kobj_world *w, int argc, char **argv)
{
	for (int i = 2; i < argc;) {
		if (!strcmp(argv[i], "write") && i + 2 < argc) {
			char *text = unescape(argv[i + 2]);
			ssize_t n = sysfs_write(w, argv[i + 1], text, strlen(text));
			printf("write %s ", argv[i + 1] + 4);
			print_escaped(text, strlen(text));
			printf(" = %zd\n", n);
			free(text);
			i += 3;
		} else if (!strcmp(argv[i], "read") && i + 1 < argc) {
			const struct sysfs_dirent *d = sysfs_lookup(w, argv[i + 1]);
			printf("read ");
			if (d)
				print_file(w, argv[i + 1], d, 1);
			else
				printf("f ---- %s ! %d\n", argv[i + 1] + 4, -ENOENT);
			i += 2;
		} else {
			fprintf(stderr, "unknown step '%s'\n", argv[i]);
			return 2;
		}
	}
	return 0;
}

static void print_uevents(struct kobj_world *w, size_t from)
{
	for (size_t i = from; i < kobj_hotplug_count(w); i++) {
		const struct kobj_hotplug_event *ev = kobj_hotplug_at(w, i);
		for (int j = 0; j < ev->envc; j++)
			printf("%s%s", j ? "\t" : "", ev->envp[j]);
		putchar('\n');
	}
}

static void print_lines(int level, const char *text)
{
	const char *end;

	do {
		end = strchr(text, '\n');
		size_t n = end ? (size_t)(end - text) : strlen(text);
		printf("%d ", level);
		print_escaped(text, n);
		putchar('\n');
		text = end ? end + 1 : NULL;
	} while (text && *text);
}

/* Log lines and diagnostics in the order they happened: a line written after k events
 * (seq k) comes before the diagnostic that is event k + 1. */
static void print_kmsg(struct kobj_world *w, size_t trace, size_t diag)
{
	while (trace < kobj_trace_count(w) || diag < kobj_diag_count(w)) {
		const struct kobj_trace *t = kobj_trace_at(w, trace);
		const struct kobj_diag *d = kobj_diag_at(w, diag);
		if (t && (!d || t->seq < d->seq)) {
			print_lines((int)t->level, t->text);
			trace++;
		} else {
			print_lines(DIAG_LEVEL, d->message);
			diag++;
		}
	}
}

/* For a person (compare.lua --side): each diagnostic with its explanation, and what
 * the module left behind. */
static void print_explanations(struct kobj_world *w, size_t diag)
{
	printf("@@ explain\n");
	for (size_t i = diag; i < kobj_diag_count(w); i++)
		kobj_diag_print(kobj_diag_at(w, i), stdout);
	printf("@@ leaks\n");
	if (kobj_leak_count(w))
		kobj_leak_report(w, stdout);
}

int main(int argc, char **argv)
{
	struct kobj_world *w = kobj_world_new();
	char **before[NWATCHED];
	int rc, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s NAME [write /sys/PATH TEXT | read /sys/PATH]...\n",
			argv[0]);
		return 2;
	}
	kobj_world_use(w);
	/* the kernel's own directories are there before any module, as in a booted kernel */
	(void)kernel_kobj;
	(void)mm_kobj;
	(void)fs_kobj;
	(void)firmware_kobj;
	(void)power_kobj;
	for (size_t i = 0; i < NWATCHED; i++)
		before[i] = names_in(w, watched[i]);
	kobj_world_set_debug(w, KOBJ_DEBUG_KOBJECT);
	size_t trace = kobj_trace_count(w), diag = kobj_diag_count(w);
	size_t uevents = kobj_hotplug_count(w);

	printf("@@ case %s\n", argv[1]);
	rc = kobj_module_init();
	printf("@@ insmod %d\n", rc);
	if (rc == 0) {
		printf("@@ sysfs\n");
		dump_new(w, before, 1);
		printf("@@ user\n");
		status = user_steps(w, argc, argv);
		kobj_module_exit();
		printf("@@ rmmod 0\n");
	}
	printf("@@ after\n");
	dump_new(w, before, 0);
	printf("@@ uevents\n");
	print_uevents(w, uevents);
	printf("@@ kmsg\n");
	print_kmsg(w, trace, diag);
	print_explanations(w, diag);
	printf("@@ end\n");
	for (size_t i = 0; i < NWATCHED; i++)
		free_names(before[i]);
	kobj_world_use(NULL);
	kobj_world_free(w);
	return status;
}
