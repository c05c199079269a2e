/*
 * The virtual sysfs for lessons (ls, cat, echo, tree) and the core's printed reports as
 * strings (leak_report, log_text, diag_text, hotplug_text).
 *
 * C memory that must outlive a Lua call that can raise (a directory listing, a
 * memstream buffer) lives in a box: a userdata whose __gc and __close free it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "lua_bindings/internal.h"

#define BOX_META "kobject.box"

static int box_gc(lua_State *L)
{
	struct kl_box *b = lua_touserdata(L, 1);
	if (b->f)
		fclose(b->f);
	free(b->mem);
	b->f = NULL;
	b->mem = NULL;
	return 0;
}

struct kl_box *kl_new_box(lua_State *L)
{
	struct kl_box *b = lua_newuserdatauv(L, sizeof(*b), 0);
	memset(b, 0, sizeof(*b));
	luaL_setmetatable(L, BOX_META);
	return b;
}

/* [] -> [box]: a memstream to print into; raises if it cannot be opened. */
static FILE *open_text(lua_State *L, struct kl_box *b)
{
	b->f = open_memstream((char **)&b->mem, &b->len);
	if (!b->f)
		luaL_error(L, "not enough memory");
	return b->f;
}

/* [box] -> [string]: what was printed. */
static void push_text(lua_State *L, struct kl_box *b)
{
	fclose(b->f);
	b->f = NULL;
	lua_pushlstring(L, b->mem ? b->mem : "", b->mem ? b->len : 0);
	free(b->mem);
	b->mem = NULL;
	lua_remove(L, -2);
}

int kl_fail(lua_State *L, const char *op, const char *what, long err)
{
	lua_pushnil(L);
	lua_pushfstring(L, "%s: %s: %s", op, what, strerror((int)-err));
	lua_pushinteger(L, err);
	return 3;
}

/* =========================================================================== sysfs */

/***
 * ls([path]): the names in a sysfs directory, sorted ("/sys" by default).
 * @treturn {string,...}|nil
 * @treturn string error message  @treturn int -ENOENT or -ENOTDIR
 */
