// The browser's sandbox as a student meets it, in headless Chromium with the network
// off: the page loads from file:// (and from a local web server), the prompt works, lesson 1 is done end to end (the
// demo's predictions, the exercise failing, the fix typed in the editor, the check
// passing, progress kept across a reload, the downloads graded by `kobj lesson verify`),
// explore() finds a race at the prompt, an endless loop is stopped while the page stays
// responsive, every lesson's check gives the verdict the native kobj gives and every
// demo prints what it prints (the race lessons' too), and nothing is logged as an error.
// Usage: node browser_test.js SITE_DIR KOBJ LESSONS_DIR TMP_DIR
"use strict";
const fs = require("fs");
const http = require("http");
const path = require("path");
const { execFile, spawnSync } = require("child_process");
const puppeteer = require("puppeteer-core");

const [siteDir, kobj, lessonsDir, tmp] = process.argv.slice(2);
const results = [];
function expect(ok, what, detail) {
  results.push(ok);
  console.log(`${ok ? "ok  " : "FAIL"}  ${what}${ok || detail === undefined ? "" : `\n      ${detail}`}`);
}

// ============================================================================ helpers

const text = (page, sel) => page.$eval(sel, (e) => e.innerText);
const idle = (page) => page.waitForFunction(
  () => document.getElementById("status").textContent === "ready", { timeout: 60000 });

async function outputMatches(page, re, timeout = 30000) {
  try {
    await page.waitForFunction((src) => new RegExp(src).test(document.getElementById("output").innerText),
                               { timeout }, re.source);
    return true;
  } catch (e) {
    return false;
  }
}

// Enters @line at the prompt: pasted in (key by key is for completion and history),
// then Enter, and waits until it ran.
async function typeLine(page, line) {
  await page.focus("#input");
  await page.$eval("#input", (e, text) => {
    e.value = text;
    e.dispatchEvent(new Event("input"));
  }, line);
  await page.keyboard.press("Enter");
  await idle(page);
}

async function clearOutput(page) {
  await page.$eval("#output", (e) => { e.textContent = ""; });
}

// Opens the page (file:// unless @base says where it is served); any other request fails.
async function open(browser, query = "", base = "file://" + siteDir + "/") {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  await page.setOfflineMode(base.startsWith("file:")); // served: only its own address is let through
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (/^(file|blob|data|about):/.test(r.url()) || r.url().startsWith(base)) return r.continue();
    network.push(r.url());
    return r.abort();
  });
  const started = Date.now();
  await page.goto(base + "index.html" + query);
  await idle(page);
  console.log(`      (page ready in ${Date.now() - started} ms)`);
  return page;
}

const errors = [];
const network = [];

// ======================================================================== the prompt

async function completes(page, typed, want, what) {
  await page.keyboard.type(typed);
  await page.keyboard.press("Tab");
  await page.waitForFunction((w) => document.getElementById("input").value === w, { timeout: 5000 }, want)
    .catch(() => {});
  expect(await page.$eval("#input", (e) => e.value) === want, what);
  await page.keyboard.press("Escape");
}

