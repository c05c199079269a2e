/*
 * ktypes written in Lua: release methods (with container_of), failing release methods,
 * sysfs_ops show/store through cat/echo, default attributes, and their validation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/model/kobject.h"
#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

static void test_release_gets_the_handle_and_its_container(void **state)
{
	lua_State *L = *state;
	kt_run(L, "log_lines = {}\n"
		  "function my_object_release(kobj)\n"
		  "  local mine = container_of(kobj, 'struct my_object', 'kobj')\n"
		  "  log_lines[#log_lines + 1] = mine.label .. ' ' .. kobj.name .. ' ' .. kobj.state\n"
		  "end\n"
		  "my_ktype = new_ktype{ release = my_object_release }\n"
		  "mine = { label = 'cdev' }\n"
		  "new_kobject(mine)\n"
		  "mine.kobj.ktype = my_ktype\n"
		  "kobject_set_name(mine.kobj, 'char0')\n"
		  "assert(kobject_register(mine.kobj) == 0)\n"
		  "assert(container_of(mine.kobj) == mine)\n"
		  "kobject_unregister(mine.kobj)\n");
	/* While its release method runs, the handle still works (the memory persists until the
	 * method returns), and the state already says the count reached zero. */
	assert_string_equal(kt_str(L, "return log_lines[1]"), "cdev char0 released");
	assert_string_equal(kt_str(L, "return mine.kobj.state"), "released");
}

static void test_container_of_checks_the_member_and_other_embeddings(void **state)
{
	lua_State *L = *state;
	kt_run(L, "t = {}; new_kobject(t, 'k')\n"
		  "bare = new_kobject()\n"
		  "ks = new_kset('set'); s = decl_subsys('sub')");
	assert_true(kt_bool(L, "return container_of(t.k) == t and container_of(t.k, nil, 'k') == t"));
	assert_contains(kt_error(L, "container_of(t.k, 'struct x', 'kobj')"),
			"container_of: the kobject is embedded as 'k', not 'kobj'");
	assert_true(kt_bool(L, "return container_of(bare) == nil"));
	assert_true(kt_bool(L, "return container_of(ks.kobj) == ks and to_kset(ks.kobj) == ks"));
	assert_true(kt_bool(L, "return container_of(s.kset) == s and container_of(s.kset.kobj) == s.kset"));
	assert_contains(kt_error(L, "to_kset(bare)"), "this kobject is not embedded in a kset");
	assert_contains(kt_error(L, "container_of(42)"), "bad argument #1 to 'container_of' "
							 "(kobject, kset or kref expected, got number)");
	assert_true(kt_bool(L, "return to_kset(nil) == nil"));
}

static void test_a_failing_release_is_reported_and_the_model_stays_whole(void **state)
{
	lua_State *L = *state;
	kt_run(L, "bad = new_ktype{ release = function(k)\n"
		  "  error('cleanup exploded')\n"
		  "end }\n"
		  "good = new_ktype{ release = function(k) end }\n"
		  "p = new_kobject(); p.ktype = good; p:set_name('parent'); p:register()\n"
		  "c = new_kobject(); c.ktype = bad; c:set_name('child'); c.parent = p; c:register()\n"
		  "c:unregister()\n");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 1);
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "callback-error");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"kobject 'child' (");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"): release() raised a Lua error: lesson.lua:2: cleanup exploded");
	assert_contains(kt_str(L, "return diagnostics()[1].explanation"), "stack traceback:");
	assert_contains(kt_str(L, "return diagnostics()[1].explanation"),
			"The object counts as released all the same");
	assert_int_equal(kt_int(L, "return diagnostics()[1].line"), 7);
	assert_string_equal(kt_str(L, "return c.state"), "released");
	/* The parent's reference was dropped all the same. */
	assert_int_equal(kt_int(L, "return p.refcount"), 2);
	kt_run(L, "p:unregister()");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_a_release_error_object_that_is_not_a_string(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function(k) error({}) end }\n"
		  "k = new_kobject(); k.ktype = kt; k:init(); k:put()\n"
		  "kt2 = new_ktype{ release = function(k) error(setmetatable({}, "
		  "{ __tostring = function() return 'custom' end })) end }\n"
		  "k2 = new_kobject(); k2.ktype = kt2; k2:init(); k2:put()\n");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"raised a Lua error: (error object is a table value)");
	assert_contains(kt_str(L, "return diagnostics()[2].message"), "raised a Lua error: custom");
}

