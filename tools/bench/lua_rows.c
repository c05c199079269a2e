/*
 * A reference taken and given back from Lua, `kobject_put(kobject_get(k))`, with the
 * log on and every line recorded, against two empty Lua-to-C calls through the same Lua,
 * and against two calls of which one makes a new userdata, as kobject_get() makes a
 * reference handle.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>

#include "lua_bindings/kobject_lua.h"
#include "tools/bench/bench.h"

static int nop(lua_State *L)
{
	(void)L;
	return 0;
}

static int newud(lua_State *L)
{
	lua_newuserdatauv(L, 32, 1);
	luaL_setmetatable(L, "bench.box");
	return 1;
}

static int clock_now(lua_State *L)
{
	lua_pushnumber(L, bench_now());
	return 1;
}

/* Seconds per iteration of the loop @form names; the log's last line must be ours. */
static const char chunk[] =
	"local n, form = ...\n"
	"reset()\n"
	"local k = new_kobject()\n"
	"kobject_init(k)\n"
	"local t0 = clock()\n"
	"if form == 'pair' then\n"
	"  for i = 1, n do kobject_put(kobject_get(k)) end\n"
	"elseif form == 'empty' then\n"
	"  for i = 1, n do nop(k) nop(k) end\n"
	"else\n"
	"  for i = 1, n do nop(newud(k)) end\n"
	"end\n"
	"local t = (clock() - t0) / n\n"
	"local last = log(1)[1]\n"
	"assert(form ~= 'pair' or last.file == 'bench.lua' and last.line == 7, 'origins')\n"
	"assert(k.refcount == 1)\n"
	"return t\n";

struct lua_run {
	lua_State *L;
	size_t n;
	const char *form;
};

static double run(void *arg)
{
	const struct lua_run *r = arg;
	lua_State *L = r->L;

	if (luaL_loadbuffer(L, chunk, sizeof(chunk) - 1, "@bench.lua") != LUA_OK)
		abort();
	lua_pushinteger(L, (lua_Integer)r->n);
	lua_pushstring(L, r->form);
	if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
		fprintf(stderr, "bench: %s\n", lua_tostring(L, -1));
		abort();
	}
	double t = lua_tonumber(L, -1);
	lua_pop(L, 1);
	return t;
}

static lua_State *new_state(void)
{
	lua_State *L = luaL_newstate();
	if (!L)
		abort();
	luaL_openlibs(L);
	lua_pushglobaltable(L);
	kobj_lua_install(L, -1);
	lua_pop(L, 1);
	lua_register(L, "nop", nop);
	lua_register(L, "newud", newud);
	lua_register(L, "clock", clock_now);
	luaL_newmetatable(L, "bench.box");
	lua_pop(L, 1);
	return L;
}

void bench_lua(const struct bench_size *s)
{
	lua_State *L = new_state();
	struct lua_run pair = { L, s->lua_pairs, "pair" }, empty = { L, s->lua_pairs, "empty" };
	struct lua_run box = { L, s->lua_pairs, "box" };
	struct bench_row row = {
		.what = "Lua get+put pair, lines recorded", .anchor = "two empty Lua-to-C calls",
		.unit = "ns", .scale = 1e9, .kind = GOAL_RATIO, .goal = 3,
		.goal_text = "<= 3x empty calls",
	};
	bench_pair(&row, s->reps, run, &pair, run, &empty);
	bench_print(&row);
	row = (struct bench_row){
		.what = "the same pair", .anchor = "two calls, one making a userdata",
		.unit = "ns", .scale = 1e9, .kind = GOAL_NONE,
	};
	bench_pair(&row, s->reps, run, &pair, run, &box);
	bench_print(&row);
	lua_close(L);
}
