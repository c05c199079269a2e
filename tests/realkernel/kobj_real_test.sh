#!/bin/bash
# kobj real and kobj lesson real: a clear word when QEMU is missing, a refusal for the
# article's lessons, and lesson 18's exercise side by side, the double put on both sides.
set -uo pipefail
kobj=$(realpath "$1")
passed=0 failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }

out=$(REALKERNEL_QEMU=no-such-qemu "$kobj" lesson real 18 2>&1)
status=$?
if [ "$status" -eq 3 ] && grep -q "needs the Debian packages qemu-system-x86" <<<"$out" &&
   grep -q "tools/setup --tests" <<<"$out"; then ok; else fail "missing QEMU: status $status: $out"; fi

out=$("$kobj" lesson real 5 2>&1)
status=$?
if [ "$status" -eq 2 ] && grep -q "lessons 14-18" <<<"$out"; then ok; else fail "lesson 5: $out"; fi

out=$("$kobj" real 2>&1)
[ $? -eq 2 ] && grep -q "usage: kobj real FILE.c" <<<"$out" && ok || fail "no file: $out"

out=$(COLUMNS=120 "$kobj" lesson real 18 2>&1)
status=$?
if [ "$status" -eq 0 ] &&
   grep -q "^refcount_t: underflow; use-after-free\. *= refcount_t: underflow; use-after-free\.$" <<<"$out" &&
   grep -q "^widget_release w0 *= widget_release w0$" <<<"$out" &&
   grep -q "lesson18_bug.c:[0-9]*: kobject_put()" <<<"$out"; then
	ok
else
	fail "lesson real 18 (status $status):"; echo "$out"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
