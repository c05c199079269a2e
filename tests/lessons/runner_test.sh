#!/bin/bash
# The student's side of `kobj lesson`: list with its progress bar, show, hint one at a
# time, check, next, edit, reset (which asks, or takes --force, and keeps a backup), the
# short paths in what the student reads, and a demo run with `kobj run`.
set -uo pipefail
kobj=$(realpath "$1")
export KOBJ_LESSONS=$PWD/lessons NO_COLOR=1 HOME=$TEST_TMPDIR/home XDG_DATA_HOME=
failed=0
fail() { echo "FAIL: $*"; echo "$out" | sed 's/^/    /' | tail -15; failed=$((failed + 1)); }
has() { grep -qF -- "$1" <<<"$out" || fail "output lacks '$1'"; }
lacks() { grep -qF -- "$1" <<<"$out" && fail "output has '$1'"; }

first=$(basename "$(ls -d "$KOBJ_LESSONS"/01-*)")
home_dir=$HOME/.local/share/kobj/lessons
copy=$home_dir/$first.lua

out=$("$kobj" lesson list 2>&1) || fail "list"
has "  1  Reference counts and release"
has "Progress: [------------------------------] 0/"
has "Your work is in ~/.local/share/kobj/lessons"

out=$("$kobj" lesson show 1 2>&1) || fail "show"
has "# 1. "
has "Your copy of the exercise: ~/.local/share/kobj/lessons/$first.lua"
cmp -s "$copy" "$KOBJ_LESSONS/$first/exercise.lua" || fail "working copy"
grep -qF "\"workspace.library\": [\"$KOBJ_LESSONS/types\"]" "$home_dir/.luarc.json" ||
	fail ".luarc.json does not name the course's types"

out=$("$kobj" lesson hint 1 2>&1) || fail "hint"
has "Hint 1 of "
grep -q "Hint 2 of" <<<"$out" && fail "the second hint came too early"
out=$("$kobj" lesson hint 1 2>&1)
has "Hint 2 of "

# What the student reads names files from the lessons folder or their own, nothing else.
out=$("$kobj" lesson check 1 2>&1) && fail "the shipped exercise passed"
has "checks fail. Stuck? kobj lesson hint 1"
has "Checking $first.lua against lesson 1"
has "taken at $first.lua:"
lacks "$TEST_TMPDIR"
lacks "$KOBJ_LESSONS"
out=$("$kobj" lesson run 9 </dev/null 2>&1) || fail "run 9"
has "initialised at 09-find-the-leak/demo.lua:"
lacks "$KOBJ_LESSONS"
lacks "runfiles"
out=$("$kobj" lesson list 2>&1)
has "started"

# edit: $VISUAL or $EDITOR (arguments allowed) on the student's copy, then the check.
cat >"$TEST_TMPDIR/fix" <<EOF
#!/bin/sh
[ "\$1" = "--as-student" ] && cp "$KOBJ_LESSONS/solutions/$first.lua" "\$2"
EOF
chmod +x "$TEST_TMPDIR/fix"
out=$(EDITOR="$TEST_TMPDIR/fix --as-student" VISUAL= "$kobj" lesson edit 1 2>&1) ||
	fail "the copy the editor fixed failed"
has "lesson 1 is done"
out=$("$kobj" lesson list 2>&1)
grep -q "^  1 .*done$" <<<"$out" || fail "lesson 1 not marked done"
has "] 1/"
out=$(EDITOR=false VISUAL= "$kobj" lesson edit 2 2>&1) && fail "a failing editor went unnoticed"
has "the editor 'false' did not finish cleanly"
out=$("$kobj" lesson next 2>&1) || fail "next"
has "Next: lesson 2."

# reset: a copy with changes is replaced only when asked for, and is kept as .bak.
out=$("$kobj" lesson reset 1 </dev/null 2>&1) && fail "reset replaced changes without asking"
has "has your changes; 'kobj lesson reset 1 --force'"
cmp -s "$copy" "$KOBJ_LESSONS/solutions/$first.lua" || fail "the refused reset changed the copy"
out=$("$kobj" lesson reset 1 --force 2>&1) || fail "reset --force"
has "Your old copy is in ~/.local/share/kobj/lessons/$first.lua.bak"
cmp -s "$copy" "$KOBJ_LESSONS/$first/exercise.lua" || fail "reset copy"
cmp -s "$copy.bak" "$KOBJ_LESSONS/solutions/$first.lua" || fail "the backup is not the old copy"
out=$("$kobj" lesson reset 1 </dev/null 2>&1) || fail "reset of an unchanged copy"
lacks "Your old copy"

out=$("$kobj" lesson --dir "$TEST_TMPDIR/elsewhere" show 1 2>&1) || fail "--dir"
[ -f "$TEST_TMPDIR/elsewhere/$first.lua" ] || fail "--dir working copy"

out=$("$kobj" lesson show 99 2>&1) && fail "lesson 99 exists?"
has "no lesson '99': the lessons are numbered 1 to"
out=$("$kobj" lesson check 2>&1) && fail "check without a number"
has "which lesson?"
out=$(printf '1\n2\n3\n' | "$kobj" lesson run 1 2>&1) || fail "run"
has "? "

# A demo runs as a plain script too, with the lessons' vocabulary.
out=$("$kobj" run "$KOBJ_LESSONS/01-refcounts/demo.lua" </dev/null 2>&1) || fail "kobj run demo.lua"
has "== A structure with a kobject inside"
has "(answer: 1)"
out=$(cd "$TEST_TMPDIR" && "$kobj" run "$KOBJ_LESSONS/solutions/$first.lua" 2>&1) ||
	fail "kobj run of a solution"

echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
