/*
 * Showing values in the REPL. Handles (kobjects, ksets...) and tables with __tostring
 * print through it; other tables print their contents: the sequence part first, then the
 * other keys in a stable order (numbers, strings, booleans, the rest), nested tables up to
 * MAX_DEPTH, at most MAX_ITEMS entries each, "<cycle>" for a table inside itself. A table
 * that does not fit on one line is laid out one entry per line.
 *
 * Values are rendered to strings on the Lua stack first and written at the end, so an
 * error in a __tostring prints nothing half-done.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl/kobj.h"

#define MAX_DEPTH 6
#define MAX_ITEMS 100
#define LINE_WIDTH 80

#define COLOR_STRING "\x1b[32m"
#define COLOR_NUMBER "\x1b[36m"
#define COLOR_KEYWORD "\x1b[35m"
#define COLOR_HANDLE "\x1b[33m"
#define COLOR_OTHER "\x1b[34m"
#define COLOR_RESET "\x1b[0m"

struct render {
	int visited; /* stack index of the set of tables being rendered */
	bool color;
};

static void render(lua_State *L, int idx, int depth, int indent, const struct render *r,
		   bool top);

/* Wraps the string on top in @color. */
static void paint(lua_State *L, const struct render *r, const char *color)
{
	if (r->color) {
		lua_pushfstring(L, "%s%s" COLOR_RESET, color, lua_tostring(L, -1));
		lua_remove(L, -2);
	}
}

/* Columns a rendered string takes: UTF-8 code points, colour escapes skipped. */
static size_t visible_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\x1b') {
			while (i < len && s[i] != 'm')
				i++;
		} else if (((unsigned char)s[i] & 0xC0) != 0x80) {
			w++;
		}
	}
	return w;
}

/* Pushes the string at @idx quoted, with escapes for quotes and control bytes. */
static void push_quoted(lua_State *L, int idx)
{
	size_t len, i;
	const char *s = lua_tolstring(L, idx, &len);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	luaL_addchar(&b, '"');
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		char esc[8];

		if (ch == '"' || ch == '\\') {
			luaL_addchar(&b, '\\');
			luaL_addchar(&b, (char)ch);
		} else if (ch == '\n') {
			luaL_addstring(&b, "\\n");
		} else if (ch == '\t') {
			luaL_addstring(&b, "\\t");
		} else if (ch == '\r') {
			luaL_addstring(&b, "\\r");
		} else if (ch < 0x20 || ch == 0x7F) {
			snprintf(esc, sizeof(esc), "\\%u", ch);
			luaL_addstring(&b, esc);
		} else {
			luaL_addchar(&b, (char)ch);
		}
	}
	luaL_addchar(&b, '"');
	luaL_pushresult(&b);
}

/* =============================================================================== keys */

static int key_rank(lua_State *L, int i)
{
	switch (lua_type(L, i)) {
	case LUA_TNUMBER:
		return 0;
	case LUA_TSTRING:
		return 1;
	case LUA_TBOOLEAN:
		return 2;
	default:
		return 3;
	}
}

/* The sort order of keys: by kind, then value; strings bytewise, not by locale. */
static int key_less(lua_State *L)
{
	int ra = key_rank(L, 1), rb = key_rank(L, 2);
	int less;

	if (ra != rb) {
		less = ra < rb;
	} else if (ra == 0) {
		less = lua_compare(L, 1, 2, LUA_OPLT);
	} else if (ra == 1) {
		size_t la, lb;
		const char *a = lua_tolstring(L, 1, &la);
		const char *b = lua_tolstring(L, 2, &lb);
		int c = memcmp(a, b, la < lb ? la : lb);

		less = c < 0 || (c == 0 && la < lb);
	} else if (ra == 2) {
		less = !lua_toboolean(L, 1) && lua_toboolean(L, 2);
	} else {
		less = (uintptr_t)lua_topointer(L, 1) < (uintptr_t)lua_topointer(L, 2);
	}
	lua_pushboolean(L, less);
	return 1;
}

