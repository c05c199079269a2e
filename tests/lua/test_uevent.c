/*
 * Today's uevents from Lua: kobject_uevent and kobject_uevent_env with the KOBJ_*
 * actions (constants or names), the variables user space sees (ACTION, DEVPATH,
 * SUBSYSTEM, the caller's, the kset's, SEQNUM), a kset's uevent_ops in Lua (filter, name,
 * uevent with its env and add_uevent_var's limits), and failing callbacks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const prelude =
	"kt = new_ktype{ release = function() end }\n"
	"function member(kset, name, parent)\n"
	"  local k = new_kobject(); k.kset = kset\n"
	"  assert(kobject_init_and_add(k, kt, parent, name) == 0)\n"
	"  return k\n"
	"end\n"
	"function last() local e = hotplug_events() return e[#e] end\n"
	"function envp(e) return table.concat((e or last()).envp, ' ') end\n";

static void test_an_event_carries_the_kernels_variables(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "bus = kset_create_and_add('bus', nil, nil)\n"
		  "dev = member(bus, 'dev')\n"
		  "r1 = kobject_uevent(dev, KOBJ_ADD)\n"
		  "r2 = kobject_uevent_env(dev, 'change', { 'POWER=on', 'X=1' })");
	assert_int_equal(kt_int(L, "return r1 + r2"), 0);
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 2);
	assert_string_equal(kt_str(L, "return envp(hotplug_events()[1])"),
			    "ACTION=add DEVPATH=/bus/dev SUBSYSTEM=bus SEQNUM=1");
	assert_string_equal(kt_str(L, "return envp()"),
			    "ACTION=change DEVPATH=/bus/dev SUBSYSTEM=bus POWER=on X=1 SEQNUM=2");
	assert_string_equal(kt_str(L, "local e = last() return e.action .. ' ' .. e.devpath .. "
				      "' ' .. e.subsystem .. ' ' .. e.seqnum .. ' ' .. e.line"),
			    "change /bus/dev bus 2 4");
	/* Every action, as a constant or by name. */
	kt_run(L, "for i, name in ipairs{ 'add', 'remove', 'change', 'move', 'online',\n"
		  "  'offline', 'bind', 'unbind' } do\n"
		  "  assert(kobject[('KOBJ_' .. name):upper()] == i - 1)\n"
		  "  assert(kobject_uevent(dev, name) == 0)\n"
		  "  assert(last().action == name)\n"
		  "end");
	assert_contains(kt_error(L, "kobject_uevent(dev, 'plug')"),
			"bad argument #2 to 'kobject_uevent' (a KOBJ_* action (KOBJ_ADD ... "
			"KOBJ_UNBIND) or its name");
	assert_contains(kt_error(L, "kobject_uevent(dev, 8)"), "bad argument #2");
	assert_contains(kt_error(L, "kobject_uevent_env(dev, KOBJ_ADD, { 1 })"),
			"kobject_uevent_env: envp[1] must be a \"KEY=value\" string, got number");
	/* UNBIND drops MODALIAS=, as the kernel does. */
	kt_run(L, "kobject_uevent_env(dev, KOBJ_UNBIND, { 'MODALIAS=pci:1', 'DRIVER=d' })");
	assert_string_equal(kt_str(L, "return envp()"),
			    "ACTION=unbind DEVPATH=/bus/dev SUBSYSTEM=bus DRIVER=d SEQNUM=11");
	/* "remove" was sent above, so the del sends none; a new object's del does. */
	assert_int_equal(kt_int(L, "local n = #hotplug_events() kobject_del(dev)\n"
				   "return #hotplug_events() - n"), 0);
	kt_run(L, "other = member(bus, 'other'); kobject_uevent(other, KOBJ_ADD)\n"
		  "kobject_del(other)");
	assert_string_equal(kt_str(L, "return last().action .. ' ' .. last().devpath"),
			    "remove /bus/other");
	kt_run(L, "kobject_put(other); kobject_put(dev); kset_unregister(bus)");
}

static void test_events_need_a_kset(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "lone = kobject_create_and_add('lone', nil)");
	assert_int_equal(kt_int(L, "return kobject_uevent(lone, KOBJ_ADD)"), -22);
	kt_run(L, "debug_kobject(true)");
	assert_int_equal(kt_int(L, "return kobject_uevent(lone, KOBJ_CHANGE)"), -22);
	assert_contains(kt_str(L, "return dmesg(1)"),
			"): kobject_uevent_env: attempted to send uevent without kset!");
	assert_int_equal(kt_int(L, "return kobject_uevent(new_kobject(), KOBJ_ADD)"), -22);
	assert_int_equal(kt_int(L, "return kobject_uevent(nil, KOBJ_ADD)"), -22);
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 0);
	kt_run(L, "kobject_put(lone)");
	assert_contains(kt_error(L, "kobject_uevent(lone, KOBJ_ADD)"),
			"kobject_uevent: 'lone' was released at lesson.lua:1");
}

