#!/bin/bash
# Tests of the kobj program without a terminal: `kobj run` exit statuses and reports, -e,
# scripts on standard input, --help/--version and usage errors, the sandbox, the limits,
# and the REPL (-i) fed from a pipe.
# Usage: run_test.sh PATH_TO_KOBJ PATH_TO_ANY_FILE_IN_tests/repl/scripts
set -u

KOBJ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SCRIPTS=$(cd "$(dirname "$2")" && pwd)
T=${TEST_TMPDIR:-$(mktemp -d)}/run_test
mkdir -p "$T/home"
export HOME="$T/home" XDG_STATE_HOME="$T/state"
unset NO_COLOR
ESC=$(printf '\033')

failed=0
case_failed=0
name=""

# kobj ARGS...: runs kobj with no input; stdout in $T/out, stderr in $T/err, $status.
kobj() { "$KOBJ" "$@" >"$T/out" 2>"$T/err" </dev/null; status=$?; }
# kobj_in INPUT ARGS...: the same with INPUT on standard input.
kobj_in() {
	local input=$1
	shift
	printf '%s' "$input" | "$KOBJ" "$@" >"$T/out" 2>"$T/err"
	status=$?
}

fail() {
	echo "not ok - $name: $*"
	echo "  stdout:" && sed 's/^/    /' "$T/out"
	echo "  stderr:" && sed 's/^/    /' "$T/err"
	case_failed=1
}
status_is() { [ "$status" -eq "$1" ] || fail "exit status $status, want $1"; }
out_has() { grep -qF -- "$1" "$T/out" || fail "stdout lacks '$1'"; }
err_has() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1'"; }
out_lacks() { ! grep -qF -- "$1" "$T/out" || fail "stdout has '$1'"; }
err_lacks() { ! grep -qF -- "$1" "$T/err" || fail "stderr has '$1'"; }
err_empty() { [ ! -s "$T/err" ] || fail "stderr is not empty"; }

run_case() {
	name=$1
	case_failed=0
	"$1"
	if [ "$case_failed" -eq 0 ]; then echo "ok - $name"; else failed=$((failed + 1)); fi
}

# ==================================================================== the command line

t_help() {
	kobj --help
	status_is 0
	out_has "usage: kobj [options]"
	out_has "run FILE [ARGS...]"
	out_has "--max-instructions N"
	out_has "--max-memory MIB"
	out_has "Exit status: 0 ok, 1 Lua error, 2 usage error"
	err_empty
	kobj -h
	status_is 0
	out_has "usage: kobj"
}

t_version() {
	kobj --version
	status_is 0
	[ "$(cat "$T/out")" = "kobj 0.1.0 (Lua 5.4)" ] || fail "version line"
	kobj -V
	status_is 0
	out_has "kobj 0.1.0"
}

t_usage_errors() {
	kobj --bogus
	status_is 2
	err_has "unknown option '--bogus'"
	err_has "Try 'kobj --help'"
	kobj run
	status_is 2
	err_has "'run' needs the name of a Lua file"
	kobj -e
	status_is 2
	err_has "option '-e' needs the code to run"
	kobj lesson.lua
	status_is 2
	err_has "kobj run lesson.lua"
	kobj frobnicate
	status_is 2
	err_has "unknown command 'frobnicate'"
	kobj --max-memory lots -e 'print(1)'
	status_is 2
	err_has "--max-memory wants a size in MiB"
	kobj --max-instructions -5 -e 'print(1)'
	status_is 2
	err_has "--max-instructions wants a count"
	kobj --max-instructions
	status_is 2
	err_has "needs a value"
}

t_missing_script() {
	kobj run "$T/no-such-script.lua"
	status_is 2
	err_has "cannot open $T/no-such-script.lua"
	err_lacks "No diagnostics"
}

# ======================================================================= kobj run

t_clean_run() {
	kobj run "$SCRIPTS/clean.lua"
	status_is 0
	out_has "refcount	2"
	out_has "clean done"
	err_has "No diagnostics."
	err_has "No leaks"
	kobj run --strict "$SCRIPTS/clean.lua"
	status_is 0
	kobj --strict run "$SCRIPTS/clean.lua"
	status_is 0
}

t_leak_is_reported() {
	kobj run "$SCRIPTS/leak.lua"
	status_is 0
	out_has "leak done"
	err_has "'leaky'"
	err_has "never put"
	kobj run --strict "$SCRIPTS/leak.lua"
	status_is 3
	err_has "--strict: 0 diagnostic(s), 1 leaked object(s)"
}

t_diagnostic_is_reported() {
	kobj run "$SCRIPTS/double_put.lua"
	status_is 0
	out_has "double put done"
	err_has "refcount_t: underflow"
	err_has "double_put.lua:7"
	kobj --strict run "$SCRIPTS/double_put.lua"
	status_is 3
}

t_no_report() {
	kobj run --no-report "$SCRIPTS/leak.lua"
	status_is 0
	err_empty
	kobj run --no-report --strict "$SCRIPTS/leak.lua"
	status_is 3
}

