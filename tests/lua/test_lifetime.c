/*
 * Lifetimes follow refcounts, not Lua's GC: stale handles raise with the release line,
 * get/put through them give the kernel's diagnostics, the GC never frees a live object,
 * leaks stay visible, reset() invalidates every handle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>

#include "core/model/kobject.h"
#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

static const char *const prelude =
	"released = {}\n"
	"kt = new_ktype{ release = function(k) released[#released + 1] = k.name end }\n"
	"function make(name) local k = new_kobject(); k.ktype = kt; "
	"kobject_set_name(k, name); kobject_init(k); return k end\n";

static void test_a_stale_handle_names_object_op_and_release_line(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "foo = make('foo')\n"
		  "\n"
		  "kobject_put(foo)\n");
	assert_string_equal(kt_error(L, "kobject_add(foo)"),
			    "lesson.lua:1: kobject_add: 'foo' was released at lesson.lua:3; "
			    "this handle is stale (use after free)");
	assert_contains(kt_error(L, "foo:register()"), "kobject_register: 'foo' was released");
	assert_contains(kt_error(L, "return foo.refcount"),
			"reading refcount: 'foo' was released at lesson.lua:3");
	assert_contains(kt_error(L, "foo.parent = nil"), "setting parent: 'foo' was released");
	assert_contains(kt_error(L, "kobject_set_name(foo, 'x')"), "kobject_set_name: 'foo' was");
	assert_contains(kt_error(L, "kobject_init(foo)"), "kobject_init: 'foo' was released");
	assert_contains(kt_error(L, "container_of(foo)"), "container_of: 'foo' was released");
	assert_contains(kt_error(L, "kobject_unregister(foo)"), "kobject_unregister: 'foo'");
	/* Reading what the handle is stays possible. */
	assert_string_equal(kt_str(L, "return foo.state"), "released");
	assert_int_equal(kt_int(L, "return foo.id"), 1);
	assert_string_equal(kt_str(L, "return tostring(foo)"),
			    "kobject 'foo' released at lesson.lua:3");
}

static void test_double_put_is_the_kernels_underflow_with_its_line(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = make('k')\n"
		  "kobject_put(k)\n"
		  "kobject_put(k)\n"
		  "k:put()\n");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 2);
	assert_string_equal(kt_str(L, "return diagnostics()[1].message"),
			    "refcount_t: underflow; use-after-free.");
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "double-put");
	assert_string_equal(kt_str(L, "local d = diagnostics() "
				      "return d[1].file .. ':' .. d[1].line .. ' ' .. d[2].line"),
			    "lesson.lua:3 4");
	assert_string_equal(kt_str(L, "return diagnostics()[1].object"), "k");
	assert_int_equal(kt_int(L, "return #released"), 1);
}

static void test_get_of_a_stale_handle_is_addition_on_zero(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = make('k'); k:put()\n"
		  "got = kobject_get(k)\n"
		  "got2 = k:get()\n");
	assert_true(kt_bool(L, "return got == nil and got2 == nil"));
	/* an article-era object: 2.6.0's warning, and the article's NULL */
	assert_string_equal(kt_str(L, "return diagnostics()[1].message"),
			    "Badness in kobject_get at lib/kobject.c:431");
	assert_int_equal(kt_int(L, "return diagnostics()[1].line"), 2);
	assert_string_equal(kt_str(L, "return diagnostics()[2].tag"), "get-released");
}

static void test_stale_kset_and_subsystem_get_put(void **state)
{
	lua_State *L = *state;
	kt_run(L, "ks = new_kset('ks'); kset_init(ks); kset_put(ks)\n"
		  "assert(kset_get(ks) == nil)\n"
		  "kset_put(ks)\n"
		  "s = decl_subsys('s'); subsystem_init(s); subsys_put(s)\n"
		  "assert(subsys_get(s) == nil)\n"
		  "s:put()\n");
	assert_string_equal(kt_str(L, "local t = {} for _, d in ipairs(diagnostics()) do "
				      "t[#t + 1] = d.tag .. '@' .. d.line end "
				      "return table.concat(t, ' ')"),
			    "get-released@2 double-put@3 get-released@5 double-put@6");
	assert_contains(kt_error(L, "kset_register(ks)"), "kset_register: 'ks' was released at "
							  "lesson.lua:1");
	assert_contains(kt_error(L, "return s.kset"), "reading kset: 's' was released at "
						      "lesson.lua:4");
}