static void test_uevent_ops_filter_name_and_uevent(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "seen = {}\n"
		  "ops = {\n"
		  "  filter = function(kobj) seen[#seen + 1] = 'filter ' .. kobj.name\n"
		  "    return kobj.name ~= 'quiet' end,\n"
		  "  name = function(kobj) if kobj.name == 'nameless' then return nil end\n"
		  "    return 'mybus' end,\n"
		  "  uevent = function(kobj, env)\n"
		  "    assert(env:add('MODALIAS=x:%s', kobj.name) == 0)\n"
		  "    env.DRIVER = 'drv'\n"
		  "    env.N = 7\n"
		  "    seen[#seen + 1] = 'uevent ' .. env.ACTION .. ' ' .. env.DRIVER .. ' ' .. #env\n"
		  "    return 0\n"
		  "  end }\n"
		  "bus = kset_create_and_add('bus', ops, nil)\n"
		  "dev = member(bus, 'dev')\n"
		  "r = kobject_uevent_env(dev, KOBJ_ADD, { 'A=b' })");
	assert_int_equal(kt_int(L, "return r"), 0);
	assert_string_equal(kt_str(L, "return envp()"),
			    "ACTION=add DEVPATH=/bus/dev SUBSYSTEM=mybus A=b MODALIAS=x:dev "
			    "DRIVER=drv N=7 SEQNUM=1");
	assert_string_equal(kt_str(L, "return table.concat(seen, ',')"),
			    "filter dev,uevent add drv 7");
	assert_true(kt_bool(L, "return bus.uevent_ops == ops"));
	/* filter() false and name() nil drop the event: 0, nothing sent. */
	kt_run(L, "quiet = member(bus, 'quiet'); nameless = member(bus, 'nameless')");
	assert_int_equal(kt_int(L, "return kobject_uevent(quiet, KOBJ_ADD) + "
				   "kobject_uevent(nameless, KOBJ_ADD)"), 0);
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 1);
	/* uevent()'s error is the caller's. */
	kt_run(L, "ops.uevent = function() return -ENODEV end");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_CHANGE)"), -19);
	/* Without name(), the kset's own name is the subsystem. */
	kt_run(L, "ops.name = nil; ops.uevent = nil; kobject_uevent(dev, KOBJ_CHANGE)");
	assert_string_equal(kt_str(L, "return last().subsystem"), "bus");
	/* A member of a member finds the kset above it. */
	kt_run(L, "sub = new_kobject(); kobject_init_and_add(sub, kt, dev, 'sub')\n"
		  "kobject_uevent(sub, KOBJ_ADD)");
	assert_string_equal(kt_str(L, "return last().devpath"), "/bus/dev/sub");
	kt_run(L, "kobject_put(sub); kobject_put(dev); kobject_put(quiet); kobject_put(nameless)\n"
		  "kset_unregister(bus)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_failing_callbacks_drop_or_cancel_the_event(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ops = { filter = function() error('filter broke') end }\n"
		  "bus = new_kset{ name = 'bus', uevent_ops = ops }\n"
		  "assert(kset_register(bus) == 0)\n"
		  "dev = member(bus, 'dev')");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), 0);
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 0);
	assert_contains(kt_str(L, "return diagnostics()[1].message"),
			"kset 'bus': uevent_ops.filter() for 'dev' raised a Lua error: "
			"lesson.lua:1: filter broke");
	kt_run(L, "ops.filter = nil\n"
		  "ops.name = function() return {} end");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), 0);
	assert_contains(kt_str(L, "return diagnostics()[2].message"),
			"name() must return a string or nil, got table");
	kt_run(L, "ops.name = nil\n"
		  "ops.uevent = function(kobj, env) env.BAD = {} end");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), -5);
	assert_contains(kt_str(L, "return diagnostics()[3].message"),
			"setting env.BAD: the value must be a string or a number, got table");
	assert_contains(kt_str(L, "return diagnostics()[3].explanation"),
			"The event was cancelled with -EIO");
	kt_run(L, "ops.uevent = function() return 'yes' end");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), -5);
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 0);
	assert_contains(kt_error(L, "bus.uevent_ops = { filtr = print }"),
			"uevent_ops: unknown field 'filtr' (fields: filter, name, uevent)");
	assert_contains(kt_error(L, "bus.uevent_ops = { name = 'x' }"),
			"uevent_ops.name must be a function, got string");
	kt_run(L, "bus.uevent_ops = nil; kobject_uevent(dev, KOBJ_ADD)");
	assert_string_equal(kt_str(L, "return last().subsystem"), "bus");
	kt_run(L, "kobject_put(dev); kset_unregister(bus)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

/* The callbacks that run are those of the kset the core asks, whatever kobj->kset now
 * says: a deleted member keeps the kset it was added with until it is added again. */
static void test_callbacks_are_the_asked_ksets(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "seen = {}\n"
		  "function ops(tag) return { filter = function(k)\n"
		  "  seen[#seen + 1] = tag .. ' ' .. k.name return true end } end\n"
		  "a = kset_create_and_add('a', ops('a'), nil)\n"
		  "b = kset_create_and_add('b', ops('b'), nil)\n"
		  "dev = member(a, 'dev')\n"
		  "kobject_del(dev)\n"
		  "dev.kset = b\n"
		  "r1 = kobject_uevent(dev, KOBJ_CHANGE)\n"
		  "dev.kset = nil\n"
		  "r2 = kobject_uevent(dev, KOBJ_CHANGE)");
	assert_string_equal(kt_str(L, "return table.concat(seen, ',')"), "a dev,a dev");
	kt_run(L, "kobject_put(dev); kset_unregister(a); kset_unregister(b)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_the_env_has_the_kernels_limits(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	/* 64 variables at most: ACTION, DEVPATH, SUBSYSTEM, then 61 more, and SEQNUM. */
	kt_run(L, "codes = {}\n"
		  "ops = { uevent = function(kobj, env)\n"
		  "  for i = 1, 62 do codes[i] = env:add('V%d=%d', i, i) end\n"
		  "  saved = env\n"
		  "  return codes[62]\n"
		  "end }\n"
		  "bus = kset_create_and_add('bus', ops, nil)\n"
		  "dev = member(bus, 'dev')");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), -12);
	assert_int_equal(kt_int(L, "return codes[61]"), 0);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].tag .. '|' .. "
				      "d[#d].message"),
			    "uevent-env-full|add_uevent_var: too many keys");
	assert_int_equal(kt_int(L, "return diagnostics()[#diagnostics()].line"), 3);
	/* After the callback, the env is gone. */
	assert_contains(kt_error(L, "return saved.ACTION"),
			"kobj_uevent_env: used after its uevent() callback returned");
	assert_contains(kt_error(L, "saved:add('X=1')"), "used after its uevent() callback returned");
	assert_string_equal(kt_str(L, "return tostring(saved)"),
			    "kobj_uevent_env (its callback returned)");
	/* 2048 bytes at most. */
	kt_run(L, "ops.uevent = function(kobj, env)\n"
		  "  codes.big = env:add('BIG=%s', string.rep('x', 3000))\n"
		  "  return codes.big end");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), -12);
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].message"),
			    "add_uevent_var: buffer size too small");
	/* An assignment cannot return the error: it raises, and the event is cancelled. */
	kt_run(L, "ops.uevent = function(kobj, env) env.BIG = string.rep('y', 3000) end");
	assert_int_equal(kt_int(L, "return kobject_uevent(dev, KOBJ_ADD)"), -5);
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"setting env.BIG: add_uevent_var returned -ENOMEM");
	assert_int_equal(kt_int(L, "return #hotplug_events()"), 0);
	/* Too many caller variables fail the same way, without a callback. */
	kt_run(L, "ops.uevent = nil\n"
		  "many = {} for i = 1, 70 do many[i] = 'K' .. i .. '=v' end");
	assert_int_equal(kt_int(L, "return kobject_uevent_env(dev, KOBJ_ADD, many)"), -12);
	kt_run(L, "kobject_put(dev); kset_unregister(bus)");
}