static bool is_identifier(const char *s, size_t len)
{
	static const char *const keywords[] = {
		"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
		"goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
		"true", "until", "while", NULL,
	};
	const char *const *k;
	size_t i;

	if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < len; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			return false;
	}
	for (k = keywords; *k; k++)
		if (strcmp(s, *k) == 0)
			return false;
	return true;
}

/* Pushes "name = " or "[key] = " for the key at @idx. */
static void render_key(lua_State *L, int idx, int depth, const struct render *r)
{
	size_t len = 0;
	const char *s = NULL;

	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) == LUA_TSTRING)
		s = lua_tolstring(L, idx, &len);
	if (s && is_identifier(s, len)) {
		lua_pushfstring(L, "%s = ", s);
		return;
	}
	render(L, idx, depth + 1, 0, r, false);
	lua_pushfstring(L, "[%s] = ", lua_tostring(L, -1));
	lua_remove(L, -2);
}

/* ============================================================================= tables */

/* Pushes the entries in @parts (1..@n) joined on one line if they fit, else one a line. */
static void layout(lua_State *L, int parts, int n, int indent)
{
	size_t width = 2;
	bool multiline = false;
	luaL_Buffer b;
	int k, s;

	for (k = 1; k <= n; k++) {
		size_t len;
		const char *str;

		lua_rawgeti(L, parts, k);
		str = lua_tolstring(L, -1, &len);
		multiline = multiline || memchr(str, '\n', len) != NULL;
		width += visible_width(str, len) + (k > 1 ? 2 : 0);
		lua_pop(L, 1);
	}
	luaL_buffinit(L, &b);
	luaL_addchar(&b, '{');
	if (!multiline && indent + width <= LINE_WIDTH) {
		for (k = 1; k <= n; k++) {
			if (k > 1)
				luaL_addstring(&b, ", ");
			lua_rawgeti(L, parts, k);
			luaL_addvalue(&b);
		}
	} else {
		for (k = 1; k <= n; k++) {
			luaL_addchar(&b, '\n');
			for (s = 0; s < indent + 2; s++)
				luaL_addchar(&b, ' ');
			lua_rawgeti(L, parts, k);
			luaL_addvalue(&b);
			luaL_addchar(&b, ',');
		}
		luaL_addchar(&b, '\n');
		for (s = 0; s < indent; s++)
			luaL_addchar(&b, ' ');
	}
	luaL_addchar(&b, '}');
	luaL_pushresult(&b);
}

/* Pushes the keys of table @t that are not in its sequence 1..@seq, sorted; Return: count. */
static int sorted_keys(lua_State *L, int t, lua_Integer seq)
{
	int nk = 0;

	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pop(L, 1);
		if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 &&
		    lua_tointeger(L, -1) <= seq)
			continue;
		lua_pushvalue(L, -1);
		lua_rawseti(L, -3, ++nk);
	}
	if (nk > 1) {
		lua_getglobal(L, "table"); /* the host's, which scripts cannot reach */
		lua_getfield(L, -1, "sort");
		lua_remove(L, -2);
		lua_pushvalue(L, -2);
		lua_pushcfunction(L, key_less);
		lua_call(L, 2, 0);
	}
	return nk;
}

/* Renders t[1], t[2]... into @parts (from *@n on), at most MAX_ITEMS in all.
 * Return: the length of the sequence; *@hidden counts the entries left out. */
