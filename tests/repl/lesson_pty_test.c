/*
 * Lesson 1 played at a terminal as a student would: `kobj lesson next`, the demo with
 * predictions typed in other words than the answers ("Two", " NO ", "Freed"), a check
 * that fails, a hint, the fix made in an editor (kobj lesson edit), and `kobj lesson
 * watch`, which checks again on each save and moves on to lesson 2 when it passes.
 *
 * Usage: lesson_pty_test PATH_TO_KOBJ (Bazel passes $(location //repl:kobj)); the lessons
 * are the test's runfiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/repl/pty_session.h"

/* The bug of lesson 1 and its fix: the -EBUSY path gives back what it took. */
#define BUGGY_LINE "    return nil, -EBUSY\n"
#define FIX_LINE "    kobject_put(dev.kobj)\n"

static const char *kobj_path;
static char lessons[PATH_MAX];
static char tmp_root[1024];

static const char *const prediction[] = { "your prediction", NULL };

struct student {
	struct session s;
	char home[1200];
	char copy[1300];      /* their copy of lesson 1's exercise */
	char home_env[1300];
};

/* Runs `kobj lesson @a @b` for @st with @editor as $EDITOR (NULL: none), on a terminal
 * @cols wide (0: the default). */
static void lesson_on(struct student *st, unsigned short cols, const char *editor,
		      const char *a, const char *b)
{
	char editor_env[1300] = "EDITOR", lessons_env[PATH_MAX + 16];
	const char *argv[] = { kobj_path, "lesson", a, b, NULL };
	const char *env[] = { st->home_env, lessons_env, editor_env, "XDG_DATA_HOME", "VISUAL",
			      "NO_COLOR=1", NULL };

	if (editor)
		snprintf(editor_env, sizeof(editor_env), "EDITOR=%s", editor);
	snprintf(lessons_env, sizeof(lessons_env), "KOBJ_LESSONS=%s", lessons);
	session_start(&st->s, argv, env, cols);
}

static void lesson(struct student *st, const char *editor, const char *a, const char *b)
{
	lesson_on(st, 0, editor, a, b);
}

/* Waits for the end of the command; asserts its exit status. */
static void exits_with(struct student *st, int want)
{
	int status = session_wait(&st->s);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != want) {
		session_dump(&st->s);
		fail_msg("kobj ended with wait status %d, not exit %d", status, want);
	}
	session_close(&st->s);
}

/* At the prediction prompt, types @answer and a newline. */
static void answer(struct student *st, const char *text)
{
	session_ready(&st->s, prediction);
	session_type(&st->s, text);
	session_type(&st->s, "\n");
}

/* The student's fix, saved as editors save: a new file renamed over the old one. */
static int apply_fix(const char *path)
{
	char tmp[1400], text[16384];
	FILE *f = fopen(path, "r");
	size_t n;
	char *at;

	if (!f)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	at = strstr(text, BUGGY_LINE);
	if (!at)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.swp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fwrite(text, 1, (size_t)(at - text), f);
	fputs(FIX_LINE, f);
	fputs(at, f);
	fclose(f);
	return rename(tmp, path);
}

static int setup(void **state)
{
	static int count;
	struct student *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	snprintf(st->home, sizeof(st->home), "%s/student%d", tmp_root, ++count);
	mkdir(st->home, 0700);
	snprintf(st->home_env, sizeof(st->home_env), "HOME=%s", st->home);
	snprintf(st->copy, sizeof(st->copy), "%s/.local/share/kobj/lessons/01-refcounts.lua",
		 st->home);
	*state = st;
	return 0;
}

static int teardown(void **state)
{
	struct student *st = *state;

	session_close(&st->s);
	free(st);
	return 0;
}

/* ====================================================================== tests */

static void test_next_then_the_demo_with_predictions_in_other_words(void **state)
{
	struct student *st = *state;

	lesson(st, NULL, "next", NULL);
	session_expect(&st->s, "Next: lesson 1.");
	session_expect(&st->s, "# 1. Reference counts and release");
	session_expect(&st->s, "Your copy of the exercise: ~/.local/share/kobj/lessons/"
			       "01-refcounts.lua");
	exits_with(st, 0);

	lesson(st, NULL, "run", "1");
	session_expect(&st->s, "what is the refcount of 'e1000-0'?");
	answer(st, "1");
	session_expect(&st->s, "right: 1");
	session_expect(&st->s, "kobject_init sets it to 1");
	answer(st, "Two");
	session_expect(&st->s, "right: 2");
	session_expect(&st->s, "has the release method run? (yes or no)");
	answer(st, "maybe");
	session_expect(&st->s, "'maybe' is not one of the choices (yes or no)");
	answer(st, " NO ");
	session_expect(&st->s, "right: no");
	session_expect(&st->s, "No: the count is 1");
	session_expect(&st->s, "now? (one of: uninitialized, initialized, in sysfs,");
	answer(st, "Freed");
	session_expect(&st->s, "right: released");
	session_expect(&st->s, "== Nothing is left behind");
	exits_with(st, 0);
}

