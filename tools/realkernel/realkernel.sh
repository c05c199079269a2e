#!/usr/bin/env bash
# realkernel: the same module files in Linux 6.1 under QEMU and in the sandbox.
#
#   realkernel [--out DIR] FILE.c...                     run; fields in DIR
#   realkernel [--out DIR] --compare TABLE.tsv FILE.c...  run and compare every field
#   realkernel [--out DIR] --side FILE.c                  run one; dmesg side by side
#
# DIR defaults to a temporary directory, removed at the end unless --out names one.
set -euo pipefail

self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
if [ -n "${RUNFILES_DIR:-}" ]; then runfiles=$RUNFILES_DIR
elif [ -d "$self.runfiles" ]; then runfiles=$self.runfiles
else runfiles=${self%%.runfiles/*}.runfiles
fi
[ -d "$runfiles/kobject_sandbox/tools/realkernel" ] || {
	echo "realkernel: cannot find its runfiles (build it with bazel)" >&2; exit 2; }
command -v lua5.4 >/dev/null || {
	echo "realkernel: needs lua5.4 (tools/setup installs it)" >&2; exit 3; }

# `bazel run //tools/realkernel -- FILE.c` names files from where the user stands.
[ -n "${BUILD_WORKING_DIRECTORY:-}" ] && cd "$BUILD_WORKING_DIRECTORY"
out="" table="" side=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--compare) table=$(realpath "$2"); shift 2 ;;
	--side) side=1; shift ;;
	-h|--help) sed -n '2,8s/^# \{0,1\}//p' "$self"; exit 0 ;;
	--) shift; break ;;
	-*) echo "realkernel: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: realkernel [--out DIR] [--compare TABLE.tsv | --side] FILE.c..." >&2; exit 2; }
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/realkernel.XXXXXX")
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
out=$(realpath "$out")
lua=$runfiles/kobject_sandbox/tools/realkernel
lua5.4 "$lua/run.lua" "$runfiles" "$out" "$@"

mapfile -t names < "$out/cases.txt"
if [ -n "$table" ]; then
	lua5.4 "$lua/compare.lua" "$runfiles" "$out" "$table" "${names[@]}"
elif [ "$side" = 1 ]; then
	lua5.4 "$lua/compare.lua" --side "$runfiles" "$out" "${names[0]}"
fi
