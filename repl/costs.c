/*
 * What the standard library's C functions cost. A VM instruction that calls string.find
 * or table.move is one instruction to the count hook, however long the C code runs, so
 * each function that can do unbounded work without allocating is wrapped: before it
 * runs, the budget is charged an upper bound of its work (limits_charge), and a call
 * whose bound exceeds what is left stops at once instead of running for minutes. Work
 * that allocates (concatenation, string.rep's copies, gsub's result) is charged by the
 * allocator as well (limits.c).
 *
 * Pattern matching is bounded from the pattern and the subject: per start position the
 * matcher backtracks at most (R+1) times for each repeated item (`x*`, `x+`, `x-`),
 * where R is the longest run of subject characters that the item's class matches, twice
 * for `x?`, and each attempt costs at most the pattern's length plus a subject's length
 * for each %b and back-reference. Ordinary patterns on ordinary text cost a few units a
 * character; `.-.-.-b` over a thousand characters costs 10^12 and is refused.
 */
#include <ctype.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "repl/kobj.h"

/* Bytes that count as one instruction when C code reads or copies them. */
#define BYTES_PER_UNIT 8

typedef unsigned long long units;

static units add(units a, units b)
{
	return a > ~0ULL - b ? ~0ULL : a + b;
}

static units mul(units a, units b)
{
	return a && b > ~0ULL / a ? ~0ULL : a * b;
}

/* The bytes of every string argument (numbers are short). */
static units bytes_of_args(lua_State *L)
{
	units n = 0;

	for (int i = 1; i <= lua_gettop(L); i++)
		if (lua_type(L, i) == LUA_TSTRING)
			n = add(n, (units)lua_rawlen(L, i));
	return n / BYTES_PER_UNIT;
}

/* ============================================================= pattern classes */

/* Whether @c is in the class %@cl (%a, %d, ...; an upper-case letter is the complement). */
static bool in_class(int c, int cl)
{
	bool res;

	switch (tolower(cl)) {
	case 'a': res = isalpha(c); break;
	case 'c': res = iscntrl(c); break;
	case 'd': res = isdigit(c); break;
	case 'g': res = isgraph(c); break;
	case 'l': res = islower(c); break;
	case 'p': res = ispunct(c); break;
	case 's': res = isspace(c); break;
	case 'u': res = isupper(c); break;
	case 'w': res = isalnum(c); break;
	case 'x': res = isxdigit(c); break;
	default: return cl == c;
	}
	return isupper(cl) ? !res : res;
}

/* Whether @c is in the set p[0..end) that starts with '[' and ends before ']'. */
static bool in_set(int c, const char *p, const char *end)
{
	bool sig = true;

	if (*++p == '^') {
		sig = false;
		p++;
	}
	for (; p < end; p++) {
		if (*p == '%' && p + 1 < end) {
			if (in_class(c, (unsigned char)*++p))
				return sig;
		} else if (p + 2 < end && p[1] == '-') {
			if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2])
				return sig;
			p += 2;
		} else if ((unsigned char)*p == c) {
			return sig;
		}
	}
	return !sig;
}

/* Whether @c matches the single-character class p[0..ep). */
static bool single(int c, const char *p, const char *ep)
{
	switch (*p) {
	case '.': return true;
	case '%': return in_class(c, (unsigned char)p[1]);
	case '[': return in_set(c, p, ep - 1);
	default: return (unsigned char)*p == c;
	}
}

/* The end of the class at @p (after its ']'), or NULL for a malformed one. */
static const char *class_end(const char *p, const char *end)
{
	if (*p == '%')
		return p + 1 < end ? p + 2 : NULL;
	if (*p++ != '[')
		return p;
	if (p < end && *p == '^')
		p++;
	do {
		if (p >= end)
			return NULL;
		if (*p++ == '%' && p < end)
			p++;
	} while (p >= end || *p != ']');
	return p + 1;
}

/* The longest run of characters of @s that the class p[0..ep) matches; *@count gets
 * how many characters it matches in all. */
