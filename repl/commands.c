/*
 * The REPL's colon commands. Each one is a view over the current world (through the core's
 * printers) or an action on the session; a unique prefix is enough (":q" is ":quit").
 * A line starting with "::" is Lua (a goto label), not a command.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "core/sysfs/sysfs.h"
#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

struct command {
	const char *name;
	const char *args;
	const char *help;
	enum command_result (*fn)(lua_State *L, const char *arg);
};

static const struct command *command_table(void);

/* "':log': <msg>" on stderr, like every other error the REPL prints. */
static enum command_result command_error(const char *name, const char *msg, const char *arg)
{
	char buf[512];

	/* a long argument is cut: the message stays readable */
	if (snprintf(buf, sizeof(buf), ":%s: %s%s%s%s", name, msg, arg ? " '" : "",
		     arg ? arg : "", arg ? "'" : "") >= (int)sizeof(buf))
		memcpy(buf + sizeof(buf) - 5, "...'", 5);
	kobj_message(NULL, buf);
	return COMMAND_DONE;
}

static enum command_result cmd_help(lua_State *L, const char *arg)
{
	const struct command *c;
	int width = 0;

	(void)L;
	(void)arg;
	fputs("Type Lua statements or expressions; the kernel's names are globals\n"
	      "(kobject_init, kobject_get, kobject_put, kset_register, ls, cat, tree, ...).\n"
	      "An expression alone prints its value; an incomplete statement continues\n"
	      "on the next line. The prompt shows the number of the line it reads, the N\n"
	      "of stdin:N in logs and diagnostics. Tab completes names, fields and sysfs\n"
	      "paths in strings. Ctrl-C interrupts a running statement or clears the line;\n"
	      "Ctrl-D exits.\n\n"
	      "Commands (a unique prefix is enough):\n", stdout);
	for (c = command_table(); c->name; c++) {
		int w = 1 + (int)strlen(c->name) + (*c->args ? 1 + (int)strlen(c->args) : 0);
		if (w > width)
			width = w;
	}
	for (c = command_table(); c->name; c++) {
		char left[64];

		snprintf(left, sizeof(left), ":%s%s%s", c->name, *c->args ? " " : "", c->args);
		printf("  %-*s  %s\n", width, left, c->help);
	}
	return COMMAND_DONE;
}

/* A terminal's colours for the parts of a tree line. */
static const struct kobj_tree_style ansi = {
	.object = "\033[32m", .kset = "\033[1m", .file = "\033[2m", .mark = "\033[1;31m",
	.faded = "\033[2m", .end = "\033[0m",
};

/* The words of a command's argument, split at spaces: at most @max, each 1023 bytes. */
static int split_words(const char *arg, char words[][1024], int max)
{
	int n = 0;
	while (*arg && n < max) {
		while (isspace((unsigned char)*arg))
			arg++;
		if (!*arg)
			break;
		size_t len = strcspn(arg, " \t");
		snprintf(words[n++], 1024, "%.*s", (int)(len < 1023 ? len : 1023), arg);
		arg += len;
	}
	return n;
}

/* A whole number for option @opt of :@cmd; Return: false after a message. */
static bool number_option(const char *cmd, const char *opt, const char *word, unsigned *out)
{
	char *end, msg[128];
	errno = 0;
	unsigned long v = strtoul(word ? word : "", &end, 10);
	if (!word || !isdigit((unsigned char)*word) || *end || errno || v > 1000000) {
		snprintf(msg, sizeof(msg), "%s wants a whole number, got", opt);
		command_error(cmd, msg, word ? word : "nothing");
		return false;
	}
	*out = (unsigned)v;
	return true;
}

/* :tree [-L depth] [--filelimit N] [path] */
static enum command_result cmd_tree(lua_State *L, const char *arg)
{
	char words[6][1024];
	int n = split_words(arg, words, 6);
	const char *path = NULL;
	struct kobj_tree_options o = { .style = kobj_color_stdout ? &ansi : NULL, .held = true };

	for (int i = 0; i < n; i++) {
		if (strcmp(words[i], "-L") == 0 || strcmp(words[i], "--filelimit") == 0) {
			bool depth = words[i][1] == 'L';
			if (!number_option("tree", words[i], i + 1 < n ? words[i + 1] : NULL,
					   depth ? &o.max_depth : &o.file_limit))
				return COMMAND_DONE;
			i++;
		} else if (words[i][0] == '-' || path) {
			return command_error("tree", "wants [-L depth] [--filelimit N] [path], got",
					     arg);
		} else {
			path = words[i];
		}
	}
	if (kobj_print_tree(kobj_lua_world(L), path ? path : "/sys", &o, stdout) < 0)
		return command_error("tree", "no such directory in sysfs:", path);
	return COMMAND_DONE;
}

