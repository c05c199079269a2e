/*
 * The kernel's small helpers from Lua, for show() and store() methods written in Lua:
 * kstrtoint() and kstrtobool() as lib/kstrtox.c parses, sysfs_emit(), refcount_t with
 * the refcount_*() calls beside kref_*() (kref_lua.c), and the error numbers a file's
 * reader or writer meets (EFBIG, ENXIO, EACCES).
 *
 * A refcount_t is plain memory owned by Lua, like one in a structure the script made: it
 * belongs to no world and starts where REFCOUNT_INIT() puts it. The arithmetic and the
 * warnings are the core's (refcount_t saturates instead of wrapping or going below 0);
 * they are recorded in the current world's diagnostics at the script's line.
 */
#include <errno.h>
#include <string.h>

#include "lua_bindings/internal.h"

#undef refcount_inc
#undef refcount_add
#undef refcount_inc_not_zero
#undef refcount_add_not_zero
#undef refcount_dec_and_test
#undef refcount_sub_and_test
#undef refcount_dec
#undef refcount_dec_not_one

#define REFCOUNT_META "refcount_t"

/* ============================================================================ parsing */

/* nil, "op: 'text': message", -errno: a value the kernel refused, not a Lua error. */
static int refused(lua_State *L, const char *op, int err)
{
	lua_pushfstring(L, "'%s'", lua_tostring(L, 1));
	return kl_fail(L, op, lua_tostring(L, -1), err);
}

/***
 * kstrtoint(s [, base]): the integer in @s, as a store() parses what was written: an
 * optional sign, digits, at most one trailing newline, nothing else (base 10 by default;
 * 0 reads a 0x or 0 prefix).
 * @treturn integer|nil  @treturn string error  @treturn int -EINVAL or -ERANGE
 */
static int l_kstrtoint(lua_State *L)
{
	const char *s = luaL_checkstring(L, 1);
	lua_Integer base = luaL_optinteger(L, 2, 10);
	int value;

	luaL_argcheck(L, base >= 0 && base <= 16 && base != 1, 2, "base must be 0 or 2 to 16");
	int err = kstrtoint(s, (unsigned)base, &value);
	if (err)
		return refused(L, "kstrtoint", err);
	lua_pushinteger(L, value);
	return 1;
}

/***
 * kstrtobool(s): true for "1", "y", "t", "on" (any case, and what follows ignored), false
 * for "0", "n", "f", "off", as Linux 6.1 reads them.
 * @treturn boolean|nil  @treturn string error  @treturn int -EINVAL
 */
static int l_kstrtobool(lua_State *L)
{
	const char *s = luaL_checkstring(L, 1);
	bool value;

	int err = kstrtobool(s, &value);
	if (err)
		return refused(L, "kstrtobool", err);
	lua_pushboolean(L, value);
	return 1;
}

/***
 * sysfs_emit(fmt, ...): the text a show() returns, formatted as string.format does and
 * cut to what a sysfs page holds (PAGE_SIZE - 1 bytes), as the kernel's sysfs_emit()
 * cuts it: a longer text returned without it is the bad count sysfs reports.
 * @treturn string
 */
static int l_sysfs_emit(lua_State *L)
{
	size_t len;

	kl_format(L, 1, "sysfs_emit");
	const char *s = lua_tolstring(L, -1, &len);
	if (len >= KL_PAGE_SIZE)
		lua_pushlstring(L, s, KL_PAGE_SIZE - 1);
	return 1;
}

bool kl_show_errno(lua_State *L, ssize_t *result)
{
	int isint;
	lua_Integer err = lua_tointegerx(L, -1, &isint);

	if (lua_type(L, -1) != LUA_TNUMBER || !isint || err >= 0)
		return false;
	*result = (ssize_t)err; /* -EINVAL and friends reach the reader */
	return true;
}

/* ======================================================================= refcount_t */