t_lua_error() {
	kobj run "$SCRIPTS/error.lua"
	status_is 1
	out_has "before the error"
	out_lacks "not reached"
	err_has "error.lua:3: attempt to index a nil value (local 't')"
	err_has "stack traceback:"
	err_has "No diagnostics."
	kobj run --strict "$SCRIPTS/error.lua"
	status_is 1
}

t_syntax_error() {
	kobj run "$SCRIPTS/syntax.lua"
	status_is 1
	err_has "syntax.lua:1:"
}

t_script_arguments() {
	kobj run "$SCRIPTS/args.lua" one two
	status_is 0
	out_has "2	one	two"
	out_has "args.lua	one	two"
	kobj run "$SCRIPTS/args.lua" --strict
	status_is 0
	out_has "1	--strict"
}

t_snippets() {
	kobj -e 'x = 20' -e 'print(x + 22)'
	status_is 0
	out_has "42"
	err_has "No diagnostics."
	kobj -e 'error("boom")' -e 'print("not reached")'
	status_is 1
	err_has "(command line):1: boom"
	out_lacks "not reached"
}

t_stdin_script() {
	kobj_in 'print("from stdin")'
	status_is 0
	out_has "from stdin"
	kobj_in 'error("bad")'
	status_is 1
	err_has "stdin:1: bad"
	kobj_in 'print(...)' run - a b
	status_is 0
	out_has "a	b"
}

# ======================================================================= the sandbox

t_binary_chunks_refused() {
	printf '\033LuaT\000\031\223\r\n\032\n' >"$T/chunk.luac"
	kobj run "$T/chunk.luac"
	status_is 1
	err_has "attempt to load a binary chunk"
	kobj -e 'assert(load("\27LuaT\0"))'
	status_is 1
	err_has "attempt to load a binary chunk"
	kobj -e 'load("return 1", "x", "b")'
	status_is 1
	err_has "binary chunks are not allowed in the sandbox"
	kobj -e 'print(string.dump, ("").dump)'
	status_is 0
	out_has "nil	nil"
}

t_escapes_refused() {
	local code
	for code in 'io.write("escaped")' 'os.execute("echo escaped")' 'os.getenv("HOME")' \
		'os.exit(0)' 'os.remove("x")' 'package.loadlib("x", "y")' 'require("os")' \
		'debug.getregistry()' 'dofile("/etc/passwd")' 'loadfile("/etc/passwd")' \
		'load("return io.open")()'; do
		kobj -e "$code"
		status_is 1
		err_has "is not available in the kobj sandbox"
		out_lacks "escaped"
	done
	kobj -e 'print(rawget(_G, "io"), _G == _ENV)'
	status_is 0
	out_has "nil	true"
}

t_safe_parts_remain() {
	kobj -e 'print(string.format("%d", 7), table.concat({1, 2}, ","), math.max(1, 3),
		utf8.char(72), os.time() > 0, type(os.clock()),
		coroutine.wrap(function() coroutine.yield(5) end)(), select("#", pcall(error)))'
	status_is 0
	out_has "7	1,2	3	H	true	number	5	2"
}

# ======================================================================== the limits

t_instruction_budget() {
	local msg="instruction budget exhausted (1000000 instructions; raise it with --max-instructions)"
	kobj --max-instructions 1M -e 'while true do end'
	status_is 1
	err_has "$msg"
	kobj --max-instructions 1M -e 'while true do pcall(function() while true do end end) end'
	status_is 1
	err_has "$msg"
	kobj --max-instructions=1M -e 'while true do xpcall(function() while true do end end, print) end'
	status_is 1
	err_has "$msg"
	kobj --max-instructions 1M -e '
		while true do coroutine.resume(coroutine.create(function() while true do end end)) end'
	status_is 1
	err_has "$msg"
	kobj --max-instructions 5M -e 'for i = 1, 1e5 do end print("fits")'
	status_is 0
	out_has "fits"
	kobj --max-instructions 0 -e 'for i = 1, 3e6 do end print("no limit")'
	status_is 0
	out_has "no limit"
	kobj -e 'while true do end'
	status_is 1
	err_has "(100000000 instructions"
}

t_memory_cap() {
	local msg="memory limit reached (16 MiB; raise it with --max-memory)"
	kobj --max-memory 16 -e 'local t = {} for i = 1, 1e8 do t[i] = {} end'
	status_is 1
	err_has "$msg"
	kobj --max-memory 16 --max-instructions 0 -e 'print(pcall(string.rep, "x", 1 << 30)) print("caught")'
	status_is 1
	err_has "$msg"
	out_lacks "caught"
	kobj --max-memory 16 -e 'print(#string.rep("x", 1 << 20))'
	status_is 0
	out_has "1048576"
}

# ============================================================ the REPL without a terminal

