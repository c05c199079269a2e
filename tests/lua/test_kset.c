/* ksets and subsystems through the bindings: constructors, calls, fields, methods. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const prelude =
	"released = {}\n"
	"kt = new_ktype{ release = function(k) released[#released + 1] = k.name end }\n"
	"bus = decl_subsys('bus', kt, nil)\n"
	"function dev(name, set) local k = new_kobject(); kobject_set_name(k, name)\n"
	"  k.kset = set; return k end\n";

static void test_decl_subsys_is_declared_not_registered(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	assert_string_equal(kt_str(L, "return bus.name .. ' ' .. bus.state"), "bus uninitialized");
	assert_true(kt_bool(L, "return bus.ktype == kt and bus.kset.ktype == kt"));
	assert_true(kt_bool(L, "return bus.hotplug_ops == nil"));
	assert_int_equal(kt_int(L, "return subsystem_register(bus)"), 0);
	assert_string_equal(kt_str(L, "return tostring(bus)"),
			    "subsystem 'bus' refcount=2 in sysfs /sys/bus");
	assert_true(kt_bool(L, "return bus.kset.subsys == bus"));
	assert_string_equal(kt_str(L, "return getmetatable(bus) .. ' ' .. getmetatable(bus.kset)"),
			    "subsystem kset");
	assert_contains(kt_error(L, "decl_subsys('no good')"),
			"bad argument #1 to 'decl_subsys' ('no good' is not a C identifier (the "
			"macro defines no good_subsys))");
	kt_run(L, "long = decl_subsys('a_rather_long_subsystem_name')");
	assert_string_equal(kt_str(L, "return long.name"), "a_rather_long_subsystem_name");
}

static void test_members_join_the_kset_and_its_list(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "subsystem_register(bus)\n"
		  "a = dev('a', bus.kset); b = dev('b', bus.kset)\n"
		  "assert(kobject_register(a) == 0 and b:register() == 0)");
	assert_string_equal(kt_str(L, "return a.path"), "/sys/bus/a");
	assert_true(kt_bool(L, "return a.parent == bus.kset.kobj and a.kset == bus.kset"));
	assert_int_equal(kt_int(L, "return bus.refcount"), 6); /* 2 + parent and kset refs x2 */
	assert_string_equal(kt_str(L, "local t = {} for i, k in ipairs(bus.kset.list) do "
				      "t[i] = k.name end return table.concat(t, ',')"), "a,b");
	assert_true(kt_bool(L, "return kset_find_obj(bus.kset, 'b') == b"));
	assert_true(kt_bool(L, "return bus.kset:find_obj('zz') == nil"));
	kt_run(L, "kobject_unregister(a); b:unregister()");
	assert_int_equal(kt_int(L, "return bus.refcount"), 2);
	assert_int_equal(kt_int(L, "return #bus.kset.list"), 0);
	kt_run(L, "subsystem_unregister(bus)");
	assert_string_equal(kt_str(L, "return bus.state"), "released");
	assert_string_equal(kt_str(L, "return table.concat(released, ',')"), "a,b");
}

static void test_a_kset_under_a_subsystem(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "subsystem_register(bus)\n"
		  "drivers = new_kset{ name = 'drivers', subsys = bus, ktype = kt }\n"
		  "assert(kset_register(drivers) == 0)\n"
		  "d = dev('e1000', drivers); assert(d:register() == 0)");
	assert_string_equal(kt_str(L, "return d.path"), "/sys/bus/drivers/e1000");
	assert_true(kt_bool(L, "return drivers.subsys == bus and drivers.kobj.parent == bus.kset.kobj"));
	assert_true(kt_bool(L, "return get_ktype(d) == kt and drivers.ktype == kt"));
	assert_string_equal(kt_str(L, "return tostring(drivers)"),
			    "kset 'drivers' refcount=4 in sysfs /sys/bus/drivers");
	kt_run(L, "d:unregister(); kset_unregister(drivers); subsystem_unregister(bus)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_kset_and_subsys_references(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ks = new_kset('ks'); kset_init(ks)");
	assert_true(kt_bool(L, "return kset_get(ks) == ks and ks:get() == ks"));
	assert_int_equal(kt_int(L, "return ks.refcount"), 3);
	kt_run(L, "kset_put(ks); ks:put()");
	assert_int_equal(kt_int(L, "return ks.kobj.refcount"), 1);
	kt_run(L, "subsystem_init(bus)");
	assert_true(kt_bool(L, "return subsys_get(bus) == bus and bus:get() == bus"));
	kt_run(L, "subsys_put(bus); bus:put()");
	assert_int_equal(kt_int(L, "return bus.refcount"), 1);
	assert_true(kt_bool(L, "return kset_get(nil) == nil and subsys_get(nil) == nil"));
	kt_run(L, "ks:put(); bus:put()");
	assert_string_equal(kt_str(L, "return ks.state .. ' ' .. bus.state"), "released released");
}

