/*
 * Today's kobject calls from Lua: both forms of kobject_init and kobject_add (functions
 * and methods), kobject_init_and_add, kobject_create_and_add and kset_create_and_add
 * (core-owned memory whose handles go stale at release), kobject_get_unless_zero,
 * kobject_get_path, kobject_rename, kobject_move, kernel_kobj, and every handle type's
 * __fields list for completion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const prelude =
	"released = {}\n"
	"kt = new_ktype{ name = 'my_ktype', release = function(k)\n"
	"  released[#released + 1] = k.name end }\n";

static void test_kobject_init_chooses_the_era_by_argument_count(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "old = new_kobject(); old.ktype = kt; old.name = 'old'; kobject_init(old)\n"
		  "new = new_kobject(); new.name = 'new'; kobject_init(new, kt)\n"
		  "m = new_kobject(); m.name = 'm'; m:init(kt)\n"
		  "o2 = new_kobject(); o2.ktype = kt; o2.name = 'o2'; o2:init()");
	assert_true(kt_bool(L, "for _, o in ipairs(objects()) do\n"
			       "  if o.name == 'new' or o.name == 'm' then assert(o.refcount == 1) end\n"
			       "end return new.ktype == kt and m.ktype == kt"));
	/* Today's init takes no kset reference and names the call kobject_init. */
	assert_string_equal(kt_str(L, "local l = log() return l[#l].op"), "kobject_init");
	/* Today's init with no ktype: the kernel's message, nothing initialised. */
	kt_run(L, "bare = new_kobject(); bare.name = 'bare'; kobject_init(bare, nil)");
	assert_string_equal(kt_str(L, "return bare.state"), "uninitialized");
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"): must have a ktype to be initialized properly!");
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d].tag"), "no-ktype");
	assert_contains(kt_error(L, "kobject_init(new, 5)"),
			"bad argument #2 to 'kobject_init' (kobj_type expected, got number)");
	/* Today's init twice is refused with the kernel's words. */
	kt_run(L, "kobject_init(new, kt)");
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"tried to init an initialized object, something is seriously wrong.");
	kt_run(L, "kobject_put(old); kobject_put(new); m:put(); o2:put()");
	assert_string_equal(kt_str(L, "table.sort(released) return table.concat(released, ',')"),
			    "m,new,o2,old");
}

