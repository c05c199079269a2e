/*
 * `kobj lesson verify DIR`: grade a class. Every (student, lesson) pair runs in a child
 * process of its own, in the sandbox, with the instruction budget, the memory cap, a
 * time limit and no file writes, so one student's crash or endless loop cannot stop the
 * others or touch the teacher's files. Results go to a table on standard output, to
 * OUTDIR/results.tap (TAP 13) and to OUTDIR/results.xml (JUnit).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

#define OUTPUT_KEPT 16384

enum outcome { MISSING, PASS, FAIL, ERROR, TIMEOUT, CRASH };

static const char *const cell[] = { "-", "ok", "FAIL", "ERR", "TIME", "CRASH" };

struct result {
	enum outcome outcome;
	int passed, failed;
	double seconds;
	char message[256];
	char *output;   /* what the run printed (bounded) */
};

/* The child: run the check and say how it went on its last line. */
static void child(lua_State *L, const struct lesson *l, const char *file, int fd,
		  unsigned seconds)
{
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	signal(SIGALRM, SIG_DFL);
	alarm(seconds);
	kobj_lua_allow_files(L, 0);
	struct verdict v = lesson_check(L, l, file);
	printf("\n@@verdict %d %d %d\n", v.passed, v.failed, v.lua_error);
	fflush(stdout);
	_exit(0);
}

static char *read_bounded(int fd)
{
	char *out = calloc(1, OUTPUT_KEPT + 1), buf[4096];
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		/* keep the end: the verdict is the last line */
		if (len + (size_t)n > OUTPUT_KEPT) {
			size_t drop = len + (size_t)n - OUTPUT_KEPT;
			if (drop > len)
				drop = len;
			memmove(out, out + drop, len - drop);
			len -= drop;
		}
		size_t take = (size_t)n > OUTPUT_KEPT ? OUTPUT_KEPT : (size_t)n;
		memcpy(out + len, buf + (size_t)n - take, take);
		len += take;
	}
	out[len] = '\0';
	return out;
}

static void grade(lua_State *L, const struct lesson *l, const char *file, unsigned seconds,
		  struct result *r)
{
	int fds[2], status;
	struct timespec t0, t1;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) != 0) {
		r->outcome = ERROR;
		snprintf(r->message, sizeof(r->message), "pipe: %s", strerror(errno));
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(L, l, file, fds[1], seconds);
	}
	close(fds[1]);
	r->output = read_bounded(fds[0]);
	close(fds[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

	const char *v = strstr(r->output, "\n@@verdict ");
	for (const char *p = v; p; p = strstr(p + 1, "\n@@verdict "))
		v = p; /* the last one is the harness's */
	int lua_error = 1;
	if (pid < 0) {
		r->outcome = ERROR;
		snprintf(r->message, sizeof(r->message), "fork: %s", strerror(errno));
	} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		r->outcome = TIMEOUT;
		snprintf(r->message, sizeof(r->message), "stopped after %u s", seconds);
	} else if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !v ||
		   sscanf(v, "\n@@verdict %d %d %d", &r->passed, &r->failed, &lua_error) != 3) {
		r->outcome = CRASH;
		snprintf(r->message, sizeof(r->message), "the run crashed%s",
			 WIFSIGNALED(status) ? " (killed by a signal)" : "");
	} else if (lua_error) {
		r->outcome = ERROR;
		snprintf(r->message, sizeof(r->message), "%s",
			 strstr(r->output, "instruction budget exhausted")
				 ? "stopped by the instruction budget (an endless loop?)"
			 : strstr(r->output, "memory limit reached")
				 ? "stopped by the memory limit"
				 : "a Lua error stopped the run");
	} else {
		r->outcome = r->failed == 0 && r->passed > 0 ? PASS : FAIL;
		snprintf(r->message, sizeof(r->message), "%d of %d checks pass", r->passed,
			 r->passed + r->failed);
	}
	if (v && r->outcome != CRASH && r->outcome != TIMEOUT)
		*(char *)v = '\0'; /* the verdict line is ours, not the student's output */
}

/* ============================================================================ reports */

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

struct class {
	char names[256][128];
	int count;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int list_students(const char *dir, struct class *k)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4400];
	struct stat st;

	if (!d)
		return -1;
	k->count = 0;
	while ((e = readdir(d)) && k->count < 256) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
		    strlen(e->d_name) >= sizeof(k->names[0]))
			continue;
		memcpy(k->names[k->count++], e->d_name, strlen(e->d_name) + 1);
	}
	closedir(d);
	qsort(k->names, (size_t)k->count, sizeof(k->names[0]), by_name);
	return 0;
}

