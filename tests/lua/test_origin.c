/* Origins: every call records the calling script's file:line, however it was called. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <lauxlib.h>

#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

/* The origin of the last diagnostic, "file:line" or "nil". */
static const char *last_diag_origin(lua_State *L)
{
	return kt_str(L, "local d = diagnostics() d = d[#d] "
			 "return d.file and (d.file .. ':' .. d.line) or 'nil'");
}

static void test_chunk_names_read_as_people_write_them(void **state)
{
	lua_State *L = *state;
	kt_run(L, "assert(load('\\nkobject_init(nil)', '=stdin'))()");
	assert_string_equal(last_diag_origin(L), "stdin:2");
	kt_run(L, "assert(load('kobject_init(nil)', '@lessons/04-leak.lua'))()");
	assert_string_equal(last_diag_origin(L), "lessons/04-leak.lua:1");
	kt_run(L, "assert(load('kobject_init(nil)', 'plain'))()");
	assert_string_equal(last_diag_origin(L), "[string \"plain\"]:1");
	kt_run(L, "assert(load('kobject_init(nil)'))()");
	assert_string_equal(last_diag_origin(L), "[string \"kobject_init(nil)\"]:1");
}

static void test_calls_through_c_functions_and_metamethods(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); k:init()\n"
		  "pcall(kobject_init, k)\n");
	assert_string_equal(last_diag_origin(L), "lesson.lua:2");
	kt_run(L, "\n\n\nk.name = 'x'");
	assert_string_equal(kt_str(L, "local l = log() return l[#l].op .. '@' .. l[#l].line"),
			    "kobject_set_name@4");
	kt_run(L, "local function deep() kobject_init(k) end\n"
		  "local function deeper() deep() end\n"
		  "deeper()");
	assert_string_equal(last_diag_origin(L), "lesson.lua:1");
}

static void test_coroutines_and_callbacks(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function(k)\n"
		  "  kobject_put(container_of(k).parent_ref)\n"
		  "end }\n"
		  "p = new_kobject(); p.ktype = kt; p:set_name('p'); p:init()\n"
		  "t = { parent_ref = p }; new_kobject(t); t.kobj.ktype = kt; t.kobj:init()\n"
		  "co = coroutine.wrap(function()\n"
		  "  coroutine.yield()\n"
		  "  kobject_put(t.kobj)\n"
		  "end)\n"
		  "co(); co()\n");
	assert_string_equal(kt_str(L, "local t = {} for _, e in ipairs(log()) do "
				      "if e.kind == 'release' or e.kind == 'put' then "
				      "t[#t + 1] = e.kind .. ' ' .. e.object .. '@' .. e.line end end "
				      "return table.concat(t, ', ')"),
			    "put @8, release @8, put p@2, release p@2");
}

static int call_from_c(lua_State *L)
{
	lua_getglobal(L, "kobject_init");
	lua_pushnil(L);
	lua_call(L, 1, 0);
	return 0;
}

static void test_calls_from_c_have_an_unknown_origin(void **state)
{
	lua_State *L = *state;
	lua_pushcfunction(L, call_from_c);
	assert_int_equal(lua_pcall(L, 0, 0, 0), LUA_OK);
	assert_string_equal(last_diag_origin(L), "nil");
	assert_contains(kt_str(L, "return diagnostics()[1].explanation"), "an unknown place");
}

static void test_install_fills_a_lesson_environment(void **state)
{
	lua_State *L = *state;
	lua_newtable(L);
	kobj_lua_install(L, -1);
	lua_setglobal(L, "env");
	assert_true(kt_bool(L, "local n = 0 for k, v in pairs(env) do n = n + 1 end return n > 55"));
	assert_true(kt_bool(L, "return env.kobject == require('kobject') and env.kobject_get == "
			       "kobject_get and env.EEXIST == 17 and env.print == nil"));
	kt_run(L, "local f = assert(load('k = new_kobject() kobject_init(k) return k', "
		  "'=lesson', 't', env))\n"
		  "assert(f().refcount == 1 and env.k ~= nil and rawget(_G, 'k') == nil)");
	static const char *const names[] = {
		"kobject_init", "kobject_set_name", "kobject_name", "kobject_get", "kobject_put",
		"kobject_add", "kobject_del", "kobject_register", "kobject_unregister",
		"kobject_refcount", "get_ktype", "container_of", "to_kset", "new_kobject",
		"new_ktype", "new_kset", "decl_subsys", "kset_init", "kset_add", "kset_register",
		"kset_unregister", "kset_get", "kset_put", "kset_find_obj", "subsystem_init",
		"subsystem_register", "subsystem_unregister", "subsys_get", "subsys_put",
		"module_load", "module_unload", "try_module_get", "module_put", "module_refcount",
		"log", "diagnostics", "leaks", "hotplug_events", "objects", "ls", "cat", "echo",
		"tree", "dot", "leak_report", "log_text", "diag_text", "hotplug_text", "fail_alloc",
		"reset", "EINVAL", "EEXIST", "ENOENT", "ENOMEM", "EBUSY",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		lua_getglobal(L, "env");
		lua_getfield(L, -1, names[i]);
		if (lua_isnil(L, -1))
			print_error("missing: %s\n", names[i]);
		assert_false(lua_isnil(L, -1));
		lua_pop(L, 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_chunk_names_read_as_people_write_them, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_calls_through_c_functions_and_metamethods, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_coroutines_and_callbacks, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_calls_from_c_have_an_unknown_origin, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_install_fills_a_lesson_environment, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
