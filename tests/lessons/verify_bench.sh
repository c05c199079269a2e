#!/bin/bash
# Benchmark (not a test): grades a class of 30 students x 18 lessons (two thirds the
# reference solutions, one third the exercises as shipped) and prints the time.
#   bazel run //tests/lessons:verify_bench [-- --jobs N]
set -euo pipefail
kobj=$(realpath "$1")
shift
export KOBJ_LESSONS=$(realpath lessons) NO_COLOR=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in $(seq -w 30); do
	mkdir -p "$work/class/student$s"
	for dir in "$KOBJ_LESSONS"/[0-9][0-9]-*/; do
		slug=$(basename "$dir")
		if [ $((10#$s % 3)) -eq 0 ]; then src=$dir/exercise.lua; else src=$KOBJ_LESSONS/solutions/$slug.lua; fi
		cp "$src" "$work/class/student$s/$slug.lua"
	done
done
mkdir "$work/out"
# wall time, and CPU time (user + system, the cells included): on a busy machine the
# CPU time over the number of cores is what an idle one would take
TIMEFORMAT="30 students x 18 lessons: %R s wall, %U s user + %S s system on $(nproc) cores"
time "$kobj" lesson verify "$work/class" --out "$work/out" "$@" | grep Graded
