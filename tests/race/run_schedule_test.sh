#!/bin/bash
# kobj run --schedule: simulated threads follow the schedule given, a malformed one is a
# usage error, and --record writes the run's timeline with each event's thread.
set -uo pipefail
kobj=$(realpath "$1")
script=$PWD/tests/race/scripts/threads.lua
export NO_COLOR=1
passed=0 failed=0
out=$TEST_TMPDIR/out err=$TEST_TMPDIR/err

check() { # description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $what"
		sed 's/^/  stdout: /' "$out"
		sed 's/^/  stderr: /' "$err"
	fi
}

"$kobj" run "$script" >"$out" 2>"$err"
check "by the rule thread 1 runs first and nothing goes wrong" \
	grep -q "^No diagnostics.$" "$err"
check "the rule's schedule is printed" grep -qx "schedule 1" "$out"
check "thread 2 drops the last reference" grep -qx "released by thread 2" "$out"

"$kobj" run --schedule 12 --record "$TEST_TMPDIR/run.html" "$script" >"$out" 2>"$err"
check "--schedule 12: thread 1's get comes after the release" \
	grep -q "refcount_t: addition on 0; use-after-free." "$err"
check "the schedule followed is printed" grep -qx "schedule 12" "$out"
check "--record writes the timeline" test -s "$TEST_TMPDIR/run.html"
check "the timeline's events carry their thread" grep -q "thread 2\]" "$TEST_TMPDIR/run.html"

"$kobj" run --schedule=3 "$script" >"$out" 2>"$err"
status=$?
check "a thread the script does not have is an error of the script" \
	grep -q "run_threads: schedule '3' names a thread that does not exist (this program \
has 2 threads)" "$err"
check "... with exit status 1" test "$status" -eq 1

"$kobj" run --schedule 1x "$script" >"$out" 2>"$err"
status=$?
check "a malformed schedule is a usage error (2)" test "$status" -eq 2
check "... that says what is wrong" \
	grep -q "schedule '1x' has a character that is not a thread number" "$err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
