/*
 * Starting the program: `kobj -e ''` (a Lua state, the sandbox, the module and the
 * lesson vocabulary, then exit) against the stock `lua5.4 -e ''`, started in turns.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "tools/bench/bench.h"

extern char **environ;

/* CPU seconds (user and system) that @argv takes from spawn to exit, its output thrown
 * away. */
static double start(void *arg)
{
	char *const *argv = arg;
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	for (int fd = 0; fd <= 2; fd++)
		posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
	int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench: %s -e '' failed\n", argv[0]);
		exit(1);
	}
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

void bench_start(const struct bench_size *s)
{
	char *kobj[] = { (char *)s->kobj, "-e", "", NULL };
	char *lua[] = { "lua5.4", "-e", "", NULL };
	struct bench_row row = {
		.what = "`kobj -e ''` start", .anchor = "`lua5.4 -e ''`", .unit = "ms",
		.scale = 1e3, .kind = GOAL_RATIO, .goal = 1.2, .goal_text = "<= 1.2x lua5.4",
	};

	if (!s->kobj) {
		fputs("bench: kobj not found (run it with bazel run, or give --kobj PATH)\n",
		      stderr);
		exit(1);
	}
	bench_pair(&row, s->starts, start, kobj, start, lua);
	bench_print(&row);
}
