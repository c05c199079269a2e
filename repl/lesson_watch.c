/*
 * `kobj lesson watch [N]`: check the student's copy each time it is saved (inotify on
 * their folder), and go on to the next lesson when every check passes. On a terminal
 * single keys act at once: h a hint, c check again, q quit (Ctrl-C quits too).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <termios.h>
#include <unistd.h>

#include "repl/kobj.h"
#include "repl/lesson.h"

/* Saves of one file often come as several events: wait this long for the last. */
#define SETTLE_MS 100

enum wake { WAKE_SAVED, WAKE_CHECK, WAKE_QUIT };

static volatile sig_atomic_t stop_watching;

static void on_stop(int sig)
{
	(void)sig;
	stop_watching = 1;
}

/* Keys without Enter and without echo; Return: whether the mode was changed. */
static bool keys_mode(struct termios *saved)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, saved) != 0)
		return false;
	t = *saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	return tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
}

/* Whether the inotify events waiting on @fd name @file. */
static bool names_file(int fd, const char *file)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool hit = false;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *e = (const struct inotify_event *)p;

			hit |= e->len > 0 && strcmp(e->name, file) == 0;
			p += sizeof(*e) + e->len;
		}
	}
	return hit;
}

/* Waits for a save of @file in the watched folder, a key, or Ctrl-C. */
static enum wake wait_for(int ino, const char *file, const struct course *c,
			  const struct lesson *l, struct student *s, bool *keys)
{
	struct pollfd p[2] = { { .fd = ino, .events = POLLIN },
			       { .fd = STDIN_FILENO, .events = POLLIN } };
	char key;

	while (!stop_watching) {
		if (poll(p, *keys ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return WAKE_QUIT;
		}
		if ((p[0].revents & POLLIN) && names_file(ino, file)) {
			while (poll(p, 1, SETTLE_MS) > 0)
				names_file(ino, file);
			return WAKE_SAVED;
		}
		if (*keys && p[1].revents) {
			if (read(STDIN_FILENO, &key, 1) != 1) {
				*keys = false; /* the end of input: watch the file alone */
				continue;
			}
			if (key == 'q' || key == 'Q')
				return WAKE_QUIT;
			if (key == 'c' || key == 'C')
				return WAKE_CHECK;
			if (key == 'h' || key == 'H') {
				putchar('\n');
				lesson_hint(c, l, s);
				student_save(s, c);
				fflush(stdout);
			}
		}
	}
	return WAKE_QUIT;
}

static void banner(const struct lesson *l, const struct student *s, bool keys)
{
	char path[LESSON_PATH_MAX], shown[LESSON_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.lua", s->dir, l->slug);
	printf("\nWatching %s: save it to check lesson %d again.%s\n",
	       student_shown(path, shown, sizeof(shown)), l->number,
	       keys ? " Keys: h a hint, c check, q quit." : " Ctrl-C stops watching.");
	fflush(stdout);
}

/* The loop: check, then wait; a pass moves on. Return: an exit status. */
static int watch_loop(lua_State *L, const struct course *c, struct student *s,
		      const struct lesson *l, int ino, bool keys)
{
	char file[200];

	for (;;) {
		enum wake why;

		if (lesson_grade(L, c, l, s) == KOBJ_EXIT_OK) {
			student_save(s, c);
			if (!(l = lesson_next(c, s))) {
				printf("\nYou have done every lesson.\n");
				return KOBJ_EXIT_OK;
			}
			printf("\nNext: lesson %d.\n\n", l->number);
			lesson_show(l, s);
			continue;
		}
		student_save(s, c);
		snprintf(file, sizeof(file), "%s.lua", l->slug);
		banner(l, s, keys);
		why = wait_for(ino, file, c, l, s, &keys);
		if (why == WAKE_QUIT)
			return KOBJ_EXIT_OK;
		printf("\n%s\n", why == WAKE_SAVED ? "Saved: checking again." : "Checking again.");
	}
}

int lesson_watch(lua_State *L, const struct course *c, struct student *s,
		 const struct lesson *l)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	struct termios saved;
	bool raw, keys = true;
	int ino, status;

	if (!l && !(l = lesson_next(c, s))) {
		printf("You have done every lesson. kobj lesson list shows them all.\n");
		return KOBJ_EXIT_OK;
	}
	ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ino < 0 || inotify_add_watch(ino, s->dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		kobj_message(KOBJ_PROGNAME, "cannot watch your folder for saves (inotify)");
		if (ino >= 0)
			close(ino);
		return KOBJ_EXIT_USAGE;
	}
	stop_watching = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	raw = keys_mode(&saved);
	status = watch_loop(L, c, s, l, ino, keys);
	if (raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	close(ino);
	return status;
}