/* kset_create_and_add sends the new kset's "add" to the kset above it: the callback
 * gets a handle for the new kset before the call has returned it. */
static void test_a_new_ksets_own_event_names_it(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "got = nil\n"
		  "top = kset_create_and_add('top', { uevent = function(kobj, env)\n"
		  "  got = kobj; env.NAME = kobj.name; return 0 end }, nil)\n"
		  "m = member(top, 'm')\n"
		  "child = kset_create_and_add('child', nil, m)");
	assert_true(kt_bool(L, "return rawequal(got, child.kobj) and to_kset(got) == child"));
	assert_string_equal(kt_str(L, "return envp()"),
			    "ACTION=add DEVPATH=/top/m/child SUBSYSTEM=top NAME=child SEQNUM=1");
	kt_run(L, "kset_unregister(child); kobject_put(m); kset_unregister(top)");
	assert_string_equal(kt_str(L, "return got.state"), "released");
	/* A callback that makes a kset while one is being made: each gets its own. */
	kt_run(L, "seen = {}\n"
		  "top = kset_create_and_add('top2', { uevent = function(kobj, env)\n"
		  "  if kobj.name == 'outer' and not inner then\n"
		  "    inner = kset_create_and_add('inner', nil, m)\n"
		  "  end\n"
		  "  seen[#seen + 1] = kobj\n"
		  "  return 0 end }, nil)\n"
		  "m = member(top, 'm')\n"
		  "outer = kset_create_and_add('outer', nil, m)");
	assert_true(kt_bool(L, "return #seen == 2 and rawequal(seen[1], inner.kobj) and "
			       "rawequal(seen[2], outer.kobj) and outer.name == 'outer' and "
			       "inner.name == 'inner'"));
	kt_run(L, "kset_unregister(inner); kset_unregister(outer); kobject_put(m)\n"
		  "kset_unregister(top)");
	assert_string_equal(kt_str(L, "return seen[1].state .. ' ' .. seen[2].state"),
			    "released released");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_an_event_carries_the_kernels_variables, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_events_need_a_kset, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_uevent_ops_filter_name_and_uevent, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_failing_callbacks_drop_or_cancel_the_event, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_callbacks_are_the_asked_ksets, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_the_env_has_the_kernels_limits, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_new_ksets_own_event_names_it, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
