/*
 * The sandbox in a browser: what the Web Worker (worker.js) calls. The host state is the
 * kobj program's own: the same limits (limits.c), environment (sandbox.c), calls
 * (call.c), compiling of typed lines (chunk.c), printing (print.c), colon commands
 * (commands.c) and completion (complete.c).
 * What differs is only the input: the page's prompt hands over a whole statement, and a
 * statement that is not finished yet is answered with WEB_MORE instead of read further.
 *
 * Output goes to stdout and stderr with the terminal's colour escapes; the worker posts
 * it to the page line by line, and the page turns the escapes into colours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <emscripten.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/web/web.h"

#define INCOMPLETE (-1) /* compile(): the statement goes on (not a Lua status) */

bool kobj_color_stdout = true;
bool kobj_color_stderr = true;

lua_State *web_L;
static struct kobj_limits limits;

/* Lines typed so far, so that origins (stdin:12) count the session's lines as at the
 * terminal's prompt. */
static int lines_typed;

/* =========================================================================== opening */

/* Whether a statement or command typed at the prompt runs: only the prompt shows
 * diagnostics as they happen; a check or a demo reports them itself, as at the terminal. */
static bool at_prompt;

/* Each diagnostic as it is recorded, as the terminal's prompt shows it. */
static void show_diag(const struct kobj_diag *d, void *ctx)
{
	(void)ctx;
	if (!at_prompt)
		return;
	fflush(stdout);
	fputs("\x1b[33m", stderr);
	kobj_diag_print(d, stderr);
	fputs("\x1b[0m", stderr);
	fflush(stderr);
}

static int open_host(lua_State *L)
{
	limits_of(L)->main = L;
	sandbox_open(L);
	limits_install(L);
	sandbox_new_env(L);
	kobj_lua_on_diag(L, show_diag, NULL);
	return 0;
}

static int on_panic(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);

	fprintf(stderr, "kobj: PANIC: unprotected error in call to Lua API (%s)\n",
		msg ? msg : "error object is not a string");
	return 0;
}

/* Where the course is (the worker writes it there), and the student's folder, where the
 * worker writes the copies of the exercises: $XDG_DATA_HOME/kobj/lessons, as student.c
 * finds it, is WEB_WORK, also the current directory. */
static int make_work_dir(void)
{
	if (setenv("KOBJ_LESSONS", WEB_LESSONS, 1) != 0 || setenv("XDG_DATA_HOME", "/home", 1) != 0)
		return -1;
	mkdir("/home", 0755);
	mkdir("/home/kobj", 0755);
	mkdir(WEB_WORK, 0755);
	return chdir(WEB_WORK);
}

/**
 * web_open() - make the sandbox's Lua state, with the terminal's limits
 * @max_instructions: per statement; 0 lifts the budget (a double: JavaScript's number)
 * @max_memory_mib: 0 lifts the cap
 * Return: 0, or -1 with a message on stderr.
 */
EMSCRIPTEN_KEEPALIVE int web_open(double max_instructions, int max_memory_mib)
{
	if (web_L)
		return 0;
	if (make_work_dir() != 0) {
		perror("kobj: " WEB_WORK);
		return -1;
	}
	limits_init(&limits, (size_t)(max_memory_mib < 0 ? 0 : max_memory_mib),
		    (unsigned long long)(max_instructions < 0 ? 0 : max_instructions));
	web_L = lua_newstate(limits_alloc, &limits);
	if (!web_L) {
		fputs("kobj: cannot create the Lua state: not enough memory\n", stderr);
		return -1;
	}
	lua_atpanic(web_L, on_panic);
	lua_pushcfunction(web_L, open_host);
	if (kobj_report(web_L, lua_pcall(web_L, 0, 0, 0), "kobj") != LUA_OK) {
		lua_close(web_L);
		web_L = NULL;
		return -1;
	}
	return 0;
}

/* =========================================================================== returns */

static intptr_t returned;

EMSCRIPTEN_KEEPALIVE intptr_t web_returned(void)
{
	return returned;
}

int web_keep(int value)
{
	returned = value;
	return value;
}

const char *web_keep_text(const char *text)
{
	returned = (intptr_t)text;
	return text;
}

/* ======================================================================== statements */

static int load_numbered(lua_State *L, const char *text)
{
	return chunk_load_numbered(L, text, strlen(text), lines_typed);
}

/* As lua.c: "return <text>;" first, so that an expression prints its value; then the
 * text as a statement. Return: a Lua status (function or error on top) or INCOMPLETE. */
static int compile(lua_State *L, const char *text)
{
	int status;

	lua_pushfstring(L, "return %s;", text);
	status = load_numbered(L, lua_tostring(L, -1));
	lua_remove(L, -2);
	if (status != LUA_OK) {
		lua_pop(L, 1);
		status = load_numbered(L, text);
		if (chunk_incomplete(L, status))
			return INCOMPLETE;
	}
	lines_typed += chunk_count_lines(text);
	return status;
}

static bool is_command(const char *text)
{
	text += strspn(text, " \t");
	return text[0] == ':' && text[1] != ':';
}

static int statement(const char *text)
{
	lua_State *L = web_L;
	int status;

	if (!L)
		return WEB_ERROR;
	lua_settop(L, 0);
	at_prompt = true;
	if (is_command(text)) {
		lines_typed += chunk_count_lines(text);
		if (commands_run(L, text) == COMMAND_QUIT)
			puts("The browser's sandbox stays open: close the tab to leave.");
		status = LUA_OK;
	} else {
		status = compile(L, text);
		if (status == LUA_OK)
			status = kobj_docall(L, 0, LUA_MULTRET);
		if (status == LUA_OK)
			chunk_print_results(L, 0);
		else if (status != INCOMPLETE)
			chunk_report_error(L);
	}
	at_prompt = false;
	lua_settop(L, 0);
	fflush(stdout);
	if (status == INCOMPLETE)
		return WEB_MORE;
	return status == LUA_OK ? WEB_DONE : WEB_ERROR;
}

