/*
 * The course: where lessons are installed, where a student's working copies and progress
 * live, and running a lesson's scripts in the sandbox. lesson.c holds the commands,
 * lesson_run.c the running, lesson_verify.c the grading of a whole class.
 */
#ifndef KOBJ_REPL_LESSON_H
#define KOBJ_REPL_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#define LESSON_MAX 64

struct lesson {
	int number;
	char slug[128];     /* "01-refcounts" */
	char dir[4096];     /* the installed lesson's directory */
	char title[256];    /* from the first line of lesson.md */
};

struct course {
	char root[4096];    /* the installed lessons/ directory */
	struct lesson lessons[LESSON_MAX];
	int count;
};

/* course_find() - the installed lessons, in order. Return: 0, or -1 with a message. */
int course_find(struct course *c);
/* course_lesson() - the lesson numbered @n, or NULL with a message naming the range. */
const struct lesson *course_lesson(const struct course *c, const char *n);

/* What a check run found. */
struct verdict {
	int passed, failed;
	bool lua_error;     /* the script or the checks raised */
	char error[200];    /* then the first line of the error */
};

/*
 * lesson_check() - run @file (a student's exercise) then the lesson's check.lua in a
 * fresh world and environment of @L, printing the verdict. Return: the verdict.
 */
struct verdict lesson_check(lua_State *L, const struct lesson *l, const char *file);
/* lesson_demo() - run the lesson's demo; predictions are asked when @ask. */
int lesson_demo(lua_State *L, const struct lesson *l, bool ask);
/* lesson_open() - load the vocabulary and run @file in the current environment. */
int lesson_open(lua_State *L, const struct lesson *l, const char *file);

/* lesson_print_findings() - the run's diagnostics, one line each, and its leak count. */
void lesson_print_findings(lua_State *L);

/* lesson_verify() - `kobj lesson verify DIR`; Return: an exit status. */
int lesson_verify(lua_State *L, const struct course *c, int argc, char **argv);

/* Where the default student folder keeps its copy of @l's exercise. */
void lesson_working_copy_path(const struct lesson *l, char *path, size_t size);

/* The text of a file, malloc'd; NULL if it cannot be read. */
char *lesson_slurp(const char *path);

#endif
