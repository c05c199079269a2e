/*
 * `kobj lesson verify DIR`: grade a class. Every (student, lesson) cell runs in a process
 * of its own (verify_cell.c), in the sandbox and under the operating system's limits, so
 * one student's crash, endless loop or hostile code cannot stop the others, touch the
 * teacher's files or reach its own verdict. Up to --jobs cells run at once; the parent
 * reads each one's output (kept up to a bound) and verdict as bytes, kills its process
 * group at the time limit, and measures its time and peak memory. The results do not
 * depend on the number of jobs. Everything in DIR that is not graded is listed, with why.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "repl/kobj.h"
#include "repl/lesson.h"
#include "repl/verify.h"

/* ======================================================================= the class */

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		kobj_message(KOBJ_PROGNAME, "out of memory");
		exit(KOBJ_EXIT_LUA);
	}
	return d;
}

static void *grow(void *array, int n, size_t elem)
{
	if (n & (n - 1))
		return array; /* room left: sizes are powers of two */
	void *p = realloc(array, (size_t)(n ? 2 * n : 1) * elem);
	if (!p) {
		kobj_message(KOBJ_PROGNAME, "out of memory");
		exit(KOBJ_EXIT_LUA);
	}
	return p;
}

/* "@dir/@name", malloc'd: paths are as long as the file system allows. */
static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *path = malloc(a + b + 2);

	if (!path) {
		kobj_message(KOBJ_PROGNAME, "out of memory");
		exit(KOBJ_EXIT_LUA);
	}
	memcpy(path, dir, a);
	path[a] = '/';
	memcpy(path + a + 1, name, b + 1);
	return path;
}

static void not_graded(struct class *k, const char *student, const char *name,
		       const char *reason)
{
	k->skipped = grow(k->skipped, k->nskipped, sizeof(*k->skipped));
	k->skipped[k->nskipped].path = student ? join(student, name) : xstrdup(name);
	k->skipped[k->nskipped++].reason = xstrdup(reason);
}

/* The edit distance of @a and @b, case-insensitive, capped at 9. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (la >= 64 || lb >= 64)
		return 9;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], d;
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			d = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			diag = row[j];
			if (row[j] + 1 < d)
				d = row[j] + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
		}
	}
	return row[lb] > 9 ? 9 : (int)row[lb];
}

/* Why @name is not a lesson file, with the lesson file it most likely meant. */
static void why_not(const struct course *c, const char *name, char *buf, size_t size)
{
	const struct lesson *best = NULL;
	int best_d = 4;
	char *end;
	long n = strtol(name, &end, 10);

	for (int i = 0; i < c->count; i++) {
		char file[160];
		snprintf(file, sizeof(file), "%s.lua", c->lessons[i].slug);
		int d = end != name && n == c->lessons[i].number ? 0 : distance(name, file);
		if (d < best_d) {
			best_d = d;
			best = &c->lessons[i];
		}
	}
	if (best)
		snprintf(buf, size, "not a lesson file: did you mean %s.lua?", best->slug);
	else
		snprintf(buf, size, "not a lesson file (lesson files are named like %s.lua)",
			 c->count ? c->lessons[0].slug : "01-name");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in @dir (without . and ..), or NULL with errno set. */
static char **names_in(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0;

	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		names = grow(names, n, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, (size_t)n, sizeof(*names), by_name);
	*count = n;
	return names ? names : calloc(1, sizeof(*names));
}

/* The index of the lesson whose file is named @name ("01-refcounts.lua"), or -1. */
static int lesson_of(const struct course *c, const char *name)
{
	for (int i = 0; i < c->count; i++) {
		size_t n = strlen(c->lessons[i].slug);
		if (strncmp(name, c->lessons[i].slug, n) == 0 && strcmp(name + n, ".lua") == 0)
			return i;
	}
	return -1;
}

/* The student's files: a cell per lesson, and the rest listed as not graded. */
static void list_files(const struct course *c, struct class *k, const char *dir, int s)
{
	char reason[256];
	int n = 0;
	char **names = names_in(dir, &n);
	struct stat st;

	for (int j = 0; j < n; j++) {
		int i = lesson_of(c, names[j]);
		char *path = join(dir, names[j]);
		if (i >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			k->cells[s * c->count + i].file = path;
			path = NULL;
		} else if (i >= 0) {
			not_graded(k, k->students[s], names[j], "not a regular file");
		} else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			not_graded(k, k->students[s], names[j], "a folder inside a student's folder");
		} else {
			why_not(c, names[j], reason, sizeof(reason));
			not_graded(k, k->students[s], names[j], reason);
		}
		free(path);
		free(names[j]);
	}
	free(names);
}

