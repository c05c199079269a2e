#!/bin/sh
# Runs Debian's stock lua5.4 with the kobject module of the runfiles on its cpath, as a
# user would load it: stock_lua.sh [lua5.4 arguments...]
set -eu

so="lua_bindings/kobject.so"
[ -f "$so" ] || { echo "FAIL: $so is not in the runfiles" >&2; exit 1; }
command -v lua5.4 >/dev/null || { echo "FAIL: lua5.4 is not installed (tools/setup)" >&2; exit 1; }

# Built with --config=asan the module needs the sanitizer runtimes loaded first; the
# stock interpreter is not built with them, so they are preloaded.
preload=""
for lib in libasan libubsan; do
    path=$(ldd "$so" | awk -v lib="$lib" 'index($1, lib) == 1 { print $3 }')
    [ -n "$path" ] && preload="$preload $path"
done
LD_PRELOAD="${preload# }" exec lua5.4 -e 'package.cpath = "lua_bindings/?.so;" .. package.cpath' "$@"
