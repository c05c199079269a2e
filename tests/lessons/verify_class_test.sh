#!/bin/bash
# Grades the project's hostile class (tests/lessons/class): students who keep lesson 1's
# bug and try every trick to pass anyway, students whose code loops, floods, escapes or
# eats memory, students with awkward names, and good solutions written differently from
# the reference. Every cell must get its verdict, nothing may be written outside the
# reports, the reports must parse with Perl's TAP::Parser and Python's xml.etree, and
# --jobs must not change a verdict.
set -uo pipefail
kobj=$(realpath "$1")
fixture=$(realpath "$(dirname "$2")") # tests/lessons/class
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1
work=$TEST_TMPDIR/verify_class
rm -rf "$work"
mkdir -p "$work/out1" "$work/out3" "$work/cwd"
class=$work/class
failed=0
fail() { echo "not ok - $*"; failed=$((failed + 1)); }
pass() { echo "ok - $*"; }

# The class: lesson 1's exercise with a trick appended for each hostile student, the
# good solutions, and students made from the reference solutions.
solution() { cat "$KOBJ_LESSONS/solutions/$1.lua"; }
student() { mkdir -p "$class/$1" && cat >"$class/$1/$2.lua"; }
for trick in "$fixture"/tricks/*.lua; do
	name=$(basename "$trick" .lua)
	cat "$KOBJ_LESSONS/01-refcounts/exercise.lua" "$trick" | student "$name" 01-refcounts
done
mv "$class/zed-todo" "$class/zed # TODO" # a name that would make its TAP lines TODO lines
cp -rL "$fixture/good/." "$class/"
{ printf '\357\273\277'; solution 01-refcounts | sed 's/$/\r/'; } | student good-crlf-bom 01-refcounts
cat "$fixture/noise.lua" <(solution 01-refcounts) | student good-noisy 01-refcounts
solution 01-refcounts | sed 's/^\(    return nil, -ENOENT\)/    kobject_put(dev.kobj)\n\1/' |
	student gap-put-after-failed-get 01-refcounts
solution 15-kset-example | sed 's/^\(    kobject_put(foo.kobj) .*\)/\1\n    kobject_put(foo.kobj)/' |
	student gap-double-put 15-kset-example
solution 01-refcounts | student misnamed 1-refcounts
echo "not a lesson" >"$class/misnamed/notes.txt"
cp "$fixture/README" "$class/README"

# Names the grader once skipped or mangled: 148 characters, invalid UTF-8 and a newline,
# and more students than it once had room for.
long=$(printf 'a%.0s' $(seq 148))
mkdir "$class/$long" "$class/$(printf 'bad\377name\nline')"
cp "$class/good-rewritten/01-refcounts.lua" "$class/$long/"
cp "$class/binary-output/01-refcounts.lua" "$class/$(printf 'bad\377name\nline')/"
for i in $(seq 300); do mkdir "$class/empty-$i"; done
! solution 01-refcounts | cmp -s - "$class/gap-put-after-failed-get/01-refcounts.lua" &&
	! solution 15-kset-example | cmp -s - "$class/gap-double-put/15-kset-example.lua" ||
	fail "the students with a gap were not made"

for jobs in 1 3; do
	(cd "$work/cwd" && "$kobj" --max-instructions 5M lesson verify "$class" \
		--out "$work/out$jobs" --jobs "$jobs" --time 20 >"$work/table$jobs" 2>&1) ||
		fail "verify --jobs $jobs exited with $?"
done
head -40 "$work/table1"
[ -z "$(ls -A "$work/cwd")" ] && pass "no student wrote a file" ||
	fail "a student wrote a file: $(ls -A "$work/cwd")"

# ------------------------------------------------------------------ every verdict

# "student<TAB>lesson<TAB>outcome" for each test point, by Perl's TAP::Parser, which
# must find no parse error and no TODO.
tap_outcomes() {
	perl -MTAP::Parser -e '
		my $p = TAP::Parser->new({ source => $ARGV[0] });
		my ($desc, $todo) = ("", 0);
		while (my $r = $p->next) {
			if ($r->is_test) {
				($desc = $r->description) =~ s/^- //;
				$todo++ if $r->has_todo;
				print "$desc\t-\n" if $r->has_skip;
			} elsif ($r->is_yaml) {
				print "$desc\t", $r->data->{outcome}, "\n";
			}
		}
		my @e = $p->parse_errors;
		die "parse errors: @e\n" if @e;
		die "TODO tests: $todo\n" if $todo;
		die "plan\n" unless $p->tests_run == $p->tests_planned;' "$1"
}
tap_outcomes "$work/out1/results.tap" >"$work/outcomes" || fail "TAP::Parser"
expect_outcome() {
	local student=$1 want=$2 lesson=${3:-01-refcounts}
	local have
	have=$(grep -F -- "$student $lesson	" "$work/outcomes" | cut -f2)
	[ "$have" = "$want" ] && pass "$student: $want" || fail "$student: '$have', want $want"
}
for trick in "$fixture"/tricks/*.lua; do
	student=$(basename "$trick" .lua)
	[ "$student" = zed-todo ] && student='zed \# TODO' # as TAP::Parser gives it, escaped
	expect_outcome "$student" "$(sed -n '1s/-- expected: \([A-Za-z]*\)\./\1/p' "$trick")"
done
for student in good-rewritten good-metatables good-crlf-bom good-noisy; do
	expect_outcome "$student" ok
done
expect_outcome gap-put-after-failed-get FAIL
expect_outcome gap-double-put FAIL 15-kset-example
expect_outcome "$long" ok
expect_outcome "$(printf 'bad\357\277\275name line')" FAIL
[ "$(grep -c '^empty-' "$work/table1")" -eq 300 ] && pass "300 more students listed" ||
	fail "not every student is listed"
grep -q "^not graded: misnamed/1-refcounts.lua: not a lesson file: did you mean 01-refcounts.lua?" \
	"$work/table1" && pass "a misnamed file is listed" || fail "misnamed file"
grep -q "^not graded: README: not a student's folder" "$work/table1" &&
	pass "a file beside the students is listed" || fail "README not listed"
grep -q '^not ok [0-9]* - zed \\# TODO 01-refcounts$' "$work/out1/results.tap" &&
	pass "'#' escaped in a TAP description" || fail "TAP escaping"

# ------------------------------------------------------------------------ JUnit

python3 - "$work/out1/results.xml" "$long" <<'PY' && pass "JUnit parses, totals add up" || fail "JUnit"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = root.findall("testsuite")
for key in ("tests", "failures", "errors", "skipped"):
    assert int(root.get(key)) == sum(int(s.get(key)) for s in suites), key
names = {s.get("name") for s in suites}
assert sys.argv[2] in names, "the long name"
assert "bad\ufffdname line" in names or "bad\ufffdname\nline" in names, names
def case(student):
    return next(s for s in suites if s.get("name") == student).find("testcase")
flood = case("output-flood").find("failure").text
assert "more bytes not kept]" in flood, flood[-200:]
assert "refcount_t: underflow" in next(
    c for c in next(s for s in suites if s.get("name") == "gap-double-put").findall("testcase")
    if c.find("failure") is not None).find("failure").text
noisy = case("binary-output").find("failure").text
assert "caf\ufffd" in noisy and "\x00" not in noisy, noisy[:300]
assert noisy.split("\n[... ")[0].endswith("\u20ac"), "cut on a character boundary"
assert case("good-noisy").find("properties") is not None
PY

# ----------------------------------------------------------- --jobs changes nothing

strip() { grep -v -e '^  seconds:' -e '^  peak_memory_kib:' -e '^  instructions:' "$1"; }
diff <(strip "$work/out1/results.tap") <(strip "$work/out3/results.tap") >/dev/null &&
	pass "--jobs 3 gives the verdicts of --jobs 1" || fail "--jobs changed a verdict"

# ------------------------------------------------- the operating system's limits

# With the sandbox's own limits lifted, the cell's time and memory limits still hold.
second=$work/second
mkdir -p "$second/spinner" "$second/hog" "$work/out2"
echo 'while true do end' >"$second/spinner/01-refcounts.lua"
echo 'hog = ("x"):rep(512 << 20)' \
	>"$second/hog/01-refcounts.lua"
start=$(date +%s)
"$kobj" --max-instructions 0 --max-memory 0 lesson verify "$second" --out "$work/out2" \
	--time 3 --cell-memory 256 >"$work/table2" 2>&1
cat "$work/table2" | tail -4
[ $(($(date +%s) - start)) -lt 20 ] && pass "the spinner was stopped in time" ||
	fail "the time limit did not hold"
grep -q "^spinner *TIME " "$work/table2" && pass "spinner: TIME" || fail "spinner not TIME"
if grep -q "address space not limited (sanitizer build)" "$work/table2"; then
	echo "ok - hog: the address space is not limited in a sanitizer build # SKIP"
else
	grep -q "^hog *ERR " "$work/table2" && pass "hog: ERR under 256 MiB" || fail "hog not ERR"
fi

# Ctrl-C: every cell's process group goes with the grader, and no report is half written.
graders_left() {
	for proc in /proc/[0-9]*; do
		tr '\0' ' ' <"$proc/cmdline" 2>/dev/null | grep -q -- "lesson verify $second" &&
			echo "$proc"
	done | wc -l
}
rm -f "$work/out2"/results.*
"$kobj" --max-instructions 0 lesson verify "$second" --out "$work/out2" --time 30 \
	>"$work/table4" 2>&1 &
grader=$!
sleep 1
kill -INT "$grader"
wait "$grader"
status=$?
sleep 0.2
if [ "$status" -eq 1 ] && grep -q "interrupted: every cell was stopped" "$work/table4" &&
   [ "$(graders_left)" -eq 0 ] && [ ! -e "$work/out2/results.tap" ]; then
	pass "Ctrl-C stops every cell"
else
	fail "Ctrl-C: status $status, $(graders_left) processes left"
fi

echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