/**
 * web_statement() - run what the prompt collected: a colon command, or Lua
 * @text: the statement so far, its lines joined by '\n'
 * Return: WEB_DONE, WEB_ERROR (the error is printed), or WEB_MORE when the statement is
 * not finished (nothing ran; send it again with the next line).
 */
EMSCRIPTEN_KEEPALIVE int web_statement(const char *text)
{
	return web_keep(statement(text));
}

/**
 * web_prompt() - the prompt for the next line, as the terminal shows it ("kobj:12> ")
 * @pending: the lines of an unfinished statement, 0 when a new one starts
 */
EMSCRIPTEN_KEEPALIVE const char *web_prompt(int pending)
{
	static char prompt[128];

	if (!web_L)
		return "";
	snprintf(prompt, sizeof(prompt), "%s",
		 chunk_push_prompt(web_L, pending == 0, lines_typed + pending + 1));
	lua_pop(web_L, 1);
	return prompt;
}

/* ======================================================================== completion */

static char *candidates; /* the last answer of web_complete(), kept until the next call */

static const char *candidates_of(const char *line, int start, int continuation)
{
	lua_State *L = web_L;
	luaL_Buffer b;
	lua_Integer i, n;

	free(candidates);
	candidates = NULL;
	if (!L || start < 0 || (size_t)start > strlen(line))
		return "";
	lua_settop(L, 0);
	complete_set_continuation(continuation != 0);
	lua_pushcfunction(L, complete_collect);
	lua_pushstring(L, line);
	lua_pushinteger(L, start);
	if (kobj_docall(L, 2, 1) != LUA_OK || lua_type(L, -1) != LUA_TTABLE) {
		lua_settop(L, 0);
		return "";
	}
	/* the order is the terminal's too: readline sorts what it lists */
	lua_getglobal(L, "table");
	lua_getfield(L, -1, "sort");
	lua_pushvalue(L, 1);
	lua_call(L, 1, 0);
	lua_pop(L, 1);
	luaL_buffinit(L, &b);
	n = (lua_Integer)lua_rawlen(L, 1);
	for (i = 1; i <= n; i++) {
		lua_rawgeti(L, 1, i);
		luaL_addvalue(&b);
		if (i < n)
			luaL_addchar(&b, '\n');
	}
	luaL_pushresult(&b);
	candidates = strdup(lua_tostring(L, -1));
	lua_settop(L, 0);
	return candidates ? candidates : "";
}

/**
 * web_complete() - what Tab offers, as complete.c computes it for the terminal
 * @line: the text up to the cursor; @start: where the word being completed starts
 * @continuation: whether @line continues a statement (':' is then Lua, not a command)
 * Return: the candidates that replace the word, one a line ("" for none).
 */
EMSCRIPTEN_KEEPALIVE const char *web_complete(const char *line, int start, int continuation)
{
	return web_keep_text(candidates_of(line, start, continuation));
}

/* ============================================================================= views */

static char *view;           /* the last picture or timeline, kept until the next call */
static char view_error[512];

static void set_view(char *text)
{
	free(view);
	view = text;
}

/* The DOT text of the whole world with its legend, malloc'd. */
static char *world_dot(struct kobj_world *w)
{
	struct kobj_dot_options o = { .path = NULL, .legend = true };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return NULL;
	kobj_dot(w, &o, out);
	fclose(out);
	return text;
}

/**
 * web_picture() - the world now, as SVG (what `:dot x.svg` would draw)
 * Return: the SVG text, or NULL with web_view_error() saying why.
 */
EMSCRIPTEN_KEEPALIVE const char *web_picture(void)
{
	char *dot;

	set_view(NULL);
	if (!web_L)
		return NULL;
	dot = world_dot(kobj_lua_world(web_L));
	if (!dot) {
		snprintf(view_error, sizeof(view_error), "out of memory drawing the world");
		return NULL;
	}
	if (strlen(dot) > WEB_MAX_DOT) {
		snprintf(view_error, sizeof(view_error), "the world is too big to draw here "
			 "(%zu bytes of DOT); :tree shows it", strlen(dot));
		free(dot);
		return NULL;
	}
	set_view(kobj_run_dot(dot, "-Tsvg", view_error, sizeof(view_error)));
	free(dot);
	return view;
}

/**
 * web_timeline() - the page `kobj run --record` writes, for everything logged so far
 * Return: the HTML, or NULL with web_view_error() saying why.
 */
EMSCRIPTEN_KEEPALIVE const char *web_timeline(void)
{
	struct kobj_world *w;
	char *html = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	set_view(NULL);
	if (!web_L)
		return NULL;
	w = kobj_lua_world(web_L);
	if (kobj_log_count(w) > WEB_MAX_EVENTS) {
		snprintf(view_error, sizeof(view_error), "%zu events are too many for a timeline "
			 "here; kobj run --record makes one at the terminal", kobj_log_count(w));
		return NULL;
	}
	out = open_memstream(&html, &len);
	if (!out)
		return NULL;
	rc = kobj_timeline_html(w, "session", out, view_error, sizeof(view_error));
	fclose(out);
	if (rc != 0) {
		free(html);
		return NULL;
	}
	set_view(html);
	return view;
}

EMSCRIPTEN_KEEPALIVE const char *web_view_error(void)
{
	return view_error;
}