static lua_Integer render_sequence(lua_State *L, int t, int parts, int *n, lua_Integer *hidden,
				   int depth, int indent, const struct render *r)
{
	lua_Integer i;

	for (i = 1; lua_rawgeti(L, t, i) != LUA_TNIL; i++) {
		if (*n < MAX_ITEMS) {
			render(L, -1, depth + 1, indent + 2, r, false);
			lua_rawseti(L, parts, ++*n);
		} else {
			++*hidden;
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return i - 1;
}

/* Renders "key = value" for the other keys of @t, sorted, into @parts. */
static void render_keyed(lua_State *L, int t, lua_Integer seq, int parts, int *n,
			 lua_Integer *hidden, int depth, int indent, const struct render *r)
{
	int nk = sorted_keys(L, t, seq);
	int keys = lua_gettop(L);
	int k;

	for (k = 1; k <= nk; k++) {
		if (*n >= MAX_ITEMS) {
			*hidden += nk - k + 1;
			break;
		}
		lua_rawgeti(L, keys, k);
		render_key(L, -1, depth, r);
		lua_pushvalue(L, -2);
		lua_rawget(L, t);
		render(L, -1, depth + 1, indent + 2, r, false);
		lua_remove(L, -2);
		lua_concat(L, 2);
		lua_rawseti(L, parts, ++*n);
		lua_pop(L, 1);
	}
	lua_pop(L, 1); /* keys */
}

static void render_table(lua_State *L, int t, int depth, int indent, const struct render *r)
{
	lua_Integer seq, hidden = 0;
	int parts, n = 0;

	if (depth >= MAX_DEPTH) {
		lua_pushliteral(L, "{...}");
		return;
	}
	lua_pushvalue(L, t);
	if (lua_rawget(L, r->visited) != LUA_TNIL) {
		lua_pop(L, 1);
		lua_pushliteral(L, "<cycle>");
		return;
	}
	lua_pop(L, 1);
	lua_pushvalue(L, t);
	lua_pushboolean(L, 1);
	lua_rawset(L, r->visited);

	lua_newtable(L);
	parts = lua_gettop(L);
	seq = render_sequence(L, t, parts, &n, &hidden, depth, indent, r);
	render_keyed(L, t, seq, parts, &n, &hidden, depth, indent, r);
	if (hidden) {
		lua_pushfstring(L, "... (%I more)", hidden);
		lua_rawseti(L, parts, ++n);
	}
	layout(L, parts, n, indent);
	lua_remove(L, parts);

	lua_pushvalue(L, t);
	lua_pushnil(L);
	lua_rawset(L, r->visited);
}

/* ============================================================================ values */

/* Pushes the rendering of the value at @idx. A top-level string prints as it is. */
static void render(lua_State *L, int idx, int depth, int indent, const struct render *r,
		   bool top)
{
	idx = lua_absindex(L, idx);
	luaL_checkstack(L, 10, "value too deeply nested to print");
	switch (lua_type(L, idx)) {
	case LUA_TSTRING:
		if (top) {
			lua_pushvalue(L, idx);
			return;
		}
		push_quoted(L, idx);
		paint(L, r, COLOR_STRING);
		return;
	case LUA_TNUMBER:
		luaL_tolstring(L, idx, NULL);
		paint(L, r, COLOR_NUMBER);
		return;
	case LUA_TNIL:
	case LUA_TBOOLEAN:
		luaL_tolstring(L, idx, NULL);
		paint(L, r, COLOR_KEYWORD);
		return;
	case LUA_TTABLE:
		if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) {
			render_table(L, idx, depth, indent, r);
			return;
		}
		lua_pop(L, 1);
		luaL_tolstring(L, idx, NULL);
		paint(L, r, COLOR_HANDLE);
		return;
	case LUA_TUSERDATA:
		luaL_tolstring(L, idx, NULL);
		paint(L, r, COLOR_HANDLE);
		return;
	default:
		luaL_tolstring(L, idx, NULL);
		paint(L, r, COLOR_OTHER);
		return;
	}
}

int print_values(lua_State *L)
{
	int n = lua_gettop(L);
	struct render r;
	int i;

	luaL_checkstack(L, n + 10, "too many results to print");
	lua_newtable(L);
	r.visited = lua_gettop(L);
	r.color = kobj_color_stdout;
	for (i = 1; i <= n; i++)
		render(L, i, 0, 0, &r, true);
	for (i = 1; i <= n; i++) {
		size_t len;
		const char *s = lua_tolstring(L, r.visited + i, &len);

		if (i > 1)
			fputc('\t', stdout);
		fwrite(s, 1, len, stdout);
	}
	fputc('\n', stdout);
	fflush(stdout);
	return 0;
}