static void write_tap(FILE *f, const struct course *c, const struct class *k,
		      struct result *r)
{
	int n = 0;
	fprintf(f, "TAP version 13\n1..%d\n", k->count * c->count);
	for (int s = 0; s < k->count; s++) {
		for (int i = 0; i < c->count; i++) {
			struct result *x = &r[s * c->count + i];
			n++;
			if (x->outcome == MISSING) {
				fprintf(f, "ok %d - %s %s # SKIP no solution\n", n, k->names[s],
					c->lessons[i].slug);
				continue;
			}
			fprintf(f, "%s %d - %s %s\n", x->outcome == PASS ? "ok" : "not ok", n,
				k->names[s], c->lessons[i].slug);
			if (x->outcome == PASS)
				continue;
			fprintf(f, "  ---\n  outcome: %s\n  message: \"%s\"\n  ...\n",
				cell[x->outcome], x->message);
		}
	}
}

static void write_junit(FILE *f, const struct course *c, const struct class *k,
			struct result *r)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kobj lessons\">\n", f);
	for (int s = 0; s < k->count; s++) {
		int fails = 0, errors = 0, skipped = 0;
		for (int i = 0; i < c->count; i++) {
			enum outcome o = r[s * c->count + i].outcome;
			fails += o == FAIL;
			errors += o == ERROR || o == TIMEOUT || o == CRASH;
			skipped += o == MISSING;
		}
		fputs("  <testsuite name=\"", f);
		xml_escaped(f, k->names[s]);
		fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
			c->count, fails, errors, skipped);
		for (int i = 0; i < c->count; i++) {
			struct result *x = &r[s * c->count + i];
			fputs("    <testcase classname=\"", f);
			xml_escaped(f, k->names[s]);
			fprintf(f, "\" name=\"%s\" time=\"%.3f\"", c->lessons[i].slug, x->seconds);
			if (x->outcome == PASS) {
				fputs("/>\n", f);
				continue;
			}
			fputs(">\n", f);
			if (x->outcome == MISSING) {
				fputs("      <skipped message=\"no solution\"/>\n", f);
			} else {
				const char *tag = x->outcome == FAIL ? "failure" : "error";
				fprintf(f, "      <%s message=\"", tag);
				xml_escaped(f, x->message);
				fputs("\">", f);
				xml_escaped(f, x->output ? x->output : "");
				fprintf(f, "</%s>\n", tag);
			}
			fputs("    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

static void write_table(const struct course *c, const struct class *k, struct result *r)
{
	printf("%-16s", "student");
	for (int i = 0; i < c->count; i++)
		printf(" %5d", c->lessons[i].number);
	printf("   passed\n");
	for (int s = 0; s < k->count; s++) {
		int passed = 0;
		printf("%-16.16s", k->names[s]);
		for (int i = 0; i < c->count; i++) {
			enum outcome o = r[s * c->count + i].outcome;
			passed += o == PASS;
			printf(" %5s", cell[o]);
		}
		printf("   %d/%d\n", passed, c->count);
	}
	printf("\n- no solution, ok all checks pass, FAIL some checks fail, ERR a Lua error,\n"
	       "TIME stopped by the time limit, CRASH the run died.\n");
}

static int write_file(const char *dir, const char *name, const struct course *c,
		      const struct class *k, struct result *r,
		      void (*fn)(FILE *, const struct course *, const struct class *,
				 struct result *))
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		char msg[4400];
		snprintf(msg, sizeof(msg), "%s: %s", path, strerror(errno));
		kobj_message(KOBJ_PROGNAME, msg);
		return -1;
	}
	fn(f, c, k, r);
	fclose(f);
	printf("wrote %s\n", path);
	return 0;
}

int lesson_verify(lua_State *L, const struct course *c, int argc, char **argv)
{
	const char *dir = NULL, *out = ".";
	unsigned seconds = 10;
	struct class *k = calloc(1, sizeof(*k));
	int status = KOBJ_EXIT_USAGE;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
			seconds = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!dir && argv[i][0] != '-')
			dir = argv[i];
		else
			dir = NULL, argc = 0;
	}
	if (!dir || seconds == 0) {
		kobj_message(KOBJ_PROGNAME, "usage: kobj lesson verify DIR [--out OUTDIR] "
			     "[--time SECONDS]");
		free(k);
		return KOBJ_EXIT_USAGE;
	}
	if (list_students(dir, k) != 0) {
		char msg[4400];
		snprintf(msg, sizeof(msg), "%s: %s", dir, strerror(errno));
		kobj_message(KOBJ_PROGNAME, msg);
		free(k);
		return KOBJ_EXIT_USAGE;
	}
	struct result *r = calloc((size_t)(k->count * c->count) + 1, sizeof(*r));
	for (int s = 0; s < k->count; s++) {
		for (int i = 0; i < c->count; i++) {
			char file[4400];
			snprintf(file, sizeof(file), "%s/%s/%s.lua", dir, k->names[s],
				 c->lessons[i].slug);
			if (access(file, R_OK) == 0)
				grade(L, &c->lessons[i], file, seconds, &r[s * c->count + i]);
		}
	}
	write_table(c, k, r);
	if (write_file(out, "results.tap", c, k, r, write_tap) == 0 &&
	    write_file(out, "results.xml", c, k, r, write_junit) == 0)
		status = KOBJ_EXIT_OK;
	for (int i = 0; i < k->count * c->count; i++)
		free(r[i].output);
	free(r);
	free(k);
	return status;
}
