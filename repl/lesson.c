/*
 * `kobj lesson ...`: the course at the command line. Installed lessons are read-only;
 * the student's copies and progress live in their own folder (student.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/report/report.h"
#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

#define BAR_WIDTH 30

/* Text to stdout, wrapped to the terminal. */
static void say(const char *text)
{
	fflush(stdout);
	wrap_text(text, stdout);
	fflush(stdout);
}

static void progress_bar(const struct course *c, const struct student *s)
{
	char bar[BAR_WIDTH + 1];
	int done = 0, fill;

	for (int i = 0; i < c->count; i++)
		done += s->done[i];
	fill = c->count ? done * BAR_WIDTH / c->count : 0;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '-', (size_t)(BAR_WIDTH - fill));
	bar[BAR_WIDTH] = '\0';
	printf("Progress: [%s] %d/%d lessons done (%d%%)\n", bar, done, c->count,
	       c->count ? done * 100 / c->count : 0);
}

static int cmd_list(const struct course *c, const struct student *s)
{
	char shown[LESSON_PATH_MAX];

	for (int i = 0; i < c->count; i++)
		printf("%3d  %-44s %s\n", c->lessons[i].number, c->lessons[i].title,
		       s->done[i] ? "done" : s->hints[i] ? "started" : "");
	putchar('\n');
	progress_bar(c, s);
	printf("Your work is in %s\n", student_shown(s->dir, shown, sizeof(shown)));
	return KOBJ_EXIT_OK;
}

int lesson_show(const struct lesson *l, const struct student *s)
{
	char path[LESSON_PATH_MAX], shown[LESSON_PATH_MAX], line[LESSON_PATH_MAX + 64];
	char *text;

	snprintf(path, sizeof(path), "%s/lesson.md", l->dir);
	text = lesson_slurp(path);
	if (!text) {
		kobj_message(KOBJ_PROGNAME, "this lesson has no text (lesson.md)");
		return KOBJ_EXIT_USAGE;
	}
	say(text);
	free(text);
	if (student_copy(s, l, path, sizeof(path))) {
		snprintf(line, sizeof(line), "\nYour copy of the exercise: %s\n",
			 student_shown(path, shown, sizeof(shown)));
		say(line);
	}
	return KOBJ_EXIT_OK;
}

