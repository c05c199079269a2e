#!/bin/bash
# The limits hold wherever script code runs: finalizers (swapped in late, callable
# tables), message handlers, callbacks, __close, coroutine.close, load's reader, and
# work done in C (pattern matching, string.rep, table.concat and table.move, the core's
# own allocations). Each case must end within seconds with the limit's message, exit
# status 1 and no signal; and scripts write files only into --write-dir.
# Usage: limits_test.sh PATH_TO_KOBJ
set -u
KOBJ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=${TEST_TMPDIR:-$(mktemp -d)}/limits_test
mkdir -p "$T/pictures" "$T/elsewhere"
failed=0

BUDGET="instruction budget exhausted (1000000 instructions; raise it with --max-instructions)"
MEMORY="memory limit reached (16 MiB; raise it with --max-memory)"

# stops NAME MESSAGE KOBJ_ARGS...: kobj must exit 1, say MESSAGE, print no "escaped",
# within 20 seconds.
stops() {
	local name=$1 msg=$2
	shift 2
	timeout 20 "$KOBJ" "$@" >"$T/out" 2>"$T/err" </dev/null
	local status=$?
	if [ "$status" -ne 1 ] || ! grep -qF -- "$msg" "$T/err" || grep -q escaped "$T/out"; then
		echo "not ok - $name: status $status"
		sed 's/^/    /' "$T/out" "$T/err" | head -20
		failed=$((failed + 1))
	else
		echo "ok - $name"
	fi
}

I="--max-instructions 1M"
LOOP='while true do end'