static void test_kobject_add_chooses_the_era_by_argument_count(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "p = new_kobject(); kobject_init(p, kt)\n"
		  "assert(kobject_add(p, nil, 'parent') == 0)\n"
		  "c = new_kobject(); kobject_init(c, kt)\n"
		  "assert(kobject_add(c, p, 'child%d-%s', 7, 'x') == 0)\n"
		  "d = new_kobject(); d:init(kt); assert(d:add(p, 'd') == 0)\n"
		  "a = new_kobject(); a.ktype = kt; a.name = 'article'; a:init(); assert(a:add() == 0)");
	assert_string_equal(kt_str(L, "return c.path"), "/sys/parent/child7-x");
	assert_string_equal(kt_str(L, "return d.path"), "/sys/parent/d");
	assert_string_equal(kt_str(L, "return a.path"), "/sys/article");
	/* Today's add takes no reference on the object itself; the article's does. */
	assert_int_equal(kt_int(L, "return c.refcount"), 1);
	assert_int_equal(kt_int(L, "return a.refcount"), 2);
	assert_int_equal(kt_int(L, "return p.refcount"), 3);
	/* kobject_add(kobj, parent) without a format keeps the name already set. */
	kt_run(L, "e = new_kobject(); e.name = 'keep'; kobject_init(e, kt)");
	assert_int_equal(kt_int(L, "return kobject_add(e, p)"), 0);
	assert_string_equal(kt_str(L, "return e.path"), "/sys/parent/keep");
	/* Errors come back as the kernel's codes, with its words in the diagnostics. */
	kt_run(L, "dup = new_kobject(); kobject_init(dup, kt)");
	assert_int_equal(kt_int(L, "return kobject_add(dup, p, 'keep')"), -17);
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"sysfs: cannot create duplicate filename '/parent/keep'");
	kt_run(L, "un = new_kobject()");
	assert_int_equal(kt_int(L, "return kobject_add(un, nil, 'un')"), -22);
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"tried to add an uninitialized object, something is seriously wrong.");
	assert_contains(kt_error(L, "kobject_add(c, nil, '%d', 'x')"),
			"bad argument #4 to 'kobject_add'");
	/* A parent below the object would make a loop of parents: refused. */
	assert_contains(kt_error(L, "kobject_add(p, c, 'p')"),
			"kobject_add: 'parent' would become its own ancestor: 'child7-x' is below it");
	kt_run(L, "kobject_put(dup); kobject_put(e); kobject_put(d); kobject_put(c)\n"
		  "a:unregister(); kobject_put(p)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_kobject_init_and_add(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "k = new_kobject()\n"
		  "r = kobject_init_and_add(k, kt, kernel_kobj, '%s-%d', 'dev', 1)");
	assert_int_equal(kt_int(L, "return r"), 0);
	assert_string_equal(kt_str(L, "return k.path"), "/sys/kernel/dev-1");
	assert_int_equal(kt_int(L, "return k.refcount"), 1);
	assert_string_equal(kt_str(L, "local l = log() for i = #l, 1, -1 do\n"
				      "  if l[i].kind == 'add' then return l[i].op end end"),
			    "kobject_init_and_add");
	/* A NULL ktype fails with -EINVAL (the kernel adds it with a count of 0). */
	kt_run(L, "n = new_kobject()");
	assert_int_equal(kt_int(L, "return kobject_init_and_add(n, nil, nil, 'n')"), -22);
	assert_contains(kt_str(L, "local d = diagnostics() return d[#d].message"),
			"must have a ktype to be initialized properly!");
	/* On failure the caller still puts, which releases it. */
	kt_run(L, "f = new_kobject()\n"
		  "assert(kobject_init_and_add(f, kt, kernel_kobj(), 'dev-1') == -17)\n"
		  "kobject_put(f)");
	assert_string_equal(kt_str(L, "return f.state"), "released");
	kt_run(L, "kobject_put(k)");
	assert_string_equal(kt_str(L, "return table.concat(released, ',')"), "dev-1,dev-1");
}

/* Today's objects use their own ktype; the article's, their kset's (get_ktype). */
static void test_the_era_decides_which_ktype_answers(void **state)
{
	lua_State *L = *state;
	kt_run(L, "calls = {}\n"
		  "own = new_ktype{ release = function(k) calls[#calls + 1] = 'own ' .. k.name end,\n"
		  "  sysfs_ops = { show = function() return 'own' end }, default_attrs = { 'f' } }\n"
		  "set_kt = new_ktype{ release = function(k) calls[#calls + 1] = 'set ' .. k.name end,\n"
		  "  sysfs_ops = { show = function() return 'set' end }, default_attrs = { 'f' } }\n"
		  "ks = new_kset{ name = 'ks', ktype = set_kt }; kset_register(ks)\n"
		  "new = new_kobject(); new.kset = ks; kobject_init_and_add(new, own, nil, 'new')\n"
		  "old = new_kobject(); old.kset = ks; old.ktype = own; old.name = 'old'; old:register()");
	assert_string_equal(kt_str(L, "return cat('/sys/ks/new/f') .. cat('/sys/ks/old/f')"), "ownset");
	kt_run(L, "kobject_put(new); old:unregister(); kset_unregister(ks)");
	assert_string_equal(kt_str(L, "return table.concat(calls, ',')"), "own new,set old");
}