static units longest_run(const char *s, size_t len, const char *p, const char *ep,
			 units *count)
{
	units best = 0, run = 0;

	*count = 0;
	for (size_t i = 0; i < len; i++) {
		bool in = single((unsigned char)s[i], p, ep);
		run = in ? run + 1 : 0;
		*count += in;
		if (run > best)
			best = run;
	}
	return best;
}

/*
 * An upper bound of the steps that matching @p against @s costs, all start positions
 * together (find, match, gmatch and gsub try each position at most once). A match can
 * only start where the first item matches; each repeated item but the last multiplies
 * the attempts by its longest run, and every attempt costs the pattern's length plus
 * the runs it scans, plus a subject's length for each %b and back-reference.
 */
static units pattern_cost(const char *s, size_t len, const char *p, size_t plen)
{
	const char *end = p + plen;
	units starts = (units)len + 1, branches = 1, last = 0, runs = 0, scans = 0, count;
	bool anchored = p < end && *p == '^', first = true;

	p += anchored;
	while (p < end) {
		if (*p == '(' || *p == ')' || (*p == '$' && p + 1 == end)) {
			p++;
			continue;
		}
		if (*p == '%' && p + 1 < end && (p[1] == 'b' || isdigit((unsigned char)p[1]))) {
			scans++;
			p += p[1] == 'b' ? 4 : 2;
			first = false;
			continue;
		}
		if (*p == '%' && p + 1 < end && p[1] == 'f')
			p += 2;
		const char *ep = class_end(p, end);
		if (!ep)
			break; /* malformed: the real function says so */
		char q = ep < end ? *ep : '\0';
		units run = longest_run(s, len, p, ep, &count);
		if (first && !anchored && q != '*' && q != '-' && q != '?')
			starts = count + 1;
		first = false;
		if (q == '*' || q == '+' || q == '-') {
			branches = mul(branches, last + 1);
			last = run;
			runs = add(runs, run);
		} else if (q == '?') {
			branches = mul(branches, 2);
		}
		p = q && strchr("*+-?", q) ? ep + 1 : ep;
	}
	units attempt = add(add(plen + 1, runs), mul(scans, len));
	return add(len, mul(starts, mul(branches, attempt)));
}

/* ================================================================ the costs */

static units cost_pattern(lua_State *L)
{
	size_t len, plen;
	const char *s = luaL_checklstring(L, 1, &len);
	const char *p = luaL_checklstring(L, 2, &plen);

	return pattern_cost(s, len, p, plen);
}

static units cost_find(lua_State *L)
{
	size_t len, plen;

	if (!lua_toboolean(L, 4))
		return cost_pattern(L);
	luaL_checklstring(L, 1, &len);
	luaL_checklstring(L, 2, &plen);
	return mul((units)len + 1, plen + 1); /* plain: a compare at each position */
}

static units cost_rep(lua_State *L)
{
	lua_Integer n = luaL_checkinteger(L, 2);
	units each = add(luaL_len(L, 1), lua_isstring(L, 3) ? (units)lua_rawlen(L, 3) : 0);

	/* the copies are charged as they are allocated, after the cap had its say */
	return n <= 0 || each ? 0 : (units)n;
}

/* pack/unpack: the sizes a format names ("c1000000") are bytes to write or read. */
static units cost_pack(lua_State *L)
{
	const char *f = luaL_checkstring(L, 1);
	units sizes = 0;

	for (; *f; f++) {
		units n = 0;
		while (isdigit((unsigned char)*f))
			n = add(mul(n, 10), (units)(*f++ - '0'));
		sizes = add(sizes, n);
		if (!*f)
			break;
	}
	return add(bytes_of_args(L), sizes / BYTES_PER_UNIT);
}

/* The length of table argument 1 (its __len, if any, runs as script code). */
static units length_of(lua_State *L)
{
	return lua_type(L, 1) == LUA_TTABLE ? (units)luaL_len(L, 1) : 0;
}

