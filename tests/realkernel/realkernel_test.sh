#!/bin/bash
# Every module in cases/ and a set of generated sequences, built once for Linux 6.1 (one
# QEMU boot) and once for the sandbox; every field must match, or differ only as a row
# of differences.tsv allows, and every row must still be needed.
set -uo pipefail
realkernel=$(realpath "$1")
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
gen=$TEST_TMPDIR/gen out=$TEST_TMPDIR/out
mkdir -p "$gen"
lua5.4 "$here/gen.lua" 12 "$gen" || { echo "gen.lua failed"; exit 1; }

start=$(date +%s%N)
"$realkernel" --out "$out" --compare "$here/differences.tsv" "$here"/cases/*.c "$gen"/*.c \
	> "$TEST_TMPDIR/report" 2>&1
status=$?
end=$(date +%s%N)
cat "$TEST_TMPDIR/report"
ms=$(((end - start) / 1000000))
printf 'wall time: %d.%d s\n' $((ms / 1000)) $((ms % 1000 / 100))

modules=$(grep -c '^rk_' "$TEST_TMPDIR/report")
failed=$(grep -c '^rk_.*  MISMATCH$' "$TEST_TMPDIR/report")
stale=$(grep -c '^note: no module showed' "$TEST_TMPDIR/report")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "FAIL: realkernel exited with $status"
	failed=1
fi
[ "$stale" -eq 0 ] || { echo "FAIL: $stale row(s) of differences.tsv no longer needed"; failed=$((failed + stale)); }
echo "$((modules - failed)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$modules" -gt 0 ]
