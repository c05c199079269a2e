/*
 * Terminal tests of the kobj REPL: each test starts `kobj` on a pseudo-terminal (forkpty),
 * types keys as a user would, and waits for what the screen must show: completion, multi-
 * line input, history across restarts, Ctrl-C, Ctrl-D, colour and NO_COLOR.
 *
 * Usage: pty_test PATH_TO_KOBJ (Bazel passes $(location //repl:kobj)).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_MS 10000
#define OUT_SIZE (1 << 16)

static const char *kobj_path;
static char tmp_root[1024];

/* One kobj process on a pseudo-terminal and everything it has printed. */
struct session {
	pid_t pid;
	int fd;
	char out[OUT_SIZE];
	size_t len;
	size_t mark; /* expect() searches from here */
};

/* ==================================================================== helpers */

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static const char *find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; k <= n && i <= n - k; i++)
		if (memcmp(hay + i, needle, k) == 0)
			return hay + i;
	return NULL;
}

/* Prints the transcript with control characters visible, for a failing test. */
static void dump(const struct session *s)
{
	size_t i;

	fprintf(stderr, "---- transcript (%zu bytes, mark at %zu) ----\n", s->len, s->mark);
	for (i = 0; i < s->len; i++) {
		unsigned char c = (unsigned char)s->out[i];

		if (c == '\n')
			fputs("\\n\n", stderr);
		else if (c < 0x20 || c == 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fputs("\n---- end ----\n", stderr);
}

/* Reads what is there within @ms; Return: false once the terminal is closed. */
static bool pump(struct session *s, int ms)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return true;
	if (s->len == OUT_SIZE) {
		fail_msg("the REPL printed more than %d bytes", OUT_SIZE);
		return false;
	}
	n = read(s->fd, s->out + s->len, OUT_SIZE - s->len);
	if (n <= 0)
		return false;
	s->len += (size_t)n;
	return true;
}

/* Waits for @needle after the mark; moves the mark past it. Fails the test otherwise. */
static void expect(struct session *s, const char *needle)
{
	long end = now_ms() + TIMEOUT_MS;
	const char *at;

	for (;;) {
		at = find(s->out + s->mark, s->len - s->mark, needle);
		if (at) {
			s->mark = (size_t)(at - s->out) + strlen(needle);
			return;
		}
		if (now_ms() > end || !pump(s, 50)) {
			at = find(s->out + s->mark, s->len - s->mark, needle);
			if (at) {
				s->mark = (size_t)(at - s->out) + strlen(needle);
				return;
			}
			dump(s);
			fail_msg("the REPL did not print \"%s\"", needle);
		}
	}
}

/* Asserts that @needle was not printed between position @from and the mark. */
static void expect_absent(struct session *s, size_t from, const char *needle)
{
	if (find(s->out + from, s->mark - from, needle)) {
		dump(s);
		fail_msg("the REPL printed \"%s\", which it must not", needle);
	}
}

static void type(struct session *s, const char *keys)
{
	size_t n = strlen(keys);

	while (n > 0) {
		ssize_t w = write(s->fd, keys, n);

		if (w < 0 && errno == EINTR)
			continue;
		assert_true(w > 0);
		keys += w;
		n -= (size_t)w;
		pump(s, 0);
	}
}

static bool ends_with(const struct session *s, const char *tail)
{
	size_t n = strlen(tail);

	return s->len >= n && memcmp(s->out + s->len - n, tail, n) == 0;
}

/*
 * Waits until the REPL waits at a prompt, its last output. Keys typed earlier would reach
 * a terminal in cooked mode, where the line discipline echoes them itself and eats ^D.
 */
static void ready(struct session *s)
{
	long end = now_ms() + TIMEOUT_MS;

	while (!ends_with(s, "kobj> ") && !ends_with(s, "  ... ")) {
		if (now_ms() > end || !pump(s, 20)) {
			dump(s);
			fail_msg("the REPL did not come back to a prompt");
		}
	}
}

/* At the prompt, types @keys. */
static void enter(struct session *s, const char *keys)
{
	ready(s);
	type(s, keys);
}

/* Lets the REPL settle: reads for @ms. */
static void settle(struct session *s, int ms)
{
	long end = now_ms() + ms;

	while (now_ms() < end && pump(s, 20))
		;
}

/*
 * Starts kobj with @args (NULL-terminated, may be NULL) in state directory @state.
 * @color: leave NO_COLOR unset (else NO_COLOR=1).
 */
static void start(struct session *s, const char *state, bool color, const char *const *args)
{
	struct winsize ws = { .ws_row = 40, .ws_col = 120 };
	char home[1200], dir[1200];

	memset(s, 0, sizeof(*s));
	snprintf(home, sizeof(home), "%s/home", tmp_root);
	snprintf(dir, sizeof(dir), "%s/%s", tmp_root, state);
	mkdir(home, 0700);
	s->pid = forkpty(&s->fd, NULL, NULL, &ws);
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		const char *argv[16] = { kobj_path };
		int i;

		for (i = 0; args && args[i] && i < 14; i++)
			argv[i + 1] = args[i];
		setenv("TERM", "dumb", 1);
		setenv("HOME", home, 1);
		setenv("XDG_STATE_HOME", dir, 1);
		setenv("INPUTRC", "/dev/null", 1);
		if (color)
			unsetenv("NO_COLOR");
		else
			setenv("NO_COLOR", "1", 1);
		execv(kobj_path, (char *const *)argv);
		_exit(127);
	}
	expect(s, "kobj> ");
}

