#!/bin/sh
# Loads the shared module into Debian's stock lua5.4 with require, as a user would:
#   lua5.4 -e 'package.cpath="bazel-bin/lua_bindings/?.so;"..package.cpath' -e 'require "kobject"'
set -eu

out=$(tests/lua/stock_lua.sh - <<'LUA'
local k = require "kobject"
assert(k == require "kobject", "require returns the same module")
local kt = k.new_ktype{ release = function(kobj) released = kobj.name end }
local obj = k.new_kobject()
obj.ktype = kt
assert(k.kobject_set_name(obj, "hello") == 0)
assert(k.kobject_register(obj) == 0)
assert(k.ls("/sys")[1] == "hello")
assert(obj.refcount == 2)
k.kobject_unregister(obj)
assert(released == "hello")
assert(#k.leaks() == 0)
local ok, err = pcall(k.kobject_add, obj)
assert(not ok and err:find("kobject_add: 'hello' was released at stdin:10", 1, true), err)
print("require kobject: ok")
LUA
)
echo "$out"
[ "$out" = "require kobject: ok" ] || { echo "FAIL: unexpected output" >&2; exit 1; }
echo "1 passed, 0 failed"
