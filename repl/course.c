/*
 * The course as installed: the lessons/ directory and its numbered lesson folders. It is
 * found through $KOBJ_LESSONS, next to the program (Bazel's runfiles, or
 * PREFIX/share/kobj/course for a program installed as PREFIX/bin/kobj), or ./lessons.
 */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/kobj.h"
#include "repl/lesson.h"

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* @root = @base followed by @rest; Return: whether that is a directory. */
static bool try_root(char *root, size_t size, const char *base, const char *rest)
{
	return (size_t)snprintf(root, size, "%s%s", base, rest) < size && is_dir(root);
}

static bool find_root(char *root, size_t size)
{
	const char *env = getenv("KOBJ_LESSONS");
	char exe[4096];
	ssize_t n;

	if (env && *env)
		return try_root(root, size, env, "");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		if (try_root(root, size, exe, ".runfiles/kobject_sandbox/lessons"))
			return true;
		if (try_root(root, size, dirname(dirname(exe)), "/share/kobj/course"))
			return true;
	}
	env = getenv("RUNFILES_DIR");
	if (env && try_root(root, size, env, "/kobject_sandbox/lessons"))
		return true;
	return try_root(root, size, "lessons", "");
}

static void read_title(struct lesson *l)
{
	char path[LESSON_PATH_MAX], line[512];
	FILE *f;

	snprintf(l->title, sizeof(l->title), "%s", l->slug);
	snprintf(path, sizeof(path), "%s/lesson.md", l->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		char *t = line + strspn(line, "# ");
		t += strspn(t, "0123456789");
		t += strspn(t, ". ");
		t[strcspn(t, "\n")] = '\0';
		if (*t)
			snprintf(l->title, sizeof(l->title), "%s", t);
	}
	fclose(f);
}

static int by_number(const void *a, const void *b)
{
	return ((const struct lesson *)a)->number - ((const struct lesson *)b)->number;
}

/* Fills @l from the directory entry @name of @root; Return: false if it is no lesson. */
static bool add_lesson(struct lesson *l, const char *root, const char *name)
{
	char *end;
	long n = strtol(name, &end, 10);

	if (end == name || *end != '-' || n <= 0 || n > 999 || strlen(name) >= sizeof(l->slug))
		return false;
	size_t rlen = strlen(root), len = strlen(name);

	if (rlen + len + 2 > sizeof(l->dir))
		return false;
	memcpy(l->dir, root, rlen); /* memcpy: @root lives in the same course as @l */
	l->dir[rlen] = '/';
	memcpy(l->dir + rlen + 1, name, len + 1);
	if (!is_dir(l->dir))
		return false;
	l->number = (int)n;
	snprintf(l->slug, sizeof(l->slug), "%s", name);
	read_title(l);
	return true;
}

int course_find(struct course *c)
{
	DIR *d;
	struct dirent *e;

	c->count = 0;
	if (!find_root(c->root, sizeof(c->root)) || !(d = opendir(c->root))) {
		kobj_message(KOBJ_PROGNAME, "cannot find the lessons: set KOBJ_LESSONS to the "
			     "lessons/ directory of the sandbox");
		return -1;
	}
	while ((e = readdir(d)) && c->count < LESSON_MAX)
		if (add_lesson(&c->lessons[c->count], c->root, e->d_name))
			c->count++;
	closedir(d);
	qsort(c->lessons, (size_t)c->count, sizeof(c->lessons[0]), by_number);
	return 0;
}

const struct lesson *course_lesson(const struct course *c, const char *n)
{
	char *end;
	long want = n ? strtol(n, &end, 10) : 0;
	char msg[256];

	for (int i = 0; n && *end == '\0' && i < c->count; i++)
		if (c->lessons[i].number == want)
			return &c->lessons[i];
	snprintf(msg, sizeof(msg), "no lesson '%.32s': the lessons are numbered %d to %d "
		 "(kobj lesson list)", n ? n : "", c->count ? c->lessons[0].number : 0,
		 c->count ? c->lessons[c->count - 1].number : 0);
	kobj_message(KOBJ_PROGNAME, msg);
	return NULL;
}

int course_index(const struct course *c, const struct lesson *l)
{
	return (int)(l - c->lessons);
}
