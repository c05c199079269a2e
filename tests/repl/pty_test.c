/*
 * Terminal tests of the kobj REPL: each test starts `kobj` on a pseudo-terminal (forkpty),
 * types keys as a user would, and waits for what the screen must show: completion, multi-
 * line input, numbered prompts, history across restarts, errors with and without their
 * traceback, Ctrl-C, Ctrl-D, colour and NO_COLOR.
 *
 * Usage: pty_test PATH_TO_KOBJ (Bazel passes $(location //repl:kobj)).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/repl/pty_session.h"

static const char *kobj_path;
static char tmp_root[1024];

static const char *const prompts[] = { "kobj:", "  ...", NULL };

/* At the prompt, types @keys. */
static void enter(struct session *s, const char *keys)
{
	session_ready(s, prompts);
	session_type(s, keys);
}

/*
 * Starts kobj with @args (NULL-terminated, may be NULL) in state directory @state, on a
 * terminal @cols wide (0: the default). @color: leave NO_COLOR unset (else NO_COLOR=1).
 */
static void start_on(struct session *s, const char *state, bool color, const char *const *args,
		     unsigned short cols)
{
	char home[1200], dir[1200], home_env[1300], state_env[1300];
	const char *argv[16] = { kobj_path };
	const char *env[] = { home_env, state_env, color ? "NO_COLOR" : "NO_COLOR=1", NULL };
	int i;

	snprintf(home, sizeof(home), "%s/home", tmp_root);
	snprintf(dir, sizeof(dir), "%s/%s", tmp_root, state);
	mkdir(home, 0700);
	snprintf(home_env, sizeof(home_env), "HOME=%s", home);
	snprintf(state_env, sizeof(state_env), "XDG_STATE_HOME=%s", dir);
	for (i = 0; args && args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	session_start(s, argv, env, cols);
	session_expect(s, "kobj:1> ");
}

static void start(struct session *s, const char *state, bool color, const char *const *args)
{
	start_on(s, state, color, args, 0);
}

/* Ctrl-D, then a clean exit. */
static void finish(struct session *s)
{
	int status;

	enter(s, "\x04");
	status = session_wait(s);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		session_dump(s);
		fail_msg("kobj ended with wait status %d", status);
	}
}

static int setup(void **state)
{
	struct session *s = calloc(1, sizeof(*s));

	*state = s;
	return s ? 0 : -1;
}

static int teardown(void **state)
{
	struct session *s = *state;

	session_close(s);
	free(s);
	return 0;
}

/* ====================================================================== tests */

static void test_tab_completes_a_global(void **state)
{
	struct session *s = *state;

	start(s, "complete-global", false, NULL);
	enter(s, "x = kobject_unreg\t");
	session_expect(s, "x = kobject_unregister");
	session_type(s, "\n");
	enter(s, "print(x == kobject_unregister)\n");
	session_expect(s, "\r\ntrue\r\n");
	enter(s, "pack\t\n"); /* the removed package library is never offered */
	session_expect(s, "\r\nnil\r\n");
	finish(s);
}

static void test_tab_completes_a_field_after_a_dot(void **state)
{
	struct session *s = *state;

	start(s, "complete-field", false, NULL);
	enter(s, "t = {alpha = 1, beta = 2}\n");
	session_expect(s, "kobj:2> ");
	enter(s, "print(t.al\t");
	session_expect(s, "print(t.alpha");
	session_type(s, ")\n");
	session_expect(s, "\r\n1\r\n");
	finish(s);
}

static void test_tab_completes_a_method_of_a_handle(void **state)
{
	struct session *s = *state;

	start(s, "complete-method", false, NULL);
	enter(s, "k = new_kobject()\n");
	enter(s, "k:set_na\t");
	session_expect(s, "k:set_name");
	session_type(s, "(\"comet\")\n");
	enter(s, "k.name\n");
	session_expect(s, "\r\ncomet\r\n");
	enter(s, "print(k.refc\t"); /* a field of a handle, from its metatable's __fields */
	session_expect(s, "print(k.refcount");
	session_type(s, ")\n");
	session_expect(s, "\r\n0\r\n");
	finish(s);
}

static void test_tab_completes_a_sysfs_path_in_a_string(void **state)
{
	struct session *s = *state;

	start(s, "complete-sysfs", false, NULL);
	enter(s, "k = new_kobject() kobject_set_name(k, \"zebra\") kobject_init(k) "
		"kobject_add(k)\n");
	session_expect(s, "kobj:2> ");
	enter(s, "p = \"/sy\t");
	session_expect(s, "p = \"/sys/");
	session_type(s, "ze\t");
	session_expect(s, "zebra/");
	session_type(s, "\"\n");
	enter(s, "p\n");
	session_expect(s, "\r\n/sys/zebra/\r\n");
	finish(s);
}

static void test_tab_completes_a_command(void **state)
{
	struct session *s = *state;

	start(s, "complete-command", false, NULL);
	enter(s, ":he\t");
	session_expect(s, ":help");
	session_type(s, "\n");
	session_expect(s, "Commands");
	finish(s);
}

