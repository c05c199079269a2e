#!/usr/bin/env bash
# Builds the browser's sandbox into a folder of static files: emcc compiles Debian's
# Lua 5.4 and the kobj program's C sources (as //repl/web:web.bzl collects them) into one
# JavaScript file with the WebAssembly inside, then assemble.js lays out the page, its
# worker, the course and the vendored JavaScript with its licences.
# Bazel runs it for //repl/web:site; tools/web-build is the command for people.
set -euo pipefail

out="" lua="" assemble=""
srcs=() flags=() rest=()
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--lua) lua=$2 ;;
	--assemble) assemble=$2 ;;
	--src) srcs+=("$2") ;;
	--include) flags+=("-I$2") ;;
	--define) flags+=("-D$2") ;;
	--vendor | --lesson | --page) rest+=("$1" "$2") ;;
	*) echo "build.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift 2
done

command -v emcc >/dev/null || {
	echo "build.sh: emcc not found: 'tools/setup --web' installs Debian's emscripten" >&2
	exit 1
}
[ -f "$lua/lapi.c" ] || {
	echo "build.sh: Lua's source is not in $lua: 'tools/setup --web' fetches it" >&2
	exit 1
}
# emcc's optimiser runs node scripts that need Debian's node-acorn
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include" "$tmp/obj"
# Debian's luaconf.h names the multiarch directory of C modules; the sandbox loads none.
echo '#define DEB_HOST_MULTIARCH "wasm32-emscripten"' >"$tmp/include/lua5.4-deb-multiarch.h"

# Compile with emcc's clang and flags directly: one emcc per file would start Python 80 times.
read -ra cflags <<<"$(emcc --cflags -O2)"
clang="$(em-config LLVM_ROOT)/clang"
lua_flags=("${cflags[@]}" -w -I"$tmp/include")
# The project's warnings, as tools/copts.bzl sets them; errors in the browser's own files.
# clang warns where gcc does not about the va_list helpers, and on wasm32 size_t is 32
# bits, so the 64-bit hash seeds are cut: both harmless, and not this build's to fix.
our_flags=("${cflags[@]}" -std=c11 -D_POSIX_C_SOURCE=200809L -DKOBJ_NO_READLINE -Wall -Wextra
	-Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla
	-Wno-format-nonliteral -Wno-constant-conversion
	-I"$(dirname "$0")/libc" -I"$tmp/include" -I"$lua" "${flags[@]}")
# The model (core/, lua_bindings/) and the browser's files see the kernel's error numbers
# (kernel/errno.h); the program's own files (repl/) compare errno with the C library's.
model_flags=(-I"$(dirname "$0")/kernel" "${our_flags[@]}")
web_flags=("${model_flags[@]}" -Werror)

# One line per object: "kind object source"; two compilers at a time (2 shared cores).
list=$tmp/objects
: >"$list"
for f in "$lua"/*.c; do
	case $f in */lua.c | */luac.c) continue ;; esac
	echo "lua $tmp/obj/lua_$(basename "$f" .c).o $f" >>"$list"
done
i=0
for f in "${srcs[@]}"; do
	i=$((i + 1))
	case $f in
	repl/web/* | */repl/web/*) kind=web ;;
	repl/* | */repl/*) kind=our ;;
	*) kind=model ;;
	esac
	echo "$kind $tmp/obj/${i}_$(basename "$f" .c).o $f" >>"$list"
done
printf '%s\0' "${lua_flags[@]}" >"$tmp/lua.flags"
printf '%s\0' "${our_flags[@]}" >"$tmp/our.flags"
printf '%s\0' "${model_flags[@]}" >"$tmp/model.flags"
printf '%s\0' "${web_flags[@]}" >"$tmp/web.flags"
export clang tmp
xargs -P 2 -L 1 bash -c '
	mapfile -d "" fl <"$tmp/$0.flags"
	"$clang" "${fl[@]}" -c "$2" -o "$1"' <"$list"

# One file: the WebAssembly inside (file:// pages cannot fetch a separate .wasm). Node
# can load it too, to try the worker's code outside a browser.
# ASYNCIFY lets a race's simulated threads run on fibers (core/race/fibers.c): every
# function that may be on the stack when a fiber switches is instrumented to unwind and
# rewind. That is most of Lua and the model, as a switch happens at scheduling points
# reached through Lua's C functions, metamethods and finalizers, all called through
# pointers. The C library's stdio, number parsing and qsort call through pointers too,
# but only to their own writers and to comparators that never reach a scheduling point:
# left out, they make the worker 125 kB smaller and the model's calls faster.
not_switching=fclose,fflush,__toread,__uflow,__overflow,fread,__fwritex,fwrite,fputc,fputs
not_switching+=,puts,fgets,do_getc,__shgetc,__vfprintf_internal,printf_core,pop_arg,out
not_switching+=,vfiprintf,vsnprintf,snprintf,fiprintf,iprintf,__small_fprintf,fmt_fp
not_switching+=,vfscanf,fscanf,sscanf,__floatscan,scanexp,strtod,qsort,sift,trinkle
emcc -O2 "$tmp"/obj/*.o -o "$tmp/kobj.js" --no-entry \
	-sASYNCIFY=1 -sASYNCIFY_REMOVE="$not_switching" \
	-sMODULARIZE=1 -sEXPORT_NAME=createKobj -sENVIRONMENT=worker,node \
	-sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 \
	-sEXPORTED_FUNCTIONS=_malloc,_free -sEXPORTED_RUNTIME_METHODS=ccall,FS

mkdir -p "$out"
node "$assemble" --out "$out" --kobj "$tmp/kobj.js" "${rest[@]}"
