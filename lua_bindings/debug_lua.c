/*
 * The kernel's two kobject debug options from Lua (core/debug.h), as settings of the
 * current world: DEBUG_KOBJECT (every lifecycle step of today's objects traced with the
 * kernel's pr_debug text) and DEBUG_KOBJECT_RELEASE (the last put only queues the
 * cleanup; the virtual clock runs it). Also the kernel log they write to, and printk.
 *
 * The settings belong to the world: reset() turns both off.
 */
#include <stdio.h>

#include "lua_bindings/internal.h"

/* Sets or clears @flag from the boolean at 1 (nil: unchanged); pushes the old state. */
static int debug_flag(lua_State *L, unsigned flag)
{
	struct kobj_world *w = kl_getctx(L)->world;
	unsigned flags = kobj_world_debug(w);

	lua_pushboolean(L, (flags & flag) != 0);
	if (lua_isnoneornil(L, 1))
		return 1;
	luaL_checktype(L, 1, LUA_TBOOLEAN);
	kobj_world_set_debug(w, lua_toboolean(L, 1) ? flags | flag : flags & ~flag);
	return 1;
}

/***
 * debug_kobject([on]): DEBUG_KOBJECT on or off; without an argument, only asks.
 * Today's calls then write the kernel's pr_debug lines (kernel_log(), dmesg()):
 * "kobject: 'foo' (00000000a1b2c3d4): kobject_add_internal: parent: 'bar', set: '<NULL>'"...
 * The article's objects log nothing: 2.6.0 compiled those lines out.
 * @treturn boolean the state before the call
 */
static int l_debug_kobject(lua_State *L)
{
	return debug_flag(L, KOBJ_DEBUG_KOBJECT);
}

/***
 * debug_kobject_release([on [, ticks]]): DEBUG_KOBJECT_RELEASE on or off. With it, the
 * last put of a today's object logs "kobject_release, parent ... (delayed N)" and only
 * queues the cleanup: the object keeps a count of 0 and its directory until advance()
 * reaches the deadline; a get, put or add meanwhile is reported. The delay is 1 to 4
 * seconds (HZ = 100 ticks) from a fixed pseudo-random sequence, or @ticks each time
 * (0: back to random). Turning it off leaves queued releases queued.
 * @treturn boolean the state before the call
 */
static int l_debug_kobject_release(lua_State *L)
{
	struct kobj_world *w = kl_getctx(L)->world;
	if (!lua_isnoneornil(L, 2)) {
		lua_Integer ticks = luaL_checkinteger(L, 2);
		luaL_argcheck(L, ticks >= 0 && ticks <= 100000000, 2,
			      "a delay in ticks (0: random, 1 to 4 seconds)");
		kobj_world_set_release_delay(w, (long)ticks);
	}
	lua_settop(L, 1);
	return debug_flag(L, KOBJ_DEBUG_RELEASE);
}

/***
 * advance(ticks): move the virtual clock on and run the delayed releases that fall due,
 * earliest first. jiffies_advance is the same function.
 * @treturn int how many releases ran
 */
static int l_advance(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	lua_Integer ticks = luaL_checkinteger(L, 1);
	luaL_argcheck(L, ticks >= 0 && ticks <= 1000000000000, 1,
		      "a number of ticks, 0 or more (HZ = 100 a second)");
	kl_enter(L, ctx);
	size_t ran = kobj_world_advance(ctx->world, (unsigned long)ticks);
	kl_leave(ctx);
	lua_pushinteger(L, (lua_Integer)ran);
	return 1;
}

/* jiffies(): the virtual clock, in ticks since the world was made. */
static int l_jiffies(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)kobj_world_now(kl_getctx(L)->world));
	return 1;
}

/* pending_releases(): delayed releases not yet run. */
static int l_pending_releases(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)kobj_world_pending_releases(kl_getctx(L)->world));
	return 1;
}

/* ====================================================================== kernel log */

static const char *level_name(enum kobj_loglevel level)
{
	switch (level) {
	case KOBJ_LOGLEVEL_ERR:
		return "err";
	case KOBJ_LOGLEVEL_WARNING:
		return "warning";
	case KOBJ_LOGLEVEL_INFO:
		return "info";
	default:
		return "debug";
	}
}

/* The first of the last @arg lines (all without it). */
static size_t first_line(lua_State *L, int arg, size_t count)
{
	lua_Integer n = luaL_optinteger(L, arg, 0);
	luaL_argcheck(L, n >= 0, arg, "a count of lines (0 or more)");
	return n > 0 && (size_t)n < count ? count - (size_t)n : 0;
}

