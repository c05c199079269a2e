/*
 * What a run leaves beside its output, when asked: the timeline page (--record) and the
 * leak picture of the world at the end (--dot), for `kobj run` and `kobj lesson run` or
 * `check`. While a recording is made every call notes its whole call stack, and the page
 * shows the scripts the run used: only the script itself and .lua files found by their
 * short names in the folders the run loads from, never a file a chunk name points at.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pictures/pictures.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

void views_prepare(lua_State *L, const struct views *v)
{
	if (v->record || v->picture)
		kobj_lua_record_stacks(L, 1);
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && strcmp(s + n - m, end) == 0;
}

/* The text of the script named @name in the run's sites, or NULL. */
static char *read_source(const char *name, void *ctx)
{
	const struct views *v = ctx;
	char path[LESSON_PATH_MAX + 300];

	if (v->script && strcmp(name, v->script) == 0)
		return lesson_slurp(name);
	if (name[0] == '/' || strstr(name, "..") || !ends_with(name, ".lua"))
		return NULL;
	for (size_t i = 0; i < sizeof(v->dirs) / sizeof(v->dirs[0]) && v->dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", v->dirs[i], name);
		char *text = lesson_slurp(path);
		if (text)
			return text;
	}
	return NULL;
}

static int write_record(struct kobj_world *w, const struct views *v)
{
	char err[512];
	const struct kobj_timeline_options o = {
		.title = v->title ? v->title : "kobj", .read_source = read_source,
		.ctx = (void *)v,
	};
	FILE *out = fopen(v->record, "w");
	int failed = 0;

	if (!out) {
		snprintf(err, sizeof(err), "%s: %s", v->record, strerror(errno));
		failed = 1;
	} else if (kobj_timeline_page(w, &o, out, err, sizeof(err)) != 0) {
		failed = 1;
	}
	if (out && fclose(out) != 0 && !failed) {
		snprintf(err, sizeof(err), "%s: %s", v->record, strerror(errno));
		failed = 1;
	}
	if (failed)
		kobj_message(KOBJ_PROGNAME, err);
	return failed;
}

int views_write(lua_State *L, const struct views *v)
{
	struct kobj_world *w = kobj_lua_world(L);
	char err[512];
	int failed = 0;

	if (v->record)
		failed |= write_record(w, v);
	if (v->picture) {
		const struct kobj_dot_options d = { .legend = true, .at_exit = true };
		if (kobj_render_world(w, &d, v->picture, err, sizeof(err)) != 0) {
			kobj_message(KOBJ_PROGNAME, err);
			failed = 1;
		}
	}
	kobj_lua_record_stacks(L, 0);
	return failed;
}
