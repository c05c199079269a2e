/*
 * What is typed at a prompt, the terminal's (interactive.c) or the browser's (web/web.c):
 * each statement is compiled as if it followed every line typed before it, so that the
 * origins the log and diagnostics show (stdin:12) count the session's lines; a syntax
 * error at <eof> means that the statement goes on (lua.c `incomplete`); its results are
 * printed through print_values, and its error without a traceback that only names the
 * typed line (:trace shows it whole). The prompt names the line it reads.
 */
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl/kobj.h"

#define EOFMARK "<eof>"

/* The prompts show the number of the line they read: the number that a log line, a
 * diagnostic or a leak report will give as stdin:N. */
#define PROMPT1 "kobj:%d> "
#define PROMPT2 "  ...%d> "

const char *chunk_push_prompt(lua_State *L, bool first, int lineno)
{
	sandbox_push_env(L);
	lua_pushstring(L, first ? "_PROMPT" : "_PROMPT2");
	lua_rawget(L, -2);
	lua_remove(L, -2);
	if (lua_type(L, -1) != LUA_TSTRING) {
		lua_pop(L, 1);
		lua_pushfstring(L, first ? PROMPT1 : PROMPT2, lineno);
	}
	return lua_tostring(L, -1);
}

int chunk_count_lines(const char *text)
{
	int n = 1;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

int chunk_load_numbered(lua_State *L, const char *text, size_t len, int lines_before)
{
	luaL_Buffer b;
	char *pad = luaL_buffinitsize(L, &b, (size_t)lines_before + len);
	const char *numbered;
	size_t n;
	int status;

	memset(pad, '\n', (size_t)lines_before);
	memcpy(pad + lines_before, text, len);
	luaL_pushresultsize(&b, (size_t)lines_before + len);
	numbered = lua_tolstring(L, -1, &n);
	status = sandbox_loadbuffer(L, numbered, n, "=stdin");
	lua_remove(L, -2);
	return status;
}

bool chunk_incomplete(lua_State *L, int status)
{
	size_t len, mark = sizeof(EOFMARK) - 1;
	const char *msg;

	if (status != LUA_ERRSYNTAX)
		return false;
	msg = lua_tolstring(L, -1, &len);
	if (msg && len >= mark && strcmp(msg + len - mark, EOFMARK) == 0) {
		lua_pop(L, 1);
		return true;
	}
	return false;
}

/* =================================================================== errors, results */

static char *last_error; /* with its traceback, for :trace */

const char *repl_last_error(void)
{
	return last_error;
}

void chunk_forget_error(void)
{
	free(last_error);
	last_error = NULL;
}

/* Whether every frame of the traceback at @tb is the typed line's or C's: then it says
 * nothing that the message does not. */
static bool typed_frames_only(const char *tb)
{
	const char *frame = strchr(tb + 1, '\n');

	for (; frame; frame = strchr(frame + 1, '\n')) {
		const char *f = frame + 1 + strspn(frame + 1, "\t ");

		if (strncmp(f, "stdin:", 6) != 0 && strncmp(f, "[C]:", 4) != 0 &&
		    strncmp(f, "(...", 4) != 0)
			return false;
	}
	return true;
}

void chunk_report_error(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);
	const char *tb;

	if (!msg)
		msg = "(error object is not a string)";
	free(last_error);
	last_error = strdup(msg);
	tb = strstr(msg, "\nstack traceback:");
	if (tb && (limits_of(L)->fatal == KOBJ_FATAL_INTERRUPT || typed_frames_only(tb))) {
		lua_pushlstring(L, msg, (size_t)(tb - msg));
		kobj_message(NULL, lua_tostring(L, -1));
		lua_pop(L, 1);
	} else {
		kobj_message(NULL, msg);
	}
	lua_pop(L, 1);
}

void chunk_print_results(lua_State *L, int base)
{
	int n = lua_gettop(L) - base;

	if (n <= 0)
		return;
	luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
	lua_pushcfunction(L, print_values);
	lua_insert(L, base + 1);
	if (kobj_docall(L, n, 0) != LUA_OK)
		chunk_report_error(L);
}