/* A range i..j of arguments @i and @j (defaults @di and the length). */
static units range(lua_State *L, int i, lua_Integer di, int j)
{
	lua_Integer from = luaL_optinteger(L, i, di);
	lua_Integer to = lua_isnoneornil(L, j) ? (lua_Integer)length_of(L) : luaL_checkinteger(L, j);

	return to < from ? 0 : add((units)to - (units)from, 1);
}

static units cost_concat(lua_State *L)
{
	return range(L, 3, 1, 4);
}

static units cost_unpack(lua_State *L)
{
	return range(L, 2, 1, 3);
}

static units cost_move(lua_State *L)
{
	lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);

	return e < f ? 0 : add((units)e - (units)f, 1);
}

static units cost_sort(lua_State *L)
{
	units n = length_of(L), log = 1;

	while ((1ULL << log) < n && log < 63)
		log++;
	return mul(n, log);
}

/* A full collection walks all the memory Lua holds. */
static units cost_collect(lua_State *L)
{
	const char *opt = luaL_optstring(L, 1, "collect");

	if (strcmp(opt, "collect") == 0 || strcmp(opt, "step") == 0)
		return limits_of(L)->used / 64;
	return 0;
}

static const struct costed {
	const char *lib, *name;
	units (*cost)(lua_State *L);
} costed[] = {
	{ LUA_STRLIBNAME, "find", cost_find },    { LUA_STRLIBNAME, "match", cost_pattern },
	{ LUA_STRLIBNAME, "gmatch", cost_pattern },  { LUA_STRLIBNAME, "gsub", cost_pattern },
	{ LUA_STRLIBNAME, "rep", cost_rep },         { LUA_STRLIBNAME, "pack", cost_pack },
	{ LUA_STRLIBNAME, "unpack", cost_pack },     { LUA_STRLIBNAME, "packsize", cost_pack },
	{ LUA_STRLIBNAME, "byte", bytes_of_args },   { LUA_STRLIBNAME, "format", bytes_of_args },
	{ LUA_STRLIBNAME, "lower", bytes_of_args },  { LUA_STRLIBNAME, "upper", bytes_of_args },
	{ LUA_STRLIBNAME, "reverse", bytes_of_args },
	{ LUA_UTF8LIBNAME, "len", bytes_of_args },   { LUA_UTF8LIBNAME, "codepoint", bytes_of_args },
	{ LUA_UTF8LIBNAME, "offset", bytes_of_args },
	{ LUA_TABLIBNAME, "concat", cost_concat },   { LUA_TABLIBNAME, "unpack", cost_unpack },
	{ LUA_TABLIBNAME, "move", cost_move },       { LUA_TABLIBNAME, "sort", cost_sort },
	{ LUA_TABLIBNAME, "insert", length_of },     { LUA_TABLIBNAME, "remove", length_of },
	{ LUA_GNAME, "collectgarbage", cost_collect }, { LUA_GNAME, "print", bytes_of_args },
	{ LUA_GNAME, "load", bytes_of_args },
};

/* The wrapper: upvalue 1 the real function, upvalue 2 its index in costed[]. */
static int charged(lua_State *L)
{
	const struct costed *c = &costed[lua_tointeger(L, lua_upvalueindex(2))];

	limits_charge(L, add(1, c->cost(L)));
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

void costs_wrap(lua_State *L)
{
	for (size_t i = 0; i < sizeof(costed) / sizeof(costed[0]); i++) {
		const struct costed *c = &costed[i];
		bool global = strcmp(c->lib, LUA_GNAME) == 0;

		if (global)
			lua_pushglobaltable(L);
		else
			lua_getglobal(L, c->lib);
		lua_getfield(L, -1, c->name);
		lua_pushinteger(L, (lua_Integer)i);
		lua_pushcclosure(L, charged, 2);
		lua_setfield(L, -2, c->name);
		lua_pop(L, 1);
	}
}