static void test_kset_methods_and_fields(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ks = new_kset()\n"
		  "assert(ks:set_name('set%d', 1) == 0)\n"
		  "ks.ktype = kt; ks.subsys = bus\n"
		  "ks.name = 'renamed'\n"
		  "ks:init(); assert(ks:add() == -ENOENT)"); /* its parent, the subsystem, is not in sysfs */
	assert_string_equal(kt_str(L, "return ks.name"), "renamed");
	assert_true(kt_bool(L, "return ks.subsys == bus and ks.ktype == kt"));
	assert_string_equal(kt_str(L, "return diagnostics()[1].tag"), "add-failed");
	kt_run(L, "bus:register(); assert(ks:add() == 0)");
	kt_run(L, "ks.subsys = nil; ks.ktype = nil");
	assert_true(kt_bool(L, "return ks.subsys == nil and ks.ktype == nil"));
	assert_contains(kt_error(L, "ks.list = {}"), "kset field 'list' cannot be assigned "
						     "(assignable: name, ktype, hotplug_ops, uevent_ops, subsys)");
	assert_contains(kt_error(L, "return ks.parent"), "kset has no field 'parent' (fields:");
	assert_contains(kt_error(L, "bus.subsys = nil"), "subsystem field 'subsys' cannot be");
	assert_contains(kt_error(L, "return bus.kobj"), "subsystem has no field 'kobj'");
	kt_run(L, "ks:unregister(); bus:unregister()");
}

static void test_new_kset_validates_its_options(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	assert_contains(kt_error(L, "new_kset{ nmae = 'x' }"),
			"new_kset: unknown field 'nmae' (fields: name, ktype, subsys, "
			"hotplug_ops, uevent_ops, parent, container, member)");
	assert_contains(kt_error(L, "new_kset{ ktype = bus }"),
			"new_kset: field 'ktype' must be a kobj_type, got subsystem");
	assert_contains(kt_error(L, "new_kset{ subsys = bus.kset }"),
			"new_kset: field 'subsys' must be a subsystem, got kset");
	assert_contains(kt_error(L, "new_kset{ name = {} }"),
			"new_kset: field 'name' must be a string, got table");
	assert_contains(kt_error(L, "new_kset{ hotplug_ops = 3 }"),
			"hotplug_ops must be a table {filter=, name=, hotplug=}, got number");
	assert_contains(kt_error(L, "new_kset(true)"), "bad argument #1 to 'new_kset' (table "
						       "expected, got boolean)");
}

static void test_a_kset_can_be_embedded(void **state)
{
	lua_State *L = *state;
	kt_run(L, "holder = { what = 'bus type' }\n"
		  "ks = new_kset{ name = 'x', container = holder }\n"
		  "other = {}; new_kset{ container = other, member = 'set' }");
	assert_true(kt_bool(L, "return holder.kset == ks and container_of(ks) == holder"));
	assert_true(kt_bool(L, "return container_of(other.set) == other"));
}

static void test_ksets_where_a_kobject_is_needed_get_a_hint(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ks = new_kset('ks')");
	assert_contains(kt_error(L, "kobject_get(ks)"),
			"bad argument #1 to 'kobject_get' (kobject expected, got kset; pass its "
			"embedded kobject, kset.kobj)");
	assert_contains(kt_error(L, "kobject_put(bus)"),
			"(kobject expected, got subsystem; pass its embedded kobject, "
			"subsys.kset.kobj)");
	assert_contains(kt_error(L, "kset_register(bus)"),
			"(kset expected, got subsystem; pass its embedded kset, subsys.kset)");
	assert_contains(kt_error(L, "kset_init(ks.kobj)"),
			"(kset expected, got kobject; to_kset(kobj) gives the kset that embeds a "
			"kobject)");
	kt_run(L, "kobject_get(ks.kobj); kobject_put(ks.kobj)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_decl_subsys_is_declared_not_registered, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_members_join_the_kset_and_its_list, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_kset_under_a_subsystem, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kset_and_subsys_references, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kset_methods_and_fields, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_new_kset_validates_its_options, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_kset_can_be_embedded, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_ksets_where_a_kobject_is_needed_get_a_hint, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
