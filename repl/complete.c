/*
 * Tab completion for the REPL. What is completed depends on where the cursor is:
 *   inside a string           sysfs paths of the current world ("/sys/ker" -> "/sys/kernel/")
 *   after "name." / "name:"   the fields (or, after ':', the methods) of that value, found
 *                             in the table itself and in its metatable's __index tables
 *   ":" at the line's start   command names; after ":tree " sysfs paths, ":load " files
 *   elsewhere                 the environment's names and Lua's keywords
 *
 * readline splits words at '.', ':', '/' and the other operators, so each candidate is
 * built whole (from the string's or the argument's start) and then cut to the part that
 * replaces readline's word. Candidates are collected in Lua under kobj_docall(), because
 * looking a field up may run a script's __index, and copied out before readline sees them.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef KOBJ_NO_READLINE
#include <readline/readline.h>
#endif

#include <lauxlib.h>
#include <lua.h>

#include "core/sysfs/sysfs.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"

#define MAX_INDEX_DEPTH 4

static bool in_continuation;

#ifndef KOBJ_NO_READLINE
static lua_State *complete_L;

/* The matches handed to readline's generator, taken one by one. */
static char **matches;
static size_t nmatches, next_match;
#endif

void complete_set_continuation(bool continuation)
{
	in_continuation = continuation;
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static bool is_identifier(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < len; i++)
		if (!is_ident_char(s[i]))
			return false;
	return true;
}

/* Adds @s (@len bytes) to the set @out if it starts with @prefix. */
static void add(lua_State *L, int out, const char *s, size_t len, const char *prefix)
{
	size_t plen = strlen(prefix);

	if (len >= plen && memcmp(s, prefix, plen) == 0) {
		lua_pushlstring(L, s, len);
		lua_pushboolean(L, 1);
		lua_rawset(L, out);
	}
}

/* =========================================================================== scanning */

enum context { CTX_CODE, CTX_STRING, CTX_COMMENT };

/* Length of a long bracket's opening "[==[" at @s, or 0; *@level gets the '=' count. */
static size_t long_open(const char *s, size_t n, size_t *level)
{
	size_t i = 1;

	if (n < 2 || s[0] != '[')
		return 0;
	while (i < n && s[i] == '=')
		i++;
	if (i < n && s[i] == '[') {
		*level = i - 1;
		return i + 1;
	}
	return 0;
}

/* Whether @s (@n bytes) ends inside a string or a comment; *@str_start is where the
 * open string's text begins. Strings opened on earlier lines are not seen. */
static enum context scan(const char *s, size_t n, size_t *str_start)
{
	size_t i = 0, open, level, j;

	while (i < n) {
		char c = s[i];

		if (c == '"' || c == '\'') {
			for (j = i + 1; j < n && s[j] != c; j++)
				if (s[j] == '\\')
					j++;
			if (j >= n) {
				*str_start = i + 1;
				return CTX_STRING;
			}
			i = j + 1;
		} else if (c == '-' && i + 1 < n && s[i + 1] == '-') {
			return CTX_COMMENT;
		} else if ((open = long_open(s + i, n - i, &level)) != 0) {
			for (j = i + open; j < n; j++) {
				if (s[j] == ']' && j + level + 1 < n && s[j + level + 1] == ']' &&
				    strspn(s + j + 1, "=") >= level)
					break;
			}
			if (j >= n) {
				*str_start = i + open;
				return CTX_STRING;
			}
			i = j + level + 2;
		} else {
			i++;
		}
	}
	return CTX_CODE;
}

/* ============================================================================ sources */

/* Entries of the sysfs directory that @prefix names, as whole paths, into @out. */
static void add_sysfs(lua_State *L, int out, const char *prefix)
{
	struct kobj_limits *lim = limits_of(L);
	const struct sysfs_dirent **ents = NULL, **box;
	const char *slash = strrchr(prefix, '/');
	size_t dirlen = slash ? (size_t)(slash - prefix) + 1 : 0; /* with its '/' */
	const char *base = prefix + dirlen;
	long n, i;
	bool armed = lim->mem_armed;

	if (strlen(prefix) < sizeof("/sys/") - 1 && strncmp("/sys/", prefix, strlen(prefix)) == 0)
		add(L, out, "/sys/", 5, prefix);
	lua_pushlstring(L, prefix, dirlen); /* the directory, as typed */
	n = sysfs_list(kobj_lua_world(L), lua_tostring(L, -1), &ents);
	if (n <= 0) {
		free(ents);
		lua_pop(L, 1);
		return;
	}
	lim->mem_armed = false; /* no memory error between here and free() */
	box = lua_newuserdatauv(L, (size_t)n * sizeof(*box), 0);
	memcpy(box, ents, (size_t)n * sizeof(*box));
	free(ents);
	lim->mem_armed = armed;
	for (i = 0; i < n; i++) {
		const char *name = sysfs_dirent_name(box[i]);
		bool dir = sysfs_dirent_type(box[i]) == SYSFS_DIR;

		if (strncmp(name, base, strlen(base)) != 0)
			continue;
		lua_pushfstring(L, "%s%s%s", lua_tostring(L, -2), name, dir ? "/" : "");
		add(L, out, lua_tostring(L, -1), lua_rawlen(L, -1), prefix);
		lua_pop(L, 1);
	}
	lua_pop(L, 2);
}

