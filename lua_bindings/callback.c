/*
 * Calling Lua from the core's callbacks (release, show, store, hotplug): on the main
 * thread (or the simulated thread that made the call), always protected, with a traceback; a failure becomes a diagnostic and
 * the core goes on in a consistent state. No Lua error ever unwinds through core code.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/internal.h"

/* The message handler (lua.c's msghandler): a string gets a traceback appended. */
int kl_msgh(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	if (msg == NULL) {
		if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
			msg = lua_tostring(L, -1);
		else
			msg = lua_pushfstring(L, "(error object is a %s value)",
					      luaL_typename(L, 1));
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

char *kl_asprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* Records the error on top of @L as a CALLBACK_ERROR diagnostic. Allocates no Lua memory. */
static void record(struct kl_ctx *ctx, lua_State *L, int status, unsigned obj,
		   const char *what, const char *consequence)
{
	const char *err = "the Lua stack could not grow";
	if (status != LUA_ERRRUN + 100 && lua_type(L, -1) == LUA_TSTRING)
		err = lua_tostring(L, -1);
	if (status == LUA_ERRMEM)
		err = "not enough memory";
	const char *tb = strstr(err, "\nstack traceback:");
	int head = tb ? (int)(tb - err) : (int)strlen(err);
	char *message = kl_asprintf("%s raised a Lua error: %.*s", what, head, err);
	char *explanation = kl_asprintf("%s%s%s", consequence, tb ? "\n" : "", tb ? tb + 1 : "");

	kobj_note_origin_in(ctx->file, ctx->line, ctx->func);
	kobj_diag_record(ctx->world, KOBJ_DIAG_CALLBACK_ERROR, obj,
			 message ? message : "a Lua callback raised an error",
			 explanation ? explanation : consequence);
	free(message);
	free(explanation);
}

/* What a failed callback's traceback and diagnostic cost, beside its message's length. */
#define CALLBACK_ERROR_COST 1000

static size_t work_noted; /* process-wide, like the host's budget */

size_t kobj_lua_take_work(void)
{
	size_t units = work_noted;

	work_noted = 0;
	return units;
}

void kl_charge_quietly(size_t units)
{
	work_noted = units > SIZE_MAX - work_noted ? SIZE_MAX : work_noted + units;
}

void kl_charge(lua_State *L, size_t units)
{
	kl_charge_quietly(units);
	if (lua_getfield(L, LUA_REGISTRYINDEX, "kobject.charge") != LUA_TFUNCTION) {
		lua_pop(L, 1);
		return;
	}
	lua_call(L, 0, 0);
}

bool kl_callback(struct kl_ctx *ctx, lua_CFunction body, void *arg, unsigned obj,
		 const char *what, const char *consequence)
{
	lua_State *L = kl_race_state(ctx);
	const char *file = ctx->file;
	int line = ctx->line;
	int top = lua_gettop(L);
	int status = LUA_ERRRUN + 100; /* "could not even start" */

	if (ctx->tearing_down || !ctx->open)
		return false; /* the world is being freed, maybe from a __gc: no Lua now */
	if (lua_checkstack(L, 4)) {
		lua_pushcfunction(L, kl_msgh);   /* pushing a C function allocates nothing */
		lua_pushcfunction(L, body);
		lua_pushlightuserdata(L, arg);
		status = lua_pcall(L, 1, 0, top + 1);
	}
	/* Calls made by the callback noted their own lines; the outer call goes on. */
	ctx->file = file;
	ctx->line = line;
	kobj_world_use(ctx->world);
	if (status != LUA_OK) {
		/* a traceback and a diagnostic are work in C, however the callback failed */
		kl_charge_quietly(CALLBACK_ERROR_COST +
				  (lua_type(L, -1) == LUA_TSTRING ? lua_rawlen(L, -1) : 0));
		record(ctx, L, status, obj, what, consequence);
	}
	lua_settop(L, top);
	return status == LUA_OK;
}

ssize_t kl_file_method(struct kl_file_call *c, const char *method, const char *kind,
		       const char *name, lua_CFunction body)
{
	char what[400], who[160];
	unsigned id;
	bool show = strcmp(method, "show") == 0;

	snprintf(what, sizeof(what), "%s: %s() of %s '%.100s'",
		 kl_describe(c->ctx, c->kobj, &id, who), method, kind, name);
	if (!kl_callback(c->ctx, body, c, id, what,
			 show ? "The read failed with -EIO." : "The write failed with -EIO."))
		return -EIO;
	return c->result;
}

void kl_call_store(lua_State *L, struct kl_file_call *c, const char *what)
{
	lua_pushlstring(L, c->buf, c->count);
	lua_call(L, 3, 1);
	if (lua_isnil(L, -1)) {
		c->result = (ssize_t)c->count; /* all of it was taken */
		return;
	}
	int ok;
	lua_Integer n = lua_tointegerx(L, -1, &ok);
	if (!ok)
		luaL_error(L, "store() must return %s, got %s", what, kl_typename(L, -1));
	c->result = (ssize_t)n;
}

const char *kl_describe(struct kl_ctx *ctx, const struct kobject *kobj, unsigned *id,
			char buf[160])
{
	const struct kobj_record *r = kobj_record_of(ctx->world, kobj);
	char p[17];
	*id = r ? r->id : 0;
	snprintf(buf, 160, "kobject '%.80s' (%s)", r ? r->name : kobject_name(kobj),
		 kobj_fake_pointer(*id, p));
	return buf;
}
