/*
 * `kobj lesson ...`: the course at the command line. Installed lessons are read-only;
 * a student's working copies and progress live in their own folder: --dir DIR, else
 * $XDG_DATA_HOME/kobj/lessons (default ~/.local/share/kobj/lessons).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

/* ========================================================================= the course */

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the lessons are: $KOBJ_LESSONS, Bazel's runfiles, or ./lessons. */
static bool find_root(char *root, size_t size)
{
	char exe[4096];
	const char *env = getenv("KOBJ_LESSONS");
	ssize_t n;

	if (env && *env) {
		snprintf(root, size, "%s", env);
		return is_dir(root);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(root, size, "%s.runfiles/kobject_sandbox/lessons", exe);
		if (is_dir(root))
			return true;
	}
	env = getenv("RUNFILES_DIR");
	if (env) {
		snprintf(root, size, "%s/kobject_sandbox/lessons", env);
		if (is_dir(root))
			return true;
	}
	snprintf(root, size, "lessons");
	return is_dir(root);
}

static void read_title(struct lesson *l)
{
	char path[4200], line[512];
	FILE *f;

	snprintf(l->title, sizeof(l->title), "%s", l->slug);
	snprintf(path, sizeof(path), "%s/lesson.md", l->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		char *t = line + strspn(line, "# ");
		t += strspn(t, "0123456789");
		t += strspn(t, ". ");
		t[strcspn(t, "\n")] = '\0';
		if (*t)
			snprintf(l->title, sizeof(l->title), "%s", t);
	}
	fclose(f);
}

static int by_number(const void *a, const void *b)
{
	return ((const struct lesson *)a)->number - ((const struct lesson *)b)->number;
}

int course_find(struct course *c)
{
	DIR *d;
	struct dirent *e;

	c->count = 0;
	if (!find_root(c->root, sizeof(c->root)) || !(d = opendir(c->root))) {
		kobj_message(KOBJ_PROGNAME, "cannot find the lessons: set KOBJ_LESSONS to the "
			     "lessons/ directory of the sandbox");
		return -1;
	}
	while ((e = readdir(d)) && c->count < LESSON_MAX) {
		struct lesson *l = &c->lessons[c->count];
		char *end;
		long n = strtol(e->d_name, &end, 10);
		if (end == e->d_name || *end != '-' || n <= 0 || strlen(e->d_name) >= sizeof(l->slug))
			continue;
		size_t len = strlen(e->d_name), rlen = strlen(c->root);
		if (rlen + len + 2 > sizeof(l->dir))
			continue;
		l->number = (int)n;
		memcpy(l->slug, e->d_name, len + 1);
		memcpy(l->dir, c->root, rlen);
		l->dir[rlen] = '/';
		memcpy(l->dir + rlen + 1, e->d_name, len + 1);
		if (!is_dir(l->dir))
			continue;
		read_title(l);
		c->count++;
	}
	closedir(d);
	qsort(c->lessons, (size_t)c->count, sizeof(c->lessons[0]), by_number);
	return 0;
}

const struct lesson *course_lesson(const struct course *c, const char *n)
{
	char *end;
	long want = n ? strtol(n, &end, 10) : 0;
	char msg[256];

	for (int i = 0; n && *end == '\0' && i < c->count; i++)
		if (c->lessons[i].number == want)
			return &c->lessons[i];
	snprintf(msg, sizeof(msg), "no lesson '%s': the lessons are numbered %d to %d "
		 "(kobj lesson list)", n ? n : "", c->count ? c->lessons[0].number : 0,
		 c->count ? c->lessons[c->count - 1].number : 0);
	kobj_message(KOBJ_PROGNAME, msg);
	return NULL;
}

/* ===================================================================== the student */

struct student {
	char dir[4096];
	/* progress: per lesson, done and how many hints were shown */
	bool done[LESSON_MAX];
	int hints[LESSON_MAX];
};