/* Waits for the process to end; Return: its wait status. Fails on a timeout. */
static int wait_exit(struct session *s)
{
	long end = now_ms() + TIMEOUT_MS;
	int status;

	for (;;) {
		pid_t r = waitpid(s->pid, &status, WNOHANG);

		if (r == s->pid) {
			s->pid = 0;
			return status;
		}
		if (now_ms() > end) {
			dump(s);
			fail_msg("kobj did not exit");
		}
		if (!pump(s, 20))
			poll(NULL, 0, 20);
	}
}

/* Ctrl-D, then a clean exit. */
static void finish(struct session *s)
{
	int status;

	enter(s, "\x04");
	status = wait_exit(s);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		dump(s);
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

	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
	}
	if (s->fd > 0)
		close(s->fd);
	free(s);
	return 0;
}

/* ====================================================================== tests */

static void test_tab_completes_a_global(void **state)
{
	struct session *s = *state;

	start(s, "complete-global", false, NULL);
	enter(s, "x = kobject_unreg\t");
	expect(s, "x = kobject_unregister");
	type(s, "\n");
	enter(s, "print(x == kobject_unregister)\n");
	expect(s, "\r\ntrue\r\n");
	enter(s, "pack\t\n"); /* the removed package library is never offered */
	expect(s, "\r\nnil\r\n");
	finish(s);
}

static void test_tab_completes_a_field_after_a_dot(void **state)
{
	struct session *s = *state;

	start(s, "complete-field", false, NULL);
	enter(s, "t = {alpha = 1, beta = 2}\n");
	expect(s, "kobj> ");
	enter(s, "print(t.al\t");
	expect(s, "print(t.alpha");
	type(s, ")\n");
	expect(s, "\r\n1\r\n");
	finish(s);
}

static void test_tab_completes_a_method_of_a_handle(void **state)
{
	struct session *s = *state;

	start(s, "complete-method", false, NULL);
	enter(s, "k = new_kobject()\n");
	enter(s, "k:set_na\t");
	expect(s, "k:set_name");
	type(s, "(\"comet\")\n");
	enter(s, "k.name\n");
	expect(s, "\r\ncomet\r\n");
	enter(s, "print(k.refc\t"); /* a field of a handle, from its metatable's __fields */
	expect(s, "print(k.refcount");
	type(s, ")\n");
	expect(s, "\r\n0\r\n");
	finish(s);
}

static void test_tab_completes_a_sysfs_path_in_a_string(void **state)
{
	struct session *s = *state;

	start(s, "complete-sysfs", false, NULL);
	enter(s, "k = new_kobject() kobject_set_name(k, \"zebra\") kobject_init(k) "
		"kobject_add(k)\n");
	expect(s, "kobj> ");
	enter(s, "p = \"/sy\t");
	expect(s, "p = \"/sys/");
	type(s, "ze\t");
	expect(s, "zebra/");
	type(s, "\"\n");
	enter(s, "p\n");
	expect(s, "\r\n/sys/zebra/\r\n");
	finish(s);
}

static void test_tab_completes_a_command(void **state)
{
	struct session *s = *state;

	start(s, "complete-command", false, NULL);
	enter(s, ":he\t");
	expect(s, ":help");
	type(s, "\n");
	expect(s, "Commands");
	finish(s);
}

static void test_incomplete_statement_continues(void **state)
{
	struct session *s = *state;

	start(s, "multiline", false, NULL);
	enter(s, "for i = 1, 2 do\n");
	expect(s, "  ... ");
	enter(s, "print(i * 10)\n");
	expect(s, "  ... ");
	enter(s, "end\n");
	expect(s, "\r\n10\r\n20\r\n");
	expect(s, "kobj> ");
	finish(s);
}

static void test_expression_prints_its_value(void **state)
{
	struct session *s = *state;

	start(s, "expression", false, NULL);
	enter(s, "{1, 2, x = 'y'}\n");
	expect(s, "{1, 2, x = \"y\"}\r\n");
	enter(s, "k = new_kobject()\n");
	enter(s, "k\n");
	expect(s, "\r\nkobject");
	finish(s);
}