/***
 * kernel_log([n]): the last @n lines of the kernel log (all without @n), oldest first.
 * @treturn {{text=, level= "err"|"warning"|"info"|"debug", tick=, object=, id=, file=,
 *   line=, seq= (the log event it follows)}, ...}
 */
static int l_kernel_log(lua_State *L)
{
	lua_settop(L, 1); /* the argument stays at 1, the hold above it */
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	size_t count = kobj_trace_count(w), first = first_line(L, 1, count);

	lua_createtable(L, (int)(count - first), 0);
	for (size_t i = first; i < count; i++) {
		const struct kobj_trace copy = *kobj_trace_at(w, i); /* its text never moves */
		const struct kobj_trace *t = &copy;
		const struct kobj_record *r = kobj_record_by_id(w, t->obj);
		lua_createtable(L, 0, 8);
		lua_pushstring(L, t->text);
		lua_setfield(L, -2, "text");
		lua_pushstring(L, level_name(t->level));
		lua_setfield(L, -2, "level");
		lua_pushinteger(L, (lua_Integer)t->tick);
		lua_setfield(L, -2, "tick");
		lua_pushinteger(L, (lua_Integer)t->seq);
		lua_setfield(L, -2, "seq");
		if (r) {
			lua_pushstring(L, r->name);
			lua_setfield(L, -2, "object");
			lua_pushinteger(L, r->id);
			lua_setfield(L, -2, "id");
		}
		if (t->origin.file) {
			lua_pushstring(L, t->origin.file);
			lua_setfield(L, -2, "file");
			lua_pushinteger(L, t->origin.line);
			lua_setfield(L, -2, "line");
		}
		lua_rawseti(L, -2, (lua_Integer)(i - first + 1));
	}
	return 1;
}

/***
 * dmesg([n]): the last @n lines of the kernel log as dmesg prints them,
 * "[    1.250000] kobject: 'foo' (00000000a1b2c3d4): kobject_release, ...".
 * @treturn string
 */
static int l_dmesg(lua_State *L)
{
	lua_settop(L, 1); /* the argument stays at 1, the hold above it */
	struct kobj_world *w = kl_hold_world(L, kl_getctx(L));
	size_t count = kobj_trace_count(w), first = first_line(L, 1, count);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	for (size_t i = first; i < count && i < kobj_trace_count(w); i++) {
		const struct kobj_trace copy = *kobj_trace_at(w, i);
		const struct kobj_trace *t = &copy;
		char stamp[48];
		snprintf(stamp, sizeof(stamp), "[%5lu.%06lu] ", t->tick / HZ,
			 t->tick % HZ * (1000000 / HZ));
		luaL_addstring(&b, stamp);
		luaL_addstring(&b, t->text);
		luaL_addchar(&b, '\n');
	}
	luaL_pushresult(&b);
	return 1;
}

/* pr_*(fmt, ...): a kernel log line formatted with string.format. */
static int printk_at(lua_State *L, enum kobj_loglevel level, const char *op)
{
	struct kl_ctx *ctx = kl_getctx(L);
	kl_format(L, 1, op);
	const char *text = lua_tostring(L, -1);
	kl_enter(L, ctx);
	kobj_printk(level, "%s", text);
	kl_leave(ctx);
	return 0;
}

/* pr_err/pr_warn/pr_info/pr_debug(fmt, ...); pr_debug only with debug_kobject(true). */
static int l_pr_err(lua_State *L)
{
	return printk_at(L, KOBJ_LOGLEVEL_ERR, "pr_err");
}

static int l_pr_warn(lua_State *L)
{
	return printk_at(L, KOBJ_LOGLEVEL_WARNING, "pr_warn");
}

static int l_pr_info(lua_State *L)
{
	return printk_at(L, KOBJ_LOGLEVEL_INFO, "pr_info");
}

static int l_pr_debug(lua_State *L)
{
	return printk_at(L, KOBJ_LOGLEVEL_DEBUG, "pr_debug");
}

static const luaL_Reg functions[] = {
	{ "debug_kobject", l_debug_kobject },
	{ "debug_kobject_release", l_debug_kobject_release },
	{ "advance", l_advance },
	{ "jiffies_advance", l_advance },
	{ "jiffies", l_jiffies },
	{ "pending_releases", l_pending_releases },
	{ "kernel_log", l_kernel_log },
	{ "dmesg", l_dmesg },
	{ "pr_err", l_pr_err },
	{ "pr_warn", l_pr_warn },
	{ "pr_info", l_pr_info },
	{ "pr_debug", l_pr_debug },
	{ NULL, NULL },
};

void kl_open_debug(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	lua_pushinteger(L, HZ);
	lua_setfield(L, -2, "HZ");
}