/* Return: 0, or -1 with errno set when @dir cannot be read. */
static int list_class(const struct course *c, const char *dir, struct class *k)
{
	int n = 0;
	char **names = names_in(dir, &n);
	struct stat st;

	if (!names)
		return -1;
	for (int j = 0; j < n; j++) {
		char *path = join(dir, names[j]);
		if (names[j][0] == '.')
			not_graded(k, NULL, names[j], "a hidden name");
		else if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
			not_graded(k, NULL, names[j], "not a student's folder (a file)");
		else {
			k->students = grow(k->students, k->nstudents, sizeof(*k->students));
			k->students[k->nstudents++] = xstrdup(names[j]);
		}
		free(path);
		free(names[j]);
	}
	free(names);
	k->cells = calloc((size_t)k->nstudents * (size_t)c->count + 1, sizeof(*k->cells));
	if (!k->cells) {
		kobj_message(KOBJ_PROGNAME, "out of memory");
		exit(KOBJ_EXIT_LUA);
	}
	for (int s = 0; s < k->nstudents; s++) {
		for (int i = 0; i < c->count; i++) {
			k->cells[s * c->count + i].student = s;
			k->cells[s * c->count + i].lesson = i;
		}
		char *path = join(dir, k->students[s]);
		list_files(c, k, path, s);
		free(path);
	}
	return 0;
}

/* ====================================================================== the cells */

struct running {
	struct cell *cell;
	pid_t pid;
	int out, verdict;          /* read ends; -1 once closed */
	struct cell_verdict v;
	size_t vlen;
	struct timespec start;
	bool killed;
};

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static int start_cell(lua_State *L, const struct course *c, const struct verify_opts *o,
		      struct cell *x, struct running *r)
{
	int out[2], verdict[2];

	memset(r, 0, sizeof(*r));
	r->cell = x;
	x->output = malloc(VERIFY_OUTPUT_KEPT);
	if (!x->output || pipe(out) != 0) {
		x->outcome = ERROR;
		snprintf(x->message, sizeof(x->message), "the grader could not start the cell: %s",
			 strerror(errno));
		return -1;
	}
	if (pipe(verdict) != 0) {
		close(out[0]);
		close(out[1]);
		x->outcome = ERROR;
		snprintf(x->message, sizeof(x->message), "the grader could not start the cell: %s",
			 strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	r->pid = fork();
	if (r->pid == 0) {
		close(out[0]);
		close(verdict[0]);
		cell_run(L, &c->lessons[x->lesson], x->file, out[1], verdict[1], o);
	}
	close(out[1]);
	close(verdict[1]);
	r->out = out[0];
	r->verdict = verdict[0];
	if (r->pid < 0) {
		close(r->out);
		close(r->verdict);
		x->outcome = ERROR;
		snprintf(x->message, sizeof(x->message), "fork: %s", strerror(errno));
		return -1;
	}
	setpgid(r->pid, r->pid);
	return 0;
}

/* Reads what is there on @r's descriptors; closes each at its end. */
static void drain(struct running *r, int fd)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));
	struct cell *x = r->cell;

	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		close(fd);
		*(fd == r->out ? &r->out : &r->verdict) = -1;
		return;
	}
	if (fd == r->out) {
		size_t keep = x->kept < VERIFY_OUTPUT_KEPT ? VERIFY_OUTPUT_KEPT - x->kept : 0;
		memcpy(x->output + x->kept, buf, (size_t)n < keep ? (size_t)n : keep);
		x->kept += (size_t)n < keep ? (size_t)n : keep;
		x->printed += (size_t)n;
	} else {
		size_t room = sizeof(r->v) - r->vlen;
		memcpy((char *)&r->v + r->vlen, buf, (size_t)n < room ? (size_t)n : room);
		r->vlen += (size_t)n; /* more than a verdict is no verdict */
	}
}