static void test_collecting_handles_never_frees_a_live_object(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "do local obj = { data = 42 }; new_kobject(obj); obj.kobj.ktype = kt\n"
		  "  kobject_set_name(obj.kobj, 'kept'); kobject_register(obj.kobj) end\n"
		  "collectgarbage(); collectgarbage()");
	assert_string_equal(kt_str(L, "return ls('/sys')[1]"), "kept");
	assert_int_equal(kt_int(L, "return #leaks()"), 1);
	/* A fresh handle from sysfs finds the same object and its container. */
	kt_run(L, "local found = nil\n"
		  "ks = new_kset{ name = 'set' }\n"
		  "collectgarbage()\n"
		  "assert(objects()[1].state == 'in sysfs')");
	assert_int_equal(kt_int(L, "return objects()[1].refcount"), 2);
}

static void test_the_embedding_table_lives_until_release(void **state)
{
	lua_State *L = *state;
	kt_run(L, "seen = nil\n"
		  "kt2 = new_ktype{ release = function(k) seen = container_of(k).data end }\n"
		  "do local obj = { data = 'payload' }; new_kobject(obj); obj.kobj.ktype = kt2;\n"
		  "   kobject_init(obj.kobj); handle = obj.kobj end\n"
		  "collectgarbage(); collectgarbage()\n"
		  "kobject_put(handle)");
	assert_string_equal(kt_str(L, "return seen"), "payload");
	/* Released: the table is no longer kept for it. */
	assert_contains(kt_error(L, "container_of(handle)"),
			"container_of: an unnamed kobject was released at lesson.lua:6");
}

static void test_leaks_name_the_line_that_took_each_reference(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = new_kobject(); k.ktype = kt; kobject_set_name(k, 'leaky'); kobject_init(k)\n"
		  "kobject_get(k)\n"
		  "kobject_get(k)\n"
		  "kobject_put(k)\n");
	assert_int_equal(kt_int(L, "return #leaks()"), 1);
	assert_string_equal(kt_str(L, "return leaks()[1].name"), "leaky");
	assert_int_equal(kt_int(L, "return leaks()[1].refcount"), 2);
	assert_int_equal(kt_int(L, "return #leaks()[1].refs"), 2);
	/* a script's put gives back the creator's first: the two gets are the leak */
	assert_string_equal(kt_str(L, "return leaks()[1].refs[1].text"),
			    "get, taken at lesson.lua:2 by kobject_get, never put");
	assert_string_equal(kt_str(L, "return leaks()[1].refs[2].text"),
			    "get, taken at lesson.lua:3 by kobject_get, never put");
	assert_contains(kt_str(L, "return leak_report()"),
			"get, taken at lesson.lua:2 by kobject_get, never put");
}

static void test_no_release_method_leaks_the_memory_visibly(void **state)
{
	lua_State *L = *state;
	kt_run(L, "k = new_kobject(); kobject_set_name(k, 'bare'); kobject_init(k)\n"
		  "kobject_put(k)\n");
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "no-release");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"does not have a release() function, it is broken and must be fixed");
	assert_true(kt_bool(L, "return objects()[1].no_release"));
	assert_string_equal(kt_str(L, "return k.state"), "released");
	assert_contains(kt_error(L, "kobject_add(k)"), "'bare' was released at lesson.lua:2");
}

static void test_reset_invalidates_every_handle(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = make('old'); kobject_add(k); ks = new_kset('s'); m = module_load('m')\n"
		  "reset()");
	assert_string_equal(kt_error(L, "kobject_get(k)"),
			    "lesson.lua:1: kobject_get: kobject 'old' belongs to a world that was reset");
	assert_contains(kt_error(L, "return k.state"), "reading state: kobject 'old' belongs");
	assert_contains(kt_error(L, "kset_register(ks)"), "kset 's' belongs to a world that");
	assert_contains(kt_error(L, "try_module_get(m)"), "module 'm' belongs to a world that");
	assert_contains(kt_error(L, "new_kobject().ktype = kt"), "belongs to a world that was");
	assert_string_equal(kt_str(L, "return tostring(k)"),
			    "kobject 'old' (from a world that was reset)");
	/* The new world is empty and works. */
	assert_int_equal(kt_int(L, "return #log() + #objects() + #ls('/sys')"), 0);
	kt_run(L, "kt = new_ktype{ release = function() end }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('new'); assert(k:register() == 0)\n"
		  "k:unregister()");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_reset_is_refused_inside_a_callback(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function(k) reset() end }\n"
		  "k = new_kobject(); k.ktype = kt; k:init(); k:put()");
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "callback-error");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"reset: cannot reset the world while a kernel call");
	assert_string_equal(kt_str(L, "return k.state"), "released");
	assert_int_equal(kobj_lua_reset(L), 0);
}