int lesson_hint(const struct course *c, const struct lesson *l, struct student *s)
{
	char path[LESSON_PATH_MAX];
	char *hints[32], *text, *p;
	int i = course_index(c, l), n = 0, want;

	snprintf(path, sizeof(path), "%s/hints.md", l->dir);
	text = lesson_slurp(path);
	if (!text) {
		kobj_message(KOBJ_PROGNAME, "this lesson has no hints");
		return KOBJ_EXIT_USAGE;
	}
	/* hints are separated by lines holding only "---" */
	hints[n++] = p = text;
	while ((p = strstr(p, "\n---\n")) && n < 32) {
		*p = '\0';
		p += 5;
		hints[n++] = p;
	}
	want = s->hints[i] < n ? s->hints[i] + 1 : n;
	for (int h = 0; h < want; h++) {
		const char *t = hints[h] + strspn(hints[h], "\n");

		printf("%sHint %d of %d:\n", h ? "\n" : "", h + 1, n);
		say(t);
		if (!*t || t[strlen(t) - 1] != '\n')
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
	char line[1024];

	if (n)
		printf("\nThe kernel would have said:\n");
	for (size_t i = 0; i < n; i++) {
		const struct kobj_diag *d = kobj_diag_at(w, i);

		snprintf(line, sizeof(line), "  [%s] %.*s  (%s:%d)\n", kobj_diag_tag(d->kind),
			 (int)strcspn(d->message, "\n"), d->message,
			 d->origin.file ? d->origin.file : "?", d->origin.line);
		say(line);
	}
	if (leaks)
		printf("\n%zu object(s) were never released (kobj lesson shows who holds them "
		       "when a check fails).\n", leaks);
}

/* Checks @file (named @shown); marks @l done when every check passes. */
static int grade(lua_State *L, const struct course *c, const struct lesson *l,
		 struct student *s, const char *file, const char *shown)
{
	struct verdict v;

	printf("Checking %s against lesson %d (%s):\n", shown, l->number, l->title);
	fflush(stdout);
	v = lesson_check_as(L, l, file, shown);
	lesson_print_findings(L);
	if (v.lua_error) {
		printf("\nThe exercise or its checks stopped with an error (above). Fix it and "
		       "check again.\n");
		return KOBJ_EXIT_LUA;
	}
	if (v.failed == 0 && v.passed > 0) {
		s->done[course_index(c, l)] = true;
		printf("\nAll %d checks pass: lesson %d is done. Next: kobj lesson next\n",
		       v.passed, l->number);
		return KOBJ_EXIT_OK;
	}
	printf("\n%d of %d checks fail. Stuck? kobj lesson hint %d\n", v.failed,
	       v.passed + v.failed, l->number);
	return KOBJ_EXIT_LUA;
}

int lesson_grade(lua_State *L, const struct course *c, const struct lesson *l,
		 struct student *s)
{
	char copy[LESSON_PATH_MAX], shown[300];

	if (!student_copy(s, l, copy, sizeof(copy)))
		return KOBJ_EXIT_USAGE;
	snprintf(shown, sizeof(shown), "%s.lua", l->slug);
	return grade(L, c, l, s, copy, shown);
}

const struct lesson *lesson_next(const struct course *c, const struct student *s)
{
	for (int i = 0; i < c->count; i++)
		if (!s->done[i])
			return &c->lessons[i];
	return NULL;
}

static int cmd_next(const struct course *c, const struct student *s)
{
	const struct lesson *l = lesson_next(c, s);

	if (!l) {
		printf("You have done every lesson. kobj lesson list shows them all.\n");
		return KOBJ_EXIT_OK;
	}
	printf("Next: lesson %d. Run it with 'kobj lesson run %d', check your work with "
	       "'kobj lesson check %d'.\n\n", l->number, l->number, l->number);
	return lesson_show(l, s);
}

/* Whether the student typed yes to @question; no on anything else or without a terminal. */
static bool confirm(const char *question)
{
	char line[64];

	printf("%s [y/N] ", question);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

static int cmd_reset(const struct lesson *l, const struct student *s, bool force)
{
	char copy[LESSON_PATH_MAX], backup[LESSON_PATH_MAX + 100];
	char shown[LESSON_PATH_MAX + 100], msg[LESSON_PATH_MAX + 200];

	snprintf(copy, sizeof(copy), "%s/%s.lua", s->dir, l->slug);
	student_shown(copy, shown, sizeof(shown));
	if (student_copy_changed(s, l) && !force) {
		if (!isatty(STDIN_FILENO)) {
			snprintf(msg, sizeof(msg), "%s has your changes; 'kobj lesson "
				 "reset %d --force' replaces it (keeping a backup)", shown,
				 l->number);
			kobj_message(KOBJ_PROGNAME, msg);
			return KOBJ_EXIT_USAGE;
		}
		snprintf(msg, sizeof(msg), "Replace your work in %s with the "
			 "original exercise? (your copy is kept as a .bak file)", shown);
		if (!confirm(msg)) {
			printf("Nothing changed.\n");
			return KOBJ_EXIT_OK;
		}
	}
	if (student_reset(s, l, backup, sizeof(backup)) != 0) {
		snprintf(msg, sizeof(msg), "cannot reset %s: %s", shown, strerror(errno));
		kobj_message(KOBJ_PROGNAME, msg);
		return KOBJ_EXIT_USAGE;
	}
	if (backup[0])
		printf("Your old copy is in %s\n",
		       student_shown(backup, msg, sizeof(msg)));
	printf("%s is the original exercise again.\n", shown);
	return KOBJ_EXIT_OK;
}

/* The editor: $VISUAL, $EDITOR, Debian's `editor`, or vi. */
static const char *editor(void)
{
	const char *e = getenv("VISUAL");

	if (!e || !*e)
		e = getenv("EDITOR");
	if (e && *e)
		return e;
	return access("/usr/bin/editor", X_OK) == 0 ? "editor" : "vi";
}

/* Runs the editor on @path as git does: the variable may hold arguments too. */
static int run_editor(const char *path)
{
	const char *e = editor();
	char script[LESSON_PATH_MAX], msg[LESSON_PATH_MAX + 200];
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "%s \"$@\"", e);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", script, e, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		snprintf(msg, sizeof(msg), "the editor '%s' did not finish cleanly (set VISUAL "
			 "or EDITOR to the one you use)", e);
		kobj_message(KOBJ_PROGNAME, msg);
		return -1;
	}
	return 0;
}

