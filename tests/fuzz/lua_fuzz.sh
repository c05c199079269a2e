#!/bin/bash
# The Lua fuzzer: the seed scripts (every issue reproducer, tests/fuzz/repro/), then
# COUNT scripts from lua_gen.lua, each run by kobj under --max-instructions 1000000 and
# --max-memory 64. Each must end within 30 seconds, by itself (status 0) or by a limit
# or error it names (status 1, "kobj: " and a message), with no signal, no sanitizer
# report and no statement whose error does not say where it was raised (FUZZ-UNCLEAR).
# A failing script is kept in $TEST_UNDECLARED_OUTPUTS_DIR (or the temporary folder).
# Usage: lua_fuzz.sh PATH_TO_KOBJ LUA_GEN SEED_DIR COUNT [FIRST_SEED]
set -u
KOBJ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
GEN=$2 SEEDS=$3 COUNT=$4 FIRST=${5:-1}
T=${TEST_TMPDIR:-$(mktemp -d)}/lua_fuzz
KEEP=${TEST_UNDECLARED_OUTPUTS_DIR:-$T}
mkdir -p "$T" "$KEEP"
failed=0 ran=0 stopped=0

# check NAME SCRIPT: runs it; counts it; prints why it failed, if it did.
check() {
	local name=$1 script=$2 why=""
	(cd "$T" && exec timeout 30 "$KOBJ" --max-instructions 1000000 --max-memory 64 \
		run "$script" >"$T/out" 2>"$T/err" </dev/null)
	local status=$?
	ran=$((ran + 1))
	case $status in
	0) ;;
	1) stopped=$((stopped + 1))
	   grep -qE '^kobj: .+' "$T/err" || why="status 1 without a message" ;;
	124) why="still running after 30 seconds" ;;
	*) why="exit status $status" ;;
	esac
	grep -qE 'Sanitizer|runtime error:' "$T/err" && why="${why:+$why; }a sanitizer report"
	grep -q 'FUZZ-UNCLEAR' "$T/out" && why="${why:+$why; }$(grep -m1 FUZZ-UNCLEAR "$T/out")"
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		cp "$script" "$KEEP/$name"
		echo "not ok - $name: $why (kept as $KEEP/$name)"
		grep -m5 -E 'Sanitizer|ERROR|^kobj:|^    #[0-9] ' "$T/err" | sed 's/^/    /'
	fi
}

for s in "$SEEDS"/*.lua; do
	[ -e "$s" ] || continue
	check "seed-$(basename "$s")" "$(cd "$(dirname "$s")" && pwd)/$(basename "$s")"
done
for ((i = FIRST; i < FIRST + COUNT; i++)); do
	lua5.4 "$GEN" "$i" >"$T/gen-$i.lua" || { echo "lua_gen.lua failed for seed $i"; exit 2; }
	check "gen-$i.lua" "$T/gen-$i.lua"
	rm -f "$T/gen-$i.lua"
done
echo "lua fuzz: $ran scripts ($stopped stopped by a limit or an error), $failed failed"
echo "$((ran - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