async function prompt(page) {
  await typeLine(page, "bus = decl_subsys('bus', new_ktype{ release = function(k) end })");
  await typeLine(page, "subsystem_register(bus)");
  await typeLine(page, "k = new_kobject(); k.kset = bus.kset; kobject_set_name(k, 'eth0')");
  await typeLine(page, "kobject_register(k)");
  await typeLine(page, "k.refcount");
  expect(await outputMatches(page, /kobj:5> k\.refcount\n2(\n|$)/),
         "an expression prints its value, at a prompt that numbers the lines");
  expect(await page.$$eval("#output .fg-36", (s) => s.some((e) => e.textContent === "2")),
         "numbers print in the terminal's colour");
  await page.waitForFunction(() => /eth0/.test(document.getElementById("picture").textContent));
  expect(true, "the picture is redrawn after a statement (eth0 in it)");

  await typeLine(page, "for i = 1, 2 do");
  expect(/^  \.\.\.7> $/.test(await page.$eval("#prompt", (e) => e.textContent)),
         "an unfinished statement continues on line 7");
  await typeLine(page, "print('line', i) end");
  expect(await outputMatches(page, /line\t1\nline\t2/), "the statement runs once finished");
  await page.keyboard.press("ArrowUp");
  expect(await page.$eval("#input", (e) => e.value) === "for i = 1, 2 do\nprint('line', i) end",
         "Up brings the whole statement back from the history");
  await page.keyboard.press("Escape");

  await completes(page, "kobject_set_na", "kobject_set_name", "Tab completes a name");
  await completes(page, "ls('/sys/b", "ls('/sys/bus/", "Tab completes a sysfs path");

  await typeLine(page, ":tree");
  expect(await outputMatches(page, /bus +\[subsystem, refcount \d+\]/), ":tree prints the hierarchy");
  await typeLine(page, "kobject_unregister(k); kobject_put(k)");
  expect(await outputMatches(page, /refcount_t: underflow; use-after-free/),
         "a double put is reported in the kernel's words as it happens");
  await typeLine(page, ":reset");
  expect(await outputMatches(page, /a fresh world/), ":reset gives a fresh world");
}

// ========================================================================= lesson 1

async function lessonOne(page, browser) {
  expect(/Reference counts and release/.test(await text(page, "#lesson-text")), "lesson 1's text is shown");
  await page.click("#hint");
  expect((await page.$$("#hints .hint")).length === 1, "Hint reveals the first hint");

  await clearOutput(page);
  await page.click("#demo");
  const answers = ["1", "3", "no", "released"];
  for (const a of answers) {
    await page.waitForFunction(() => document.getElementById("prompt").textContent === "your prediction> ",
                               { timeout: 20000 });
    await typeLine(page, a);
  }
  await page.waitForFunction(() => /^kobj:\d+> $/.test(document.getElementById("prompt").textContent));
  const demo = await text(page, "#output");
  expect(/right: 1/.test(demo) && /not quite: you said 3, it is 2/.test(demo) && /right: no/.test(demo) &&
         /right: released/.test(demo), "the demo grades each prediction", demo.slice(-600));

  await page.click("#check");
  await page.waitForFunction(() => /check/.test(document.querySelector("#verdict .summary")?.textContent || ""));
  const before = await text(page, "#verdict .summary");
  expect(/^\d+ of \d+ checks fail/.test(before), "the shipped exercise fails its check", before);

  const at = await page.evaluate(() => {
    const cm = document.querySelector(".CodeMirror").CodeMirror;
    const n = cm.getValue().split("\n").findIndex((l) => l.trim() === "if dev.resetting then");
    cm.focus();
    cm.setCursor({ line: n, ch: 1000 });
    return n;
  });
  expect(at > 0, "the exercise's -EBUSY path is in the editor");
  await page.keyboard.press("Enter");
  await page.keyboard.type("kobject_put(dev.kobj)");
  await page.click("#check");
  await page.waitForFunction(() => /pass/.test(document.getElementById("verdict").className), { timeout: 20000 })
    .catch(() => {});
  const after = await text(page, "#verdict .summary");
  expect(/^All \d+ checks pass: lesson 1 is done\.$/.test(after), "the fixed exercise passes", after);
  expect(/✓/.test(await page.$eval("#lesson-select option", (o) => o.textContent)),
         "the lesson list marks lesson 1 done");
  const frame = page.frames().find((f) => f.url().startsWith("blob:"));
  const counter = frame ? await frame.$eval("#counter", (e) => e.textContent) : "";
  const m = /the end \((\d+) events\)/.exec(counter);
  expect(m && Number(m[1]) > 10, "the timeline shows the end of the check", counter);

  await clearOutput(page);
  await page.click("#load");
  await idle(page);
  expect(await outputMatches(page, /Loading \/home\/kobj\/lessons\/01-refcounts\.lua/),
         "Load into the prompt runs :lesson 1 on the student's copy");
  await typeLine(page, "open_device(make_device('eth9')) ~= nil");
  expect(await outputMatches(page, /\ntrue(\n|$)/), "the copy's functions can be called at the prompt");

  await page.reload();
  await idle(page);
  const kept = await page.evaluate(() => document.querySelector(".CodeMirror").CodeMirror.getValue());
  expect(/if dev\.resetting then\n\s*kobject_put\(dev\.kobj\)/.test(kept), "the edit is kept across a reload");
  expect(/done/.test(await text(page, "#done-mark")), "progress is kept across a reload");

  await downloads(page, browser, kept);
}

