/* Rendering DOT text with graphviz's `dot`, fed through a pipe. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/dot.h"

static const char *format_of(const char *file)
{
	static const char *const formats[] = { "svg", "png", "pdf", "dot" };
	const char *dot = strrchr(file, '.');
	for (size_t i = 0; dot && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(dot + 1, formats[i]) == 0)
			return formats[i];
	return NULL;
}

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
	int in[2];
	if (pipe(in) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		close(in[0]);
		close(in[1]);
		execlp("dot", "dot", flag, "-o", file, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* dot may be missing or fail early */
	write_all(in[1], dot_text);
	close(in[1]);
	signal(SIGPIPE, old);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen, "graphviz's dot was not found on PATH: install graphviz "
			 "(tools/setup does)");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "dot could not write %s", file);
		return -1;
	}
	return 0;
}
