#!/bin/bash
# Predictions at a terminal, in every lesson's demo: `kobj lesson run` asks before it
# shows, grades each answer, lists the choices of multiple-choice questions, and explains
# after every answer. The answers are first read from a run without a terminal, which
# prints them; then a pseudo-terminal (script(1)) types them right but in other words
# ("Two", " GONE ", "Y"), then wrong.
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1 HOME=$TEST_TMPDIR
failed=0 passed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# From a run's output: the answers typed right (in other words) or wrong, one per line.
answers() {
	python3 -c '
import re, sys
words = "zero one two three four five six seven eight nine ten".split()
other = {"released": " GONE ", "yes": "Y", "no": "n", "deleted": "Removed",
         "true": "Yes", "false": "No", "nil": "NULL"}
want = sys.argv[1]
lines = sys.stdin.read().splitlines()
for i, line in enumerate(lines):
    if not line.startswith("? "):
        continue
    answer = next(m.group(1) for m in (re.match(r"  \(answer: (.*)\)$", l) for l in lines[i:]) if m)
    m = re.search(r"\? \((?:one of: (.*)|(.*) or (.*))\)$", line)
    choices = (m.group(1).split(", ") if m.group(1) else [m.group(2), m.group(3)]) if m else []
    if want == "right":
        if answer.isdigit() and int(answer) < len(words):
            print(words[int(answer)].capitalize())
        else:
            print(other.get(answer, "  " + answer.upper() + " "))
    else:
        wrong = [c for c in choices if c.lower() != answer.lower()]
        print(wrong[0] if wrong else str(int(answer) + 1) if answer.lstrip("-").isdigit() else "zzz")
' "$1"
}

# Whether every "not quite" or "right" line is followed by an explanation.
explained() {
	awk '/^  (right|not quite): / { want = 1; next }
	     want { if ($0 !~ /^  [^ ]/) bad++; want = 0 }
	     END { exit bad > 0 }'
}

for dir in "$KOBJ_LESSONS"/[0-9][0-9]-*/; do
	slug=$(basename "$dir")
	n=$((10#${slug%%-*}))
	plain=$("$kobj" lesson run "$n" </dev/null 2>&1)
	asked=$(grep -c "^? " <<<"$plain")
	[ "$asked" -eq "$(grep -c "^  (answer: " <<<"$plain")" ] ||
		{ fail "$slug: a question without its answer"; continue; }
	[ "$asked" -gt 0 ] || continue

	right=$(answers right <<<"$plain" | script -qec "$kobj lesson run $n" /dev/null 2>&1 | tr -d '\r')
	got=$(grep -c "  right: " <<<"$right")
	[ "$got" -eq "$asked" ] || { fail "$slug: $got of $asked answers in other words graded right"
		answers right <<<"$plain"; grep -A1 "not quite" <<<"$right"; }
	explained <<<"$right" || fail "$slug: a right answer without its explanation"

	wrong=$(answers wrong <<<"$plain" | script -qec "$kobj lesson run $n" /dev/null 2>&1 | tr -d '\r')
	got=$(grep -c "  not quite: you said " <<<"$wrong")
	[ "$got" -eq "$asked" ] || fail "$slug: $got of $asked wrong answers graded wrong"
	explained <<<"$wrong" || fail "$slug: a wrong answer without its explanation"
	passed=$((passed + 1))
done

# A yes/no question lists its choices and asks again for an answer that is neither.
out=$(printf '1\n2\nmaybe\nNo.\nfreed\n' | script -qec "$kobj lesson run 1" /dev/null 2>&1 | tr -d '\r')
grep -q "has the release method run? (yes or no)$" <<<"$out" || fail "lesson 1: no choices listed"
grep -q "'maybe' is not one of the choices (yes or no)" <<<"$out" || fail "lesson 1: 'maybe' accepted"
[ "$(grep -c "  right: " <<<"$out")" -eq 4 ] || fail "lesson 1: 'No.' or 'freed' not accepted"

[ "$passed" -ge 15 ] || fail "only $passed lessons ask predictions"
echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