async function waitForFile(file) {
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return fs.existsSync(file);
}

async function downloads(page, browser, copy) {
  const dir = path.join(tmp, "downloads");
  fs.mkdirSync(dir, { recursive: true });
  const cdp = await browser.target().createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir });
  await page.click("#download");
  const file = path.join(dir, "01-refcounts.lua");
  expect(await waitForFile(file) && fs.readFileSync(file, "utf8") === copy,
         "Download gives 01-refcounts.lua, the student's copy");
  await page.click("#download-all");
  const zip = path.join(dir, "kobj-lessons.zip");
  const student = path.join(tmp, "class", "alice");
  fs.mkdirSync(student, { recursive: true });
  const unzip = (await waitForFile(zip)) &&
    spawnSync("python3", ["-m", "zipfile", "-e", zip, student], { encoding: "utf8" });
  expect(unzip && unzip.status === 0 && fs.readFileSync(path.join(student, "01-refcounts.lua"), "utf8") === copy,
         "Download all gives a .zip of the NN-name.lua files", unzip && unzip.stderr);
  fs.mkdirSync(path.join(tmp, "graded"), { recursive: true });
  const verify = spawnSync(kobj, ["lesson", "verify", path.join(tmp, "class"), "--out", path.join(tmp, "graded")],
                           { encoding: "utf8", env: Object.assign({}, nativeEnv(), { KOBJ_LESSONS: lessonsDir }) });
  const row = verify.stdout.split("\n").find((l) => l.startsWith("alice ")) || "";
  expect(/^alice +ok .*1\/\d+$/.test(row.trim()), "kobj lesson verify grades the download: ok",
         verify.stdout + verify.stderr);
}

// ============================================================================ races

// The race explorer typed at the prompt: the lookup that takes its reference after the
// list's unlock (lesson 19), explored; the page finds the schedule kobj finds.
const RACE = [
  "r = explore{setup = function() local ks = assert(kset_create_and_add('devices', nil, kernel_kobj)); " +
    "local d = new_kobject(); d.kset = ks; " +
    "assert(kobject_init_and_add(d, new_ktype{release = function() end}, nil, 'eth0') == 0); " +
    "return ks, d end, " +
    "function(ks) spin_lock(ks); local f; for _, k in ipairs(ks.list) do if k.name == 'eth0' then f = k end end; " +
    "spin_unlock(ks); if f then kobject_put(kobject_get(f)) end end, " +
    "function(ks, d) kobject_put(d) end, teardown = function(ks) kset_unregister(ks) end}",
  "print(r.ok, r.schedule, r.schedules, r.naive)",
  "print(r.failure)",
];

async function raceAtPrompt(page) {
  const native = spawnSync(kobj, [], { encoding: "utf8", env: nativeEnv(), input: RACE.join("\n") + "\n" });
  const want = native.stdout.split("\n").slice(0, 3);
  await typeLine(page, ":reset");
  await clearOutput(page);
  for (const line of RACE) await typeLine(page, line);
  // The prompt also shows the failing run's diagnostic as it happens, as the terminal's does.
  const got = (await text(page, "#output")).split("\n").filter((l) => !/^kobj:\d+> /.test(l));
  const at = got.indexOf(want[0]);
  const where = (l) => (l || "").replace(/stdin:\d+/g, "stdin:N");
  expect(/^false\t\d+\t\d+\t\d+$/.test(want[0]) && at >= 0,
         "explore() at the prompt fails on the schedule kobj finds, after as many runs",
         `web:\n${got.join("\n")}\nnative:\n${native.stdout}`);
  expect(/^\[get-released\] refcount_t: addition on 0; use-after-free\.$/.test(want[1]) &&
         got.slice(at + 1, at + 3).map(where).join("\n") === want.slice(1).map(where).join("\n"),
         "its failure is reported in the kernel's words, as at the terminal",
         got.slice(at + 1, at + 3).join("\n"));
  await typeLine(page, "replay(r.schedule); print(#diagnostics())");
  expect(await outputMatches(page, /\n1(\n|$)/), "replay() runs the failing schedule again");
  await typeLine(page, ":reset");
}

