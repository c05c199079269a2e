/*
 * rkguest: runs one module inside the QEMU guest and prints what it did, in the format
 * the host's fields.lua reads (the sandbox's host.c prints the same for its side):
 *
 *   @@ case NAME          @@ insmod RC        @@ sysfs ...     @@ user ...
 *   @@ rmmod RC           @@ after ...        @@ uevents ...   @@ kmsg ...   @@ end
 *
 * Usage: rkguest run NAME MODULE.ko [write /sys/PATH TEXT | read /sys/PATH]...
 *
 * Uevents come from a NETLINK_KOBJECT_UEVENT socket opened before the module is
 * loaded and drained after it is removed; kernel log lines from /dev/kmsg, read from
 * the end as it was before the load. The sysfs subtrees are the entries of the
 * directories in watched[] that were not there before the load. Built with gcc -static.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_NAMES 512

struct names {
	char *v[MAX_NAMES];
	int n;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of @dir, sorted as strcmp orders them (the sandbox's order). */
static void list_dir(const char *dir, struct names *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	out->n = 0;
	if (!d)
		return;
	while ((e = readdir(d)) && out->n < MAX_NAMES)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			out->v[out->n++] = strdup(e->d_name);
	closedir(d);
	qsort(out->v, (size_t)out->n, sizeof(out->v[0]), by_name);
}

static int has_name(const struct names *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return 1;
	return 0;
}

/* A value on one line: \n, \\ and bytes outside printable ASCII escaped. */
static void print_escaped(const char *s, ssize_t n)
{
	for (ssize_t i = 0; i < n; i++) {
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

static void print_file(const char *path, const struct stat *st, int values)
{
	char buf[4096];
	ssize_t n = -1;
	int fd;

	printf("f %04o %s", (unsigned)(st->st_mode & 07777), path + 4);
	if (!values) {
		putchar('\n');
		return;
	}
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0)
			n = -errno;
		close(fd);
	} else {
		n = -errno;
	}
	if (n < 0) {
		printf(" ! %zd\n", n);
		return;
	}
	putchar(' ');
	print_escaped(buf, n);
	putchar('\n');
}

/* One entry and, for a directory, all below it, in name order; paths without "/sys". */
static void dump(const char *path, int values)
{
	struct names kids;
	struct stat st;
	char target[4096];

	if (lstat(path, &st) < 0)
		return;
	if (S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);
		printf("l %s -> %s\n", path + 4, real && !strncmp(real, "/sys/", 5) ? real + 4
				: (readlink(path, target, sizeof(target) - 1) > 0 ? "(outside)" : "(gone)"));
		free(real);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		print_file(path, &st, values);
		return;
	}
	printf("d %s\n", path + 4);
	list_dir(path, &kids);
	for (int i = 0; i < kids.n; i++) {
		char child[4096];
		snprintf(child, sizeof(child), "%s/%s", path, kids.v[i]);
		dump(child, values);
		free(kids.v[i]);
	}
}

/* Where modules make their directories: the kernel's own top-level kobjects. */
static const char *const watched[] = {
	"/sys", "/sys/kernel", "/sys/kernel/mm", "/sys/fs", "/sys/firmware", "/sys/power",
};
#define NWATCHED (sizeof(watched) / sizeof(watched[0]))

/* What the module added to the watched directories since @before listed them. */
static void dump_new(const struct names before[NWATCHED], int values)
{
	for (size_t d = 0; d < NWATCHED; d++) {
		struct names now;
		list_dir(watched[d], &now);
		for (int i = 0; i < now.n; i++) {
			if (!has_name(&before[d], now.v[i])) {
				char path[4096];
				snprintf(path, sizeof(path), "%s/%s", watched[d], now.v[i]);
				dump(path, values);
			}
			free(now.v[i]);
		}
	}
}

static int open_uevents(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int size = 4 << 20;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("rkguest: uevent socket");
		exit(1);
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	return fd;
}

/* Each queued uevent on one line: its variables separated by tabs. */
static void drain_uevents(int fd)
{
	char buf[8192];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf) - 1, 0)) > 0) {
		buf[n] = '\0';
		for (ssize_t i = strlen(buf) + 1; i < n; i += strlen(buf + i) + 1)
			printf("%s%s", i > (ssize_t)strlen(buf) + 1 ? "\t" : "", buf + i);
		putchar('\n');
	}
}

/* Each /dev/kmsg record since the last read as "LEVEL TEXT" (continuation lines too). */
static void drain_kmsg(int fd)
{
	char rec[8192];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0) {
		char *text = memchr(rec, ';', (size_t)n);
		rec[n] = '\0';
		if (!text)
			continue;
		*text++ = '\0';
		char *end = strchr(text, '\n');
		if (end)
			*end = '\0';
		printf("%d ", atoi(rec) & 7);
		print_escaped(text, (ssize_t)strlen(text));
		putchar('\n');
	}
}

/* "\n" in a step's text is a newline and "\\" a backslash, as the case file writes them. */
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

/* A step of user space between insmod and rmmod; paths start with "/sys/". */
static void user_step(char **argv, int *i, int argc)
{
	if (!strcmp(argv[*i], "write") && *i + 2 < argc) {
		char *text = unescape(argv[*i + 2]);
		int fd = open(argv[*i + 1], O_WRONLY);
		ssize_t n = fd < 0 ? -errno : write(fd, text, strlen(text));
		if (n < 0 && fd >= 0)
			n = -errno;
		if (fd >= 0)
			close(fd);
		printf("write %s ", argv[*i + 1] + 4);
		print_escaped(text, (ssize_t)strlen(text));
		printf(" = %zd\n", n);
		free(text);
		*i += 3;
	} else if (!strcmp(argv[*i], "read") && *i + 1 < argc) {
		struct stat st;
		printf("read ");
		if (lstat(argv[*i + 1], &st) < 0)
			printf("f ---- %s ! %d\n", argv[*i + 1] + 4, -errno);
		else
			print_file(argv[*i + 1], &st, 1);
		*i += 2;
	} else {
		fprintf(stderr, "rkguest: unknown step '%s'\n", argv[*i]);
		exit(2);
	}
}

static int run(int argc, char **argv)
{
	struct names before[NWATCHED];
	int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	int uev = open_uevents();
	int ko = open(argv[3], O_RDONLY | O_CLOEXEC);
	long rc;

	if (kmsg < 0 || ko < 0) {
		perror("rkguest: /dev/kmsg or the module");
		return 1;
	}
	lseek(kmsg, 0, SEEK_END);
	for (size_t d = 0; d < NWATCHED; d++)
		list_dir(watched[d], &before[d]);
	printf("@@ case %s\n", argv[2]);
	rc = syscall(SYS_finit_module, ko, "dyndbg=+p", 0);
	printf("@@ insmod %ld\n", rc < 0 ? -(long)errno : rc);
	close(ko);
	if (rc == 0) {
		printf("@@ sysfs\n");
		dump_new(before, 1);
		printf("@@ user\n");
		for (int i = 4; i < argc;)
			user_step(argv, &i, argc);
		rc = syscall(SYS_delete_module, argv[2], O_NONBLOCK);
		printf("@@ rmmod %ld\n", rc < 0 ? -(long)errno : rc);
	}
	printf("@@ after\n");
	dump_new(before, 0);
	printf("@@ uevents\n");
	drain_uevents(uev);
	printf("@@ kmsg\n");
	drain_kmsg(kmsg);
	printf("@@ end\n");
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "run"))
		return run(argc, argv);
	fprintf(stderr, "usage: rkguest run NAME MODULE.ko [write PATH TEXT | read PATH]...\n");
	return 2;
}
