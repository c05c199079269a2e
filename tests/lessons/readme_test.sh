#!/bin/bash
# The README says what kobj does: its course table has the lessons' own titles, and it
# names every prompt command and every lesson command that kobj lists.
set -uo pipefail
kobj=$(realpath "$1")
readme=$2
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1 HOME=$TEST_TMPDIR
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

titles=$("$kobj" lesson list | sed -n 's/^ *\([0-9]\+\)  \(.*[^ ]\) *\(done\|started\)\? *$/\1 \2/p' |
	sed 's/ *$//')
table=$(sed -n 's/^| \([0-9]\+\) | \([^|]*\) |.*/\1 \2/p' "$readme" | tr -d '`' | sed 's/ *$//')
[ -n "$table" ] || fail "no course table in the README"
diff <(echo "$titles") <(echo "$table") || fail "the README's course table and the lessons' titles differ"

for cmd in $("$kobj" --help | sed -n '/^REPL commands:/,/^$/p' | grep -oE ':[a-z]+'); do
	grep -q "\`$cmd\b" "$readme" || fail "the README does not name $cmd"
done
for cmd in $("$kobj" lesson help | sed -n 's/^  \([a-z]\+\) .*/\1/p'); do
	grep -q "kobj lesson $cmd\b" "$readme" || fail "the README does not name 'kobj lesson $cmd'"
done
echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