static void test_incomplete_statement_continues(void **state)
{
	struct session *s = *state;

	start(s, "multiline", false, NULL);
	enter(s, "for i = 1, 2 do\n");
	session_expect(s, "  ...2> ");
	enter(s, "print(i * 10)\n");
	session_expect(s, "  ...3> ");
	enter(s, "end\n");
	session_expect(s, "\r\n10\r\n20\r\n");
	session_expect(s, "kobj:4> ");
	finish(s);
}

static void test_expression_prints_its_value(void **state)
{
	struct session *s = *state;

	start(s, "expression", false, NULL);
	enter(s, "{1, 2, x = 'y'}\n");
	session_expect(s, "{1, 2, x = \"y\"}\r\n");
	enter(s, "k = new_kobject()\n");
	enter(s, "k\n");
	session_expect(s, "\r\nkobject");
	finish(s);
}

static void test_error_prints_its_message_and_prompt_returns(void **state)
{
	struct session *s = *state;
	size_t from;

	start(s, "error", false, NULL);
	from = s->mark;
	enter(s, "error('boom')\n");
	session_expect(s, "stdin:1: boom");
	session_expect(s, "kobj:2> ");
	session_expect_absent(s, from, "stack traceback:");
	enter(s, ":trace\n");
	session_expect(s, "stdin:1: boom\r\nstack traceback:");
	session_expect(s, "kobj:3> ");
	enter(s, "6 * 7\n");
	session_expect(s, "\r\n42\r\n");
	finish(s);
}