static void test_a_wrong_prediction_is_explained(void **state)
{
	struct student *st = *state;

	lesson(st, NULL, "run", "1");
	answer(st, "1");
	answer(st, "three");
	session_expect(&st->s, "not quite: you said three, it is 2");
	session_expect(&st->s, "kobject_get adds one reference");
	answer(st, "yes");
	session_expect(&st->s, "not quite: you said yes, it is no");
	session_expect(&st->s, "No: the count is 1");
	answer(st, "deleted");
	session_expect(&st->s, "not quite: you said deleted, it is released");
	session_expect(&st->s, "so the ktype's release method ran");
	exits_with(st, 0);
}

static void test_check_hint_and_the_fix_in_an_editor(void **state)
{
	struct student *st = *state;
	char editor[1400];
	FILE *f;

	lesson(st, NULL, "check", "1");
	session_expect(&st->s, "Checking 01-refcounts.lua against lesson 1");
	session_expect(&st->s, "  FAIL  an open refused during a reset keeps no reference");
	session_expect(&st->s, "checks fail. Stuck? kobj lesson hint 1");
	exits_with(st, 1);

	lesson(st, NULL, "hint", "1");
	session_expect(&st->s, "Hint 1 of 3:");
	exits_with(st, 0);

	/* The "editor" makes the student's change to the file it is given. */
	snprintf(editor, sizeof(editor), "%s/editor", st->home);
	f = fopen(editor, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\nsed -i 's/^%.*s$/%.*s\\n&/' \"$1\"\n",
		(int)strlen(BUGGY_LINE) - 1, BUGGY_LINE, (int)strlen(FIX_LINE) - 1, FIX_LINE);
	fclose(f);
	chmod(editor, 0700);
	lesson(st, editor, "edit", "1");
	session_expect(&st->s, "  ok    an open refused during a reset keeps no reference");
	session_expect(&st->s, "checks pass: lesson 1 is done.");
	exits_with(st, 0);

	lesson(st, NULL, "list", NULL);
	session_expect(&st->s, "Reference counts and release");
	session_expect(&st->s, "done");
	session_expect(&st->s, "] 1/21 lessons done");
	exits_with(st, 0);
}

static void test_watch_checks_each_save_and_moves_on(void **state)
{
	struct student *st = *state;

	lesson(st, NULL, "watch", "1");
	session_expect(&st->s, "checks fail.");
	session_expect(&st->s, "Watching ~/.local/share/kobj/lessons/01-refcounts.lua");
	session_settle(&st->s, 100);
	session_type(&st->s, "h");
	session_expect(&st->s, "Hint 1 of 3:");
	assert_int_equal(apply_fix(st->copy), 0);
	session_expect(&st->s, "Saved: checking again.");
	session_expect(&st->s, "lesson 1 is done.");
	session_expect(&st->s, "Next: lesson 2.");
	session_expect(&st->s, "# 2. Embedding kobjects and container_of");
	session_expect(&st->s, "Watching ~/.local/share/kobj/lessons/02-embedding.lua");
	session_settle(&st->s, 100);
	session_type(&st->s, "q");
	exits_with(st, 0);
}

/* @text with every run of white space made one space, in @out; Return: @out. */
static char *words(const char *text, size_t n, char *out, size_t size)
{
	size_t len = 0;

	for (size_t i = 0; i < n && len + 1 < size; i++) {
		bool space = text[i] == ' ' || text[i] == '\n' || text[i] == '\r';

		if (!space)
			out[len++] = text[i];
		else if (len > 0 && out[len - 1] != ' ')
			out[len++] = ' ';
	}
	out[len] = '\0';
	return out;
}

static void test_the_text_fits_a_narrow_terminal(void **state)
{
	static char want[16384], got[16384], text[16384];
	struct student *st = *state;
	char path[PATH_MAX + 64];
	size_t n, line = 0;
	FILE *f;

	lesson_on(st, 60, NULL, "show", "1");
	session_expect(&st->s, "Your copy of the exercise:");
	exits_with(st, 0);
	for (size_t i = 0; i < st->s.len; i++) {
		line = st->s.out[i] == '\n' ? 0 : line + (st->s.out[i] != '\r');
		if (line > 59) {
			session_dump(&st->s);
			fail_msg("a line passes the terminal's 60 columns");
		}
	}
	snprintf(path, sizeof(path), "%s/01-refcounts/lesson.md", lessons);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	words(text, n, want, sizeof(want));
	words(st->s.out, st->s.len, got, sizeof(got));
	assert_int_equal(strncmp(got, want, strlen(want)), 0); /* every word, in order */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_next_then_the_demo_with_predictions_in_other_words, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_wrong_prediction_is_explained, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_check_hint_and_the_fix_in_an_editor, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_watch_checks_each_save_and_moves_on, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_the_text_fits_a_narrow_terminal, setup,
						teardown),
	};
	const char *tmp = getenv("TEST_TMPDIR");

	if (argc < 2 || !getcwd(lessons, sizeof(lessons) - sizeof("/lessons"))) {
		fprintf(stderr, "usage: %s PATH_TO_KOBJ, from a folder with lessons/\n", argv[0]);
		return 2;
	}
	strcat(lessons, "/lessons");
	kobj_path = argv[1];
	snprintf(tmp_root, sizeof(tmp_root), "%s/lesson-pty", tmp && *tmp ? tmp : "/tmp");
	mkdir(tmp_root, 0700);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