t_plain_when_not_a_terminal() {
	kobj -e 'print({1}) error("x")'
	status_is 1
	grep -q "$ESC" "$T/out" "$T/err" && fail "colour escapes without a terminal"
	kobj_in $'{1, "a"}\nerror("x")\n' -i
	grep -q "$ESC" "$T/out" "$T/err" && fail "colour escapes without a terminal"
	status_is 0
}

t_repl_from_a_pipe() {
	kobj_in $'1 + 1\n{1, 2, x = "y", [10] = true}\nfor i = 1, 2 do\nprint(i * 100)\nend\nerror("e")\n6 * 7\n"str", nil\n:quit\nprint("not reached")\n' -i
	status_is 0
	out_has "2"
	out_has '{1, 2, [10] = true, x = "y"}'
	out_has "100"
	out_has "200"
	err_has "stdin:6: e" # the sixth line typed: origins count the session's lines
	out_has "42"
	out_has "str	nil"
	out_lacks "not reached"
}

t_repl_commands() {
	kobj_in ":help
:tree
k = new_kobject() kobject_set_name(k, \"seen\") kobject_init(k) kobject_add(k)
:tree /sys
:tree /sys/nothing
:log 1
:log many
:leaks
:diag
:nosuch
:l
:load $SCRIPTS/loaded.lua
loaded_value
:load $T/missing.lua
:reset
k
" -i
	status_is 0
	out_has "Commands (a unique prefix is enough):"
	out_has ":tree [-L N] [--filelimit N] [path]"
	out_has "seen"
	out_has "kobject_add"
	err_has ":tree: no such directory in sysfs: '/sys/nothing'"
	err_has ":log: wants a number of events"
	out_has "No diagnostics."
	err_has "unknown command ':nosuch'"
	err_has "ambiguous command ':l' (:log, :leaks, :load, :lesson)"
	out_has "42"
	err_has "cannot open $T/missing.lua"
	out_has "a fresh world"
	out_has "nil"
}

# A kset with two members: one leaked, one put twice; both traced to the lines typed.
t_leak_and_double_put_at_the_prompt() {
	kobj_in 'bus = decl_subsys("bus", new_ktype{release = function(k) end})
subsystem_register(bus)
set = new_kset{name = "drivers", subsys = bus}
kset_register(set)
a = new_kobject(); a.kset = set; kobject_set_name(a, "a"); kobject_register(a)
b = new_kobject(); b.kset = set; kobject_set_name(b, "b"); kobject_register(b)
kobject_get(a)
kobject_unregister(a)
kobject_unregister(b)
kobject_put(b)
:leaks
' -i
	status_is 0
	err_has "refcount_t: underflow; use-after-free."
	err_has "kobject_put() at stdin:10 dropped a reference to 'b', but its count had already reached zero at stdin:9"
	out_has "'a' ("
	out_has "taken at stdin:7 by kobject_get, never put"
}

# =========================================================================== pictures

t_record_and_dot() {
	kobj --record "$T/run.html" --dot "$T/end.svg" run "$SCRIPTS/leak.lua"
	status_is 0
	grep -q "const T = {" "$T/run.html" || fail "no timeline data in the page"
	grep -q "<svg" "$T/end.svg" || fail "no SVG picture"
	grep -q 'class="node kobject leaked"' "$T/end.svg" || fail "the leaked object is not drawn as leaked"
	grep -q 'leak.lua:5' "$T/end.svg" || fail "the leak picture does not name the line that leaked"
	kobj --dot "$T/end.gif" -e 'x = 1'
	status_is 1
	err_has "unknown picture format"
	kobj --record
	status_is 2
	err_has "option '--record' needs a file name"
}

t_dot_from_lua_and_the_repl() {
	mkdir -p "$T/pictures"
	kobj_in "k = new_kobject(); k:set_name('pic'); k.ktype = new_ktype{}; k:register()
print(dot():match('^digraph'))
print(dot('lua.png'))
:dot $T/repl.svg
:dot /sys/nothing
" --write-dir "$T/pictures" -i
	status_is 0
	out_has "digraph"
	out_has "true"
	out_has "wrote $T/repl.svg"
	err_has ":dot: no such directory in sysfs: '/sys/nothing'"
	[ "$(head -c 4 "$T/pictures/lua.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
		fail "dot('x.png')"
	grep -q ">pic</text>" "$T/repl.svg" || fail ":dot file"
}

for c in t_help t_version t_usage_errors t_missing_script t_clean_run t_leak_is_reported \
	t_diagnostic_is_reported t_no_report t_lua_error t_syntax_error t_script_arguments \
	t_snippets t_stdin_script t_binary_chunks_refused t_escapes_refused t_safe_parts_remain \
	t_instruction_budget t_memory_cap t_plain_when_not_a_terminal t_repl_from_a_pipe \
	t_repl_commands t_leak_and_double_put_at_the_prompt t_record_and_dot t_dot_from_lua_and_the_repl; do
	run_case "$c"
done

if [ "$failed" -ne 0 ]; then
	echo "$failed case(s) failed"
	exit 1
fi
echo "all cases passed"
