#!/bin/bash
# The student's side of `kobj lesson`: list, show, hint one at a time, check, next,
# reset, and where the working copies and progress live.
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1 HOME=$TEST_TMPDIR/home XDG_DATA_HOME=
failed=0
fail() { echo "FAIL: $*"; echo "$out" | sed 's/^/    /' | tail -15; failed=$((failed + 1)); }
has() { grep -qF -- "$1" <<<"$out" || fail "output lacks '$1'"; }

first=$(basename "$(ls -d "$KOBJ_LESSONS"/01-*)")
home_dir=$HOME/.local/share/kobj/lessons

out=$("$kobj" lesson list 2>&1) || fail "list"
has "  1  Reference counts and release"
has "Your work is in $home_dir"

out=$("$kobj" lesson show 1 2>&1) || fail "show"
has "# 1. "
has "Your copy of the exercise: $home_dir/$first.lua"
cmp -s "$home_dir/$first.lua" "$KOBJ_LESSONS/$first/exercise.lua" || fail "working copy"

out=$("$kobj" lesson hint 1 2>&1) || fail "hint"
has "Hint 1 of "
grep -q "Hint 2 of" <<<"$out" && fail "the second hint came too early"
out=$("$kobj" lesson hint 1 2>&1)
has "Hint 2 of "

out=$("$kobj" lesson check 1 2>&1) && fail "the shipped exercise passed"
has "checks fail. Stuck? kobj lesson hint 1"
out=$("$kobj" lesson list 2>&1)
has "started"

cp "$KOBJ_LESSONS/solutions/$first.lua" "$home_dir/$first.lua"
out=$("$kobj" lesson check 1 2>&1) || fail "the fixed copy failed"
has "lesson 1 is done"
out=$("$kobj" lesson list 2>&1)
grep -q "^  1 .*done$" <<<"$out" || fail "lesson 1 not marked done"
out=$("$kobj" lesson next 2>&1) || fail "next"
has "Next: lesson 2."

out=$("$kobj" lesson reset 1 2>&1) || fail "reset"
cmp -s "$home_dir/$first.lua" "$KOBJ_LESSONS/$first/exercise.lua" || fail "reset copy"

out=$("$kobj" lesson --dir "$TEST_TMPDIR/elsewhere" show 1 2>&1) || fail "--dir"
[ -f "$TEST_TMPDIR/elsewhere/$first.lua" ] || fail "--dir working copy"

out=$("$kobj" lesson show 99 2>&1) && fail "lesson 99 exists?"
has "no lesson '99': the lessons are numbered 1 to"
out=$("$kobj" lesson check 2>&1) && fail "check without a number"
has "which lesson?"
out=$(printf '1\n2\n3\n' | "$kobj" lesson run 1 2>&1) || fail "run"
has "? "

echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
