/*
 * A program on a pseudo-terminal, driven as a person would: start it (forkpty), type
 * keys, wait for what the screen must show. Used by the terminal tests of kobj.
 */
#ifndef KOBJ_TESTS_PTY_SESSION_H
#define KOBJ_TESTS_PTY_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SESSION_OUT_SIZE (1 << 17)

/* One process on a pseudo-terminal and everything it has printed. */
struct session {
	pid_t pid;
	int fd;
	char out[SESSION_OUT_SIZE];
	size_t len;
	size_t mark; /* expect() searches from here */
};

/* session_start() - run @argv on a new terminal @cols wide (0: 120) and 40 high with
 * @env ("NAME=value", or "NAME" to unset; NULL-terminated) added to TERM=dumb,
 * INPUTRC=/dev/null. */
void session_start(struct session *s, const char *const *argv, const char *const *env,
		   unsigned short cols);
/* Waits for @needle after the mark and moves the mark past it; fails the test otherwise. */
void session_expect(struct session *s, const char *needle);
/* Fails the test if @needle was printed between @from and the mark. */
void session_expect_absent(struct session *s, size_t from, const char *needle);
/* Whether @needle was printed after the mark (without waiting). */
bool session_saw(const struct session *s, const char *needle);
void session_type(struct session *s, const char *keys);
/* Waits until the last line printed starts with one of the NULL-terminated @prompts
 * and ends with "> ": keys typed earlier would reach the line discipline, not the program. */
void session_ready(struct session *s, const char *const *prompts);
/* Reads for @ms. */
void session_settle(struct session *s, int ms);
/* Waits for the process to end; Return: its wait status. Fails on a timeout. */
int session_wait(struct session *s);
/* Kills a process still running and closes the terminal. */
void session_close(struct session *s);
/* Prints the transcript with control characters visible. */
void session_dump(const struct session *s);

#endif
