#!/bin/bash
# Every lesson: its demo runs clean, its reference solution passes every check, and its
# exercise as shipped fails with the diagnostic its meta.lua names ("leak": objects left).
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1
work=$TEST_TMPDIR/student
passed=0 failed=0

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

for dir in "$KOBJ_LESSONS"/[0-9][0-9]-*/; do
	slug=$(basename "$dir")
	n=$((10#${slug%%-*}))
	for f in lesson.md demo.lua exercise.lua check.lua hints.md meta.lua; do
		[ -s "$dir/$f" ] || fail "$slug has no $f"
	done
	solution=$KOBJ_LESSONS/solutions/$slug.lua
	[ -s "$solution" ] || fail "$slug has no reference solution"

	if out=$("$kobj" lesson --dir "$work" run "$n" </dev/null 2>&1); then
		passed=$((passed + 1))
	else
		fail "$slug: the demo stopped"; echo "$out" | tail -20
	fi

	if out=$("$kobj" lesson --dir "$work" check "$n" "$solution" 2>&1) &&
	   grep -q "checks pass: lesson $n is done" <<<"$out"; then
		passed=$((passed + 1))
	else
		fail "$slug: the reference solution does not pass"; echo "$out" | tail -20
	fi

	intended=$(sed -n 's/.*intended *= *"\([^"]*\)".*/\1/p' "$dir/meta.lua")
	out=$("$kobj" lesson --dir "$work" check "$n" "$dir/exercise.lua" 2>&1)
	status=$?
	if [ "$status" -eq 0 ]; then
		fail "$slug: the exercise as shipped passes its checks"
	elif [ "$intended" = leak ] && ! grep -q "were never released" <<<"$out"; then
		fail "$slug: the exercise should leak"; echo "$out" | tail -20
	elif [ "$intended" = check ] && ! grep -q "checks fail" <<<"$out"; then
		fail "$slug: the exercise's checks should fail"; echo "$out" | tail -20
	elif [ "$intended" != leak ] && [ "$intended" != check ] &&
	     ! grep -q "^  \[$intended\] " <<<"$out"; then
		fail "$slug: no '$intended' diagnostic from the exercise"; echo "$out" | tail -20
	else
		passed=$((passed + 1))
	fi
done
# Lesson 1's leak report names the get that nobody put: open_device()'s, line 43, taken
# on the path that returns -EBUSY (not kobject_init's, whose reference was put).
exercise=$KOBJ_LESSONS/01-refcounts/exercise.lua
sed -n 43p "$exercise" | grep -q "kobject_get(dev.kobj)" || fail "line 43 of lesson 1 moved"
out=$("$kobj" lesson --dir "$work" check 1 "$exercise" 2>&1)
if grep -q "get, taken at [^ ]*exercise.lua:43 by kobject_get in open_device, never put" <<<"$out"
then passed=$((passed + 1)); else fail "lesson 1's report does not name line 43"; echo "$out"; fi

[ "$passed" -ge 42 ] || fail "only $passed lesson runs: are the lessons installed?"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