/* Files for ":load", with '/' after directories (none where there is no readline). */
static void add_files(lua_State *L, int out, const char *prefix)
{
#ifndef KOBJ_NO_READLINE
	struct kobj_limits *lim = limits_of(L);
	bool armed = lim->mem_armed;
	struct stat st;
	char *name;
	int state = 0;

	lim->mem_armed = false;
	while ((name = rl_filename_completion_function(prefix, state++)) != NULL) {
		bool dir = stat(name, &st) == 0 && S_ISDIR(st.st_mode);

		lua_pushfstring(L, "%s%s", name, dir ? "/" : "");
		free(name);
		add(L, out, lua_tostring(L, -1), lua_rawlen(L, -1), prefix);
		lua_pop(L, 1);
	}
	lim->mem_armed = armed;
#else
	(void)L, (void)out, (void)prefix;
#endif
}

static void add_index(lua_State *L, int out, const char *prefix, bool methods, bool handle,
		      int depth);

/* Identifier keys of the value at @v (and of its metatable's __index tables) into @out;
 * after ':' (@methods) only those holding functions. */
static void add_fields(lua_State *L, int out, int v, const char *prefix, bool methods,
		       int depth)
{
	v = lua_absindex(L, v);
	luaL_checkstack(L, 6, "completion");
	if (lua_type(L, v) == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, v)) {
			size_t len;

			if (lua_type(L, -2) == LUA_TSTRING &&
			    (!methods || lua_type(L, -1) == LUA_TFUNCTION)) {
				const char *k = lua_tolstring(L, -2, &len);

				if (is_identifier(k, len))
					add(L, out, k, len, prefix);
			}
			lua_pop(L, 1);
		}
	}
	if (depth < MAX_INDEX_DEPTH && lua_getmetatable(L, v)) {
		add_index(L, out, prefix, methods, lua_type(L, v) == LUA_TUSERDATA, depth);
		lua_pop(L, 1);
	}
}

/*
 * The names a metatable (on top) offers: its __index table; for a handle (@handle, a
 * userdata) also the tables its C __index closes over, where the bindings keep the
 * methods; and a __fields list of names. (A table's C __index, like the sandbox's own
 * that names removed libraries, offers nothing.)
 */