static void test_dangling_c_pointers_cannot_crash(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	/* A parent set without a reference, then released: the C field still points at it. */
	kt_run(L, "p = make('p'); c = make('c'); c.parent = p\n"
		  "kobject_put(p)\n"
		  "r = kobject_add(c)\n");
	assert_int_equal(kt_int(L, "return r"), -2);
	assert_string_equal(kt_str(L, "return c.parent.state"), "released");
	/* A kset released under a member that still names it. */
	kt_run(L, "s = decl_subsys('s'); subsystem_register(s)\n"
		  "m = make('m'); m.kset = s.kset; kobject_add(m)\n"
		  "subsystem_unregister(s)\n"
		  "kobject_del(m); kobject_put(m)\n"
		  "c:put()\n");
	assert_string_equal(kt_str(L, "return m.state"), "released");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
	kt_run(L, "collectgarbage()");
}

/* Finalizers run whenever Lua allocates, a query's table building included: one that
 * resets the world then is refused, and one that runs before the query holds the world
 * leaves the query reading the new world, never the freed one (AddressSanitizer watches). */
static void test_finalizers_cannot_pull_the_world_from_under_a_query(void **state)
{
	lua_State *L = *state;
	kt_run(L, "for i = 1, 3000 do kobject_create_and_add('o' .. i) end\n"
		  "resets = 0\n"
		  "collectgarbage('stop')\n"
		  "for i = 1, 2000 do setmetatable({}, { __gc = function()\n"
		  "  pcall(reset); resets = resets + 1 end }) end\n"
		  "collectgarbage('restart'); collectgarbage('incremental', 10, 100)\n"
		  "for i = 1, 20 do log(); objects(); leaks(); hotplug_events(); diagnostics() end");
	assert_true(kt_int(L, "return resets") > 0);
	assert_int_equal(kt_int(L, "return #objects()"), kt_int(L, "return #log() > 0 and #objects() or 0"));
}

static void diag_counter(const struct kobj_diag *d, void *ctx)
{
	(void)d;
	(*(int *)ctx)++;
}

static void test_c_api_world_and_diag_hook_survive_reset(void **state)
{
	lua_State *L = *state;
	int count = 0;
	struct kobj_world *w = kobj_lua_world(L);

	assert_non_null(w);
	kobj_lua_on_diag(L, diag_counter, &count);
	kt_run(L, "kobject_init(nil)");
	assert_int_equal(count, 1);
	assert_int_equal(kobj_lua_reset(L), 0);
	assert_ptr_not_equal(kobj_lua_world(L), NULL);
	kt_run(L, "kobject_init(nil)");
	assert_int_equal(count, 2);
	/* Opening the module again keeps its world. */
	struct kobj_world *before = kobj_lua_world(L);
	luaL_requiref(L, "kobject", luaopen_kobject, 0);
	lua_pop(L, 1);
	assert_int_equal(luaopen_kobject(L), 1);
	lua_pop(L, 1);
	assert_ptr_equal(kobj_lua_world(L), before);
}

static void test_two_states_keep_two_worlds(void **state)
{
	lua_State *A = *state;
	lua_State *B = kt_open();
	kt_run(A, "a = new_kobject(); a:set_name('a'); a:init()");
	kt_run(B, "b = new_kobject(); b:set_name('b'); b:init(); b:get()");
	kt_run(A, "a:get(); a:get()");
	assert_int_equal(kt_int(A, "return #log()"), 3); /* init get get */
	assert_int_equal(kt_int(B, "return #log()"), 2);
	assert_string_equal(kt_str(B, "return objects()[1].name"), "b");
	kt_close(B);
	kt_run(A, "a:put()");
	assert_int_equal(kt_int(A, "return a.refcount"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_stale_handle_names_object_op_and_release_line, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_double_put_is_the_kernels_underflow_with_its_line, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_get_of_a_stale_handle_is_addition_on_zero, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_stale_kset_and_subsystem_get_put, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_collecting_handles_never_frees_a_live_object, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_the_embedding_table_lives_until_release, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_leaks_name_the_line_that_took_each_reference, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_no_release_method_leaks_the_memory_visibly, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_reset_invalidates_every_handle, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_reset_is_refused_inside_a_callback, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_dangling_c_pointers_cannot_crash, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_finalizers_cannot_pull_the_world_from_under_a_query,
						kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_c_api_world_and_diag_hook_survive_reset, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_two_states_keep_two_worlds, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
