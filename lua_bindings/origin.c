/*
 * Origins: every kernel-named call made from Lua is noted with the calling script's
 * file:line, so the event log, diagnostics and leak reports say where it happened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_bindings/internal.h"

/*
 * kl_intern() - one stable pointer per distinct file name, for the context's life. The
 * core's origin cache compares file pointers, so equal names must share one pointer and
 * a pointer must never be reused for another name.
 */
const char *kl_intern(lua_State *L, struct kl_ctx *ctx, const char *s)
{
	kl_push_slot(L, KL_SLOT_STRINGS);                   /* [strings] */
	if (lua_getfield(L, -1, s) == LUA_TLIGHTUSERDATA) { /* [strings p] */
		const char *p = lua_touserdata(L, -1);
		lua_pop(L, 2);
		return p;
	}
	lua_pop(L, 1);
	size_t n = strlen(s);
	struct kl_string *str = malloc(sizeof(*str) + n + 1);
	if (!str)
		luaL_error(L, "not enough memory");
	memcpy(str->s, s, n + 1);
	str->next = ctx->strings; /* owned by the context from here on */
	ctx->strings = str;
	lua_pushlightuserdata(L, str->s);
	lua_setfield(L, -2, str->s);
	lua_pop(L, 1);
	return str->s;
}

/* The chunk name as a person reads it: "@lesson.lua" -> "lesson.lua", "=stdin" -> "stdin". */
static const char *chunk_name(const lua_Debug *ar)
{
	if (ar->source && (ar->source[0] == '@' || ar->source[0] == '='))
		return ar->source + 1;
	return ar->short_src;
}

/*
 * The interned name of @ar's chunk. The last named chunk ("@file", "=stdin") is
 * remembered by its source's address and checked by its text (that memory may hold
 * another source later), so the calls of one script intern nothing.
 */
static const char *chunk_file(lua_State *L, struct kl_ctx *ctx, const lua_Debug *ar)
{
	bool named = ar->source && (ar->source[0] == '@' || ar->source[0] == '=');

	if (named && ar->source == ctx->last_source && ar->srclen == ctx->last_srclen &&
	    memcmp(ar->source + 1, ctx->last_file, ar->srclen - 1) == 0)
		return ctx->last_file;
	const char *file = kl_intern(L, ctx, chunk_name(ar));
	if (named) {
		ctx->last_source = ar->source;
		ctx->last_srclen = ar->srclen;
		ctx->last_file = file;
	}
	return file;
}

/*
 * The function of a frame as a traceback names it: "probe" or "function <lesson.lua:12>",
 * interned; NULL for the main chunk (the ledger takes a file's NULLs as one function).
 * The last name met is remembered, so the calls of one function intern nothing.
 */
static const char *func_name(lua_State *L, struct kl_ctx *ctx, const lua_Debug *ar,
			     const char *file)
{
	char anon[300];
	if (ar->name && *ar->namewhat) {
		if (ctx->last_func && strcmp(ar->name, ctx->last_func) == 0)
			return ctx->last_func;
		return ctx->last_func = kl_intern(L, ctx, ar->name);
	}
	if (ar->what[0] == 'm') /* "main" */
		return NULL;
	snprintf(anon, sizeof(anon), "function <%s:%d>", file, ar->linedefined);
	return kl_intern(L, ctx, anon);
}

void kl_note(lua_State *L, struct kl_ctx *ctx)
{
	lua_Debug ar;

	ctx->file = NULL;
	ctx->line = 0;
	ctx->func = NULL;
	/* Level 1 is whoever called the binding; C functions (pcall, metamethod glue) are
	 * skipped up to the first Lua function. */
	for (int level = 1; lua_getstack(L, level, &ar); level++) {
		if (!lua_getinfo(L, "Sln", &ar) || ar.what[0] == 'C')
			continue;
		ctx->file = chunk_file(L, ctx, &ar);
		ctx->line = ar.currentline > 0 ? ar.currentline : 0;
		ctx->func = func_name(L, ctx, &ar, ctx->file);
		return;
	}
}

/* The site of ctx->file:ctx->line in ctx->func in the world, remembered by line for the
 * world's life, so that a loop's calls intern it once. */
static unsigned noted_site(struct kl_ctx *ctx)
{
	struct kl_site_memo *m = &ctx->sites[(unsigned)ctx->line % KL_SITE_MEMO];

	if (m->gen != ctx->gen || m->file != ctx->file || m->line != ctx->line ||
	    m->func != ctx->func) {
		m->site = kobj_site(ctx->world, ctx->file, ctx->line, ctx->func);
		m->file = ctx->file;
		m->func = ctx->func;
		m->line = ctx->line;
		m->gen = ctx->gen;
	}
	return m->site;
}

/*
 * The site of the call in progress with its callers: the Lua frames above the first one
 * (which kl_note found), interned outermost first. The innermost site is the one an
 * ordinary call notes, only with a caller, so the ledger's choices do not change.
 */
static unsigned stack_site(lua_State *L, struct kl_ctx *ctx)
{
	enum { MAX_FRAMES = 32 };
	struct frame {
		const char *file, *func;
		int line;
	} frames[MAX_FRAMES];
	lua_Debug ar;
	int n = 0;
	bool first = true;

	for (int level = 1; n < MAX_FRAMES && lua_getstack(L, level, &ar); level++) {
		if (!lua_getinfo(L, "Sln", &ar) || ar.what[0] == 'C')
			continue;
		if (first) { /* the caller itself, as kl_note found it */
			frames[n++] = (struct frame){ ctx->file, ctx->func, ctx->line };
			first = false;
			continue;
		}
		const char *file = chunk_file(L, ctx, &ar);
		frames[n++] = (struct frame){ file, func_name(L, ctx, &ar, file),
						   ar.currentline > 0 ? ar.currentline : 0 };
	}
	unsigned site = 0;
	while (n-- > 0)
		site = kobj_site_in(ctx->world, frames[n].file, frames[n].line, frames[n].func, site);
	return site;
}

void kl_enter(lua_State *L, struct kl_ctx *ctx)
{
	kl_note(L, ctx);
	unsigned site = ctx->stacks && ctx->file ? stack_site(L, ctx) : 0; /* may raise */
	kobj_world_use(ctx->world);
	kobj_note_site_id(site ? site : noted_site(ctx));
	ctx->busy++;
}

void kobj_lua_record_stacks(lua_State *L, int on)
{
	struct kl_ctx *ctx = kl_findctx(L);
	if (ctx)
		ctx->stacks = on != 0;
}

void kl_leave(struct kl_ctx *ctx)
{
	ctx->busy--;
	kobj_note_origin(NULL, 0); /* a query that took no origin leaves none behind */
}