static void add_index(lua_State *L, int out, const char *prefix, bool methods, bool handle,
		      int depth)
{
	int i;

	lua_pushliteral(L, "__index");
	lua_rawget(L, -2);
	if (lua_type(L, -1) == LUA_TTABLE) {
		add_fields(L, out, -1, prefix, methods, depth + 1);
	} else if (handle && lua_iscfunction(L, -1)) {
		for (i = 1; lua_getupvalue(L, -1, i) != NULL; i++) {
			if (lua_type(L, -1) == LUA_TTABLE)
				add_fields(L, out, -1, prefix, methods, depth + 1);
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	lua_pushliteral(L, "__fields");
	if (!methods && lua_rawget(L, -2) == LUA_TTABLE) {
		for (i = 1; lua_rawgeti(L, -1, i) == LUA_TSTRING; i++) {
			size_t len;
			const char *k = lua_tolstring(L, -1, &len);

			if (is_identifier(k, len))
				add(L, out, k, len, prefix);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

static void add_keywords(lua_State *L, int out, const char *prefix)
{
	static const char *const keywords[] = {
		"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
		"goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
		"true", "until", "while", NULL,
	};
	const char *const *k;

	for (k = keywords; *k; k++)
		add(L, out, *k, strlen(*k), prefix);
}

/*
 * "a.b.c" before the '.' or ':' that ends at @sep: pushes its value (looked up from the
 * environment, metamethods included) and returns true, or pushes nothing.
 */
static bool push_chain(lua_State *L, const char *line, size_t sep)
{
	size_t k = sep, from;

	while (k > 0 && (is_ident_char(line[k - 1]) || line[k - 1] == '.'))
		k--;
	if (k == sep || line[k] == '.' || (k > 0 && line[k - 1] == ':'))
		return false;
	sandbox_push_env(L);
	for (from = k; from < sep;) {
		size_t len = strcspn(line + from, ".");

		if (from + len > sep)
			len = sep - from;
		if (!is_identifier(line + from, len)) {
			lua_pop(L, 1);
			return false;
		}
		if (lua_type(L, -1) != LUA_TTABLE) {
			/* only values with an __index can have fields */
			if (luaL_getmetafield(L, -1, "__index") == LUA_TNIL) {
				lua_pop(L, 1);
				return false;
			}
			lua_pop(L, 1);
		}
		lua_pushlstring(L, line + from, len);
		lua_gettable(L, -2);
		lua_remove(L, -2);
		from += len + 1;
	}
	return true;
}

/* ":tree" and ":load" take a path: complete it. Return: whether the line is a command. */
static bool command_candidates(lua_State *L, int out, const char *line, size_t start,
			       const char *text)
{
	size_t i = strspn(line, " \t"), name, namelen, arg;

	if (in_continuation || line[i] != ':' || line[i + 1] == ':')
		return false;
	name = i + 1;
	namelen = strspn(line + name, "abcdefghijklmnopqrstuvwxyz");
	if (start <= name + namelen) {
		const char *const *c;

		if (start == name)
			for (c = commands_names; *c; c++)
				add(L, out, *c, strlen(*c), text);
		return true;
	}
	arg = name + namelen + strspn(line + name + namelen, " \t");
	if (arg > start || namelen == 0)
		return true;
	lua_pushinteger(L, (lua_Integer)(start - arg)); /* how much to cut */
	lua_replace(L, 3);
	if (strncmp(line + name, "tree", namelen) == 0 && namelen <= 4)
		add_sysfs(L, out, line + arg);
	else if (strncmp(line + name, "load", namelen) == 0 && namelen <= 4 && namelen >= 3)
		add_files(L, out, line + arg);
	return true;
}

int complete_collect(lua_State *L)
{
	size_t n, start = (size_t)luaL_checkinteger(L, 2), str_start = 0;
	const char *line = luaL_checklstring(L, 1, &n);
	const char *text = line + start;
	int out, i = 0;

	lua_settop(L, 2);
	lua_pushinteger(L, 0); /* 3: bytes to cut from each candidate */
	lua_newtable(L);       /* 4: the set of candidates */
	out = 4;
	switch (scan(line, n, &str_start)) {
	case CTX_COMMENT:
		break;
	case CTX_STRING:
		lua_pushinteger(L, (lua_Integer)(start - str_start));
		lua_replace(L, 3);
		lua_pushlstring(L, line + str_start, n - str_start);
		add_sysfs(L, out, lua_tostring(L, -1));
		lua_pop(L, 1);
		break;
	case CTX_CODE:
		if (command_candidates(L, out, line, start, text))
			break;
		if (start > 0 && (line[start - 1] == '.' || line[start - 1] == ':')) {
			if (push_chain(L, line, start - 1)) {
				add_fields(L, out, -1, text, line[start - 1] == ':', 0);
				lua_pop(L, 1);
			}
			break;
		}
		sandbox_push_env(L);
		add_fields(L, out, -1, text, false, 0);
		lua_pop(L, 1);
		add_keywords(L, out, text);
		break;
	}
	lua_newtable(L); /* 5: the result */
	lua_pushnil(L);
	while (lua_next(L, out)) {
		size_t len, cut = (size_t)lua_tointeger(L, 3);
		const char *s = lua_tolstring(L, -2, &len);

		lua_pop(L, 1);
		if (len >= cut) {
			lua_pushlstring(L, s + cut, len - cut);
			lua_rawseti(L, 5, ++i);
		}
	}
	return 1;
}

#ifndef KOBJ_NO_READLINE
/* ======================================================================== readline */

static char *generator(const char *text, int state)
{
	(void)text;
	(void)state;
	if (next_match < nmatches) {
		char *m = matches[next_match];

		matches[next_match++] = NULL;
		return m;
	}
	return NULL;
}

static void free_matches(void)
{
	size_t i;

	for (i = 0; i < nmatches; i++)
		free(matches[i]);
	free(matches);
	matches = NULL;
	nmatches = next_match = 0;
}

/* Copies the array of strings on top of the stack into `matches`. */
static void take_matches(lua_State *L)
{
	size_t i, n = lua_rawlen(L, -1);

	matches = calloc(n ? n : 1, sizeof(*matches));
	if (!matches)
		return;
	for (i = 0; i < n; i++) {
		lua_rawgeti(L, -1, (lua_Integer)i + 1);
		matches[nmatches] = strdup(lua_tostring(L, -1));
		if (matches[nmatches])
			nmatches++;
		lua_pop(L, 1);
	}
}

static char **attempt(const char *text, int start, int end)
{
	lua_State *L = complete_L;
	int top = lua_gettop(L);
	char **result = NULL;

	rl_attempted_completion_over = 1; /* never fall back to file names */
	rl_completion_append_character = '\0';
	if (!lua_checkstack(L, 4))
		return NULL;
	lua_pushcfunction(L, complete_collect);
	lua_pushlstring(L, rl_line_buffer, (size_t)end);
	lua_pushinteger(L, start);
	if (kobj_docall(L, 2, 1) == LUA_OK && lua_type(L, -1) == LUA_TTABLE) {
		take_matches(L);
		if (nmatches > 0)
			result = rl_completion_matches(text, generator);
		free_matches();
	}
	lua_settop(L, top);
	return result;
}

void complete_init(lua_State *L)
{
	complete_L = L;
	rl_attempted_completion_function = attempt;
	rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,)}[]+-*/%^~#.:";
	rl_completer_quote_characters = NULL;
}
#endif