static int cmd_edit(lua_State *L, const struct course *c, const struct lesson *l,
		    struct student *s)
{
	char copy[LESSON_PATH_MAX];

	if (!student_copy(s, l, copy, sizeof(copy)) || run_editor(copy) != 0)
		return KOBJ_EXIT_USAGE;
	return lesson_grade(L, c, l, s);
}

static void lesson_usage(FILE *out)
{
	fputs("usage: kobj lesson [--dir DIR] COMMAND\n"
	      "  list              the lessons and your progress\n"
	      "  next              the first lesson you have not done\n"
	      "  show N            lesson N's text, and where your copy of its exercise is\n"
	      "  run N             run lesson N's demo (it asks for your predictions)\n"
	      "  edit N            open your copy of the exercise in $VISUAL or $EDITOR,\n"
	      "                    then check it\n"
	      "  check N [FILE]    check your copy of the exercise (or FILE)\n"
	      "  watch [N]         check again each time you save; go on to the next\n"
	      "                    lesson when it passes (default: the next lesson)\n"
	      "  hint N            the next hint for lesson N\n"
	      "  reset N [--force] start lesson N's exercise again from the original; asks\n"
	      "                    first, and keeps your copy as NN-name.lua.bak\n"
	      "  verify DIR [--out OUTDIR] [--time SECONDS] [--jobs N] [--cell-memory MIB]\n"
	      "                    grade a class: DIR holds one folder per student with\n"
	      "                    their NN-name.lua files; writes a table, results.tap\n"
	      "                    and results.xml (JUnit)\n"
	      "run and check also take --record FILE.html (the run's timeline, to step\n"
	      "through) and --dot FILE.svg (what the run left, as the leak picture).\n"
	      "Your work is kept in --dir DIR, else $XDG_DATA_HOME/kobj/lessons\n"
	      "(default ~/.local/share/kobj/lessons).\n", out);
}

/* The parsed command line of `kobj lesson`. */
struct lesson_args {
	const char *dir;
	const char *cmd;
	const char *n;       /* the lesson number, or NULL */
	const char *file;    /* check N FILE */
	bool force;          /* reset --force */
	const char *record;  /* run, check: --record FILE.html */
	const char *picture; /* run, check: --dot FILE.svg */
	const char *missing; /* an option given without its file */
};

static void parse(int argc, char **argv, struct lesson_args *a)
{
	int i = 1;

	memset(a, 0, sizeof(*a));
	if (i + 1 < argc && strcmp(argv[i], "--dir") == 0) {
		a->dir = argv[i + 1];
		i += 2;
	}
	a->cmd = i < argc ? argv[i++] : "help";
	for (; i < argc; i++) {
		bool record = strncmp(argv[i], "--record", 8) == 0;
		const char *name = record ? "--record" : "--dot";
		const char *eq = argv[i] + strlen(name);
		if ((record || strncmp(argv[i], "--dot", 5) == 0) && (!*eq || *eq == '=')) {
			const char *v = *eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!v || !*v)
				a->missing = name;
			*(record ? &a->record : &a->picture) = v;
		} else if (strcmp(argv[i], "--force") == 0)
			a->force = true;
		else if (!a->n)
			a->n = argv[i];
		else if (!a->file)
			a->file = argv[i];
	}
}

static bool is(const char *cmd, const char *name)
{
	return strcmp(cmd, name) == 0;
}

/* run and check, with the timeline and the leak picture when asked for. */
static int run_or_check(lua_State *L, const struct course *c, const struct lesson *l,
			struct student *s, const struct lesson_args *a)
{
	char title[400];
	bool run = is(a->cmd, "run");
	snprintf(title, sizeof(title), "lesson %d, %s: %s", l->number, l->title,
		 run ? "the demo" : a->file ? a->file : "your exercise and its checks");
	struct views v = { .record = a->record, .picture = a->picture, .title = title,
			   .script = a->file, .dirs = { c->root, s->dir } };
	int status;

