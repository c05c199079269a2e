#!/bin/bash
# The timeline in headless Chromium (installed by tools/setup --tests): a recorded run
# loads with no network and no console message, steps by event, by line and between
# diagnostics with real key events, shows the script's line with its call stack and the
# references on the object in focus, ends with the leak picture, draws one lane per
# simulated thread, and keeps a 200-member kset inside a 1400 px window.
# Usage: timeline_browser_test.sh KOBJ SCRIPT WIDE_SCRIPT
set -uo pipefail
kobj=$(realpath "$1")
script=$2
wide=$3
out=${TEST_UNDECLARED_OUTPUTS_DIR:-$TEST_TMPDIR}
page=$TEST_TMPDIR/debugger.html
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

chromium_run() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--enable-logging=stderr --v=0 --user-data-dir="$TEST_TMPDIR/chromium" "$@" \
		2>"$TEST_TMPDIR/chromium.log"
	# the page writes nothing to the console: any line there is an error or a warning
	if grep -q ":CONSOLE" "$TEST_TMPDIR/chromium.log"; then
		fail "the page wrote to the console:"
		grep ":CONSOLE" "$TEST_TMPDIR/chromium.log"
	fi
}

# What the page's #selftest reported, one line per key.
selftest() {
	chromium_run --dump-dom "file://$1" | python3 -c '
import html, re, sys
m = re.search(r"id=\"selftest\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "no selftest")'
}

"$kobj" run --record "$TEST_TMPDIR/recorded.html" "$script" >/dev/null 2>&1 ||
	fail "kobj run --record failed"
grep -q '<script src=' "$TEST_TMPDIR/recorded.html" && fail "the page loads an external script"
grep -v 'http://www.w3.org/' "$TEST_TMPDIR/recorded.html" | grep -q 'https\?://' &&
	fail "the page names a network address"

# The run as if events 18 to 27 ran on a second simulated thread: two lanes.
python3 - "$TEST_TMPDIR/recorded.html" "$page" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("frames: [\n", 1)
frames, tail = rest.split("],\nleak:", 1)
lines = frames.split(",\n")
lines = [re.sub(r"^\[(-?\d+),0,", r"[\1,1,", l) if 17 <= i <= 26 else l for i, l in enumerate(lines)]
open(sys.argv[2], "w").write(head + "frames: [\n" + ",\n".join(lines) + "],\nleak:" + tail)
PY

keys=Home,ArrowRight,ArrowDown,ArrowDown,ArrowDown,ArrowDown,PageDown,PageDown,PageDown,PageUp,ArrowUp,End,ArrowLeft
got=$(selftest "$page#selftest&keys=$keys")
want='selftest
Home 0 nodes= line=0 stack=the start of the run held=click a box to see who holds it
ArrowRight 1 nodes=1 line=5 stack=debugger.lua:5 held=creator
ArrowDown 4 nodes=2/1 line=7 stack=debugger.lua:7 held=creator
ArrowDown 8 nodes=3/2/1 line=13 stack=debugger.lua:13<debugger.lua:17 held=creator
ArrowDown 13 nodes=3/4/2/1 line=13 stack=debugger.lua:13<debugger.lua:18 held=creator
ArrowDown 18 nodes=3/6/2/3 line=19 stack=debugger.lua:19 held=creator,sysfs,get
PageDown 28 nodes=3/4/0/1 line=22 stack=debugger.lua:22 held=none
PageDown 47 nodes=3/6/0/1/1/1/0 line=32 stack=debugger.lua:32 held=none
PageDown 47 nodes=3/6/0/1/1/1/0 line=32 stack=debugger.lua:32 held=none
PageUp 28 nodes=3/4/0/1 line=22 stack=debugger.lua:22 held=none
ArrowUp 22 nodes=3/6/2/1 line=21 stack=debugger.lua:21 held=creator,sysfs
End 48 leak picture: leaked:2,registered:3,released:2
ArrowLeft 47 nodes=3/6/0/1/1/1/0 line=32 stack=debugger.lua:32 held=none'
if [ "$(sed -n '1,14p' <<<"$got")" != "$want" ]; then
	fail "the page stepped wrongly"
	diff <(echo "$want") <(sed -n '1,14p' <<<"$got")
fi
grep -q "^source=$script:32$" <<<"$got" || fail "the source pane does not hold the script: $got"
grep -q "^lanes=2 marks=3$" <<<"$got" || fail "two lanes, two diagnostic marks and the end's: $got"
grep -q "^zoom=125%$" <<<"$got" || fail "zoom: $got"
grep -q "^errors=none$" <<<"$got" || fail "the page raised: $got"

# 200 members of one kset: the picture and the timeline fit a 1400 px window.
"$kobj" run --record "$TEST_TMPDIR/wide.html" --write-dir "$TEST_TMPDIR" "$wide" wide.svg >/dev/null 2>&1 ||
	fail "the wide run failed"
width=$(grep -o '<svg width="[0-9.]*pt"' "$TEST_TMPDIR/wide.svg" | grep -o '[0-9.]*')
[ -n "$width" ] && python3 -c "import sys; sys.exit(not float('$width') * 4 / 3 <= 1400)" ||
	fail "the 200-member picture is ${width}pt wide, more than 1400 px"
grep -q '… 193 more' "$TEST_TMPDIR/wide.svg" || fail "the wide kset is not folded"
grep -q ">ttyS57<" "$TEST_TMPDIR/wide.svg" || fail "the member a diagnostic names is not drawn"
got=$(chromium_run --window-size=1400,900 --dump-dom "file://$TEST_TMPDIR/wide.html#selftest&keys=End" |
	grep -o '^fits=[a-z]*')
[ "$got" = "fits=yes" ] || fail "the wide timeline does not fit 1400 px: $got"
chromium_run --window-size=1400,900 --screenshot="$out/timeline.png" "file://$page#frame=13" >/dev/null
[ -s "$out/timeline.png" ] || fail "no screenshot"

echo "$((failed == 0 ? 1 : 0)) passed, $failed failed; screenshots in $out"
[ "$failed" -eq 0 ]