static void test_release_may_drop_other_references(void **state)
{
	lua_State *L = *state;
	kt_run(L, "order = {}\n"
		  "kt = new_ktype{ release = function(k)\n"
		  "  order[#order + 1] = k.name\n"
		  "  local c = container_of(k)\n"
		  "  if c and c.other then kobject_put(c.other) end\n"
		  "end }\n"
		  "a = new_kobject(); a.ktype = kt; a:set_name('a'); a:init()\n"
		  "t = { other = a }; new_kobject(t); t.kobj.ktype = kt; t.kobj:set_name('b'); t.kobj:init()\n"
		  "kobject_put(t.kobj)\n");
	assert_string_equal(kt_str(L, "return table.concat(order, ',')"), "b,a");
	/* The put inside the release method is noted at its own line. */
	assert_string_equal(kt_str(L, "for _, e in ipairs(log()) do if e.op == 'kobject_put' and "
				      "e.object == 'a' then return e.line end end"),
			    "5");
}

static const char *const attrs_prelude =
	"values = { foo = 'one' }\n"
	"kt = new_ktype{\n"
	"  release = function(k) end,\n"
	"  sysfs_ops = {\n"
	"    show = function(kobj, attr) return values[attr] .. '\\n' end,\n"
	"    store = function(kobj, attr, value) values[attr] = value:gsub('\\n$', ''); return #value end,\n"
	"  },\n"
	"  default_attrs = { 'foo', { name = 'bar', mode = 0444 } },\n"
	"}\n"
	"k = new_kobject(); k.ktype = kt; k:set_name('dev'); k:register()\n";

static void test_cat_and_echo_go_through_sysfs_ops(void **state)
{
	lua_State *L = *state;
	kt_run(L, attrs_prelude);
	assert_string_equal(kt_str(L, "return table.concat(ls('/sys/dev'), ',')"), "bar,foo");
	assert_string_equal(kt_str(L, "return cat('/sys/dev/foo')"), "one\n");
	assert_int_equal(kt_int(L, "return echo('/sys/dev/foo', 'two\\n')"), 4);
	assert_string_equal(kt_str(L, "return cat('dev/foo')"), "two\n");
	assert_string_equal(kt_str(L, "local v, err, code = cat('/sys/dev/nope') "
				      "return tostring(v) .. '|' .. err .. '|' .. code"),
			    "nil|cat: /sys/dev/nope: No such file or directory|-2");
	assert_string_equal(kt_str(L, "return select(2, cat('/sys/dev'))"),
			    "cat: /sys/dev: Is a directory");
	assert_string_equal(kt_str(L, "return table.concat(kt.default_attrs, ',')"), "foo,bar");
	kt_run(L, "k:unregister()");
}

static void test_failing_show_and_store_read_as_eio(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function() end,\n"
		  "  sysfs_ops = { show = function() error('no show today') end,\n"
		  "                store = function() return 'many' end },\n"
		  "  default_attrs = { 'x' } }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('d'); k:register()\n");
	assert_string_equal(kt_str(L, "return select(3, cat('/sys/d/x'))"), "-5");
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"show() of attribute 'x' raised a Lua error: lesson.lua:2: no show today");
	assert_string_equal(kt_str(L, "return select(2, echo('/sys/d/x', 'v'))"),
			    "echo: /sys/d/x: Input/output error");
	assert_contains(kt_str(L, "return diagnostics()[2].message"),
			"store() must return a count (an integer), got string");
	kt_run(L, "k:unregister()");
}

static void test_show_output_is_cut_at_a_page_and_store_may_return_nothing(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function() end,\n"
		  "  sysfs_ops = { show = function() return string.rep('x', 10000) end,\n"
		  "                store = function() end },\n"
		  "  default_attrs = { 'big' } }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('d'); k:register()\n");
	assert_int_equal(kt_int(L, "return #cat('/sys/d/big')"), 4095);
	assert_int_equal(kt_int(L, "return echo('/sys/d/big', 'abc')"), 3);
	kt_run(L, "k:unregister()");
}

static void test_attributes_without_sysfs_ops_fail_with_eio(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function() end, default_attrs = { 'a' } }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('d'); k:register()");
	assert_string_equal(kt_str(L, "return select(3, cat('/sys/d/a'))"), "-5");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 0);
	kt_run(L, "k:unregister()");
}

static void test_release_can_be_assigned_later(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype()\n"
		  "assert(tostring(kt) == 'kobj_type (release: none, sysfs_ops: none, 0 default attributes)')\n"
		  "done = false\n"
		  "kt.release = function() done = true end\n"
		  "k = new_kobject(); k.ktype = kt; k:init(); k:put()");
	assert_true(kt_bool(L, "return done"));
	assert_true(kt_bool(L, "return type(kt.release) == 'function'"));
	kt_run(L, "kt.release = nil");
	assert_true(kt_bool(L, "return kt.release == nil"));
	assert_contains(kt_error(L, "kt.sysfs_ops = {}"), "kobj_type field sysfs_ops cannot be "
							  "assigned (assignable: release)");
}

