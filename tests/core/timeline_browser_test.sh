#!/bin/bash
# Opens a recorded timeline in headless Chromium: it must load, step forward and back
# with the arrow keys (the page's #selftest presses them) and show the right frame.
# A screenshot of one frame is kept among the test's outputs.
set -euo pipefail
fixture=$1
page=$TEST_TMPDIR/timeline.html
"$fixture" "$page"
grep -q '<script src=' "$page" && { echo "FAIL: the page loads an external script"; exit 1; }
grep -q 'http' "$page" && grep -v 'http://www.w3.org/2000/svg' "$page" | grep -q 'https\?://' &&
	{ echo "FAIL: the page names a network address"; exit 1; }

chromium_run() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TEST_TMPDIR/chromium" "$@" 2>/dev/null
}

dom=$(chromium_run --dump-dom "file://$page#selftest")
got=$(grep -o 'selftest [0-9][^<]*' <<<"$dom" || true)
# frame:nodes drawn:their refcounts, after Home, Right, Right, Left, End
want='selftest 0:0: 1:1:1 2:1:2 1:1:1 29:5:3/6/2/1/0'
if [ "$got" != "$want" ]; then
	echo "FAIL: the page stepped wrongly"
	echo " got: $got"
	echo "want: $want"
	exit 1
fi

shot=${TEST_UNDECLARED_OUTPUTS_DIR:-$TEST_TMPDIR}/timeline-frame-14.png
chromium_run --window-size=900,600 --screenshot="$shot" "file://$page#frame=14" >/dev/null
[ -s "$shot" ] || { echo "FAIL: no screenshot"; exit 1; }
echo "PASS: $got; screenshot in $shot"
