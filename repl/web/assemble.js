// Lays out the browser's sandbox as a folder of static files that load nothing from the
// network and work from file:// as from any web server:
//   index.html, kobj.css, *.js    the page (repl/web)
//   worker-source.js              the Web Worker's code as one function: graphviz (viz),
//                                 the sandbox compiled by emcc, worker.js; the page starts
//                                 its text from a Blob, since file:// pages cannot load
//                                 workers
//   course.js                     the lessons the course runs (text, demos, checks, hints)
//   vendor/                       CodeMirror, the editor
//   LICENSES.txt                  the licences of everything vendored or compiled in
// Usage: node assemble.js --out DIR --kobj kobj.js [--page F]... [--vendor F]... [--lesson F]...
"use strict";
const fs = require("fs");
const path = require("path");

function parseArgs(argv) {
  const a = { page: [], vendor: [], lesson: [] };
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (Array.isArray(a[key])) a[key].push(argv[i + 1]);
    else if (key === "out" || key === "kobj") a[key] = argv[i + 1];
    else throw new Error(`assemble.js: unknown argument ${argv[i]}`);
  }
  if (!a.out || !a.kobj) throw new Error("assemble.js: --out and --kobj are needed");
  return a;
}

// The one file among @files whose path ends with @suffix.
function pick(files, suffix) {
  const found = files.filter((f) => f.endsWith(suffix));
  if (found.length !== 1)
    throw new Error(`assemble.js: expected one input ending in ${suffix}, got ${found.length}` +
                    " (tools/setup --web installs the vendored packages)");
  return found[0];
}

const read = (f) => fs.readFileSync(f, "utf8");

// What the course runs: each lesson's folder and lib/, as "NN-name/file": text.
// The reference solutions stay out of the page.
function course(files) {
  const out = {};
  for (const f of files) {
    const m = f.match(/(?:^|\/)lessons\/((?:\d+-[^/]+|lib)\/[^/]+)$/);
    if (m) out[m[1]] = read(f);
  }
  if (!Object.keys(out).some((k) => k.startsWith("01-")))
    throw new Error("assemble.js: no lessons among the inputs");
  return out;
}

function packageNotice(vendor, name) {
  const meta = JSON.parse(read(pick(vendor, `node_modules/${name}/package.json`)));
  const licence = vendor.find((f) => f.endsWith(`node_modules/${name}/LICENSE`));
  let text = `${meta.name} ${meta.version} (npm), licence: ${meta.license}\n`;
  if (licence) text += "\n" + read(licence);
  return text;
}

function licences(vendor) {
  const luaH = read(pick(vendor, "lua/src/lua.h"));
  const luaNotice = luaH.slice(luaH.indexOf("* Copyright"), luaH.lastIndexOf("*/"));
  const vizBanner = read(pick(vendor, "viz-global.js")).match(/^\/\*!([\s\S]*?)\*\//)[1];
  return [
    "The kobject sandbox in a browser: licences of the software compiled in or vendored.",
    "The sandbox itself (its C core, Lua bindings, lessons and this page) is MIT-licensed.",
    "",
    "== Lua 5.4 (Debian's lua5.4 source package), compiled into worker-source.js",
    luaNotice.replace(/^\s*\* ?/gm, "").replace(/^\*+\s*$/gm, ""),
    "== Emscripten's runtime and libc (musl), compiled into worker-source.js:",
    "MIT / University of Illinois NCSA licence; musl: MIT.",
    "",
    "== " + packageNotice(vendor, "@viz-js/viz").trim(),
    "Its banner:" + vizBanner.trimEnd(),
    "Graphviz is under the Eclipse Public License 1.0 (https://graphviz.org/license/);",
    "Expat under the MIT licence.",
    "",
    "== " + packageNotice(vendor, "codemirror"),
  ].join("\n");
}

function main() {
  const a = parseArgs(process.argv);
  const out = a.out;
  fs.mkdirSync(path.join(out, "vendor"), { recursive: true });
  for (const f of a.page) {
    if (path.basename(f) !== "worker.js") fs.copyFileSync(f, path.join(out, path.basename(f)));
  }
  const worker = [pick(a.vendor, "viz-global.js"), a.kobj, pick(a.page, "worker.js")]
    .map(read).join("\n;\n");
  // a function, not a string: its text is the code as it is, without a string's escapes
  fs.writeFileSync(path.join(out, "worker-source.js"), "self.KOBJ_WORKER = function () {\n" + worker + "\n};\n");
  fs.writeFileSync(path.join(out, "course.js"),
                   "self.KOBJ_COURSE = " + JSON.stringify(course(a.lesson), null, 0) + ";\n");
  for (const suffix of ["codemirror/lib/codemirror.js", "codemirror/lib/codemirror.css",
                        "codemirror/mode/lua/lua.js"]) {
    fs.copyFileSync(pick(a.vendor, suffix), path.join(out, "vendor", path.basename(suffix)));
  }
  fs.writeFileSync(path.join(out, "LICENSES.txt"), licences(a.vendor));
}

main();