/* An error inside a function loaded from a file keeps its traceback: it says where. */
static void test_error_in_a_loaded_function_keeps_its_traceback(void **state)
{
	struct session *s = *state;
	char path[1300], load[1400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/deep.lua", tmp_root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("function deep()\n  error('down here')\nend\n", f);
	fclose(f);
	snprintf(load, sizeof(load), ":load %s\n", path);
	start(s, "deep-error", false, NULL);
	enter(s, load);
	enter(s, "deep()\n");
	session_expect(s, "deep.lua:2: down here\r\nstack traceback:");
	session_expect(s, "deep.lua:2: in function");
	finish(s);
}

/* The prompt shows the line number that stdin:N names; _PROMPT replaces it. */
static void test_prompt_shows_the_line_number_it_records(void **state)
{
	struct session *s = *state;

	start(s, "line-numbers", false, NULL);
	enter(s, ":tree\n");
	enter(s, "x = 1\n");
	enter(s, "if x then\n");
	session_expect(s, "  ...4> ");
	enter(s, "kobject_put(new_kobject())\n");
	enter(s, "end\n");
	session_expect(s, "stdin:4");
	session_expect(s, "kobj:6> ");
	enter(s, "_PROMPT = 'mine> '\n");
	session_expect(s, "\nmine> ");
	session_type(s, "_PROMPT = nil\n");
	session_expect(s, "kobj:8> ");
	finish(s);
}

static void test_history_survives_a_restart(void **state)
{
	struct session *s = *state;
	char path[1300];
	struct stat st;

	start(s, "history", false, NULL);
	enter(s, "40 + 2\n");
	session_expect(s, "\r\n42\r\n");
	enter(s, "for i = 1, 2 do\n");
	enter(s, "print(i + 100)\n");
	enter(s, "end\n");
	session_expect(s, "102\r\n");
	finish(s);
	snprintf(path, sizeof(path), "%s/history/kobj/history", tmp_root);
	assert_int_equal(stat(path, &st), 0);

	start(s, "history", false, NULL);
	enter(s, "\x10"); /* Ctrl-P: the multi-line statement, whole */
	session_expect(s, "print(i + 100)");
	session_type(s, "\n");
	session_expect(s, "101\r\n102\r\n");
	session_expect(s, "kobj:4> ");
	enter(s, "\x10\x10"); /* and the one before it */
	session_expect(s, "40 + 2");
	session_type(s, "\n");
	session_expect(s, "\r\n42\r\n");
	finish(s);
}

static void test_ctrl_c_interrupts_a_running_statement(void **state)
{
	static const char *const args[] = { "--max-instructions", "0", NULL };
	struct session *s = *state;
	int tries;

	start(s, "interrupt", false, args);
	enter(s, "while true do end\n");
	session_expect(s, "while true do end\r\n");
	for (tries = 0; tries < 50 && !session_saw(s, "interrupted!"); tries++) {
		session_settle(s, 100);
		session_type(s, "\x03");
	}
	session_expect(s, "stdin:1: interrupted!\r\n");
	session_expect(s, "kobj:2> ");
	session_expect_absent(s, 0, "stack traceback");
	enter(s, "1 + 1\n");
	session_expect(s, "\r\n2\r\n");
	finish(s);
}

static void test_ctrl_c_at_the_prompt_clears_the_line(void **state)
{
	struct session *s = *state;
	size_t from;

	start(s, "clear-line", false, NULL);
	enter(s, "undefined_function_xyz()");
	session_expect(s, "undefined_function_xyz()");
	from = s->mark;
	session_type(s, "\x03");
	session_expect(s, "^C");
	session_expect(s, "kobj:1> ");
	enter(s, "2 + 3\n");
	session_expect(s, "\r\n5\r\n");
	session_expect_absent(s, from, "attempt to call");
	finish(s);
}

static void test_ctrl_c_drops_an_incomplete_statement(void **state)
{
	struct session *s = *state;

	start(s, "cancel-continuation", false, NULL);
	enter(s, "if true then\n");
	session_expect(s, "  ...2> ");
	session_type(s, "\x03");
	session_expect(s, "^C");
	session_expect(s, "kobj:1> ");
	enter(s, "7 * 6\n");
	session_expect(s, "\r\n42\r\n");
	finish(s);
}

static void test_quit_command_exits(void **state)
{
	struct session *s = *state;
	int status;

	start(s, "quit", false, NULL);
	enter(s, ":quit\n");
	status = session_wait(s);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_diagnostics_show_as_they_happen(void **state)
{
	struct session *s = *state;

	start(s, "diagnostics", false, NULL);
	enter(s, "k = new_kobject() kobject_init(k) kobject_put(k) kobject_put(k)\n");
	session_expect(s, "refcount_t: underflow");
	session_expect(s, "kobj:2> ");
	enter(s, ":diag\n");
	session_expect(s, "refcount_t: underflow");
	finish(s);
}

/* A diagnostic's explanation breaks at spaces, within the terminal's width. */
static void test_diagnostics_wrap_at_the_terminal_width(void **state)
{
	struct session *s = *state;
	size_t from, line = 0;

	start_on(s, "narrow", false, NULL, 60);
	from = s->mark;
	enter(s, "k = new_kobject() kobject_init(k) kobject_put(k)\n");
	session_expect(s, "\r\nDocumentation/core-api/kobject.rst.");
	session_expect(s, "kobj:2> ");
	for (size_t i = from; i < s->mark; i++) {
		line = s->out[i] == '\n' ? 0 : line + (s->out[i] != '\r');
		if (line > 59) {
			session_dump(s);
			fail_msg("a line passes the terminal's 60 columns");
		}
	}
	finish(s);
}

static void test_bad_input_gets_an_error_not_a_crash(void **state)
{
	static const char *const args[] = { "--max-memory", "32", NULL };
	struct session *s = *state;

	start(s, "bad-input", false, args);
	enter(s, ")))\n");
	session_expect(s, "unexpected symbol");
	enter(s, ":log many\n");
	session_expect(s, "wants a number");
	enter(s, ":nosuchcommand\n");
	session_expect(s, "unknown command");
	enter(s, "string.rep('x', 1 << 30)\n");
	session_expect(s, "memory limit reached (32 MiB");
	enter(s, "t = {} t.t = t\n");
	enter(s, "t\n");
	session_expect(s, "<cycle>");
	enter(s, "1 + 1\n");
	session_expect(s, "\r\n2\r\n");
	finish(s);
}

static void test_colour_on_a_terminal_unless_no_color(void **state)
{
	struct session *s = *state;
	size_t from;

	start(s, "colour", true, NULL);
	enter(s, "1 + 1\n");
	session_expect(s, "\x1b[36m2\x1b[0m");
	finish(s);

	start(s, "no-colour", false, NULL);
	from = s->mark;
	enter(s, "1 + 1\n");
	enter(s, "error('plain')\n");
	session_expect(s, "\r\n2\r\n");
	session_expect(s, "plain");
	session_expect_absent(s, from, "\x1b[3");
	finish(s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tab_completes_a_global, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tab_completes_a_field_after_a_dot, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tab_completes_a_method_of_a_handle, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tab_completes_a_sysfs_path_in_a_string,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_tab_completes_a_command, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incomplete_statement_continues, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_expression_prints_its_value, setup, teardown),
		cmocka_unit_test_setup_teardown(test_error_prints_its_message_and_prompt_returns,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_error_in_a_loaded_function_keeps_its_traceback,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_prompt_shows_the_line_number_it_records,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_history_survives_a_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_c_interrupts_a_running_statement, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_c_at_the_prompt_clears_the_line, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_c_drops_an_incomplete_statement, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_quit_command_exits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_diagnostics_show_as_they_happen, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_diagnostics_wrap_at_the_terminal_width, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_input_gets_an_error_not_a_crash, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_colour_on_a_terminal_unless_no_color, setup,
						teardown),
	};
	const char *tmp = getenv("TEST_TMPDIR");

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH_TO_KOBJ\n", argv[0]);
		return 2;
	}
	kobj_path = argv[1];
	if (tmp && *tmp) {
		snprintf(tmp_root, sizeof(tmp_root), "%s/pty", tmp);
		mkdir(tmp_root, 0700);
	} else {
		snprintf(tmp_root, sizeof(tmp_root), "/tmp/kobj-pty-XXXXXX");
		if (!mkdtemp(tmp_root))
			return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
