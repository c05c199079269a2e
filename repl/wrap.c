/*
 * Text wrapped to the terminal: explanations, lesson texts and hints break at spaces
 * instead of in the middle of a word at the terminal's edge. A continuation line is
 * indented like the line it continues (and past a "- " bullet). Lesson texts are
 * Markdown, already filled to 90 columns: on a narrower terminal their paragraphs are
 * filled again. Output that is not a terminal is written unchanged, so files and tests
 * see stable text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl/kobj.h"

#define TAB 8
/* The width lesson texts are filled to; wider terminals show them as written. */
#define TEXT_WIDTH 90

int wrap_width(int fd)
{
	struct winsize ws;

	if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col < 20)
		return 0;
	return ws.ws_col - 1; /* the last column would make some terminals wrap early */
}

/* Columns @s (@n bytes) takes: UTF-8 continuation bytes take none, tabs go to stops. */
static int columns_after(int col, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\t')
			col += TAB - col % TAB;
		else if ((c & 0xc0) != 0x80)
			col++;
	}
	return col;
}

/* The indentation of the continuation lines of @s: its own, and past a list marker
 * ("- ", "* ") or the arrow before a diagnostic's explanation ("-> "). */
static int hanging_indent(const char *s, size_t n, int width)
{
	static const char *const markers[] = { "- ", "* ", "-> ", NULL };
	size_t lead = strspn(s, " ");
	int indent = (int)(lead < n ? lead : n);

	for (const char *const *m = markers; *m; m++) {
		size_t len = strlen(*m);

		if (lead + len <= n && strncmp(s + lead, *m, len) == 0) {
			indent += (int)len;
			break;
		}
	}
	return indent > width / 2 ? 4 : indent;
}

/* One line (no newline in it, none added) broken at spaces so that no part passes @width. */
static void wrap_line(const char *s, size_t n, int width, FILE *out)
{
	int indent, col;
	size_t i;

	if (width <= 0 || columns_after(0, s, n) <= width) {
		fwrite(s, 1, n, out);
		return;
	}
	indent = hanging_indent(s, n, width);
	i = strspn(s, " ");
	fwrite(s, 1, i, out);
	col = (int)i;
	while (i < n) {
		size_t gap = i, word;

		while (gap < n && s[gap] == ' ')
			gap++;
		word = gap;
		while (word < n && s[word] != ' ')
			word++;
		if (gap == n)
			break;
		int end = columns_after(columns_after(col, s + i, gap - i), s + gap, word - gap);
		if (end > width && col > indent) {
			fprintf(out, "\n%*s", indent, "");
			col = columns_after(indent, s + gap, word - gap);
		} else {
			fwrite(s + i, 1, gap - i, out);
			col = end;
		}
		fwrite(s + gap, 1, word - gap, out);
		i = word;
	}
}

void wrap_fputs(const char *text, int width, FILE *out)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		wrap_line(text, n, width, out);
		text += n;
		if (*text == '\n')
			fputc(*text++, out);
	}
}

/* Whether the line @s (@n bytes) starts an item of its own: a list item or a heading. */
static bool starts_item(const char *s, size_t n)
{
	size_t lead = strspn(s, " "), digits;
	const char *t = s + lead;

	if (lead + 2 > n)
		return false;
	if (t[0] == '#' || ((t[0] == '-' || t[0] == '*') && t[1] == ' '))
		return true;
	digits = strspn(t, "0123456789");
	return digits > 0 && lead + digits + 2 <= n && t[digits] == '.' && t[digits + 1] == ' ';
}

/* Lines kept as they are: code (indented four spaces, or in a ``` fence) and tables. */
static bool verbatim(const char *s, size_t n, bool *fenced)
{
	if (n >= 3 && strncmp(s, "```", 3) == 0) {
		*fenced = !*fenced;
		return true;
	}
	return *fenced || (n >= 4 && strncmp(s, "    ", 4) == 0) || (n > 0 && s[0] == '|');
}

/* Writes the item gathered in @item (its lines joined) wrapped, and empties it. */
static void flush_item(char *item, size_t *len, int width, FILE *out)
{
	if (*len == 0)
		return;
	wrap_line(item, *len, width, out);
	fputc('\n', out);
	*len = 0;
}

void wrap_text(const char *text, FILE *out)
{
	int width = wrap_width(fileno(out));
	bool fenced = false;
	size_t len = 0;
	char *item;

	if (width <= 0 || width >= TEXT_WIDTH || !(item = malloc(strlen(text) + 1))) {
		wrap_fputs(text, width, out);
		return;
	}
	while (*text) {
		const char *line = text;
		size_t n = strcspn(text, "\n");

		text += n + (text[n] == '\n');
		if (n == 0 || verbatim(line, n, &fenced)) {
			flush_item(item, &len, width, out);
			wrap_line(line, n, width, out);
			fputc('\n', out);
			continue;
		}
		if (starts_item(line, n))
			flush_item(item, &len, width, out);
		if (len > 0) {
			size_t lead = strspn(line, " ");

			item[len++] = ' ';
			line += lead;
			n -= lead;
		}
		memcpy(item + len, line, n);
		len += n;
	}
	flush_item(item, &len, width, out);
	free(item);
}

int wrap_print(lua_State *L)
{
	int n = lua_gettop(L);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	for (int i = 1; i <= n; i++) {
		if (i > 1)
			luaL_addchar(&b, '\t');
		luaL_tolstring(L, i, NULL);
		luaL_addvalue(&b);
	}
	luaL_pushresult(&b);
	wrap_fputs(lua_tostring(L, -1), wrap_width(STDOUT_FILENO), stdout);
	fputc('\n', stdout);
	fflush(stdout);
	return 0;
}
