/* Every reference has a holder: reference handles, the ledger's picks, and the reports
 * that read it (log lines, leaks root first, references()). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/lua/harness.h"

static const char *const bus_with_eth0 =
	"bus = kset_create_and_add('bus', nil, nil)\n"
	"eth0 = new_kobject()\n"
	"eth0.kset = bus\n"
	"kobject_init_and_add(eth0, new_ktype{ release = function() end }, bus.kobj, 'eth0')\n";

/* The bug the count cannot show: a second put through the same reference while another
 * holder keeps the count up. */
static void test_a_put_twice_through_one_handle_is_caught_while_the_count_is_up(void **state)
{
	lua_State *L = *state;
	kt_run(L, bus_with_eth0);
	kt_run(L, "opener = kobject_get(eth0)\n"  /* line 1 */
		  "router = kobject_get(eth0)\n"  /* line 2 */
		  "kobject_put(opener)\n"         /* line 3 */
		  "kobject_put(opener)\n");       /* line 4 */
	assert_int_equal(kt_int(L, "return eth0.refcount"), 2);
	assert_string_equal(kt_str(L, "local d = diagnostics() return #d .. ' ' .. d[#d].tag"),
			    "1 reference-put-twice");
	const char *why = kt_str(L, "local d = diagnostics() return d[#d].explanation");
	assert_contains(why, "kobject_put() at lesson.lua:4 dropped, through the same reference, "
			     "the reference to 'eth0' taken at lesson.lua:1, which was already "
			     "dropped at lesson.lua:3");
	assert_contains(why, "Other references keep the count above zero");
	/* router's reference and the creator's are untouched */
	assert_string_equal(kt_str(L, "local t = {} for _, r in ipairs(references(eth0)) do "
				      "t[#t + 1] = r.kind .. '@' .. r.line end "
				      "return table.concat(t, ' ')"),
			    "creator@4 get@2");
}

static void test_a_reference_handle_is_the_object(void **state)
{
	lua_State *L = *state;
	kt_run(L, bus_with_eth0);
	kt_run(L, "ref = kobject_get(eth0)");
	assert_true(kt_bool(L, "return ref == eth0 and ref.name == 'eth0' and "
			       "tostring(ref) == tostring(eth0) and ref.kset == bus"));
	assert_true(kt_bool(L, "local r = references(eth0) return r[#r].tracked == true"));
}

/* A plain put drops the creator's reference first, then a get of the same function, then
 * the newest; a reference a handle was returned for is dropped only when no other is left,
 * and the log says so (chosen). */
static void test_plain_puts_follow_the_stated_rules(void **state)
{
	lua_State *L = *state;
	const char *refs = "local t = {} for _, r in ipairs(references(eth0)) do "
			   "t[#t + 1] = r.kind .. '@' .. r.line end return table.concat(t, ' ')";
	kt_run(L, bus_with_eth0);
	kt_run(L, "function probe() kobject_get(eth0) end\n"
		  "function remove() kobject_put(eth0) end\n"
		  "function poll() kobject_get(eth0); kobject_get(eth0); kobject_put(eth0) end\n"
		  "probe(); remove()\n");
	assert_string_equal(kt_str(L, refs), "get@1"); /* remove() gave back the creator's */
	kt_run(L, "probe(); poll()");
	/* poll()'s put gave back one of poll()'s gets (the newest: a choice), not probe()'s */
	assert_string_equal(kt_str(L, refs), "get@1 get@1 get@3");
	assert_string_equal(kt_str(L, "local e = log(1)[1] return e.ref_kind .. ' ' .. "
				      "tostring(e.chosen)"),
			    "get true");
	/* through the handle it took, a put names its reference: no choice */
	kt_run(L, "function once() local r = kobject_get(eth0); kobject_put(r) end once()");
	assert_string_equal(kt_str(L, "return tostring(log(1)[1].chosen)"), "nil");
	kt_run(L, "remove()"); /* no creator's, none of remove()'s own: the newest, a choice */
	assert_string_equal(kt_str(L, refs), "get@1 get@1");
	assert_string_equal(kt_str(L, "return tostring(log(1)[1].chosen)"), "true");
	assert_contains(kt_str(L, "return log_text(1)"), "chosen");
}

/* The two references the kset holds on behalf of one member are told apart. */
static void test_the_parent_and_the_kset_reference_are_told_apart(void **state)
{
	lua_State *L = *state;
	kt_run(L, bus_with_eth0);
	assert_string_equal(kt_str(L, "local t = {} for _, r in ipairs(references(bus)) do "
				      "t[#t + 1] = r.kind .. ':' .. (r.holder or '-') end "
				      "return table.concat(t, ' ')"),
			    "creator:- parent of:eth0 kset of:eth0");
	const char *text = kt_str(L, "return log_text()");
	assert_contains(text, "+1 'bus' 1 -> 2 [parent of 'eth0', taken by kobject_add]");
	assert_contains(text, "+1 'bus' 2 -> 3 [kset of 'eth0', taken by kobject_add]");
	kt_run(L, "kobject_del(eth0)");
	text = kt_str(L, "return log_text(2)");
	assert_contains(text, "-1 'bus' 3 -> 2 [kset of 'eth0']");
	assert_contains(text, "-1 'bus' 2 -> 1 [parent of 'eth0']");
}

/* A leak chain: the root cause first, then the objects only it keeps alive. */
static void test_leaks_come_root_first(void **state)
{
	lua_State *L = *state;
	kt_run(L, "t = new_ktype{ release = function() end }\n"
		  "top = new_kobject(); kobject_init_and_add(top, t, nil, 'top')\n"
		  "mid = new_kobject(); kobject_init_and_add(mid, t, top, 'mid')\n"
		  "leaf = new_kobject(); kobject_init_and_add(leaf, t, mid, 'leaf')\n"
		  "kobject_put(top); kobject_put(mid)\n");
	assert_string_equal(kt_str(L, "local t = {} for _, l in ipairs(leaks()) do "
				      "t[#t + 1] = l.name .. '<' .. l.root end "
				      "return table.concat(t, ' ')"),
			    "leaf<leaf top<leaf mid<leaf");
	assert_string_equal(kt_str(L, "return leaks()[1].refs[1].text"),
			    "the creator's, taken at lesson.lua:4 by kobject_init_and_add, never put");
	assert_contains(kt_str(L, "return leaks()[3].refs[1].text"),
			"parent of 'leaf', taken at lesson.lua:4 by kobject_init_and_add, "
			"held by 'leaf', which is not released either");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_a_put_twice_through_one_handle_is_caught_while_the_count_is_up,
			kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_a_reference_handle_is_the_object, kt_setup,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_plain_puts_follow_the_stated_rules, kt_setup,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_the_parent_and_the_kset_reference_are_told_apart,
						kt_setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_leaks_come_root_first, kt_setup, kt_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