static int make_dirs(const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The default student folder; Return: false when neither XDG_DATA_HOME nor HOME is set. */
static bool default_dir(char *dir, size_t size)
{
	if (getenv("XDG_DATA_HOME") && *getenv("XDG_DATA_HOME"))
		snprintf(dir, size, "%s/kobj/lessons", getenv("XDG_DATA_HOME"));
	else if (getenv("HOME"))
		snprintf(dir, size, "%s/.local/share/kobj/lessons", getenv("HOME"));
	else
		return false;
	return true;
}

void lesson_working_copy_path(const struct lesson *l, char *path, size_t size)
{
	char dir[4096] = ".";
	default_dir(dir, sizeof(dir));
	snprintf(path, size, "%s/%s.lua", dir, l->slug);
}

static int student_open(struct student *s, const char *dir, const struct course *c)
{
	char path[4200], slug[128];
	int hints;
	FILE *f;

	memset(s, 0, sizeof(*s));
	if (dir) {
		snprintf(s->dir, sizeof(s->dir), "%s", dir);
	} else if (!default_dir(s->dir, sizeof(s->dir))) {
		kobj_message(KOBJ_PROGNAME, "no place for your work: set HOME or use --dir DIR");
		return -1;
	}
	if (make_dirs(s->dir) != 0) {
		snprintf(path, sizeof(path), "%s: %s", s->dir, strerror(errno));
		kobj_message(KOBJ_PROGNAME, path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/progress", s->dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%127s %d", slug, &hints) == 2) {
		for (int i = 0; i < c->count; i++) {
			if (strcmp(c->lessons[i].slug, slug) != 0)
				continue;
			s->done[i] = hints < 0 || s->done[i];
			if (hints > s->hints[i])
				s->hints[i] = hints;
		}
	}
	fclose(f);
	return 0;
}

/* One line per lesson: "<slug> <hints shown>", and "<slug> -1" once it is done. */
static void student_save(const struct student *s, const struct course *c)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/progress", s->dir);
	f = fopen(path, "w");
	if (!f)
		return;
	for (int i = 0; i < c->count; i++) {
		if (s->hints[i])
			fprintf(f, "%s %d\n", c->lessons[i].slug, s->hints[i]);
		if (s->done[i])
			fprintf(f, "%s -1\n", c->lessons[i].slug);
	}
	fclose(f);
}

static int copy_file(const char *from, const char *to)
{
	char *text = lesson_slurp(from);
	FILE *f;

	if (!text || !(f = fopen(to, "w"))) {
		free(text);
		return -1;
	}
	fputs(text, f);
	free(text);
	return fclose(f);
}

/* The student's copy of the exercise, made from the lesson's on first use. */
static const char *working_copy(const struct student *s, const struct lesson *l, char *path,
				size_t size, bool fresh)
{
	char pristine[4200];

	snprintf(path, size, "%s/%s.lua", s->dir, l->slug);
	snprintf(pristine, sizeof(pristine), "%s/exercise.lua", l->dir);
	if ((fresh || access(path, F_OK) != 0) && copy_file(pristine, path) != 0) {
		char msg[4400];
		snprintf(msg, sizeof(msg), "cannot write %s: %s", path, strerror(errno));
		kobj_message(KOBJ_PROGNAME, msg);
		return NULL;
	}
	return path;
}

/* ========================================================================= commands */

static int index_of(const struct course *c, const struct lesson *l)
{
	return (int)(l - c->lessons);
}

static int cmd_list(const struct course *c, const struct student *s)
{
	for (int i = 0; i < c->count; i++)
		printf("%3d  %-44s %s\n", c->lessons[i].number, c->lessons[i].title,
		       s->done[i] ? "done" : s->hints[i] ? "started" : "");
	printf("\nYour work is in %s\n", s->dir);
	return KOBJ_EXIT_OK;
}

