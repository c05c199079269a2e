#!/bin/bash
# kobj installed like a real tool: the installer puts the program, the course, the man
# page and the bash completion under a prefix; the installed program finds its course
# from anywhere; the completion offers commands, lesson commands and lesson numbers; the
# man page and the completion know every option and command that --help lists; and
# --uninstall takes it all away but the student's work.
set -uo pipefail
install=$(realpath "$1")
man_page=$(realpath "$2")
completion_src=$(realpath "$3")
unset KOBJ_LESSONS
export NO_COLOR=1 HOME=$TEST_TMPDIR/home XDG_DATA_HOME= PATH=/usr/bin:/bin
prefix=$TEST_TMPDIR/prefix
failed=0
fail() { echo "FAIL: $*"; echo "$out" | sed 's/^/    /' | tail -15; failed=$((failed + 1)); }
has() { grep -qF -- "$1" <<<"$out" || fail "output lacks '$1'"; }

out=$("$install" --prefix "$prefix" 2>&1) || fail "the installer failed"
has "Installed kobj"
has "$prefix/bin is not on your PATH"
kobj=$prefix/bin/kobj
[ -x "$kobj" ] || fail "no $kobj"
[ -s "$prefix/share/kobj/course/01-refcounts/lesson.md" ] || fail "no course"
[ -e "$prefix/share/kobj/course/solutions" ] && fail "the reference solutions were installed"
[ -s "$prefix/share/kobj/course/types/kobject.lua" ] || fail "no definitions for the editor"
[ -s "$prefix/share/man/man1/kobj.1" ] || fail "no man page"
completion=$prefix/share/bash-completion/completions/kobj
[ -s "$completion" ] || fail "no bash completion"

# The installed program finds its course from anywhere, and names files shortly.
out=$(cd / && "$kobj" lesson list 2>&1) || fail "installed lesson list"
has " 18  "
out=$(cd / && "$kobj" lesson run 9 </dev/null 2>&1) || fail "installed lesson run"
has "initialised at 09-find-the-leak/demo.lua:"
grep -qF "$prefix" <<<"$out" && fail "a path of the installation in what the student reads"
grep -qF "\"$prefix/share/kobj/course/types\"" "$HOME/.local/share/kobj/lessons/.luarc.json" ||
	fail ".luarc.json does not point at the installed definitions"

# Completion, as bash calls it: COMP_WORDS and COMP_CWORD in, COMPREPLY out.
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kobj
		 printf "%s\n" "${COMPREPLY[@]}"' bash "$completion" "$@" | sort | tr '\n' ' '
}
out=$(complete_words "$kobj" "")
for w in run lesson --strict --max-memory --version; do has "$w "; done
out=$(complete_words "$kobj" lesson "")
for w in list next show run edit check watch hint reset verify --dir; do has "$w "; done
out=$(complete_words "$kobj" lesson w)
[ "$out" = "watch " ] || fail "lesson w completes to '$out'"
out=$(complete_words "$kobj" lesson check "")
[ "$out" = "$(seq 1 21 | sort | tr '\n' ' ')" ] || fail "lesson check offers '$out'"
out=$(complete_words "$kobj" --max-memory 64 lesson --dir /tmp edit 1)
[ "$out" = "1 10 11 12 13 14 15 16 17 18 19 " ] || fail "lesson --dir D edit 1 offers '$out'"
out=$(complete_words "$kobj" lesson reset 3 --f)
[ "$out" = "--force " ] || fail "lesson reset 3 offers '$out'"

# Every option, lesson command and prompt command that the program lists is in the man
# page and (for the command line) in the completion.
roff=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man_page")
help=$("$kobj" --help)
for opt in $(grep -oE '^  (-[a-zA-Z]|--[a-z-]+)(, --[a-z-]+)?' <<<"$help" | tr -d ','); do
	grep -qe "$opt" <<<"$roff" || fail "the man page lacks $opt"
	grep -qe "$opt" "$completion_src" || fail "the completion lacks $opt"
done
for cmd in $("$kobj" lesson help | sed -n 's/^  \([a-z]\+\).*/\1/p'); do
	grep -q "^\.B[IR]* $cmd\b" <<<"$roff" || fail "the man page lacks 'lesson $cmd'"
	grep -q "commands=.*\b$cmd\b" "$completion_src" || fail "the completion lacks 'lesson $cmd'"
done
for cmd in $(sed -n '/^REPL commands:/,/^$/p' <<<"$help" | grep -oE ':[a-z]+'); do
	grep -q "^\.BI\? $cmd\b" <<<"$roff" || fail "the man page lacks $cmd"
done
if command -v groff >/dev/null; then
	out=$(groff -man -ww -z "$man_page" 2>&1)
	[ -z "$out" ] || fail "groff warns about the man page"
else
	fail "groff is not installed (tools/setup --tests)"
fi

# --uninstall takes it all away but the student's work.
mkdir -p "$prefix/share/kobj/lessons" && touch "$prefix/share/kobj/lessons/01-refcounts.lua"
out=$("$install" --prefix "$prefix" --uninstall 2>&1) || fail "uninstall"
for f in bin/kobj share/kobj/course share/man/man1/kobj.1 share/bash-completion/completions/kobj; do
	[ -e "$prefix/$f" ] && fail "uninstall left $f"
done
[ -e "$prefix/share/kobj/lessons/01-refcounts.lua" ] || fail "uninstall removed the student's work"

echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
