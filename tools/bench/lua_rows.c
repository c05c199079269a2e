/*
 * A reference taken and given back from Lua, `kobject_put(kobject_get(k))`, with the
 * log on and every line recorded, against two empty Lua-to-C calls through the same Lua;
 * then against the floor of the design: two calls of which one makes a new userdata, as
 * kobject_get() makes a reference handle, and which read their caller's line.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/world/world.h"
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

/* What recording a line costs at the least: the caller's line, asked as kl_note asks. */
static int line_of_caller(lua_State *L)
{
	lua_Debug ar;
	if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline < 0)
		abort();
	return 0;
}

static int line_and_newud(lua_State *L)
{
	line_of_caller(L);
	return newud(L);
}

static int clock_now(lua_State *L)
{
	lua_pushnumber(L, bench_now());
	return 1;
}

/* Seconds per iteration of the loop @form names; the log's last line must be ours. */
static const char chunk[] =
	"local n, form, logging = ...\n"
	"local k = new_kobject()\n"
	"kobject_init(k)\n"
	"local t0 = clock()\n"
	"if form == 'pair' then\n"
	"  for i = 1, n do kobject_put(kobject_get(k)) end -- line 6\n"
	"elseif form == 'empty' then\n"
	"  for i = 1, n do nop(k) nop(k) end\n"
	"elseif form == 'box' then\n"
	"  for i = 1, n do nop(newud(k)) end\n"
	"else\n"
	"  for i = 1, n do line(line_newud(k)) end\n"
	"end\n"
	"local t = (clock() - t0) / n\n"
	"local last = logging and form == 'pair' and log(1)[1]\n"
	"assert(not last or last.file == 'bench.lua' and last.line == 6, 'origins')\n"
	"assert(k.refcount == 1)\n"
	"return t\n";

struct lua_run {
	lua_State *L;
	size_t n;
	const char *form;
	bool log;
};

static double run(void *arg)
{
	const struct lua_run *r = arg;
	lua_State *L = r->L;

	if (kobj_lua_reset(L) || luaL_loadbuffer(L, chunk, sizeof(chunk) - 1, "@bench.lua"))
		abort();
	kobj_world_set_logging(kobj_lua_world(L), r->log);
	lua_pushinteger(L, (lua_Integer)r->n);
	lua_pushstring(L, r->form);
	lua_pushboolean(L, r->log);
	if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
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
	lua_register(L, "line", line_of_caller);
	lua_register(L, "line_newud", line_and_newud);
	luaL_newmetatable(L, "bench.box");
	lua_pop(L, 1);
	return L;
}

void bench_lua(const struct bench_size *s)
{
	lua_State *L = new_state();
	struct lua_run pair = { L, s->lua_pairs, "pair", true };
	struct lua_run quiet = { L, s->lua_pairs, "pair", false };
	struct lua_run empty = { L, s->lua_pairs, "empty", true };
	struct lua_run box = { L, s->lua_pairs, "box", true };
	struct lua_run lines = { L, s->lua_pairs, "lines", true };
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
	row = (struct bench_row){
		.what = "Lua get+put pair, log off (lines in the ledger)",
		.anchor = "two empty Lua-to-C calls", .unit = "ns", .scale = 1e9,
		.kind = GOAL_NONE,
	};
	bench_pair(&row, s->reps, run, &quiet, run, &empty);
	bench_print(&row);
	row = (struct bench_row){
		.what = "the same, log off",
		.anchor = "two calls that read their caller's line, one making a userdata",
		.unit = "ns", .scale = 1e9, .kind = GOAL_NONE,
	};
	bench_pair(&row, s->reps, run, &quiet, run, &lines);
	bench_print(&row);
	lua_close(L);
}