// ======================================================================== runaways

async function runaway(page, browser) {
  await clearOutput(page);
  await page.focus("#input");
  await page.keyboard.type("while true do end");
  await page.keyboard.press("Enter");
  expect(await outputMatches(page, /instruction budget exhausted \(100000000 instructions/, 60000),
         "the instruction budget stops the loop, as at the terminal");
  await idle(page);
  await typeLine(page, "hog = {} for i = 1, 1e9 do hog[i] = string.rep('x', 1e5) .. i end");
  expect(await outputMatches(page, /memory limit reached \(128 MiB/, 60000),
         "the memory cap stops a script that eats memory, as at the terminal");
  await typeLine(page, "6 * 7");
  expect(await outputMatches(page, /\n42(\n|$)/), "the prompt works after the loop was stopped");
}

// With no budget (?max-instructions=0) a loop never ends by itself: the page must still
// answer while it runs (a hint is shown), and Stop ends it with a fresh sandbox.
async function stop(page) {
  await page.focus("#input");
  await page.keyboard.type("while true do end");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("status").textContent === "running…");
  await page.click("#hint");
  const answered = await page.waitForFunction(() => document.querySelectorAll("#hints .hint").length === 1,
                                              { timeout: 10000 }).then(() => true, () => false);
  expect(answered && (await text(page, "#status")) === "running…", "the page answers while a loop runs");
  await page.click("#stop");
  expect(await outputMatches(page, /Stopped\. A fresh sandbox was started/), "Stop ends a loop with no budget");
  await idle(page);
  await typeLine(page, "6 * 9");
  expect(await outputMatches(page, /\n54(\n|$)/), "the fresh sandbox answers after Stop");
}

// ========================================================================== served

// The same folder from a static web server (as tools/serve or any host would serve it).
async function served(page, browser) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".txt": "text/plain" };
  const server = http.createServer((req, res) => {
    const file = path.join(siteDir, path.normalize(decodeURIComponent(req.url.split("?")[0])));
    if (!file.startsWith(siteDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const web = await open(browser, "?max-instructions=0", `http://127.0.0.1:${server.address().port}/`);
    await typeLine(web, "6 * 7");
    expect(await outputMatches(web, /\n42(\n|$)/), "served over HTTP, the page works the same");
    await stop(web);
    await web.close();
  } finally {
    server.close();
  }
}

// ================================================================ verdicts vs native

// kobj runs from a folder where "lessons" is the course, so that the paths it prints are
// as short as the page's "/lessons/..." and are not cut where a line has no room.
function nativeEnv(home = tmp) {
  return Object.assign({}, process.env, { NO_COLOR: "1", KOBJ_LESSONS: "lessons",
                                          XDG_DATA_HOME: path.join(home, "xdg") });
}

// What kobj prints as the page prints it: the course is at /lessons there.
const asInBrowser = (text) => text.replace(/(^|[\s(])lessons\//g, "$1/lessons/");
// An oops names the member's offset in its struct, which is smaller on wasm32.
const onWasm32 = (text) => text.replace(/(NULL pointer dereference at virtual address )[0-9a-f]{8}/g, "$1<offset>");

// Runs of kobj, two at a time, while the page does its own: one promise per run.
function nativeRuns(runs) {
  let next = 0;
  const results = runs.map(() => {
    let resolve;
    const p = new Promise((r) => { resolve = r; });
    p.resolve = resolve;
    return p;
  });
  const worker = () => {
    const i = next++;
    if (i >= runs.length) return;
    const child = execFile(kobj, runs[i].args, { encoding: "utf8", env: nativeEnv(runs[i].cwd),
                                                 cwd: runs[i].cwd, maxBuffer: 1 << 24 },
                           (err, stdout) => {
                             results[i].resolve({ status: err ? err.code : 0, stdout });
                             worker();
                           });
    child.stdin.end();
  };
  worker();
  worker();
  return results;
}

function sameVerdict(web, native) {
  const out = onWasm32(asInBrowser(native.stdout));
  const webPass = !web.error && web.failed === 0 && web.passed > 0;
  const counts = /All (\d+) checks pass/.exec(out) || /(\d+) of (\d+) checks fail/.exec(out);
  return onWasm32(out).startsWith(onWasm32(web.output) + "\n") && webPass === (native.status === 0) &&
    (webPass ? Number(counts[1]) === web.passed
             : !counts || (Number(counts[1]) === web.failed && Number(counts[2]) === web.passed + web.failed));
}

async function sameAsKobj(page) {
  const lessons = await page.evaluate(() => window.kobjPage.lessons());
  const runs = [];
  for (const kind of ["solution", "exercise"]) {
    const work = path.join(tmp, "native", kind);
    fs.mkdirSync(work, { recursive: true });
    fs.symlinkSync(lessonsDir, path.join(work, "lessons"));
    for (const l of lessons) {
      const file = kind === "solution" ? path.join(lessonsDir, "solutions", l.slug + ".lua")
                                       : path.join(lessonsDir, l.slug, "exercise.lua");
      const code = fs.readFileSync(file, "utf8");
      fs.writeFileSync(path.join(work, l.slug + ".lua"), code);
      runs.push({ what: `lesson ${l.number}'s ${kind}`, code, lesson: l.number, cwd: work,
                  args: ["lesson", "check", String(l.number), l.slug + ".lua"] });
    }
  }
  const demos = runs.filter((r) => r.args[1] === "check" && r.what.endsWith("solution"))
    .map((r) => ({ what: `lesson ${r.lesson}'s demo`, lesson: r.lesson, cwd: r.cwd,
                   args: ["lesson", "run", String(r.lesson)] }));
  const natives = nativeRuns(runs.concat(demos));

  let checks = 0;
  for (const [i, r] of runs.entries()) {
    const web = await page.evaluate((n, t) => window.kobjPage.check(n, t), r.lesson, r.code);
    const native = await natives[i];
    const same = sameVerdict(web, native);
    checks += same;
    if (!same) expect(false, `${r.what}: the same verdict as kobj lesson check`,
                      `web:\n${web.output}\nnative:\n${native.stdout}`);
  }
  expect(checks === runs.length && lessons.length >= 18,
         `${checks} checks (every lesson's solution and exercise) give kobj lesson check's verdict`);

  let same = 0;
  for (const [i, r] of demos.entries()) {
    const web = await page.evaluate((n) => window.kobjPage.demo(n), r.lesson);
    const native = await natives[runs.length + i];
    const ok = web.status === "done" && native.status === 0 &&
      onWasm32(asInBrowser(native.stdout)) === onWasm32(web.output) + "\n";
    same += ok;
    if (!ok) expect(false, `${r.what} prints what kobj lesson run prints`,
                    `web (${web.status}):\n${web.output}\n${web.errors}\nnative:\n${native.stdout}`);
  }
  expect(same === demos.length, `${same} demos print what kobj lesson run prints`);
}

// ============================================================================= main

async function main() {
  const browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           `--user-data-dir=${path.join(tmp, "chromium")}`],
  });
  try {
    const page = await open(browser);
    for (const [name, scenario] of [["the prompt", prompt], ["lesson 1", lessonOne],
                                    ["races", raceAtPrompt], ["runaways", runaway],
                                    ["served", served], ["same as kobj", sameAsKobj]]) {
      const t = Date.now();
      await scenario(page, browser);
      console.log(`      (${name}: ${Date.now() - t} ms)`);
    }
  } finally {
    await browser.close();
  }
  expect(errors.length === 0, "no errors in the browser's console", errors.join("\n      "));
  expect(network.length === 0, "nothing was fetched from the network", network.join(" "));
  const failed = results.filter((ok) => !ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAIL  ${e.stack}`);
  process.exit(1);
});
