/* Running graphviz's `dot`: the DOT text goes in through a pipe. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/pictures/pictures.h"

static int write_all(int fd, const char *text)
{
	size_t n = strlen(text);
	while (n) {
		ssize_t k = write(fd, text, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		text += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * Runs `dot @flag [-o @file]` on @dot_text. With no @file, *@output receives what dot
 * printed. dot reads the whole graph before it writes, so feeding stdin first and then
 * reading stdout cannot deadlock. Return: 0 or -1 with @err set.
 */
static int run(const char *dot_text, const char *flag, const char *file, char **output,
	       char *err, size_t errlen)
{
	int in[2], out[2] = { -1, -1 };
	if (pipe(in) != 0 || (!file && pipe(out) != 0)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		close(in[0]);
		close(in[1]);
		if (!file) {
			dup2(out[1], 1);
			close(out[0]);
			close(out[1]);
			execlp("dot", "dot", flag, (char *)NULL);
		} else {
			execlp("dot", "dot", flag, "-o", file, (char *)NULL);
		}
		_exit(127);
	}
	close(in[0]);
	if (!file)
		close(out[1]);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* dot may be missing or fail early */
	write_all(in[1], dot_text);
	close(in[1]);
	signal(SIGPIPE, old);
	if (!file) {
		size_t len = 0, cap = 4096;
		char *buf = malloc(cap);
		ssize_t k;
		while (buf && (k = read(out[0], buf + len, cap - len - 1)) != 0) {
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				break;
			len += (size_t)k;
			if (cap - len < 2)
				buf = realloc(buf, cap *= 2);
		}
		close(out[0]);
		if (buf)
			buf[len] = '\0';
		*output = buf;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && (file || *output))
		return 0;
	if (!file) {
		free(*output);
		*output = NULL;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		snprintf(err, errlen, "graphviz's dot was not found on PATH: install graphviz "
			 "(tools/setup does)");
	else
		snprintf(err, errlen, "dot %s failed%s%s", flag, file ? " to write " : "",
			 file ? file : "");
	return -1;
}

char *kobj_run_dot(const char *dot_text, const char *flag, char *err, size_t errlen)
{
	char *output = NULL;
	return run(dot_text, flag, NULL, &output, err, errlen) == 0 ? output : NULL;
}

static const char *format_of(const char *file)
{
	static const char *const formats[] = { "svg", "png", "pdf", "dot" };
	const char *dot = strrchr(file, '.');
	for (size_t i = 0; dot && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(dot + 1, formats[i]) == 0)
			return formats[i];
	return NULL;
}

int kobj_render(const char *dot_text, const char *file, char *err, size_t errlen)
{
	const char *format = format_of(file);
	if (!format) {
		snprintf(err, errlen, "%s: unknown picture format (use .svg, .png, .pdf or .dot)",
			 file);
		return -1;
	}
	if (strcmp(format, "dot") == 0) {
		FILE *f = fopen(file, "w");
		if (!f || fputs(dot_text, f) < 0 || fclose(f) != 0) {
			snprintf(err, errlen, "%s: %s", file, strerror(errno));
			return -1;
		}
		return 0;
	}
	char flag[16];
	snprintf(flag, sizeof(flag), "-T%s", format);
	return run(dot_text, flag, file, NULL, err, errlen);
}
