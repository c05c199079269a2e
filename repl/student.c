/*
 * The student's folder: their copies of the exercises and their progress, never among
 * the installed lessons. --dir DIR, else $XDG_DATA_HOME/kobj/lessons (by default
 * ~/.local/share/kobj/lessons). It also holds a .luarc.json that points
 * lua-language-server at the course's definitions of the sandbox's names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/kobj.h"
#include "repl/lesson.h"

static int make_dirs(const char *path)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The default student folder; Return: false when neither XDG_DATA_HOME nor HOME is set. */
static bool default_dir(char *dir, size_t size)
{
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (data && *data)
		snprintf(dir, size, "%s/kobj/lessons", data);
	else if (home && *home)
		snprintf(dir, size, "%s/.local/share/kobj/lessons", home);
	else
		return false;
	return true;
}

const char *student_shown(const char *path, char *buf, size_t size)
{
	const char *home = getenv("HOME");
	size_t n = home ? strlen(home) : 0;

	if (n > 1 && strncmp(path, home, n) == 0 && path[n] == '/')
		snprintf(buf, size, "~%s", path + n);
	else
		snprintf(buf, size, "%s", path);
	return buf;
}

/* lua-language-server reads .luarc.json: the sandbox's globals come from the course's
 * types/ folder. An existing file is the student's own and stays as it is. */
static void write_luarc(const struct student *s, const struct course *c)
{
	char path[LESSON_PATH_MAX], cwd[4096] = "";
	FILE *f;

	if (c->root[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return;
	snprintf(path, sizeof(path), "%s/.luarc.json", s->dir);
	f = fopen(path, "wx");
	if (!f)
		return;
	fprintf(f, "{\n"
		"  \"runtime.version\": \"Lua 5.4\",\n"
		"  \"workspace.library\": [\"%s%s%s/types\"],\n"
		"  \"workspace.checkThirdParty\": false\n"
		"}\n", cwd, *cwd ? "/" : "", c->root);
	fclose(f);
}

static void read_progress(struct student *s, const struct course *c)
{
	char path[LESSON_PATH_MAX], slug[128];
	int hints;
	FILE *f;

	snprintf(path, sizeof(path), "%s/progress", s->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%127s %d", slug, &hints) == 2) {
		for (int i = 0; i < c->count; i++) {
			if (strcmp(c->lessons[i].slug, slug) != 0)
				continue;
			s->done[i] = hints < 0 || s->done[i];
			if (hints > s->hints[i])
				s->hints[i] = hints;
		}
	}
	fclose(f);
}

int student_open(struct student *s, const char *dir, const struct course *c)
{
	char msg[LESSON_PATH_MAX];

	memset(s, 0, sizeof(*s));
	if (dir) {
		snprintf(s->dir, sizeof(s->dir), "%s", dir);
	} else if (!default_dir(s->dir, sizeof(s->dir))) {
		kobj_message(KOBJ_PROGNAME, "no place for your work: set HOME or use --dir DIR");
		return -1;
	}
	if (make_dirs(s->dir) != 0) {
		snprintf(msg, sizeof(msg), "%s: %s", s->dir, strerror(errno));
		kobj_message(KOBJ_PROGNAME, msg);
		return -1;
	}
	write_luarc(s, c);
	read_progress(s, c);
	return 0;
}

/* One line per lesson: "<slug> <hints shown>", and "<slug> -1" once it is done. */
void student_save(const struct student *s, const struct course *c)
{
	char path[LESSON_PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/progress", s->dir);
	f = fopen(path, "w");
	if (!f)
		return;
	for (int i = 0; i < c->count; i++) {
		if (s->hints[i])
			fprintf(f, "%s %d\n", c->lessons[i].slug, s->hints[i]);
		if (s->done[i])
			fprintf(f, "%s -1\n", c->lessons[i].slug);
	}
	fclose(f);
}

static int copy_file(const char *from, const char *to)
{
	char *text = lesson_slurp(from);
	FILE *f;

	if (!text || !(f = fopen(to, "w"))) {
		free(text);
		return -1;
	}
	fputs(text, f);
	free(text);
	return fclose(f);
}

const char *student_copy(const struct student *s, const struct lesson *l, char *path,
			 size_t size)
{
	char pristine[LESSON_PATH_MAX], msg[LESSON_PATH_MAX + 200];

	snprintf(path, size, "%s/%s.lua", s->dir, l->slug);
	if (access(path, F_OK) == 0)
		return path;
	snprintf(pristine, sizeof(pristine), "%s/exercise.lua", l->dir);
	if (copy_file(pristine, path) == 0)
		return path;
	snprintf(msg, sizeof(msg), "cannot write %s: %s", path, strerror(errno));
	kobj_message(KOBJ_PROGNAME, msg);
	return NULL;
}

bool student_copy_changed(const struct student *s, const struct lesson *l)
{
	char path[LESSON_PATH_MAX], pristine[LESSON_PATH_MAX];
	char *mine, *orig;
	bool changed;

	snprintf(path, sizeof(path), "%s/%s.lua", s->dir, l->slug);
	snprintf(pristine, sizeof(pristine), "%s/exercise.lua", l->dir);
	mine = lesson_slurp(path);
	orig = lesson_slurp(pristine);
	changed = mine && (!orig || strcmp(mine, orig) != 0);
	free(mine);
	free(orig);
	return changed;
}

int student_reset(const struct student *s, const struct lesson *l, char *backup, size_t size)
{
	char path[LESSON_PATH_MAX], pristine[LESSON_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.lua", s->dir, l->slug);
	snprintf(pristine, sizeof(pristine), "%s/exercise.lua", l->dir);
	backup[0] = '\0';
	if (student_copy_changed(s, l)) {
		snprintf(backup, size, "%s.bak", path);
		for (int n = 2; access(backup, F_OK) == 0; n++)
			snprintf(backup, size, "%s.bak%d", path, n);
		if (rename(path, backup) != 0)
			return -1;
	}
	return copy_file(pristine, path);
}