static int cmd_show(const struct lesson *l, const struct student *s)
{
	char path[4200], copy[4200];
	char *text;

	snprintf(path, sizeof(path), "%s/lesson.md", l->dir);
	text = lesson_slurp(path);
	if (!text) {
		kobj_message(KOBJ_PROGNAME, "this lesson has no text (lesson.md)");
		return KOBJ_EXIT_USAGE;
	}
	fputs(text, stdout);
	free(text);
	if (working_copy(s, l, copy, sizeof(copy), false))
		printf("\nYour copy of the exercise: %s\n", copy);
	return KOBJ_EXIT_OK;
}

static int cmd_hint(const struct course *c, const struct lesson *l, struct student *s)
{
	char path[4200];
	char *text;
	int i = index_of(c, l), n = 0, want;

	snprintf(path, sizeof(path), "%s/hints.md", l->dir);
	text = lesson_slurp(path);
	if (!text) {
		kobj_message(KOBJ_PROGNAME, "this lesson has no hints");
		return KOBJ_EXIT_USAGE;
	}
	/* hints are separated by lines holding only "---" */
	char *hints[32], *p = text;
	hints[n++] = p;
	while ((p = strstr(p, "\n---\n")) && n < 32) {
		*p = '\0';
		p += 5;
		hints[n++] = p;
	}
	want = s->hints[i] < n ? s->hints[i] + 1 : n;
	for (int h = 0; h < want; h++) {
		const char *t = hints[h] + strspn(hints[h], "\n");
		printf("Hint %d of %d:\n%s%s", h + 1, n, t, t[strlen(t) - 1] == '\n' ? "" : "\n");
		if (h + 1 < want)
			putchar('\n');
	}
	if (want == n)
		printf("\n(that was the last hint)\n");
	s->hints[i] = want;
	free(text);
	return KOBJ_EXIT_OK;
}

/* What the kernel would have said during the run, one line each, and the leaks. */
void lesson_print_findings(lua_State *L)
{
	struct kobj_world *w = kobj_lua_world(L);
	size_t n = kobj_diag_count(w), leaks = kobj_leak_count(w);
	char where[64];

	if (n)
		printf("\nThe kernel would have said:\n");
	for (size_t i = 0; i < n; i++) {
		const struct kobj_diag *d = kobj_diag_at(w, i);
		snprintf(where, sizeof(where), "%s:%d", d->origin.file ? d->origin.file : "?",
			 d->origin.line);
		printf("  [%s] %.*s  (%s)\n", kobj_diag_tag(d->kind),
		       (int)strcspn(d->message, "\n"), d->message, where);
	}
	if (leaks)
		printf("\n%zu object(s) were never released (kobj lesson shows who holds them "
		       "when a check fails).\n", leaks);
}

static int cmd_check(lua_State *L, const struct course *c, const struct lesson *l,
		     struct student *s, const char *file)
{
	char copy[4200];
	struct verdict v;

	if (!file && !(file = working_copy(s, l, copy, sizeof(copy), false)))
		return KOBJ_EXIT_USAGE;
	printf("Checking %s against lesson %d (%s):\n", file, l->number, l->title);
	fflush(stdout);
	v = lesson_check(L, l, file);
	lesson_print_findings(L);
	if (v.lua_error) {
		printf("\nThe exercise or its checks stopped with an error (above). Fix it and "
		       "check again.\n");
		return KOBJ_EXIT_LUA;
	}
	if (v.failed == 0 && v.passed > 0) {
		s->done[index_of(c, l)] = true;
		printf("\nAll %d checks pass: lesson %d is done. Next: kobj lesson next\n",
		       v.passed, l->number);
		return KOBJ_EXIT_OK;
	}
	printf("\n%d of %d checks fail. Stuck? kobj lesson hint %d\n", v.failed,
	       v.passed + v.failed, l->number);
	return KOBJ_EXIT_LUA;
}

static int cmd_next(const struct course *c, const struct student *s)
{
	for (int i = 0; i < c->count; i++) {
		if (s->done[i])
			continue;
		printf("Next: lesson %d. Run it with 'kobj lesson run %d', check your work with "
		       "'kobj lesson check %d'.\n\n", c->lessons[i].number, c->lessons[i].number,
		       c->lessons[i].number);
		return cmd_show(&c->lessons[i], s);
	}
	printf("You have done every lesson. kobj lesson list shows them all.\n");
	return KOBJ_EXIT_OK;
}

