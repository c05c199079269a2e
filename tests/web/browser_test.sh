#!/bin/bash
# Runs browser_test.js under node with the vendored puppeteer-core and Debian's chromium.
set -euo pipefail
site=$(realpath "$1")
kobj=$(realpath "$2")
modules=$(dirname "$(realpath "$3")")/node_modules
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (tools/setup --tests)"; exit 1; }
[ -d "$modules/puppeteer-core" ] || { echo "FAIL: no puppeteer-core in $modules (tools/setup --tests)"; exit 1; }
export NODE_PATH=$modules
exec timeout 240 node "$(dirname "$0")/browser_test.js" "$site" "$kobj" "$PWD/lessons" "$TEST_TMPDIR"