static void judge(struct running *r, int status, const struct rusage *ru,
		  const struct verify_opts *o, const struct kobj_limits *lim)
{
	struct cell *x = r->cell;
	const struct cell_verdict *v = &r->v;
	char reason[160];

	x->peak_kib = ru->ru_maxrss;
	if (r->vlen == sizeof(*v) && v->magic == CELL_VERDICT_MAGIC)
		x->instructions = v->instructions;
	if (r->killed) {
		x->outcome = TIMEOUT;
		snprintf(x->message, sizeof(x->message), "stopped after %u s (--time)", o->seconds);
	} else if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL)) {
		x->outcome = TIMEOUT;
		snprintf(x->message, sizeof(x->message), "stopped by the CPU time limit (%u s)",
			 o->seconds);
	} else if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		x->outcome = CRASH;
		snprintf(x->message, sizeof(x->message), "the run died (%s %d)",
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	} else if (r->vlen != sizeof(*v) || v->magic != CELL_VERDICT_MAGIC) {
		x->outcome = CRASH;
		snprintf(x->message, sizeof(x->message), "the run ended without a verdict");
	} else if (v->stop != KOBJ_FATAL_NONE) {
		x->outcome = ERROR;
		snprintf(x->message, sizeof(x->message), "stopped: %s",
			 limits_reason(lim, (enum kobj_fatal)v->stop, reason, sizeof(reason)));
	} else if (v->lua_error) {
		x->outcome = ERROR;
		snprintf(x->message, sizeof(x->message), "a Lua error stopped the run: %.*s",
			 (int)strnlen(v->error, sizeof(v->error)), v->error);
	} else {
		x->outcome = v->failed == 0 && v->passed > 0 ? PASS : FAIL;
		x->passed = v->passed;
		x->failed = v->failed;
		snprintf(x->message, sizeof(x->message), "%d of %d checks pass", v->passed,
			 v->passed + v->failed);
	}
	x->seconds = since(&r->start);
}

/* Waits for events on the running cells, or their deadlines; finishes those that ended. */
static int step(struct running *run, int nrun, const struct verify_opts *o,
		const struct kobj_limits *lim)
{
	struct pollfd fds[2 * 64];
	int nfds = 0, timeout = 1000, done = 0;

	for (int j = 0; j < nrun; j++) {
		struct running *r = &run[j];
		double left = o->seconds - since(&r->start);
		if (left <= 0 && !r->killed) {
			kill(-r->pid, SIGKILL);
			kill(r->pid, SIGKILL);
			r->killed = true;
		}
		int ms = left > 0 ? (int)(left * 1000) + 1 : 10;
		if (r->out < 0 && r->verdict < 0)
			ms = 2; /* both closed: the process is ending */
		if (ms < timeout)
			timeout = ms;
		if (r->out >= 0)
			fds[nfds++] = (struct pollfd){ .fd = r->out, .events = POLLIN };
		if (r->verdict >= 0)
			fds[nfds++] = (struct pollfd){ .fd = r->verdict, .events = POLLIN };
	}
	if (poll(fds, (nfds_t)nfds, timeout) < 0 && errno != EINTR)
		return -1;
	for (int f = 0; f < nfds; f++) {
		if (!fds[f].revents)
			continue;
		for (int j = 0; j < nrun; j++)
			if (run[j].out == fds[f].fd || run[j].verdict == fds[f].fd)
				drain(&run[j], fds[f].fd);
	}
	for (int j = 0; j < nrun; j++) {
		struct running *r = &run[j];
		struct rusage ru;
		int status;
		if (r->out >= 0 || r->verdict >= 0 || r->pid == 0)
			continue;
		if (wait4(r->pid, &status, WNOHANG, &ru) == r->pid) {
			judge(r, status, &ru, o, lim);
			r->pid = 0;
			done++;
		}
	}
	return done;
}

/* Ctrl-C or a termination request: the cells' process groups are the grader's to end. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void kill_all(struct running *run, int nrun)
{
	for (int j = 0; j < nrun; j++) {
		kill(-run[j].pid, SIGKILL);
		kill(run[j].pid, SIGKILL);
		while (waitpid(run[j].pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/* Grades every cell that has a solution, --jobs at a time. Return: 0, or -1 when
 * interrupted (every cell's process is gone then). */