static enum command_result cmd_log(lua_State *L, const char *arg)
{
	struct kobj_world *w = kobj_lua_world(L);
	unsigned long n = 0;

	if (*arg) {
		char *end;

		errno = 0;
		n = strtoul(arg, &end, 10);
		if (!isdigit((unsigned char)*arg) || *end || errno)
			return command_error("log", "wants a number of events (none: all), got",
					     arg);
	}
	if (kobj_log_count(w) == 0)
		puts("the log is empty");
	else
		kobj_log_print(w, n, stdout);
	return COMMAND_DONE;
}

static bool is_picture(const char *s)
{
	const char *dot = strrchr(s, '.');
	return dot && (strcmp(dot, ".svg") == 0 || strcmp(dot, ".png") == 0 ||
		       strcmp(dot, ".pdf") == 0 || strcmp(dot, ".dot") == 0);
}

/* :dot [--fold N] [--at-exit] [path] [file]: DOT text on the screen, or a picture. */
static enum command_result cmd_dot(lua_State *L, const char *arg)
{
	static const char usage[] = "wants [--fold N] [--at-exit] [path] "
				    "[file.svg|.png|.pdf|.dot], got";
	char words[6][1024], err[512];
	int n = split_words(arg, words, 6);
	struct kobj_dot_options o = { .legend = true };
	const char *file = NULL;

	for (int i = 0; i < n; i++) {
		if (strcmp(words[i], "--fold") == 0) {
			if (!number_option("dot", "--fold", i + 1 < n ? words[i + 1] : NULL, &o.fold))
				return COMMAND_DONE;
			o.fold = o.fold ? o.fold : KOBJ_DOT_NO_FOLD;
			i++;
		} else if (strcmp(words[i], "--at-exit") == 0) {
			o.at_exit = true;
		} else if (words[i][0] == '-' || file) {
			return command_error("dot", usage, arg);
		} else if (is_picture(words[i])) {
			file = words[i];
		} else if (o.path) {
			return command_error("dot", usage, arg);
		} else {
			o.path = words[i];
		}
	}
	if (o.path && !sysfs_lookup(kobj_lua_world(L), o.path))
		return command_error("dot", "no such directory in sysfs:", o.path);
	if (file) {
		if (kobj_render_world(kobj_lua_world(L), &o, file, err, sizeof(err)) != 0)
			command_error("dot", err, NULL);
		else
			printf("wrote %s\n", file);
		return COMMAND_DONE;
	}
	if (kobj_dot(kobj_lua_world(L), &o, stdout) < 0)
		return command_error("dot", "no such directory in sysfs:", o.path);
	return COMMAND_DONE;
}

static enum command_result cmd_leaks(lua_State *L, const char *arg)
{
	(void)arg;
	kobj_leak_report(kobj_lua_world(L), stdout);
	return COMMAND_DONE;
}

static enum command_result cmd_diag(lua_State *L, const char *arg)
{
	struct kobj_world *w = kobj_lua_world(L);
	size_t i, n = kobj_diag_count(w);

	(void)arg;
	if (n == 0)
		puts("No diagnostics.");
	for (i = 0; i < n; i++)
		kobj_diag_print(kobj_diag_at(w, i), stdout);
	return COMMAND_DONE;
}

static int reset_world(lua_State *L)
{
	kobj_lua_reset(L);
	sandbox_new_env(L);
	return 0;
}

static enum command_result cmd_reset(lua_State *L, const char *arg)
{
	(void)arg;
	lua_pushcfunction(L, reset_world);
	if (kobj_report(L, kobj_docall(L, 0, 0), NULL) == LUA_OK)
		puts("a fresh world: no objects, an empty log; old handles are stale");
	return COMMAND_DONE;
}

static enum command_result cmd_load(lua_State *L, const char *arg)
{
	int status;

	if (!*arg)
		return command_error("load", "needs the name of a Lua file", NULL);
	status = sandbox_loadfile(L, arg);
	if (status == LUA_OK)
		status = kobj_docall(L, 0, 0);
	kobj_report(L, status, NULL);
	return COMMAND_DONE;
}

/* :lesson N: the lesson's text, then the student's copy of its exercise (made from the
 * shipped one if there is none yet) loaded into this session. */
static enum command_result cmd_lesson(lua_State *L, const char *arg)
{
	struct course *c = calloc(1, sizeof(*c));
	struct student *s = calloc(1, sizeof(*s));
	const struct lesson *l;
	char path[LESSON_PATH_MAX], shown[LESSON_PATH_MAX], name[300];
	char banner[LESSON_PATH_MAX + 400];