static void test_a_dynamic_kobject_goes_stale_at_its_release(void **state)
{
	lua_State *L = *state;
	kt_run(L, "d = kobject_create_and_add('dyn', nil)");
	assert_string_equal(kt_str(L, "return tostring(d)"),
			    "kobject 'dyn' refcount=1 in sysfs /sys/dyn");
	assert_string_equal(kt_str(L, "return d.state .. ' ' .. d.path"), "in sysfs /sys/dyn");
	assert_true(kt_bool(L, "return d.ktype == nil and container_of(d) == nil"));
	assert_contains(kt_error(L, "d.ktype = new_ktype()"),
			"setting ktype: 'dyn' was made by the kernel");
	kt_run(L, "c = kobject_create_and_add('child', d)");
	assert_int_equal(kt_int(L, "return d.refcount"), 2);
	assert_true(kt_bool(L, "return c.parent == d"));
	kt_run(L, "kobject_put(d)");
	assert_string_equal(kt_str(L, "return d.state"), "in sysfs");
	kt_run(L, "kobject_put(c)");
	/* The child's release dropped the parent's last reference: both freed. */
	assert_string_equal(kt_str(L, "return c.state .. ' ' .. d.state"), "released released");
	assert_contains(kt_error(L, "return d.name"),
			"reading name: 'dyn' was released at lesson.lua:1; this handle is stale");
	assert_contains(kt_error(L, "kobject_del(c)"),
			"kobject_del: 'child' was released at lesson.lua:1");
	assert_string_equal(kt_str(L, "return tostring(c)"),
			    "kobject 'child' released at lesson.lua:1");
	/* A get or put through the stale handle is reported and touches nothing; c carries
	 * the creator's reference, already dropped: a put twice through one reference. */
	kt_run(L, "assert(kobject_get(d) == nil); kobject_put(c)");
	assert_string_equal(kt_str(L, "local d = diagnostics() return d[#d - 1].tag .. ' ' .. "
				      "d[#d].tag"),
			    "get-released reference-put-twice");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_new_objects_at_a_freed_address_get_new_handles(void **state)
{
	lua_State *L = *state;
	/* malloc hands freed addresses out again: old handles must stay stale. */
	kt_run(L, "old = {}\n"
		  "for i = 1, 40 do\n"
		  "  local d = kobject_create_and_add('d' .. i, nil)\n"
		  "  old[i] = d\n"
		  "  kobject_put(d)\n"
		  "end\n"
		  "live = kobject_create_and_add('live', nil)");
	assert_true(kt_bool(L, "for i = 1, 40 do\n"
			       "  assert(old[i].state == 'released' and old[i] ~= live)\n"
			       "  assert(not rawequal(old[i], live))\n"
			       "end return live.state == 'in sysfs'"));
	assert_string_equal(kt_str(L, "return live.name"), "live");
	kt_run(L, "kobject_put(live)");
	/* A dynamic object never put is freed with the world (ASan would see a leak). */
	kt_run(L, "leak = kobject_create_and_add('leak', kernel_kobj)\n"
		  "long = kobject_create_and_add(string.rep('n', 60), leak)");
	assert_int_equal(kt_int(L, "return #leaks()"), 2);
	kt_run(L, "reset()");
	assert_contains(kt_error(L, "return leak.name"), "belongs to a world that was reset");
}

static void test_create_and_add_failures_return_nil_and_why(void **state)
{
	lua_State *L = *state;
	kt_run(L, "a = kobject_create_and_add('same', nil)\n"
		  "b, why = kobject_create_and_add('same', nil)");
	assert_true(kt_bool(L, "return b == nil"));
	assert_string_equal(kt_str(L, "return why"),
			    "kobject_create_and_add: sysfs: cannot create duplicate filename "
			    "'//same'\nkobject_add_internal failed for same with -EEXIST, "
			    "don't try to register things with the same name in the same "
			    "directory.");
	assert_contains(kt_str(L, "return dmesg()"),
			"kobject_create_and_add: kobject_add error: -17");
	kt_run(L, "s, why = kset_create_and_add('same', nil, nil)");
	assert_true(kt_bool(L, "return s == nil"));
	assert_contains(kt_str(L, "return why"), "kset_create_and_add: ");
	kt_run(L, "fail_alloc(1); n, why = kobject_create_and_add('x', nil)");
	assert_string_equal(kt_str(L, "return tostring(n) .. ' ' .. why"),
			    "nil kobject_create_and_add: failed (-ENOMEM)");
	assert_contains(kt_error(L, "kobject_create_and_add(nil, nil)"),
			"bad argument #1 to 'kobject_create_and_add'");
	assert_contains(kt_error(L, "kobject_create_and_add('x', 5)"),
			"bad argument #2 to 'kobject_create_and_add' (kobject expected, got number)");
	kt_run(L, "kobject_put(a)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_kset_create_and_add_and_its_members(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "ks = kset_create_and_add('kset_example', nil, kernel_kobj)\n"
		  "foo = { value = 1 }; new_kobject(foo)\n"
		  "foo.kobj.kset = ks\n"
		  "assert(kobject_init_and_add(foo.kobj, kt, nil, '%s', 'foo') == 0)");
	assert_string_equal(kt_str(L, "return tostring(ks)"),
			    "kset 'kset_example' refcount=3 in sysfs /sys/kernel/kset_example");
	assert_string_equal(kt_str(L, "return foo.kobj.path"), "/sys/kernel/kset_example/foo");
	assert_true(kt_bool(L, "return foo.kobj.kset == ks and foo.kobj.parent == ks.kobj and "
			       "ks.list[1] == foo.kobj and ks.kobj.parent == kernel_kobj()"));
	/* Today's kset_find_obj takes a reference. */
	assert_int_equal(kt_int(L, "local f = kset_find_obj(ks, 'foo') assert(f == foo.kobj)\n"
				   "local n = f.refcount kobject_put(f) return n"), 2);
	kt_run(L, "kobject_put(foo.kobj); kset_unregister(ks)");
	assert_string_equal(kt_str(L, "return ks.state"), "released");
	assert_contains(kt_error(L, "return ks.list"), "'kset_example' was released at lesson.lua:1");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_unheld_pointers_to_freed_objects_are_forgotten(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	/* kobj.kset set but never added: no reference, so the kset may go. */
	kt_run(L, "ks = kset_create_and_add('gone', nil, nil)\n"
		  "k = new_kobject(); k.kset = ks\n"
		  "p = kobject_create_and_add('p', nil); k.parent = p\n"
		  "kset_unregister(ks); kobject_put(p)");
	assert_true(kt_bool(L, "return k.kset == nil and k.parent == nil"));
	/* The same for a kernel-made object moved by hand after its del. */
	kt_run(L, "d = kobject_create_and_add('d', nil); kobject_del(d)\n"
		  "q = kobject_create_and_add('q', nil); d.parent = q; kobject_put(q)");
	assert_true(kt_bool(L, "return d.parent == nil and kobject_get_path(d) == '/d'"));
	kt_run(L, "kobject_put(d)");
	/* Added, the object holds references: the parent stays until it goes. */
	kt_run(L, "p2 = kobject_create_and_add('p2', nil)\n"
		  "assert(kobject_init_and_add(k, kt, p2, 'k') == 0)\n"
		  "kobject_put(p2)");
	assert_true(kt_bool(L, "return k.parent == p2 and p2.state == 'in sysfs'"));
	kt_run(L, "kobject_put(k)");
	assert_string_equal(kt_str(L, "return p2.state"), "released");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_get_unless_zero_and_get_path(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "p = kobject_create_and_add('a', nil); c = kobject_create_and_add('b', p)");
	kt_run(L, "g = kobject_get_unless_zero(c)");
	assert_true(kt_bool(L, "return g == c and c.refcount == 2"));
	assert_string_equal(kt_str(L, "return kobject_get_path(c)"), "/a/b");
	kt_run(L, "u = new_kobject()");
	assert_true(kt_bool(L, "return kobject_get_path(u) == nil and "
			       "kobject_get_unless_zero(u) == nil and kobject_get_unless_zero(nil) == nil"));
	kt_run(L, "kobject_put(g); kobject_put(c)");
	/* Released: nil, quietly (no diagnostic), where kobject_get reports. */
	assert_int_equal(kt_int(L, "local n = #diagnostics()\n"
				   "assert(kobject_get_unless_zero(c) == nil)\n"
				   "return #diagnostics() - n"), 0);
	kt_run(L, "kobject_put(p)");
}

static void test_rename_and_move(void **state)
{
	lua_State *L = *state;
	kt_run(L, prelude);
	kt_run(L, "a = kobject_create_and_add('a', nil)\n"
		  "b = kobject_create_and_add('b', nil)\n"
		  "c = kobject_create_and_add('c', a)");
	assert_int_equal(kt_int(L, "return kobject_rename(c, 'c2')"), 0);
	assert_string_equal(kt_str(L, "return c.path .. ' ' .. c.name"), "/sys/a/c2 c2");
	assert_int_equal(kt_int(L, "return kobject_rename(a, 'x')"), -22); /* no parent */
	assert_int_equal(kt_int(L, "return kobject_move(c, b)"), 0);
	assert_string_equal(kt_str(L, "return c.path"), "/sys/b/c2");
	assert_true(kt_bool(L, "return c.parent == b and a.refcount == 1 and b.refcount == 2"));
	assert_int_equal(kt_int(L, "return kobject_move(b, c)"), -22); /* into its subtree */
	kt_run(L, "d = kobject_create_and_add('c2', a)");
	assert_int_equal(kt_int(L, "return kobject_move(d, b)"), -17);
	assert_int_equal(kt_int(L, "return kobject_move(c, nil)"), 0);
	assert_string_equal(kt_str(L, "return c.path"), "/sys/c2");
	kt_run(L, "kobject_put(d); kobject_put(c); kobject_put(b); kobject_put(a)");
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
}

static void test_kernel_kobj_belongs_to_the_world(void **state)
{
	lua_State *L = *state;
	assert_true(kt_bool(L, "return type(kernel_kobj) == 'function'"));
	kt_run(L, "k = kernel_kobj()");
	assert_string_equal(kt_str(L, "return k.path"), "/sys/kernel");
	assert_true(kt_bool(L, "return kernel_kobj() == k"));
	/* It is the world's: never a leak. */
	assert_int_equal(kt_int(L, "return #leaks()"), 0);
	kt_run(L, "reset()");
	assert_contains(kt_error(L, "return k.path"),
			"reading path: kobject 'kernel' belongs to a world that was reset");
	assert_string_equal(kt_str(L, "return kernel_kobj().path"), "/sys/kernel");
	assert_true(kt_bool(L, "return kernel_kobj() ~= k"));
}

/* Every handle type lists its fields for the REPL's completion. */
static void test_handle_metatables_list_their_fields(void **state)
{
	lua_State *L = *state;
	kt_run(L, "function fields(v)\n"
		  "  local f = debug.getmetatable(v).__fields\n"
		  "  return type(f) == 'table' and table.concat(f, ',') or 'none'\n"
		  "end\n"
		  "env_fields = nil\n"
		  "ks = kset_create_and_add('bus', { uevent = function(k, env)\n"
		  "  env_fields = fields(env) return 0 end }, nil)\n"
		  "m = new_kobject(); m.kset = ks\n"
		  "kobject_init_and_add(m, new_ktype{ release = function() end }, nil, 'm')\n"
		  "kobject_uevent(m, KOBJ_ADD)\n");
	assert_string_equal(kt_str(L, "return fields(new_kobject())"),
			    "name,refcount,parent,kset,ktype,state,path,id");
	assert_string_equal(kt_str(L, "return fields(ks)"),
			    "name,refcount,state,path,id,kobj,ktype,subsys,hotplug_ops,uevent_ops,list");
	assert_string_equal(kt_str(L, "return fields(decl_subsys('s'))"),
			    "name,refcount,state,path,id,kset,ktype,hotplug_ops,uevent_ops");
	assert_string_equal(kt_str(L, "return fields(new_ktype())"),
			    "name,release,sysfs_ops,default_attrs,default_groups");
	assert_string_equal(kt_str(L, "return fields(module_load('mod'))"),
			    "name,refcount,state,id");
	assert_string_equal(kt_str(L, "return fields(new_kref())"), "refcount");
	assert_string_equal(kt_str(L, "return fields(new_kobj_attribute{ name = 'a' })"),
			    "name,mode,show,store");
	assert_string_equal(kt_str(L, "return fields(new_attribute_group{})"),
			    "name,attrs,is_visible");
	assert_string_equal(kt_str(L, "return env_fields"), "add");
	/* The names are fields the handles answer. */
	kt_run(L, "for _, v in ipairs{ new_kobject(), ks, new_ktype(), new_kref(),\n"
		  "  new_kobj_attribute{ name = 'a' }, new_attribute_group{} } do\n"
		  "  for _, f in ipairs(debug.getmetatable(v).__fields) do local _ = v[f] end\n"
		  "end");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kobject_init_chooses_the_era_by_argument_count, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kobject_add_chooses_the_era_by_argument_count, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kobject_init_and_add, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_the_era_decides_which_ktype_answers, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_dynamic_kobject_goes_stale_at_its_release, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_new_objects_at_a_freed_address_get_new_handles, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_create_and_add_failures_return_nil_and_why, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kset_create_and_add_and_its_members, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_unheld_pointers_to_freed_objects_are_forgotten, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_get_unless_zero_and_get_path, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_rename_and_move, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kernel_kobj_belongs_to_the_world, kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_handle_metatables_list_their_fields, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
