#!/bin/bash
# Every reproducer of tests/fuzz/repro/ run as a plain script under the limits
# (--max-instructions 1000000 --max-memory 64): the exit status and the messages its
# "-- expect:" lines name, no signal, no sanitizer report, within 30 seconds. Prints
# one line per script: status, seconds, peak memory, and the message it ended with.
# Usage: repro_test.sh PATH_TO_KOBJ REPRO_DIR
set -u
KOBJ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DIR=$(cd "$2" && pwd)
T=${TEST_TMPDIR:-$(mktemp -d)}/repro
mkdir -p "$T"
cd "$DIR" || exit 2 # messages name the scripts as they are named here
failed=0 passed=0

# run SCRIPT: kobj under the limits; prints "status seconds peak_kib".
run() {
	python3 - "$KOBJ" "$1" "$T/out" "$T/err" <<'PY'
import resource, subprocess, sys, time
kobj, script, out, err = sys.argv[1:5]
start = time.monotonic()
with open(out, "w") as o, open(err, "w") as e:
    try:
        status = subprocess.run([kobj, "--max-instructions", "1000000", "--max-memory", "64",
                                 "run", script], stdin=subprocess.DEVNULL, stdout=o,
                                stderr=e, timeout=30).returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(status, "%.2f" % (time.monotonic() - start), peak)
PY
}

for script in "$DIR"/*.lua; do
	name=$(basename "$script")
	read -r status secs peak < <(run "$name")
	want=$(sed -n 's/^-- expect: status //p' "$script")
	why=""
	[ "$status" = "$want" ] || why="exit status $status, expected $want"
	# "-- expect: A || B": either message will do
	while IFS= read -r text; do
		found=false
		while IFS= read -r one; do
			grep -qF -- "$one" "$T/out" "$T/err" && found=true
		done < <(printf '%s\n' "$text" | sed 's/ || /\n/g')
		$found || why="${why:+$why; }no '$text' in its output"
	done < <(sed -n '/^-- expect: status /d; s/^-- expect: //p' "$script")
	if grep -qE 'Sanitizer|runtime error:' "$T/err"; then why="${why:+$why; }a sanitizer report"; fi
	said=$(grep -m1 -E '^kobj: |^[^ ].*(diagnostic|No leaks|Not released)' "$T/err" | cut -c1-100)
	if [ -n "$why" ]; then
		echo "not ok - $name: $why"
		sed 's/^/    /' "$T/out" "$T/err" | head -20
		failed=$((failed + 1))
	else
		echo "ok - $name: status $status, ${secs} s, peak ${peak} KiB: $said"
		passed=$((passed + 1))
	fi
done
if [ -e /tmp/kobj-fuzz-pwned.dot ]; then
	echo "not ok - a script wrote /tmp/kobj-fuzz-pwned.dot"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
