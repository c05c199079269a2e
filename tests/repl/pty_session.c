/* Driving a program on a pseudo-terminal (see pty_session.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/repl/pty_session.h"

#define TIMEOUT_MS 10000

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

void session_dump(const struct session *s)
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
	if (s->len == SESSION_OUT_SIZE) {
		fail_msg("the program printed more than %d bytes", SESSION_OUT_SIZE);
		return false;
	}
	n = read(s->fd, s->out + s->len, SESSION_OUT_SIZE - s->len);
	if (n <= 0)
		return false;
	s->len += (size_t)n;
	return true;
}

static bool seek(struct session *s, const char *needle)
{
	const char *at = find(s->out + s->mark, s->len - s->mark, needle);

	if (at)
		s->mark = (size_t)(at - s->out) + strlen(needle);
	return at != NULL;
}

void session_expect(struct session *s, const char *needle)
{
	long end = now_ms() + TIMEOUT_MS;

	while (!seek(s, needle)) {
		if (now_ms() > end || !pump(s, 50)) {
			if (seek(s, needle))
				return;
			session_dump(s);
			fail_msg("the program did not print \"%s\"", needle);
		}
	}
}

void session_expect_absent(struct session *s, size_t from, const char *needle)
{
	if (find(s->out + from, s->mark - from, needle)) {
		session_dump(s);
		fail_msg("the program printed \"%s\", which it must not", needle);
	}
}

bool session_saw(const struct session *s, const char *needle)
{
	return find(s->out + s->mark, s->len - s->mark, needle) != NULL;
}

void session_type(struct session *s, const char *keys)
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

/* Whether the last line printed is a prompt: one of @prompts ... "> ". */
static bool at_prompt(const struct session *s, const char *const *prompts)
{
	size_t start = s->len;

	while (start > 0 && s->out[start - 1] != '\n' && s->out[start - 1] != '\r')
		start--;
	if (s->len - start < 2 || memcmp(s->out + s->len - 2, "> ", 2) != 0)
		return false;
	for (; *prompts; prompts++)
		if (strncmp(s->out + start, *prompts, strlen(*prompts)) == 0)
			return true;
	return false;
}

void session_ready(struct session *s, const char *const *prompts)
{
	long end = now_ms() + TIMEOUT_MS;

	while (!at_prompt(s, prompts)) {
		if (now_ms() > end || !pump(s, 20)) {
			session_dump(s);
			fail_msg("the program did not come back to a prompt");
		}
	}
}

void session_settle(struct session *s, int ms)
{
	long end = now_ms() + ms;

	while (now_ms() < end && pump(s, 20))
		;
}

void session_start(struct session *s, const char *const *argv, const char *const *env,
		   unsigned short cols)
{
	struct winsize ws = { .ws_row = 40, .ws_col = cols ? cols : 120 };

	memset(s, 0, sizeof(*s));
	s->pid = forkpty(&s->fd, NULL, NULL, &ws);
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		setenv("TERM", "dumb", 1);
		setenv("INPUTRC", "/dev/null", 1);
		for (; env && *env; env++) {
			const char *eq = strchr(*env, '=');
			char name[256];

			snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - *env) : 255, *env);
			if (eq)
				setenv(name, eq + 1, 1);
			else
				unsetenv(name);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
}

int session_wait(struct session *s)
{
	long end = now_ms() + TIMEOUT_MS;
	int status;

	for (;;) {
		pid_t r = waitpid(s->pid, &status, WNOHANG);

		if (r == s->pid) {
			s->pid = 0;
			session_settle(s, 100); /* what it printed last */
			return status;
		}
		if (now_ms() > end) {
			session_dump(s);
			fail_msg("the program did not exit");
		}
		if (!pump(s, 20))
			poll(NULL, 0, 20);
	}
}

void session_close(struct session *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
	}
	if (s->fd > 0)
		close(s->fd);
	s->fd = -1;
}
