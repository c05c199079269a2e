/* dot() and tree() from Lua with their options, and call stacks noted while recording. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "tests/lua/harness.h"

static void dot_folds_as_asked(void **state)
{
	lua_State *L = *state;
	kt_run(L, "local set = kset_create_and_add('set', nil, nil)\n"
		  "local k = {}\n"
		  "for i = 0, 9 do\n"
		  "  k[i] = new_kobject({}); k[i].kset = set\n"
		  "  kobject_init_and_add(k[i], new_ktype{release = function() end}, nil, 'm%d', i)\n"
		  "end");
	assert_contains(kt_str(L, "return dot()"), "… 4 more</b>");
	assert_contains(kt_str(L, "return dot{fold = 8}"), "… 2 more</b>");
	assert_contains(kt_str(L, "return tostring(dot{fold = 0}:find('more</b>'))"), "nil");
	assert_contains(kt_str(L, "return dot('/sys/set', {fold = 2})"), "… 8 more</b>");
	assert_contains(kt_str(L, "return tostring(dot{legend = false}:find('legend'))"), "nil");
	assert_contains(kt_str(L, "return dot{at_exit = true}"), "still in sysfs at exit");
	assert_contains(kt_error(L, "dot{fold = -1}"),
			"dot: option 'fold' wants a whole number (0 or more), got -1");
	assert_contains(kt_error(L, "dot{file = 'x.gif'}"), "ending in .svg, .png, .pdf or .dot");
	assert_contains(kt_error(L, "dot('/sys', true, {}, 5)"), "dot: too many arguments");
}

static void tree_takes_depth_and_file_limits(void **state)
{
	lua_State *L = *state;
	kt_run(L, "local a = kobject_create_and_add('a', nil)\n"
		  "local b = kobject_create_and_add('b', a)\n"
		  "kobject_create_and_add('c', b)\n"
		  "for i = 1, 5 do kobject_create_and_add('f' .. i, a) end");
	const char *full = kt_str(L, "return tree('/sys/a')");
	assert_contains(full, "c  [refcount 1]");
	assert_string_equal(kt_str(L, "return tree('/sys/a', {depth = 1})"),
			    "/sys/a  [refcount 7]\n"
			    "├── b  [refcount 2]\n"
			    "├── f1  [refcount 1]\n"
			    "├── f2  [refcount 1]\n"
			    "├── f3  [refcount 1]\n"
			    "├── f4  [refcount 1]\n"
			    "└── f5  [refcount 1]\n");
	assert_contains(kt_str(L, "return tree{path = '/sys/a', filelimit = 3, depth = 1}"),
			"├── ... 3 more entries\n");
	assert_contains(kt_error(L, "tree('/sys', {depth = 'x'})"),
			"tree: option 'depth' wants a whole number (0 or more), got x");
}

/* While a recording is made, a call from a helper notes the helper's line with the
 * caller's: the same line called from two places gives two sites. */
static void recording_notes_call_stacks(void **state)
{
	lua_State *L = *state;
	struct kobj_world *w = kobj_lua_world(L);
	kobj_lua_record_stacks(L, 1);
	kt_run(L, "local function add(name)\n"          /* 1 */
		  "  return kobject_create_and_add(name, nil)\n" /* 2 */
		  "end\n"                                   /* 3 */
		  "add('x')\n"                              /* 4 */
		  "add('y')\n");                            /* 5 */
	kobj_lua_record_stacks(L, 0);
	kt_run(L, "kobject_create_and_add('z', nil)");
	struct kobj_event ev;
	unsigned x = 0, y = 0, z = 0;
	for (size_t i = 0; kobj_log_read(w, i, &ev); i++) {
		const struct kobj_record *r = kobj_record_by_id(w, ev.obj);
		if (ev.kind != KOBJ_EV_INIT || !r)
			continue;
		*(strcmp(r->name, "x") == 0 ? &x : strcmp(r->name, "y") == 0 ? &y : &z) = ev.site;
	}
	assert_int_equal(kobj_site_origin(w, x).line, 2);
	assert_int_equal(kobj_site_origin(w, y).line, 2);
	assert_int_not_equal(x, y);
	assert_int_equal(kobj_site_origin(w, kobj_site_caller(w, x)).line, 4);
	assert_int_equal(kobj_site_origin(w, kobj_site_caller(w, y)).line, 5);
	assert_int_equal(kobj_site_caller(w, z), 0); /* not recording: the line alone */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(dot_folds_as_asked, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(tree_takes_depth_and_file_limits, kt_setup,
						kt_teardown),
		cmocka_unit_test_setup_teardown(recording_notes_call_stacks, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