static int grade_all(lua_State *L, const struct course *c, struct class *k,
		     const struct verify_opts *o)
{
	struct running run[64];
	int nrun = 0, next = 0, ncells = k->nstudents * c->count;
	struct sigaction sa = { .sa_handler = on_interrupt }, old_int, old_term;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	while (!interrupted && (next < ncells || nrun > 0)) {
		while (nrun < o->jobs && next < ncells) {
			struct cell *x = &k->cells[next++];
			if (x->file && start_cell(L, c, o, x, &run[nrun]) == 0)
				nrun++;
		}
		if (nrun == 0)
			continue;
		step(run, nrun, o, limits_of(L));
		for (int j = 0; j < nrun;)
			if (run[j].pid == 0)
				run[j] = run[--nrun];
			else
				j++;
	}
	if (interrupted)
		kill_all(run, nrun);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return interrupted ? -1 : 0;
}

/* ======================================================================== command */

static int usage(const char *what)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s\nusage: kobj lesson verify DIR [--out OUTDIR] "
		 "[--time SECONDS] [--jobs N] [--cell-memory MIB]", what);
	kobj_message(KOBJ_PROGNAME, msg);
	return KOBJ_EXIT_USAGE;
}

static bool number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && *out <= max;
}

static int parse(int argc, char **argv, struct verify_opts *o, const struct kobj_limits *lim)
{
	unsigned long n;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	o->out = ".";
	o->seconds = 10;
	o->jobs = cores > 0 ? (cores > 64 ? 64 : (int)cores) : 1;
	o->cell_memory_mib = lim->cap ? 2 * (lim->cap >> 20) + 256 : 1024;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--out") == 0 && v)
			o->out = argv[++i];
		else if (strcmp(a, "--time") == 0 && v && number(v, 86400, &n) && n > 0)
			o->seconds = (unsigned)n, i++;
		else if (strcmp(a, "--jobs") == 0 && v && number(v, 64, &n) && n > 0)
			o->jobs = (int)n, i++;
		else if (strcmp(a, "--cell-memory") == 0 && v && number(v, 1 << 20, &n))
			o->cell_memory_mib = n, i++;
		else if (!o->dir && a[0] != '-')
			o->dir = a;
		else
			return usage(v && a[0] == '-' ? "a bad value for an option (--time 1 to "
				     "86400, --jobs 1 to 64, --cell-memory in MiB)" : "unknown argument");
	}
	return o->dir ? 0 : usage("which class? (a folder with one folder per student)");
}

static int write_report(const char *dir, const char *name, const struct course *c,
			const struct class *k,
			void (*fn)(FILE *, const struct course *, const struct class *))
{
	char *path = join(dir, name);
	FILE *f = fopen(path, "w");

	if (f)
		fn(f, c, k);
	if (!f || fclose(f) != 0) {
		fprintf(stderr, "%s: %s: %s\n", KOBJ_PROGNAME, path, strerror(errno));
		free(path);
		return -1;
	}
	printf("wrote %s\n", path);
	free(path);
	return 0;
}

static void free_class(const struct course *c, struct class *k)
{
	for (int s = 0; s < k->nstudents; s++) {
		for (int i = 0; i < c->count; i++) {
			free(k->cells[s * c->count + i].file);
			free(k->cells[s * c->count + i].output);
		}
		free(k->students[s]);
	}
	for (int i = 0; i < k->nskipped; i++) {
		free(k->skipped[i].path);
		free(k->skipped[i].reason);
	}
	free(k->skipped);
	free(k->students);
	free(k->cells);
}

int lesson_verify(lua_State *L, const struct course *c, int argc, char **argv)
{
	struct verify_opts o = { 0 };
	struct class k = { 0 };
	struct timespec t0;
	int status = parse(argc, argv, &o, limits_of(L));

	if (status != 0)
		return status;
	if (list_class(c, o.dir, &k) != 0) {
		fprintf(stderr, "%s: %s: %s\n", KOBJ_PROGNAME, o.dir, strerror(errno));
		return KOBJ_EXIT_USAGE;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (grade_all(L, c, &k, &o) != 0) {
		kobj_message(KOBJ_PROGNAME, "interrupted: every cell was stopped, no report written");
		free_class(c, &k);
		return KOBJ_EXIT_LUA;
	}
	report_table(c, &k, &o, since(&t0));
	status = write_report(o.out, "results.tap", c, &k, report_tap) == 0 &&
			 write_report(o.out, "results.xml", c, &k, report_junit) == 0
		 ? KOBJ_EXIT_OK : KOBJ_EXIT_USAGE;
	free_class(c, &k);
	return status;
}
