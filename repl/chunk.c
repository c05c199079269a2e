/*
 * What is typed at a prompt, the terminal's (interactive.c) or the browser's (web/web.c):
 * each statement is compiled as if it followed every line typed before it, so that the
 * origins the log and diagnostics show (stdin:12) count the session's lines; a syntax
 * error at <eof> means that the statement goes on (lua.c `incomplete`); its results are
 * printed through print_values.
 */
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl/kobj.h"

#define EOFMARK "<eof>"

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

void chunk_print_results(lua_State *L, int base)
{
	int n = lua_gettop(L) - base;

	if (n <= 0)
		return;
	luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
	lua_pushcfunction(L, print_values);
	lua_insert(L, base + 1);
	kobj_report(L, kobj_docall(L, n, 0), NULL);
}
