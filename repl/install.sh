#!/usr/bin/env bash
# Installs kobj for one user, like any other tool:
#   PREFIX/bin/kobj                                  the program
#   PREFIX/share/kobj/course/                        the lessons (no reference solutions)
#   PREFIX/share/man/man1/kobj.1                     `man kobj`
#   PREFIX/share/bash-completion/completions/kobj    completion of commands and lessons
# PREFIX is ~/.local unless --prefix says otherwise. The student's own work
# (PREFIX/share/kobj/lessons) is never touched, not even by --uninstall.
# Run through Bazel: `bazel run -c opt //repl:install -- [--prefix DIR] [--uninstall]`
# (tools/install does that).
set -euo pipefail

usage() { echo "usage: install [--prefix DIR] [--uninstall]" >&2; exit 2; }

prefix=$HOME/.local uninstall=
while [ $# -gt 0 ]; do
    case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    --uninstall) uninstall=1 ;;
    *) usage ;;
    esac
    shift
done
case $prefix in
/*) ;;
*) prefix=${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix ;;
esac

# The built files: the runfiles of this script (bazel run, or a test's).
here=${RUNFILES_DIR:+$RUNFILES_DIR/kobject_sandbox}
[ -n "$here" ] && [ -x "$here/repl/kobj" ] || here=$0.runfiles/kobject_sandbox
[ -x "$here/repl/kobj" ] || here=$PWD
[ -x "$here/repl/kobj" ] || { echo "install: cannot find the built kobj next to $0" >&2; exit 1; }

bin=$prefix/bin/kobj
course=$prefix/share/kobj/course
man=$prefix/share/man/man1/kobj.1
completion=$prefix/share/bash-completion/completions/kobj

if [ -n "$uninstall" ]; then
    rm -rf "$course"
    rm -f "$bin" "$man" "$completion"
    rmdir "$prefix/share/kobj" 2>/dev/null || true
    echo "Removed kobj from $prefix (your work in $prefix/share/kobj/lessons stays)."
    exit 0
fi

mkdir -p "$prefix/bin" "$prefix/share/kobj" "${man%/*}" "${completion%/*}"
# The new course goes in beside the old one, then takes its place.
rm -rf "$course.new"
mkdir "$course.new"
tar -C "$here/lessons" -chf - --exclude=./solutions --exclude=./pictures --exclude=./BUILD . | tar -C "$course.new" -xf -
rm -rf "$course"
mv "$course.new" "$course"
install -m 0755 "$here/repl/kobj" "$bin.new" && mv -f "$bin.new" "$bin"
install -m 0644 "$here/repl/kobj.1" "$man"
install -m 0644 "$here/repl/kobj.bash" "$completion"

echo "Installed kobj $("$bin" --version | cut -d' ' -f2) in $prefix:"
echo "  $bin, the course in $course,"
echo "  its man page (man kobj) and bash completion (in new shells)."
case ":$PATH:" in
*":$prefix/bin:"*) echo "Start with: kobj lesson next" ;;
*) echo "$prefix/bin is not on your PATH yet. Add it to ~/.bashrc:"
   echo "  export PATH=\"$prefix/bin:\$PATH\""
   [ "$prefix" = "$HOME/.local" ] && echo "(or log in again: Debian's ~/.profile adds it when it exists)"
   echo "then start with: kobj lesson next" ;;
esac
