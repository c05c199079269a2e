#!/bin/bash
# Grades a made-up class: a good student (the reference solutions), a student who handed
# in the exercises unchanged, one whose code loops forever, one whose code tries to get
# out of the sandbox. Each must get its own verdicts, and nobody's code may touch a file.
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1
class=$TEST_TMPDIR/class
out=$TEST_TMPDIR/out
mkdir -p "$class"/{good,broken,looping,hostile} "$out"
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

lessons=()
for dir in "$KOBJ_LESSONS"/[0-9][0-9]-*/; do lessons+=("$(basename "$dir")"); done
for slug in "${lessons[@]}"; do
	cp "$KOBJ_LESSONS/solutions/$slug.lua" "$class/good/$slug.lua"
	cp "$KOBJ_LESSONS/$slug/exercise.lua" "$class/broken/$slug.lua"
done
first=${lessons[0]}
echo 'while true do end' >"$class/looping/$first.lua"
cat >"$class/hostile/$first.lua" <<LUA
pcall(function() io.open("$TEST_TMPDIR/escaped", "w") end)
pcall(function() os.execute("touch $TEST_TMPDIR/escaped") end)
pcall(function() dot("$TEST_TMPDIR/escaped.svg") end)
pcall(function() load(string.dump(print)) end)
local hog = {}
for i = 1, 1e9 do hog[i] = string.rep("x", 1e6) .. i end
LUA

table=$(cd "$TEST_TMPDIR" && "$kobj" lesson verify "$class" --out "$out" --time 20 2>&1)
echo "$table"
row() { grep "^$1 " <<<"$table" | tr -s ' '; }
n=${#lessons[@]}
[ "$(row good)" = "good $(printf 'ok %.0s' $(seq "$n"))$n/$n" ] || fail "good student"
[ "$(row broken)" = "broken $(printf 'FAIL %.0s' $(seq "$n"))0/$n" ] || fail "broken student"
[ "$(row looping)" = "looping ERR $(printf -- '- %.0s' $(seq $((n - 1))))0/$n" ] ||
	fail "looping student"
[ "$(row hostile)" = "hostile ERR $(printf -- '- %.0s' $(seq $((n - 1))))0/$n" ] ||
	fail "hostile student"
ls "$TEST_TMPDIR"/escaped* 2>/dev/null && fail "student code wrote a file"

tap=$out/results.tap
[ "$(sed -n 2p "$tap")" = "1..$((4 * n))" ] || fail "TAP plan"
[ "$(grep -c '^not ok' "$tap")" -eq $((n + 2)) ] || fail "TAP failures"
[ "$(grep -c '^ok .* # SKIP' "$tap")" -eq $((2 * (n - 1))) ] || fail "TAP skips"
grep -q "message: \"stopped: instruction budget exhausted (100000000 instructions" "$tap" ||
	fail "TAP message for the endless loop"
python3 - "$out/results.xml" "$n" <<'PY' || fail "JUnit XML"
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
n = int(sys.argv[2])
suites = {s.getAttribute("name"): s for s in doc.getElementsByTagName("testsuite")}
assert sorted(suites) == ["broken", "good", "hostile", "looping"], suites
assert suites["good"].getAttribute("failures") == "0"
assert suites["broken"].getAttribute("failures") == str(n)
assert suites["looping"].getAttribute("errors") == "1"
assert suites["hostile"].getAttribute("errors") == "1"
assert len(doc.getElementsByTagName("testcase")) == 4 * n
PY
echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
