/*
 * The course: where lessons are installed (course.c), where a student's working copies
 * and progress live (student.c), running a lesson's scripts in the sandbox
 * (lesson_run.c), the `kobj lesson` commands (lesson.c), re-checking on every save
 * (lesson_watch.c) and grading a whole class (lesson_verify.c).
 */
#ifndef KOBJ_REPL_LESSON_H
#define KOBJ_REPL_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#define LESSON_MAX 64
/* Enough for a student folder or lesson directory, a slug and a suffix. */
#define LESSON_PATH_MAX 4400

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

/* ------------------------------------------------------------------------ course.c */

/* course_find() - the installed lessons, in order. Return: 0, or -1 with a message. */
int course_find(struct course *c);
/* course_lesson() - the lesson numbered @n, or NULL with a message naming the range. */
const struct lesson *course_lesson(const struct course *c, const char *n);
/* The position of @l in @c->lessons. */
int course_index(const struct course *c, const struct lesson *l);

/* ----------------------------------------------------------------------- student.c */

struct student {
	char dir[4096];
	bool done[LESSON_MAX];  /* per lesson of the course, in its order */
	int hints[LESSON_MAX];  /* how many hints were shown */
};

/*
 * student_open() - the folder @dir (NULL: the default one), made if needed, and the
 * progress kept there. Return: 0, or -1 with a message.
 */
int student_open(struct student *s, const char *dir, const struct course *c);
void student_save(const struct student *s, const struct course *c);
/* The student's copy of @l's exercise in @path, made from the lesson's on first use.
 * Return: @path, or NULL with a message. */
const char *student_copy(const struct student *s, const struct lesson *l, char *path,
			 size_t size);
/* Whether the student's copy exists and differs from the shipped exercise. */
bool student_copy_changed(const struct student *s, const struct lesson *l);
/* student_reset() - the shipped exercise again; a changed copy is first renamed to
 * NN-name.lua.bak (or .bak2, ...), named in @backup ("" when none was needed).
 * Return: 0, or -1 with errno. */
int student_reset(const struct student *s, const struct lesson *l, char *backup, size_t size);
/* @path as a person reads it: "~/..." inside $HOME. Return: @buf. */
const char *student_shown(const char *path, char *buf, size_t size);

/* -------------------------------------------------------------------- lesson_run.c */

/* What a check run found. */
struct verdict {
	int passed, failed;
	bool lua_error;     /* the script or the checks raised */
	char error[200];    /* then the first line of the error */
};

/*
 * lesson_check() - run @file (a student's exercise) then the lesson's check.lua in a
 * fresh world and environment of @L, printing the verdict. Return: the verdict.
 * lesson_check_as() names the file @shown in origins and messages.
 */
struct verdict lesson_check(lua_State *L, const struct lesson *l, const char *file);
struct verdict lesson_check_as(lua_State *L, const struct lesson *l, const char *file,
			       const char *shown);
/* lesson_demo() - run the lesson's demo; predictions are asked when @ask. */
int lesson_demo(lua_State *L, const struct lesson *l, bool ask);
/* lesson_open() - load the vocabulary and run @file (named @shown) in the current
 * environment. Return: a Lua status. */
int lesson_open(lua_State *L, const struct lesson *l, const char *file, const char *shown);
/*
 * lesson_script_vocabulary() - before `kobj run FILE`: a FILE inside a lesson's folder
 * (lessons/NN-name/demo.lua) gets the lessons' vocabulary (step, show_tree, predict...).
 * Return: a Lua status (LUA_OK when FILE is no lesson's).
 */
int lesson_script_vocabulary(lua_State *L, const char *script);

/* The text of a file, malloc'd; NULL if it cannot be read. */
char *lesson_slurp(const char *path);

/* ------------------------------------------------------------------------ lesson.c */

/* lesson_print_findings() - the run's diagnostics, one line each, and its leak count. */
void lesson_print_findings(lua_State *L);
/* lesson_show() - @l's text (wrapped to the terminal), and where the student's copy is. */
int lesson_show(const struct lesson *l, const struct student *s);
/* lesson_grade() - check the student's copy of @l, print the verdict and mark the
 * lesson done when it passes. Return: an exit status. */
int lesson_grade(lua_State *L, const struct course *c, const struct lesson *l,
		 struct student *s);
/* lesson_hint() - the next hint of @l, after the ones already shown. */
int lesson_hint(const struct course *c, const struct lesson *l, struct student *s);
/* The first lesson not done, or NULL when all are. */
const struct lesson *lesson_next(const struct course *c, const struct student *s);

/* ------------------------------------------------------------------ lesson_watch.c */

/* `kobj lesson watch [N]`: check on every save, move on when it passes. */
int lesson_watch(lua_State *L, const struct course *c, struct student *s,
		 const struct lesson *l);

/* ----------------------------------------------------------------- lesson_verify.c */

/* lesson_verify() - `kobj lesson verify DIR`; Return: an exit status. */
int lesson_verify(lua_State *L, const struct course *c, int argc, char **argv);

#endif