static refcount_t *check_refcount(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, REFCOUNT_META);
}

/* An int argument, as the kernel's calls take it. */
static int check_int(lua_State *L, int idx)
{
	lua_Integer n = luaL_checkinteger(L, idx);
	luaL_argcheck(L, n >= INT_MIN && n <= INT_MAX, idx, "out of the range of an int");
	return (int)n;
}

/***
 * REFCOUNT_INIT([n]): a refcount_t set to @n (0 by default).
 * @treturn refcount_t
 */
static int l_refcount_init(lua_State *L)
{
	int n = lua_isnoneornil(L, 1) ? 0 : check_int(L, 1);
	refcount_t *r = lua_newuserdatauv(L, sizeof(*r), 0);
	refcount_set(r, n);
	luaL_setmetatable(L, REFCOUNT_META);
	return 1;
}

/* refcount_set(r, n): no check, as in the kernel. */
static int l_refcount_set(lua_State *L)
{
	refcount_t *r = check_refcount(L, 1);
	refcount_set(r, check_int(L, 2));
	return 0;
}

/* refcount_read(r): the count, unsigned (3221225472 once saturated). */
static int l_refcount_read(lua_State *L)
{
	lua_pushinteger(L, refcount_read(check_refcount(L, 1)));
	return 1;
}

/* The calls that change the count: (r) or (i, r), a result or none. */
enum rc_call { RC_INC, RC_ADD, RC_INC_NOT_ZERO, RC_ADD_NOT_ZERO, RC_DEC_AND_TEST,
	       RC_SUB_AND_TEST, RC_DEC, RC_DEC_IF_ONE, RC_DEC_NOT_ONE };

static bool takes_count(enum rc_call call)
{
	return call == RC_ADD || call == RC_ADD_NOT_ZERO || call == RC_SUB_AND_TEST;
}

/* Runs @call with the script's line noted for its warnings; Return: its result. */
static bool run_call(lua_State *L, enum rc_call call)
{
	struct kl_ctx *ctx = kl_getctx(L);
	int i = takes_count(call) ? check_int(L, 1) : 1;
	refcount_t *r = check_refcount(L, takes_count(call) ? 2 : 1);
	bool result = false;

	kl_enter(L, ctx);
	switch (call) {
	case RC_INC: (refcount_inc)(r); break;
	case RC_ADD: (refcount_add)(i, r); break;
	case RC_INC_NOT_ZERO: result = (refcount_inc_not_zero)(r); break;
	case RC_ADD_NOT_ZERO: result = (refcount_add_not_zero)(i, r); break;
	case RC_DEC_AND_TEST: result = (refcount_dec_and_test)(r); break;
	case RC_SUB_AND_TEST: result = (refcount_sub_and_test)(i, r); break;
	case RC_DEC: (refcount_dec)(r); break;
	case RC_DEC_IF_ONE: result = refcount_dec_if_one(r); break;
	case RC_DEC_NOT_ONE: result = (refcount_dec_not_one)(r); break;
	}
	kl_leave(ctx);
	return result;
}

#define RC_VOID(fn, call)                                                                \
	static int fn(lua_State *L)                                                      \
	{                                                                                \
		run_call(L, call);                                                       \
		return 0;                                                                \
	}
#define RC_BOOL(fn, call)                                                                \
	static int fn(lua_State *L)                                                      \
	{                                                                                \
		lua_pushboolean(L, run_call(L, call));                                   \
		return 1;                                                                \
	}

/* refcount_inc(r), refcount_add(i, r): from 0 they warn "addition on 0" and saturate. */
RC_VOID(l_refcount_inc, RC_INC)
RC_VOID(l_refcount_add, RC_ADD)
/* refcount_inc_not_zero(r), refcount_add_not_zero(i, r): false (quietly) at 0. */
RC_BOOL(l_refcount_inc_not_zero, RC_INC_NOT_ZERO)
RC_BOOL(l_refcount_add_not_zero, RC_ADD_NOT_ZERO)
/* refcount_dec_and_test(r), refcount_sub_and_test(i, r): true when it reached 0 (the
 * caller frees then); below 0 warns "underflow" and saturates. */
