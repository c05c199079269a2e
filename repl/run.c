/*
 * Batch runs: the -e snippets, then `kobj run FILE [ARGS]` (or a script on standard
 * input), then the report of what the run left behind: every diagnostic and the leak
 * report, on stderr so that the script's own output stays alone on stdout.
 *
 * Exit status: 0; 1 after a Lua error; 2 when the script cannot be opened; with --strict,
 * 3 when the run ended without a Lua error but left a diagnostic or a leaked object.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/report/report.h"
#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"

static int run_snippet(lua_State *L, const char *code)
{
	int status = sandbox_loadbuffer(L, code, strlen(code), "=(command line)");

	if (status == LUA_OK)
		status = kobj_docall(L, 0, 0);
	return kobj_report(L, status, KOBJ_PROGNAME);
}

/* Sets the environment's `arg`: arg[0] the script, arg[1..] its arguments. */
static void set_arg(lua_State *L, const struct kobj_opts *o)
{
	int i;

	sandbox_push_env(L);
	lua_createtable(L, o->nscript_args, 1);
	lua_pushstring(L, o->script);
	lua_rawseti(L, -2, 0);
	for (i = 0; i < o->nscript_args; i++) {
		lua_pushstring(L, o->script_args[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "arg");
	lua_pop(L, 1);
}

/* Return: a Lua status, or LUA_ERRFILE when the script could not be read. */
static int run_script(lua_State *L, const struct kobj_opts *o)
{
	int status, i;

	set_arg(L, o);
	status = sandbox_loadfile(L, o->script);
	if (status == LUA_OK) {
		luaL_checkstack(L, o->nscript_args, "too many arguments to the script");
		for (i = 0; i < o->nscript_args; i++)
			lua_pushstring(L, o->script_args[i]);
		status = kobj_docall(L, o->nscript_args, 0);
	}
	return kobj_report(L, status, KOBJ_PROGNAME);
}

size_t run_report(lua_State *L, FILE *out)
{
	struct kobj_world *w = kobj_lua_world(L);
	size_t ndiag = kobj_diag_count(w);
	size_t i, nleaks;

	fflush(stdout);
	if (ndiag == 0) {
		fputs("No diagnostics.\n", out);
	} else {
		fprintf(out, "%zu diagnostic%s:\n", ndiag, ndiag == 1 ? "" : "s");
		for (i = 0; i < ndiag; i++)
			kobj_diag_print(kobj_diag_at(w, i), out);
	}
	nleaks = kobj_leak_report(w, out);
	fflush(out);
	return ndiag + nleaks;
}

/* --record and --dot: the scripts beside a lesson's folder are the course's (lib/). */
static void views_of(const struct kobj_opts *o, struct views *v, char *lessons, size_t size)
{
	*v = (struct views){ .record = o->record, .picture = o->picture,
			     .title = o->script ? o->script : "kobj", .script = o->script };
	if (!o->script)
		return;
	snprintf(lessons, size, "%s", o->script);
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(lessons, '/');
		if (slash)
			*slash = '\0';
		else
			snprintf(lessons, size, "%s", up ? ".." : ".");
	}
	v->dirs[0] = lessons;
}

int run_batch(lua_State *L, const struct kobj_opts *o)
{
	struct kobj_world *w;
	struct views views;
	char lessons[4096];
	int status = LUA_OK;
	int i;

	views_of(o, &views, lessons, sizeof(lessons));
	views_prepare(L, &views);
	for (i = 0; i < o->nsnippets && status == LUA_OK; i++)
		status = run_snippet(L, o->snippets[i]);
	if (status == LUA_OK && o->script)
		status = run_script(L, o);
	if (status == LUA_ERRFILE)
		return KOBJ_EXIT_USAGE;
	if (views_write(L, &views) && status == LUA_OK)
		status = LUA_ERRRUN;
	if (o->interactive)
		return status == LUA_OK ? KOBJ_EXIT_OK : KOBJ_EXIT_LUA;
	if (o->report)
		run_report(L, stderr);
	if (status != LUA_OK)
		return KOBJ_EXIT_LUA;
	w = kobj_lua_world(L);
	if (o->strict && (kobj_diag_count(w) > 0 || kobj_leak_count(w) > 0)) {
		fprintf(stderr, "%s: --strict: %zu diagnostic(s), %zu leaked object(s)\n",
			KOBJ_PROGNAME, kobj_diag_count(w), kobj_leak_count(w));
		return KOBJ_EXIT_STRICT;
	}
	return KOBJ_EXIT_OK;
}
