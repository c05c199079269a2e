#!/bin/bash
# Predictions at a terminal: `kobj lesson run` asks before it shows, grades each answer,
# then tells the truth. The answers are first read from a run without a terminal, which
# prints them; then a pseudo-terminal (script(1)) types them right, then wrong.
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1 HOME=$TEST_TMPDIR
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

for n in 1 5; do
	mapfile -t answers < <("$kobj" lesson run "$n" </dev/null 2>&1 |
		sed -n 's/^  (answer: \(.*\))$/\1/p')
	[ "${#answers[@]}" -ge 2 ] || { fail "lesson $n asks fewer than two predictions"; continue; }

	right=$(printf '%s\n' "${answers[@]}" |
		script -qec "$kobj lesson run $n" /dev/null 2>&1 | tr -d '\r')
	got=$(grep -c "^your prediction> *  right: " <<<"$right")
	[ "$got" -eq "${#answers[@]}" ] || fail "lesson $n: $got of ${#answers[@]} right answers graded right"

	wrong=$(printf 'zzz\n%.0s' "${answers[@]}" |
		script -qec "$kobj lesson run $n" /dev/null 2>&1 | tr -d '\r')
	got=$(grep -c "not quite: you said zzz, it is " <<<"$wrong")
	[ "$got" -eq "${#answers[@]}" ] || fail "lesson $n: $got of ${#answers[@]} wrong answers graded wrong"
done
echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