static int l_ls(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *path = luaL_optstring(L, 1, "/sys");
	struct kl_box *b = kl_new_box(L);
	const struct sysfs_dirent **list = NULL;

	long n = sysfs_list(ctx->world, path, &list);
	b->mem = list;
	if (n < 0)
		return kl_fail(L, "ls", path, n);
	/* The names are copied before anything is pushed: a finalizer that runs when Lua
	 * allocates may remove the entries. */
	size_t size = 0;
	for (long i = 0; i < n; i++)
		size += strlen(sysfs_dirent_name(list[i])) + 1;
	char *names = malloc(size ? size : 1), *p = names;
	if (!names)
		return luaL_error(L, "ls: not enough memory");
	for (long i = 0; i < n; i++)
		p = stpcpy(p, sysfs_dirent_name(list[i])) + 1;
	free(list);
	b->mem = names;
	lua_createtable(L, (int)n, 0);
	p = names;
	for (long i = 0; i < n; i++, p += strlen(p) + 1) {
		lua_pushstring(L, p);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

/***
 * cat(path): an attribute's text, read through its ktype's sysfs_ops.show.
 * @treturn string|nil  @treturn string error  @treturn int -ENOENT, -EISDIR or -EIO
 */
static int l_cat(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *path = luaL_checkstring(L, 1);
	char page[KL_PAGE_SIZE];

	kl_enter(L, ctx);
	ssize_t n = sysfs_read(ctx->world, path, page, sizeof(page));
	kl_leave(ctx);
	if (n < 0)
		return kl_fail(L, "cat", path, n);
	lua_pushlstring(L, page, (size_t)n);
	return 1;
}

/***
 * echo(path, value): write to an attribute through sysfs_ops.store.
 * @treturn int|nil what store() returned  @treturn string error  @treturn int
 */
static int l_echo(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	const char *path = luaL_checkstring(L, 1);
	size_t len;
	const char *value = luaL_checklstring(L, 2, &len);

	kl_enter(L, ctx);
	ssize_t n = sysfs_write(ctx->world, path, value, len);
	kl_leave(ctx);
	if (n < 0)
		return kl_fail(L, "echo", path, n);
	lua_pushinteger(L, n);
	return 1;
}

/* A whole number >= 0 from field @key of the options table at @idx, or @dflt. */
static unsigned opt_count(lua_State *L, int idx, const char *key, unsigned dflt,
			  const char *what)
{
	unsigned n = dflt;
	if (lua_getfield(L, idx, key) != LUA_TNIL) {
		int ok;
		lua_Integer v = lua_tointegerx(L, -1, &ok);
		if (!ok || v < 0 || v > 1000000)
			luaL_error(L, "%s: option '%s' wants a whole number (0 or more), got %s", what,
				   key, luaL_tolstring(L, -1, NULL));
		n = (unsigned)v;
	}
	lua_pop(L, 1);
	return n;
}

/* A string from field @key of the options table at @idx (kept alive by the table). */
static const char *opt_string(lua_State *L, int idx, const char *key, const char *dflt,
			      const char *what)
{
	const char *s = dflt;
	int t = lua_getfield(L, idx, key);
	if (t == LUA_TSTRING)
		s = lua_tostring(L, -1);
	else if (t != LUA_TNIL)
		luaL_error(L, "%s: option '%s' wants a string, got %s", what, key,
			   luaL_typename(L, -1));
	lua_pop(L, 1);
	return s;
}

static bool opt_bool(lua_State *L, int idx, const char *key, bool dflt)
{
	bool b = lua_getfield(L, idx, key) == LUA_TNIL ? dflt : lua_toboolean(L, -1);
	lua_pop(L, 1);
	return b;
}

/* The last argument when it is an options table (0 if none); others are refused. */
static int options_arg(lua_State *L, int first_option, const char *what)
{
	int top = lua_gettop(L);
	if (top >= first_option && lua_istable(L, top))
		return top;
	if (top >= first_option && !lua_isnil(L, top))
		luaL_error(L, "%s: too many arguments (the last may be a table of options)", what);
	return 0;
}

/***
 * tree([path] [, {depth=, filelimit=, held=}]): the subtree with refcounts, as `tree`
 * prints it; depth limits the levels (tree -L), filelimit folds a directory with more
 * entries (tree --filelimit), held=false leaves out objects deleted but still held.
 * @treturn string|nil  @treturn string error  @treturn int -ENOENT
 */
static int l_tree(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	int opts = lua_istable(L, 1) ? 1 : options_arg(L, 2, "tree");
	const char *path = opts == 1 ? opt_string(L, 1, "path", "/sys", "tree")
				     : luaL_optstring(L, 1, "/sys");
	struct kobj_tree_options o = { .held = true };
	if (opts) {
		o.max_depth = opt_count(L, opts, "depth", 0, "tree");
		o.file_limit = opt_count(L, opts, "filelimit", 0, "tree");
		o.held = opt_bool(L, opts, "held", true);
	}
	kl_charge(L, kobj_record_count(ctx->world));
	struct kl_box *b = kl_new_box(L);

	int err = kobj_print_tree(ctx->world, path, &o, open_text(L, b));
	if (err)
		return kl_fail(L, "tree", path, err);
	push_text(L, b);
	return 1;
}

static bool is_picture(const char *s)
{
	static const char *const ext[] = { ".svg", ".png", ".pdf", ".dot" };
	size_t n = strlen(s);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (n > 4 && strcmp(s + n - 4, ext[i]) == 0)
			return true;
	return false;
}

/* dot()'s options table at @idx: path, file, at_exit, fold (0: never), legend. */
static void dot_options(lua_State *L, int idx, struct kobj_dot_options *o, const char **file)
{
	o->path = opt_string(L, idx, "path", o->path, "dot");
	*file = opt_string(L, idx, "file", *file, "dot");
	o->at_exit = opt_bool(L, idx, "at_exit", o->at_exit);
	o->legend = opt_bool(L, idx, "legend", o->legend);
	unsigned fold = opt_count(L, idx, "fold", KOBJ_DOT_FOLD_DEFAULT, "dot");
	o->fold = fold ? fold : KOBJ_DOT_NO_FOLD;
	if (*file && !is_picture(*file))
		luaL_error(L, "dot: option 'file' wants a name ending in .svg, .png, .pdf or .dot, "
			   "got '%s'", *file);
}

/***
 * dot([path] [, file | at_exit] [, options]) or dot(options): the world (or the subtree
 * at @path) as graphviz DOT text. With a file name ending in .svg, .png, .pdf or .dot
 * (alone or after @path) the picture is written there through graphviz instead, and dot
 * returns true. With @at_exit true it is the leak picture: what the run left, as the
 * leak report says. Options: path, file, at_exit, fold (members a kset shows before it
 * folds; 0: never fold), legend (default true).
 * @treturn string|true  or nil, error
 */
static int l_dot(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	int opts = lua_istable(L, 1) ? 1 : 0;
	const char *path = opts ? NULL : luaL_optstring(L, 1, NULL);
	const char *file = NULL;
	bool at_exit = false;
	if (!opts && path && is_picture(path) && (lua_isnoneornil(L, 2) || lua_istable(L, 2))) {
		file = path;
		path = NULL;
		opts = options_arg(L, 2, "dot");
	} else if (!opts && lua_type(L, 2) == LUA_TSTRING) {
		file = lua_tostring(L, 2);
		luaL_argcheck(L, is_picture(file), 2, "a file name ending in .svg, .png, .pdf or .dot");
		opts = options_arg(L, 3, "dot");
	} else if (!opts) {
		at_exit = lua_type(L, 2) == LUA_TBOOLEAN && lua_toboolean(L, 2);
		opts = options_arg(L, lua_type(L, 2) == LUA_TBOOLEAN ? 3 : 2, "dot");
	}
	struct kobj_dot_options o = { .path = path, .at_exit = at_exit, .legend = true };
	if (opts)
		dot_options(L, opts, &o, &file);
	kl_charge(L, kobj_record_count(ctx->world));
	struct kl_box *b = kl_new_box(L);

	int err = kobj_dot(ctx->world, &o, open_text(L, b));
	if (err)
		return kl_fail(L, "dot", o.path, err);
	push_text(L, b);
	if (!file)
		return 1;
	if (ctx->no_files)
		return luaL_error(L, "dot: writing %s is not allowed here", file);
	char msg[512];
	if (kobj_render(lua_tostring(L, -1), file, msg, sizeof(msg)) != 0) {
		luaL_pushfail(L);
		lua_pushstring(L, msg);
		return 2;
	}
	lua_pushboolean(L, 1);
	return 1;
}

/* ========================================================================= reports */

/* leak_report(): the core's leak report ("Not released: ..." or "No leaks: ..."). */
static int l_leak_report(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	kl_charge(L, kobj_record_count(ctx->world) + kobj_log_count(ctx->world));
	struct kl_box *b = kl_new_box(L);
	kobj_leak_report(ctx->world, open_text(L, b));
	push_text(L, b);
	return 1;
}

/* log_text([n]): the last @n events (all without @n), one per line. */
static int l_log_text(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	lua_Integer n = luaL_optinteger(L, 1, 0);
	luaL_argcheck(L, n >= 0, 1, "a count of events (0 or more)");
	struct kl_box *b = kl_new_box(L);
	kobj_log_print(ctx->world, (size_t)n, open_text(L, b));
	push_text(L, b);
	return 1;
}

/* diag_text(): every diagnostic as the core prints it. */
static int l_diag_text(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_box *b = kl_new_box(L);
	FILE *f = open_text(L, b);
	for (size_t i = 0; i < kobj_diag_count(ctx->world); i++)
		kobj_diag_print(kobj_diag_at(ctx->world, i), f);
	push_text(L, b);
	return 1;
}

/* hotplug_text(): every hotplug event as `udevadm monitor --env` shows it. */
static int l_hotplug_text(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct kl_box *b = kl_new_box(L);
	FILE *f = open_text(L, b);
	for (size_t i = 0; i < kobj_hotplug_count(ctx->world); i++)
		kobj_hotplug_print(kobj_hotplug_at(ctx->world, i), f);
	push_text(L, b);
	return 1;
}

static const luaL_Reg functions[] = {
	{ "ls", l_ls },
	{ "cat", l_cat },
	{ "echo", l_echo },
	{ "tree", l_tree },
	{ "dot", l_dot },
	{ "leak_report", l_leak_report },
	{ "log_text", l_log_text },
	{ "diag_text", l_diag_text },
	{ "hotplug_text", l_hotplug_text },
	{ NULL, NULL },
};

void kl_open_sysfs(lua_State *L)
{
	luaL_setfuncs(L, functions, 0);
	if (luaL_newmetatable(L, BOX_META)) {
		lua_pushcfunction(L, box_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushcfunction(L, box_gc);
		lua_setfield(L, -2, "__close");
	}
	lua_pop(L, 1);
}