	if (!c || !s)
		goto out;
	if (!*arg) {
		command_error("lesson", "needs the number of a lesson (kobj lesson list)", NULL);
		goto out;
	}
	if (course_find(c) != 0 || !(l = course_lesson(c, arg)) ||
	    student_open(s, NULL, c) != 0 || lesson_show(l, s) != KOBJ_EXIT_OK ||
	    !student_copy(s, l, path, sizeof(path)))
		goto out;
	snprintf(name, sizeof(name), "%s.lua", l->slug);
	snprintf(banner, sizeof(banner), "\nLoading %s: its functions are ready to call; "
		 "check(), expect and predict() are here too. ':tree' shows the world; "
		 "'kobj lesson edit %d' in another terminal opens the file, ':lesson %d' loads "
		 "it again.\n", student_shown(path, shown, sizeof(shown)), l->number, l->number);
	wrap_text(banner, stdout);
	lesson_open(L, l, path, name);
out:
	free(c);
	free(s);
	return COMMAND_DONE;
}

/* :trace: the last error with its traceback. */
static enum command_result cmd_trace(lua_State *L, const char *arg)
{
	const char *last = repl_last_error();

	(void)L;
	(void)arg;
	if (last)
		puts(last);
	else
		puts("No error yet.");
	return COMMAND_DONE;
}

static enum command_result cmd_quit(lua_State *L, const char *arg)
{
	(void)L;
	(void)arg;
	return COMMAND_QUIT;
}

static const struct command commands[] = {
	{ "help", "", "this list", cmd_help },
	{ "tree", "[-L N] [--filelimit N] [path]", "the sysfs tree with refcounts (default /sys)",
	  cmd_tree },
	{ "log", "[n]", "the event log, or its last n events", cmd_log },
	{ "dot", "[--fold N] [--at-exit] [path] [file]",
	  "a graphviz picture: DOT text, or file.svg/.png/.pdf", cmd_dot },
	{ "leaks", "", "objects not released, and the references that hold them", cmd_leaks },
	{ "diag", "", "every diagnostic so far, with its explanation", cmd_diag },
	{ "reset", "", "a fresh world and environment (old handles go stale)", cmd_reset },
	{ "load", "FILE", "run a Lua file in this session", cmd_load },
	{ "lesson", "N", "lesson N's text, and your copy of its exercise loaded", cmd_lesson },
	{ "trace", "", "the last error again, with its traceback", cmd_trace },
	{ "quit", "", "leave (Ctrl-D does too)", cmd_quit },
	{ NULL, NULL, NULL, NULL },
};

static const struct command *command_table(void)
{
	return commands;
}

const char *const commands_names[] = {
	"help", "tree", "log", "dot", "leaks", "diag", "reset", "load", "lesson", "trace", "quit",
	NULL,
};

/* The command named @name (@len bytes): exact, else a unique prefix; NULL with a message. */
static const struct command *find_command(const char *name, size_t len)
{
	const struct command *c, *found = NULL;
	char msg[256];
	size_t at = 0;
	int matches = 0;

	for (c = commands; c->name; c++)
		if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
			return c;
	for (c = commands; c->name; c++) {
		if (strncmp(c->name, name, len) == 0 && len > 0) {
			found = c;
			matches++;
			at += (size_t)snprintf(msg + at, at < sizeof(msg) ? sizeof(msg) - at : 0,
					       "%s:%s", matches > 1 ? ", " : "", c->name);
		}
	}
	if (matches == 1)
		return found;
	if (matches > 1) {
		char text[400];

		snprintf(text, sizeof(text), "ambiguous command ':%.*s' (%s)",
			 (int)(len > 64 ? 64 : len), name, msg);
		kobj_message(NULL, text);
	} else {
		char text[200];

		snprintf(text, sizeof(text), "unknown command ':%.*s' (type :help for the list)",
			 (int)(len > 64 ? 64 : len), name);
		kobj_message(NULL, text);
	}
	return NULL;
}

enum command_result commands_run(lua_State *L, const char *line)
{
	const struct command *c;
	const char *name, *arg, *end;
	enum command_result result;
	size_t len;

	while (isspace((unsigned char)*line))
		line++;
	name = line + 1; /* after ':' */
	len = strcspn(name, " \t\r\n");
	arg = name + len;
	while (isspace((unsigned char)*arg))
		arg++;
	end = arg + strlen(arg);
	while (end > arg && isspace((unsigned char)end[-1]))
		end--;
	fflush(stdout);
	c = find_command(name, len);
	if (!c)
		return COMMAND_DONE;
	lua_pushlstring(L, arg, (size_t)(end - arg)); /* the argument, trimmed */
	result = c->fn(L, lua_tostring(L, -1));
	lua_pop(L, 1);
	fflush(stdout);
	return result;
}