	views_prepare(L, &v);
	if (run)
		status = lesson_demo(L, l, isatty(STDIN_FILENO)) == 0 ? KOBJ_EXIT_OK : KOBJ_EXIT_LUA;
	else
		status = a->file ? grade(L, c, l, s, a->file, a->file) : lesson_grade(L, c, l, s);
	if (views_write(L, &v) && status == KOBJ_EXIT_OK)
		status = KOBJ_EXIT_LUA;
	if (v.record && access(v.record, R_OK) == 0)
		printf("The run's timeline is in %s: open it in a browser to step through it.\n",
		       v.record);
	return status;
}

/* The commands about one lesson @l. */
static int one_lesson(lua_State *L, const struct course *c, const struct lesson *l,
		      struct student *s, const struct lesson_args *a)
{
	if (is(a->cmd, "show"))
		return lesson_show(l, s);
	if (is(a->cmd, "run") || is(a->cmd, "check"))
		return run_or_check(L, c, l, s, a);
	if (is(a->cmd, "hint"))
		return lesson_hint(c, l, s);
	if (is(a->cmd, "edit"))
		return cmd_edit(L, c, l, s);
	return cmd_reset(l, s, a->force);
}

static int dispatch(lua_State *L, const struct course *c, struct student *s,
		    const struct lesson_args *a)
{
	static const char *const per_lesson[] = { "show", "run", "check", "hint", "edit",
						  "reset", NULL };
	const struct lesson *l = NULL;

	if (is(a->cmd, "list"))
		return cmd_list(c, s);
	if (is(a->cmd, "next"))
		return cmd_next(c, s);
	if (is(a->cmd, "watch")) {
		if (a->n && !(l = course_lesson(c, a->n)))
			return KOBJ_EXIT_USAGE;
		return lesson_watch(L, c, s, l);
	}
	for (const char *const *p = per_lesson; *p; p++) {
		if (!is(a->cmd, *p))
			continue;
		if (!a->n) {
			kobj_message(KOBJ_PROGNAME, "which lesson? (kobj lesson list)");
			return KOBJ_EXIT_USAGE;
		}
		if (!(l = course_lesson(c, a->n)))
			return KOBJ_EXIT_USAGE;
		return one_lesson(L, c, l, s, a);
	}
	kobj_message(KOBJ_PROGNAME, "unknown lesson command (kobj lesson help)");
	return KOBJ_EXIT_USAGE;
}

int lesson_main(lua_State *L, int argc, char **argv, const struct kobj_opts *o)
{
	struct course *c = calloc(1, sizeof(*c));
	struct student *s = calloc(1, sizeof(*s));
	struct lesson_args a;
	int status = KOBJ_EXIT_USAGE;

	parse(argc, argv, &a);
	a.record = a.record ? a.record : o->record;
	a.picture = a.picture ? a.picture : o->picture;
	if (!c || !s)
		goto out;
	if (a.missing) {
		char msg[300];
		snprintf(msg, sizeof(msg), "option '%s' needs a file name", a.missing);
		kobj_message(KOBJ_PROGNAME, msg);
		goto out;
	}
	if ((a.record || a.picture) && !is(a.cmd, "run") && !is(a.cmd, "check")) {
		kobj_message(KOBJ_PROGNAME, "--record and --dot go with 'kobj lesson run N' and "
			     "'kobj lesson check N'");
		goto out;
	}
	if (is(a.cmd, "help") || is(a.cmd, "--help")) {
		lesson_usage(stdout);
		status = KOBJ_EXIT_OK;
	} else if (course_find(c) != 0) {
		/* the message is out */
	} else if (is(a.cmd, "verify")) {
		int i = 1;

		while (i < argc && !is(argv[i], "verify"))
			i++;
		status = lesson_verify(L, c, argc - i - 1, argv + i + 1);
	} else if (student_open(s, a.dir, c) == 0) {
		status = dispatch(L, c, s, &a);
		student_save(s, c);
	}
out:
	free(c);
	free(s);
	return status;
}
