#!/bin/bash
# Pictures from the command line and the prompt: :dot --fold and --at-exit, :tree -L and
# --filelimit and their mistakes, dot{...} writing into --write-dir, and kobj lesson run
# and check with --record and --dot, before and after the lesson command.
# Usage: cli_test.sh KOBJ
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1 HOME=$TEST_TMPDIR
T=$TEST_TMPDIR
failed=0 passed=0
fail() { echo "FAIL: $name: $*"; sed 's/^/    /' "$T/err"; failed=$((failed + 1)); ok=0; }
run() { "$kobj" "$@" >"$T/out" 2>"$T/err" </dev/null; status=$?; }
run_in() { local input=$1; shift; printf '%s' "$input" | "$kobj" "$@" >"$T/out" 2>"$T/err"; status=$?; }
status_is() { [ "$status" -eq "$1" ] || fail "exit status $status, want $1"; }
out_has() { grep -qF -- "$1" "$T/out" || fail "stdout lacks '$1'"; }
err_has() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1'"; }
case_done() { [ "$ok" = 1 ] && passed=$((passed + 1)); }

name="options at the prompt" ok=1
run_in 'set = kset_create_and_add("wide", nil, nil); t = new_ktype{release = function() end}
for i = 1, 9 do local k = new_kobject(); k.kset = set; kobject_init_and_add(k, t, nil, "m%d", i) end
:dot --fold 4
:dot --fold 0
:dot --fold x
:dot --at-exit /sys/wide
:tree -L 1
:tree --filelimit 3 /sys/wide
:tree -L
:tree --nosuch
' -i
status_is 0
out_has "… 5 more"
grep -q "m5</b>" "$T/out" || fail ":dot --fold 0 drew no m5"
err_has ":dot: --fold wants a whole number, got 'x'"
out_has "still in sysfs at exit"
out_has "└── wide  [kset, refcount 19]"
[ "$(grep -c '── m1  \[refcount 1\]' "$T/out")" = 1 ] || fail ":tree -L 1 went deeper"
out_has "├── ... 6 more entries"
err_has ":tree: -L wants a whole number, got 'nothing'"
err_has ":tree: wants [-L depth] [--filelimit N] [path], got '--nosuch'"
case_done

name="a script's options and --write-dir" ok=1
mkdir -p "$T/pictures"
run --write-dir "$T/pictures" -e 'kobject_create_and_add("a", nil)
assert(dot{file = "one.svg", fold = 2})
assert(dot("/sys/a", {file = "two.dot"}))
assert(dot("three.dot", {legend = false}))'
status_is 0
[ -s "$T/pictures/one.svg" ] && [ -s "$T/pictures/two.dot" ] && [ -s "$T/pictures/three.dot" ] ||
	fail "dot{file=} wrote nothing into --write-dir: $(ls "$T/pictures")"
grep -q legend "$T/pictures/three.dot" && fail "legend = false drew a legend"
run -e 'dot{file = "x.svg"}'
status_is 1
err_has "writes files only where the command line says"
case_done

name="lesson run and check with --record and --dot" ok=1
run lesson --dir "$T/student" run 9 --record "$T/l9.html" --dot "$T/l9.svg"
status_is 0
grep -q "09-find-the-leak/demo.lua" "$T/l9.html" || fail "the demo's source is not in the page"
grep -q "<svg" "$T/l9.svg" || fail "no picture of lesson 9"
run --record "$T/l1.html" lesson --dir "$T/student" check 1
status_is 1
grep -q '"01-refcounts.lua","-- Lesson 1' "$T/l1.html" || fail "the student's copy is not in the page"
run lesson --dir "$T/student" list --dot "$T/x.svg"
status_is 2
err_has "--record and --dot go with 'kobj lesson run N' and 'kobj lesson check N'"
run lesson --dir "$T/student" run 1 --record
status_is 2
err_has "option '--record' needs a file name"
case_done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