RC_BOOL(l_refcount_dec_and_test, RC_DEC_AND_TEST)
RC_BOOL(l_refcount_sub_and_test, RC_SUB_AND_TEST)
/* refcount_dec(r): must not reach 0 ("decrement hit 0; leaking memory."). */
RC_VOID(l_refcount_dec, RC_DEC)
/* refcount_dec_if_one(r): 1 -> 0 only; refcount_dec_not_one(r): false only for 1. */
RC_BOOL(l_refcount_dec_if_one, RC_DEC_IF_ONE)
RC_BOOL(l_refcount_dec_not_one, RC_DEC_NOT_ONE)

static int refcount_index(lua_State *L)
{
	refcount_t *r = check_refcount(L, 1);
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";

	if (strcmp(key, "refs") == 0) {
		lua_pushinteger(L, refcount_read(r));
		return 1;
	}
	return luaL_error(L, "refcount_t has no field %s (its field: refs; refcount_read(), "
			  "refcount_inc() and the other refcount_*() calls use it)",
			  luaL_tolstring(L, 2, NULL));
}

static int refcount_newindex(lua_State *L)
{
	return luaL_error(L, "refcount_t fields are read-only: refcount_set(), refcount_inc() "
			  "and the other refcount_*() calls change the count");
}

static int refcount_tostring(lua_State *L)
{
	unsigned int count = refcount_read(check_refcount(L, 1));
	lua_pushfstring(L, "refcount_t refs=%I%s", (lua_Integer)count,
			count == (unsigned int)REFCOUNT_SATURATED ? " (saturated)" : "");
	return 1;
}

/* ========================================================================== opening */

static const luaL_Reg functions[] = {
	{ "kstrtoint", l_kstrtoint },
	{ "kstrtobool", l_kstrtobool },
	{ "sysfs_emit", l_sysfs_emit },
	{ "REFCOUNT_INIT", l_refcount_init },
	{ "refcount_set", l_refcount_set },
	{ "refcount_read", l_refcount_read },
	{ "refcount_inc", l_refcount_inc },
	{ "refcount_add", l_refcount_add },
	{ "refcount_inc_not_zero", l_refcount_inc_not_zero },
	{ "refcount_add_not_zero", l_refcount_add_not_zero },
	{ "refcount_dec_and_test", l_refcount_dec_and_test },
	{ "refcount_sub_and_test", l_refcount_sub_and_test },
	{ "refcount_dec", l_refcount_dec },
	{ "refcount_dec_if_one", l_refcount_dec_if_one },
	{ "refcount_dec_not_one", l_refcount_dec_not_one },
	{ NULL, NULL },
};

static const char *const fields[] = { "refs", NULL };

void kl_open_kernel(lua_State *L)
{
	static const struct { const char *name; lua_Integer value; } constants[] = {
		{ "EFBIG", EFBIG },
		{ "ENXIO", ENXIO },
		{ "EACCES", EACCES },
		{ "REFCOUNT_MAX", REFCOUNT_MAX },
		{ "REFCOUNT_SATURATED", (unsigned int)REFCOUNT_SATURATED }, /* as read */
	};
	luaL_setfuncs(L, functions, 0);
	for (size_t i = 0; i < sizeof(constants) / sizeof(constants[0]); i++) {
		lua_pushinteger(L, constants[i].value);
		lua_setfield(L, -2, constants[i].name);
	}
	luaL_newmetatable(L, REFCOUNT_META);
	lua_pushcfunction(L, refcount_index);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, refcount_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pushcfunction(L, refcount_tostring);
	lua_setfield(L, -2, "__tostring");
	kl_set_fields(L, fields);
	lua_pop(L, 1);
}