stops "a finalizer swapped in after setmetatable" "$BUDGET" $I -e "
local mt = { __gc = true }
local t = setmetatable({}, mt)
mt.__gc = function() $LOOP end
t = nil collectgarbage() print('escaped')"
stops "a callable table as __gc" "$BUDGET" $I -e "
local t = setmetatable({}, { __gc = setmetatable({}, { __call = function() $LOOP end }) })
t = nil collectgarbage() print('escaped')"
stops "a finalizer that runs at exit" "$BUDGET" $I -e "
local mt = { __gc = true }
keep = setmetatable({}, mt)
mt.__gc = function() $LOOP end"
stops "a stop caught by pcall, xpcall, coroutine.close and load" "$BUDGET" $I -e "
for _ = 1, 100 do
  pcall(function() $LOOP end)
  xpcall(function() $LOOP end, function() $LOOP end)
  local co = coroutine.create(function()
    local x <close> = setmetatable({}, { __close = function() $LOOP end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  coroutine.close(co)
  load(function() $LOOP end)
end
print('escaped')"
stops "a stop caught by coroutine.wrap inside pcall" "$BUDGET" $I -e "
for _ = 1, 100 do pcall(coroutine.wrap(function() $LOOP end)) end print('escaped')"
stops "full collections in a loop" "$BUDGET" $I -e "
local keep = {} for i = 1, 1e5 do keep[i] = {} end
for _ = 1, 1e9 do collectgarbage() end print('escaped')"
stops "an error object whose __tostring loops" "$BUDGET" $I -e "
error(setmetatable({}, { __tostring = function() $LOOP end }))"
stops "a callback that catches the stop and calls back three times" "$BUDGET" $I -e '
local k = kobject_create_and_add("x", kernel_kobj())
sysfs_create_file(k, new_kobj_attribute{ name = "a", mode = "0444", show = function()
  cat("/sys/kernel/x/a") cat("/sys/kernel/x/a") cat("/sys/kernel/x/a") return "" end })
cat("/sys/kernel/x/a") print("escaped")'
stops "pattern matching that backtracks" "instruction budget exhausted" \
	--max-instructions 1000 -e "print(string.find(string.rep('a', 1000), '.-.-.-b'), 'escaped')"
stops "string.rep of an empty string" "$BUDGET" $I -e "print(#(''):rep(1e15), 'escaped')"
stops "table.concat over a huge range" "$BUDGET" $I -e "
local t = setmetatable({}, { __index = function() return 'a' end })
print(#table.concat(t, '', 1, 1e12), 'escaped')"
stops "table.move over a huge range" "$BUDGET" $I -e "table.move({}, 1, 1e12, 2) print('escaped')"
stops "copying big strings in a loop" "$BUDGET" $I -e "
local s = ('x'):rep(1e6) for i = 1, 1e9 do local t = s .. i end print('escaped')"
stops "__tostring in the message handler" "$MEMORY" --max-memory 16 --max-instructions 0 -e "
error(setmetatable({}, { __tostring = function() return string.rep('x', 600 << 20) end }))"
stops "the core's own allocations" "$MEMORY" --max-memory 16 -e "
for i = 1, 1e6 do new_kobject() end print('escaped')"
stops "objects the core allocates" "$MEMORY" --max-memory 16 -e "
for i = 1, 1e6 do kobject_create_and_add('k' .. i) end print('escaped')"

# The peak memory of a capped run stays near the cap.
peak=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
	"$KOBJ" --max-memory 16 --no-report -e "for i = 1, 1e6 do new_kobject() end")
if [ "${peak:-999999}" -lt 200000 ]; then echo "ok - peak ${peak} KiB"; else
	echo "not ok - peak memory ${peak} KiB under --max-memory 16"; failed=$((failed + 1)); fi

# ------------------------------------------------------------------------------ files

REFUSED="a script writes files only where the command line says"
echo 'dot("'"$T"'/elsewhere/run.dot")' >"$T/write.lua"
stops "dot(path) from kobj run" "$REFUSED" run "$T/write.lua"
stops "dot(path) from -e" "$REFUSED" -e "dot('$T/elsewhere/e.svg')"
timeout 20 "$KOBJ" <"$T/write.lua" >"$T/out" 2>"$T/err"
grep -qF "$REFUSED" "$T/err" && echo "ok - dot(path) from standard input" ||
	{ echo "not ok - dot(path) from standard input"; failed=$((failed + 1)); }
stops "dot('../x.dot') with --write-dir" "not a plain file name" \
	--write-dir "$T/pictures" -e "dot('../elsewhere/x.dot')"
stops "an absolute path with --write-dir" "not a plain file name" \
	--write-dir "$T/pictures" -e "dot('$T/elsewhere/x.dot')"
ln -sf "$T/elsewhere/target.dot" "$T/pictures/link.dot"
stops "a symbolic link in --write-dir" "not a regular file" \
	--write-dir "$T/pictures" -e "dot('link.dot')"
stops "the binding's own dot through the module table" "$REFUSED" \
	-e "kobject.dot('$T/elsewhere/m.dot')"
mkdir -p "$T/lessons"
timeout 20 "$KOBJ" lesson --dir "$T/lessons" check 1 "$T/write.lua" >"$T/out" 2>&1
grep -qF "$REFUSED" "$T/out" && echo "ok - dot(path) from a lesson check" ||
	{ echo "not ok - dot(path) from a lesson check"; cat "$T/out"; failed=$((failed + 1)); }
if ls "$T/elsewhere" | grep -q .; then
	echo "not ok - a script wrote into $T/elsewhere: $(ls "$T/elsewhere")"
	failed=$((failed + 1))
fi
"$KOBJ" --write-dir "$T/write.lua" -e "x = 1" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "is not a folder" "$T/out" && echo "ok - --write-dir FILE is a usage error" ||
	{ echo "not ok - --write-dir FILE"; failed=$((failed + 1)); }
timeout 20 "$KOBJ" --write-dir "$T/pictures" -e "assert(dot('tree.dot'))" >"$T/out" 2>&1
if grep -q '^digraph' "$T/pictures/tree.dot"; then echo "ok - dot(name) into --write-dir"
else echo "not ok - dot(name) into --write-dir"; cat "$T/out"; failed=$((failed + 1)); fi

echo "$((failed == 0 ? 1 : 0)) passed, $failed failed"
[ "$failed" -eq 0 ]