static void test_a_ktype_may_be_named_for_pictures(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ name = 'cdev_ktype', release = function() end }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('c0'); k:register()");
	assert_string_equal(kt_str(L, "return kt.name"), "cdev_ktype");
	assert_string_equal(kt_str(L, "return tostring(kt)"),
			    "kobj_type 'cdev_ktype' (release: yes, sysfs_ops: none, 0 default "
			    "attributes)");
	assert_contains(kt_str(L, "return dot()"), "cdev_ktype");
	assert_contains(kt_str(L, "return dot()"), "digraph");
	assert_true(kt_bool(L, "return new_ktype().name == nil"));
	assert_contains(kt_error(L, "new_ktype{ name = 1 }"), "new_ktype: name must be a string, "
							      "got number");
	assert_string_equal(kt_str(L, "return select(3, dot('/sys/none'))"), "-2");
	kt_run(L, "k:unregister()");
}

static void test_new_ktype_validates_its_definition(void **state)
{
	lua_State *L = *state;
	assert_contains(kt_error(L, "new_ktype{ release = 1 }"),
			"new_ktype: release must be a function, got number");
	assert_contains(kt_error(L, "new_ktype{ relase = print }"),
			"new_ktype: unknown field 'relase' (fields: name, release, sysfs_ops, "
			"default_attrs, default_groups)");
	assert_contains(kt_error(L, "new_ktype{ sysfs_ops = { shwo = print } }"),
			"new_ktype: sysfs_ops: unknown field 'shwo' (fields: show, store)");
	assert_contains(kt_error(L, "new_ktype{ sysfs_ops = { show = 'x' } }"),
			"new_ktype: sysfs_ops.show must be a function, got string");
	assert_contains(kt_error(L, "new_ktype{ default_attrs = { 'a/b' } }"),
			"new_ktype: default_attrs[1]: 'a/b' is not a valid file name");
	assert_contains(kt_error(L, "new_ktype{ default_attrs = { 'ok', 7 } }"),
			"new_ktype: default_attrs[2] must be a name, {name=, mode=} or a "
			"kobj_attribute, got number");
	assert_contains(kt_error(L, "new_ktype{ default_attrs = { { name = 'm', mode = 01000 } } }"),
			"default_attrs[1].mode must be an integer from 0 to 0777");
	assert_contains(kt_error(L, "new_ktype(5)"), "bad argument #1 to 'new_ktype' (table "
						     "expected, got number)");
}

static void test_duplicate_attribute_names_fail_the_add(void **state)
{
	lua_State *L = *state;
	kt_run(L, "kt = new_ktype{ release = function() end, default_attrs = { 'a', 'a' } }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('d'); r = k:register()");
	assert_int_equal(kt_int(L, "return r"), -17);
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "duplicate-name");
	kt_run(L, "k:put()");
}

/* Callbacks run on the main thread: called straight from C, they must leave its stack as
 * they found it, whether they succeed or fail. */
static void test_callbacks_called_from_c_keep_the_stack_balanced(void **state)
{
	lua_State *L = *state;
	struct kobj_world *w = kobj_lua_world(L);
	char buf[64];

	kt_run(L, "kt = new_ktype{ release = function(k) error('no') end,\n"
		  "  sysfs_ops = { show = function(k, a) if a == 'bad' then error('x') end\n"
		  "    return 'ok' end, store = function() error('y') end },\n"
		  "  default_attrs = { 'good', 'bad' } }\n"
		  "k = new_kobject(); k.ktype = kt; k:set_name('d'); k:register()");
	lua_pushliteral(L, "sentinel");
	assert_int_equal(sysfs_read(w, "/sys/d/good", buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ok");
	assert_int_equal(sysfs_read(w, "/sys/d/bad", buf, sizeof(buf)), -EIO);
	assert_int_equal(sysfs_write(w, "/sys/d/good", "v", 1), -EIO);
	struct kobject *kobj = sysfs_dirent_kobj(sysfs_lookup(w, "/sys/d"));
	assert_non_null(kobj);
	(kobject_del)(kobj);
	(kobject_put)(kobj);
	assert_int_equal(lua_gettop(L), 1);
	assert_string_equal(lua_tostring(L, 1), "sentinel");
	lua_pop(L, 1);
	assert_string_equal(kt_str(L, "return k.state"), "released");
	assert_int_equal(kt_int(L, "return #diagnostics()"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_release_gets_the_handle_and_its_container, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_container_of_checks_the_member_and_other_embeddings, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_failing_release_is_reported_and_the_model_stays_whole, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_release_error_object_that_is_not_a_string, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_release_may_drop_other_references, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_cat_and_echo_go_through_sysfs_ops, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_failing_show_and_store_read_as_eio, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_show_output_is_cut_at_a_page_and_store_may_return_nothing, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_attributes_without_sysfs_ops_fail_with_eio, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_release_can_be_assigned_later, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_ktype_may_be_named_for_pictures, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_new_ktype_validates_its_definition, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_attribute_names_fail_the_add, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_callbacks_called_from_c_keep_the_stack_balanced, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