static void test_error_prints_traceback_and_prompt_returns(void **state)
{
	struct session *s = *state;

	start(s, "error", false, NULL);
	enter(s, "error('boom')\n");
	expect(s, "stdin:1: boom");
	expect(s, "stack traceback:");
	expect(s, "kobj> ");
	enter(s, "6 * 7\n");
	expect(s, "\r\n42\r\n");
	finish(s);
}

static void test_history_survives_a_restart(void **state)
{
	struct session *s = *state;
	char path[1300];
	struct stat st;

	start(s, "history", false, NULL);
	enter(s, "40 + 2\n");
	expect(s, "\r\n42\r\n");
	enter(s, "for i = 1, 2 do\n");
	enter(s, "print(i + 100)\n");
	enter(s, "end\n");
	expect(s, "102\r\n");
	finish(s);
	snprintf(path, sizeof(path), "%s/history/kobj/history", tmp_root);
	assert_int_equal(stat(path, &st), 0);

	start(s, "history", false, NULL);
	enter(s, "\x10"); /* Ctrl-P: the multi-line statement, whole */
	expect(s, "print(i + 100)");
	type(s, "\n");
	expect(s, "101\r\n102\r\n");
	expect(s, "kobj> ");
	enter(s, "\x10\x10"); /* and the one before it */
	expect(s, "40 + 2");
	type(s, "\n");
	expect(s, "\r\n42\r\n");
	finish(s);
}

static void test_ctrl_c_interrupts_a_running_statement(void **state)
{
	static const char *const args[] = { "--max-instructions", "0", NULL };
	struct session *s = *state;
	int tries;

	start(s, "interrupt", false, args);
	enter(s, "while true do end\n");
	expect(s, "while true do end\r\n");
	for (tries = 0; tries < 50 && !find(s->out + s->mark, s->len - s->mark, "interrupted!");
	     tries++) {
		settle(s, 100);
		type(s, "\x03");
	}
	expect(s, "interrupted!");
	expect(s, "kobj> ");
	enter(s, "1 + 1\n");
	expect(s, "\r\n2\r\n");
	finish(s);
}

static void test_ctrl_c_at_the_prompt_clears_the_line(void **state)
{
	struct session *s = *state;
	size_t from;

	start(s, "clear-line", false, NULL);
	enter(s, "undefined_function_xyz()");
	expect(s, "undefined_function_xyz()");
	from = s->mark;
	type(s, "\x03");
	expect(s, "^C");
	expect(s, "kobj> ");
	enter(s, "2 + 3\n");
	expect(s, "\r\n5\r\n");
	expect_absent(s, from, "attempt to call");
	finish(s);
}

static void test_ctrl_c_drops_an_incomplete_statement(void **state)
{
	struct session *s = *state;

	start(s, "cancel-continuation", false, NULL);
	enter(s, "if true then\n");
	expect(s, "  ... ");
	type(s, "\x03");
	expect(s, "^C");
	expect(s, "kobj> ");
	enter(s, "7 * 6\n");
	expect(s, "\r\n42\r\n");
	finish(s);
}

static void test_quit_command_exits(void **state)
{
	struct session *s = *state;
	int status;

	start(s, "quit", false, NULL);
	enter(s, ":quit\n");
	status = wait_exit(s);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_diagnostics_show_as_they_happen(void **state)
{
	struct session *s = *state;

	start(s, "diagnostics", false, NULL);
	enter(s, "k = new_kobject() kobject_init(k) kobject_put(k) kobject_put(k)\n");
	expect(s, "refcount_t: underflow");
	expect(s, "kobj> ");
	enter(s, ":diag\n");
	expect(s, "refcount_t: underflow");
	finish(s);
}

static void test_bad_input_gets_an_error_not_a_crash(void **state)
{
	static const char *const args[] = { "--max-memory", "32", NULL };
	struct session *s = *state;

	start(s, "bad-input", false, args);
	enter(s, ")))\n");
	expect(s, "unexpected symbol");
	enter(s, ":log many\n");
	expect(s, "wants a number");
	enter(s, ":nosuchcommand\n");
	expect(s, "unknown command");
	enter(s, "string.rep('x', 1 << 30)\n");
	expect(s, "memory limit reached (32 MiB");
	enter(s, "t = {} t.t = t\n");
	enter(s, "t\n");
	expect(s, "<cycle>");
	enter(s, "1 + 1\n");
	expect(s, "\r\n2\r\n");
	finish(s);
}

static void test_colour_on_a_terminal_unless_no_color(void **state)
{
	struct session *s = *state;
	size_t from;

	start(s, "colour", true, NULL);
	enter(s, "1 + 1\n");
	expect(s, "\x1b[36m2\x1b[0m");
	finish(s);

	start(s, "no-colour", false, NULL);
	from = s->mark;
	enter(s, "1 + 1\n");
	enter(s, "error('plain')\n");
	expect(s, "\r\n2\r\n");
	expect(s, "plain");
	expect_absent(s, from, "\x1b[3");
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
		cmocka_unit_test_setup_teardown(test_error_prints_traceback_and_prompt_returns,
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
