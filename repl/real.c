/*
 * kobj real FILE.c and kobj lesson real N [FILE.c]: kernel C run in Linux 6.1 under
 * QEMU and in the sandbox, the kernel's dmesg beside the sandbox's words. The work is
 * done by tools/realkernel (found in Bazel's runfiles or through $KOBJ_REALKERNEL),
 * which says what to install when QEMU or the kernel packages are missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/kobj.h"

/* The lessons on today's API, whose exercise has a C twin in the real kernel's tests. */
#define FIRST_C_LESSON 14
#define LAST_C_LESSON 18

static int real_usage(void)
{
	fprintf(stderr,
		"usage: %s real FILE.c             a module in Linux 6.1 (QEMU) and in the sandbox\n"
		"       %s lesson real N [FILE.c]  lesson N's exercise in C, or your FILE.c\n"
		"                                  (lessons %d-%d: today's API)\n",
		KOBJ_PROGNAME, KOBJ_PROGNAME, FIRST_C_LESSON, LAST_C_LESSON);
	return KOBJ_EXIT_USAGE;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The runfiles root: kobj's own (Bazel), or $RUNFILES_DIR. */
static int runfiles(char *out, size_t size)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		if ((size_t)snprintf(out, size, "%s.runfiles", exe) < size && access(out, F_OK) == 0)
			return 1;
	}
	if (getenv("RUNFILES_DIR")) {
		snprintf(out, size, "%s", getenv("RUNFILES_DIR"));
		return 1;
	}
	return 0;
}

static int find_tool(char *out, size_t size)
{
	char root[4096];
	const char *env = getenv("KOBJ_REALKERNEL");

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return is_file(out);
	}
	if (!runfiles(root, sizeof(root)))
		return 0;
	return (size_t)snprintf(out, size, "%s/kobject_sandbox/tools/realkernel/realkernel",
				root) < size && is_file(out);
}

/* Lesson @n's exercise as C, from the runfiles; 0 if it has none. */
static int lesson_twin(const char *n, char *out, size_t size)
{
	char root[4096], *end;
	long num = strtol(n, &end, 10);

	if (*n == '\0' || *end || num < FIRST_C_LESSON || num > LAST_C_LESSON)
		return 0;
	if (!runfiles(root, sizeof(root)))
		return 0;
	return (size_t)snprintf(out, size, "%s/kobject_sandbox/tests/realkernel/cases/lesson%ld_bug.c",
				root, num) < size && is_file(out);
}

static int run_tool(const char *file)
{
	char tool[4096];

	if (!is_file(file)) {
		fprintf(stderr, "%s: real: cannot read '%s'\n", KOBJ_PROGNAME, file);
		return KOBJ_EXIT_USAGE;
	}
	if (!find_tool(tool, sizeof(tool))) {
		fprintf(stderr, "%s: real: cannot find tools/realkernel; run kobj from Bazel "
			"(bazel run //repl -- real FILE.c) or set KOBJ_REALKERNEL\n", KOBJ_PROGNAME);
		return KOBJ_EXIT_USAGE;
	}
	fflush(stdout);
	execl(tool, tool, "--side", file, (char *)NULL);
	fprintf(stderr, "%s: real: cannot run %s: %s\n", KOBJ_PROGNAME, tool, strerror(errno));
	return KOBJ_EXIT_USAGE;
}

int real_main(int argc, char **argv)
{
	char twin[4096];

	if (strcmp(argv[0], "real") == 0)
		return argc == 2 ? run_tool(argv[1]) : real_usage();
	/* lesson real N [FILE.c] */
	if (argc == 4)
		return run_tool(argv[3]);
	if (argc != 3)
		return real_usage();
	if (!lesson_twin(argv[2], twin, sizeof(twin))) {
		fprintf(stderr, "%s: lesson real: lesson '%s' has no C exercise; lessons %d-%d, on "
			"today's API, have one (Linux 6.1 has none of the article's 2.6.0 calls)\n",
			KOBJ_PROGNAME, argv[2], FIRST_C_LESSON, LAST_C_LESSON);
		return KOBJ_EXIT_USAGE;
	}
	return run_tool(twin);
}