static void lesson_usage(FILE *out)
{
	fputs("usage: kobj lesson [--dir DIR] COMMAND\n"
	      "  list              the lessons and your progress\n"
	      "  show N            lesson N's text, and where your copy of its exercise is\n"
	      "  run N             run lesson N's demo (it asks for your predictions)\n"
	      "  check N [FILE]    check your copy of the exercise (or FILE)\n"
	      "  hint N            the next hint for lesson N\n"
	      "  next              the first lesson you have not done\n"
	      "  reset N           start lesson N's exercise again from the original\n"
	      "  verify DIR [--out OUTDIR] [--time SECONDS] [--jobs N] [--cell-memory MIB]\n"
	      "                    grade a class: DIR holds one folder per student with\n"
	      "                    their NN-name.lua files; writes a table, results.tap\n"
	      "                    and results.xml (JUnit)\n"
	      "Your work is kept in --dir DIR, else $XDG_DATA_HOME/kobj/lessons\n"
	      "(default ~/.local/share/kobj/lessons).\n", out);
}

int lesson_main(lua_State *L, int argc, char **argv, const struct kobj_opts *o)
{
	struct course *c = calloc(1, sizeof(*c));
	struct student *s = calloc(1, sizeof(*s));
	const char *dir = NULL;
	const struct lesson *l = NULL;
	int i = 1, status = KOBJ_EXIT_USAGE;
	bool save = false;

	(void)o;
	if (!c || !s)
		goto out;
	if (i + 1 < argc && strcmp(argv[i], "--dir") == 0) {
		dir = argv[i + 1];
		i += 2;
	}
	const char *cmd = i < argc ? argv[i++] : "help";
	const char *arg = i < argc ? argv[i] : NULL;
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0) {
		lesson_usage(stdout);
		status = KOBJ_EXIT_OK;
		goto out;
	}
	if (course_find(c) != 0)
		goto out;
	if (strcmp(cmd, "verify") == 0) {
		status = lesson_verify(L, c, argc - i, argv + i);
		goto out;
	}
	if (student_open(s, dir, c) != 0)
		goto out;
	if (strcmp(cmd, "list") == 0) {
		status = cmd_list(c, s);
	} else if (strcmp(cmd, "next") == 0) {
		status = cmd_next(c, s);
	} else if (strcmp(cmd, "show") == 0 || strcmp(cmd, "run") == 0 ||
		   strcmp(cmd, "check") == 0 || strcmp(cmd, "hint") == 0 ||
		   strcmp(cmd, "reset") == 0) {
		if (!arg) {
			kobj_message(KOBJ_PROGNAME, "which lesson? (kobj lesson list)");
			goto out;
		}
		if (!(l = course_lesson(c, arg)))
			goto out;
		save = true;
		if (strcmp(cmd, "show") == 0) {
			status = cmd_show(l, s);
		} else if (strcmp(cmd, "run") == 0) {
			status = lesson_demo(L, l, isatty(STDIN_FILENO)) == 0
					 ? KOBJ_EXIT_OK : KOBJ_EXIT_LUA;
		} else if (strcmp(cmd, "check") == 0) {
			status = cmd_check(L, c, l, s, i + 1 < argc ? argv[i + 1] : NULL);
		} else if (strcmp(cmd, "hint") == 0) {
			status = cmd_hint(c, l, s);
		} else {
			char copy[4200];
			status = working_copy(s, l, copy, sizeof(copy), true) ? KOBJ_EXIT_OK
									      : KOBJ_EXIT_USAGE;
			if (status == KOBJ_EXIT_OK)
				printf("%s is the original exercise again.\n", copy);
		}
	} else {
		kobj_message(KOBJ_PROGNAME, "unknown lesson command (kobj lesson help)");
	}
	if (save)
		student_save(s, c);
out:
	free(c);
	free(s);
	return status;
}
