#!/bin/bash
# The benchmark runs at small sizes and prints every row of its table, each with a
# figure for the project, one for its anchor, and a ratio.
set -euo pipefail
out=$("$1" --quick)
echo "$out"
rows=(
	"C get+put pair, log on" "C get+put pair, log off" "Lua get+put pair, lines recorded"
	"the same pair" "build 3000 kobjects under one kset" "heap per kobject, log on"
	"heap per kobject, log off" "DOT of 1000 objects: members of one kset"
	"DOT of 1000 objects: a chain of parents" "DOT of 1000 objects: ksets of 100 in a kset"
	"sysfs tree of 1000 objects" "log text of 1000 objects" "leak report of 1000 objects"
	"the same build" "Lua get+put pair, log off (lines in the ledger)" "the same, log off"
	"\`kobj -e ''\` start"
)
for r in "${rows[@]}"; do
	line=$(grep -F "| $r |" <<<"$out") || { echo "FAIL: no row '$r'"; exit 1; }
	grep -Eq '^\| [^|]+ \| [0-9.]+ [a-zB]+ \| [^|]+ [0-9.]+ [a-zB]+ \| [0-9.]+x \|' <<<"$line" ||
		{ echo "FAIL: row '$r' lacks a figure: $line"; exit 1; }
done
for n in 100 1000 3000; do
	grep -Eq "^\| $n kobjects \| [0-9]+ ns \| [0-9]+ B \| [0-9]+ ns \| [0-9.]+x \|$" <<<"$out" ||
		{ echo "FAIL: no growth row for $n"; exit 1; }
done
grep -q "^Per-object time, slowest size over fastest: [0-9.]*x" <<<"$out" ||
	{ echo "FAIL: no growth summary"; exit 1; }
echo PASS
