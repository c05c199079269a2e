// The page: the course (lesson text, hints, the student's copy in an editor, the check's
// verdict), the prompt (console.js), and the world drawn after each statement beside the
// timeline. The sandbox runs in a Web Worker (worker.js), with the terminal's limits;
// should it still not answer after WATCHDOG_MS, or should the student press Stop, the
// worker is ended and a fresh one started, so the page itself never freezes.
// Progress and copies of the exercises are kept in the browser's localStorage.
"use strict";

const params = new URLSearchParams(location.search);
const numberParam = (name, fallback) => {
  const v = params.get(name);
  return v !== null && /^\d+$/.test(v) ? Number(v) : fallback;
};
// The terminal's defaults (repl/kobj.h), changed with ?max-instructions=N&max-memory=MIB
const LIMITS = {
  maxInstructions: numberParam("max-instructions", 100000000),
  maxMemory: numberParam("max-memory", 128),
};
const WATCHDOG_MS = numberParam("watchdog", 30) * 1000;

const $ = (id) => document.getElementById(id);

// ============================================================================ the worker

class Sandbox {
  constructor() {
    this.queue = Promise.resolve();
    this.current = null; // {id, resolve, sink, timer}
    this.nextId = 1;
    this.ready = null;
  }

  start() {
    const source = "(" + self.KOBJ_WORKER.toString() + ")();";
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    this.worker = new Worker(url);
    URL.revokeObjectURL(url);
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.restart(`the sandbox failed: ${e.message}`);
    };
    this.opened = false;
    this.ready = this.send("open", Object.assign({ course: self.KOBJ_COURSE }, LIMITS), printSink)
      .then((m) => {
        this.opened = !m.failure;
        if (this.opened) course.filter((l) => copyOf(l) !== null).forEach(syncCopy);
        return m;
      });
    return this.ready;
  }

  // Ends a worker that runs away (or that the student stopped) and starts a fresh one,
  // unless it never started: then another would fail the same way.
  restart(why) {
    this.worker.terminate();
    const c = this.current;
    this.current = null;
    if (c) {
      clearTimeout(c.timer);
      c.resolve({ failure: why, restarted: true });
    }
    if (!this.opened) {
      consoleView.print("err", `${why}: the sandbox cannot start in this browser.`);
      $("status").textContent = "stopped";
      $("stop").hidden = true;
      return;
    }
    consoleView.print("err", `${why}. A fresh sandbox was started: its world is new.`);
    consoleView.asking = false;
    consoleView.setPrompt();
    this.start();
  }

  busy() {
    return this.current !== null;
  }

  onMessage(m) {
    const c = this.current;
    if (m.type === "out") {
      for (const [stream, text] of m.lines) (c ? c.sink : printSink)(stream, text);
      return;
    }
    if (!c || m.id !== c.id) return;
    if (m.prompt) consoleView.setPrompt(m.prompt, m.status === "more");
    clearTimeout(c.timer);
    this.current = null;
    setBusy(false);
    c.resolve(m);
  }

  // One request at a time, in order; @sink receives the output lines.
  send(cmd, fields, sink) {
    const run = () => new Promise((resolve) => {
      const id = this.nextId++;
      this.current = { id, resolve, sink: sink || printSink };
      if (!["open", "complete", "save"].includes(cmd)) setBusy(true);
      this.current.timer = setTimeout(() => this.restart(
        `The sandbox did not answer for ${WATCHDOG_MS / 1000} s and was stopped`), WATCHDOG_MS);
      this.worker.postMessage(Object.assign({ id, cmd }, fields));
    });
    const p = this.queue.then(run);
    this.queue = p.catch(() => {});
    return p.then((m) => {
      if (m.dead && cmd !== "open") this.restart(`The sandbox failed (${m.failure})`);
      else if (m.failure && !m.restarted) printSink("err", `kobj: ${m.failure}`);
      return m;
    });
  }

  async statement(text) {
    const m = await this.send("statement", { text });
    if (m.status !== "more") refreshViews();
    return m.status;
  }

  async complete(line, start, continuation) {
    const m = await this.send("complete", { line, start, continuation });
    return m.candidates || [];
  }

  async answer(text) {
    const m = await this.send("answer", { answer: text });
    afterDemoStep(m.status);
  }
}

function printSink(stream, text) {
  consoleView.print(stream, budgetNote(text));
}

// The limits' messages name the terminal's flags; here they are the address's parameters.
function budgetNote(text) {
  return text.replace("raise it with --max-instructions", "raise it with ?max-instructions=N in the address")
             .replace("raise it with --max-memory", "raise it with ?max-memory=MIB in the address");
}

function setBusy(busy) {
  $("status").textContent = busy ? "running…" : "ready";
  $("status").classList.toggle("busy", busy);
  $("stop").hidden = !busy;
}

// ============================================================================== views

let timelineUrl = null;

async function refreshViews() {
  const m = await sandbox.send("views", { picture: true, timeline: true });
  const pic = $("picture");
  if (m.picture && m.picture.text) {
    const svg = new DOMParser().parseFromString(m.picture.text, "image/svg+xml").documentElement;
    svg.querySelectorAll("script").forEach((s) => s.remove());
    pic.replaceChildren(document.importNode(svg, true));
  } else if (m.picture) {
    pic.innerHTML = `<p class="error">${escapeHtml(m.picture.error)}</p>`;
  }
  if (m.timeline && m.timeline.text) {
    if (timelineUrl) URL.revokeObjectURL(timelineUrl);
    timelineUrl = URL.createObjectURL(new Blob([m.timeline.text], { type: "text/html" }));
    $("timeline").src = timelineUrl + "#frame=" + Number.MAX_SAFE_INTEGER; // the page clamps: the last event
  }
}

// ============================================================================= course

const course = Object.keys(self.KOBJ_COURSE)
  .map((f) => /^(\d+)-[^/]+(?=\/lesson\.md$)/.exec(f))
  .filter(Boolean)
  .map((m) => lessonOf(m[0], Number(m[1])))
  .sort((a, b) => a.number - b.number);

function lessonOf(slug, number) {
  const file = (name) => self.KOBJ_COURSE[`${slug}/${name}`] || "";
  const text = file("lesson.md");
  // the title as `kobj lesson list` reads it: the first line, less "# 1."
  const title = text.split("\n")[0].replace(/^[#\s]*\d*[.\s]*/, "") || slug;
  return { slug, number, title, text, exercise: file("exercise.lua"),
           hints: file("hints.md").split(/\n---\n/).map((h) => h.trim()).filter(Boolean) };
}

const progress = loadJson("kobj.progress", {}); // slug -> {done, hints}
let lesson = course.find((l) => l.number === loadJson("kobj.lesson", 1)) || course[0];
let editor;

const copyKey = (l) => "kobj.copy." + l.slug;
const fileName = (l) => l.slug + ".lua";
const stateOf = (l) => (progress[l.slug] = progress[l.slug] || { done: false, hints: 0 });
const copyOf = (l) => loadJson(copyKey(l), null);

function fillLessonList() {
  const select = $("lesson-select");
  select.replaceChildren(...course.map((l) => {
    const o = document.createElement("option");
    o.value = l.number;
    o.textContent = `${l.number}. ${l.title}${stateOf(l).done ? "  ✓" : ""}`;
    return o;
  }));
  select.value = lesson.number;
}

function showLesson(l) {
  lesson = l;
  saveJson("kobj.lesson", l.number);
  $("lesson-text").innerHTML =
    `<p class="browser-note">In this page the buttons above do what <code>kobj lesson run ${l.number}</code>, ` +
    `<code>check</code>, <code>hint</code> and <code>reset</code> do at a terminal; the prompt below is ` +
    `<code>kobj</code>'s, and <code>:lesson ${l.number}</code> loads your copy into it.</p>` +
    markdownToHtml(l.text);
  showHints();
  editor.setValue(copyOf(l) ?? l.exercise);
  editor.clearHistory();
  $("file-name").textContent = fileName(l);
  $("done-mark").textContent = stateOf(l).done ? "✓ done" : "";
  $("verdict").hidden = true;
  fillLessonList();
}

function showHints() {
  const n = stateOf(lesson).hints;
  $("hints").replaceChildren(...lesson.hints.slice(0, n).map((h, i) => {
    const d = document.createElement("div");
    d.className = "hint";
    d.innerHTML = `<strong>Hint ${i + 1} of ${lesson.hints.length}</strong>` + markdownToHtml(h) +
      (i + 1 === lesson.hints.length ? "<p>(that was the last hint)</p>" : "");
    return d;
  }));
  $("hint").disabled = n >= lesson.hints.length;
}

function saveProgress() {
  saveJson("kobj.progress", progress);
}

// The student's copies are also written where `:lesson N` finds them in the sandbox.
function syncCopy(l) {
  return sandbox.send("save", { file: fileName(l), text: copyOf(l) });
}

// The editor's text becomes the student's copy once it differs from the exercise.
let saveTimer = null;
function saveCopy() {
  clearTimeout(saveTimer);
  if (editor.getValue() === lesson.exercise && copyOf(lesson) === null) return Promise.resolve();
  saveJson(copyKey(lesson), editor.getValue());
  return syncCopy(lesson);
}

async function check(l, text, sink) {
  const m = await sandbox.send("check", { lesson: l.number, file: fileName(l), text }, sink);
  return { passed: m.passed || 0, failed: m.failed || 0, error: m.error !== false };
}

async function runCheck() {
  await cancelDemo();
  saveCopy();
  const v = $("verdict");
  const body = document.createElement("div");
  v.hidden = false;
  v.className = "";
  v.replaceChildren(body);
  const r = await check(lesson, editor.getValue(), (stream, text) => {
    const line = document.createElement("div");
    appendAnsi(line, text || "\u200b", stream === "err" ? "err" : "");
    body.appendChild(line);
  });
  const summary = document.createElement("span");
  summary.className = "summary";
  if (r.error) {
    summary.textContent = "The exercise or its checks stopped with an error (below). Fix it and check again.";
  } else if (r.failed === 0 && r.passed > 0) {
    summary.textContent = `All ${r.passed} checks pass: lesson ${lesson.number} is done.`;
    stateOf(lesson).done = true;
    saveProgress();
  } else {
    summary.textContent = `${r.failed} of ${r.passed + r.failed} checks fail. Stuck? Hint shows the next hint.`;
  }
  v.className = !r.error && r.failed === 0 && r.passed > 0 ? "pass" : "fail";
  v.prepend(summary);
  $("done-mark").textContent = stateOf(lesson).done ? "✓ done" : "";
  fillLessonList();
  refreshViews();
}

// ============================================================================== demos

let demoWaiting = false;

// While a demo asks, the world is not drawn: the picture would give the answer away.
function afterDemoStep(status) {
  demoWaiting = status === "ask";
  if (!demoWaiting) return refreshViews();
  $("picture").innerHTML = '<p class="error">The picture comes back when the demo has ' +
    "its answers: now it would give them away.</p>";
  consoleView.ask();
}

async function runDemo() {
  await cancelDemo();
  consoleView.print("note", `-- lesson ${lesson.number}'s demo: answer its questions at the prompt ` +
                            "(Escape skips one) --");
  const m = await sandbox.send("demo", { lesson: lesson.number });
  afterDemoStep(m.status);
}

async function cancelDemo() {
  if (!demoWaiting) return;
  demoWaiting = false;
  consoleView.asking = false;
  consoleView.setPrompt();
  await sandbox.send("cancel", {});
}

// ========================================================================== downloads

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function downloadAll() {
  const files = course.filter((l) => copyOf(l) !== null).map((l) => [fileName(l), copyOf(l)]);
  if (files.length === 0) {
    consoleView.print("note", "No lesson has a copy of yours yet: edit an exercise first.");
    return;
  }
  download("kobj-lessons.zip", makeZip(files));
}

// =============================================================================== start

const sandbox = new Sandbox();
const consoleView = new Console(sandbox);

function wire() {
  editor = CodeMirror.fromTextArea($("editor"), {
    mode: "lua", lineNumbers: true, indentUnit: 2, tabSize: 2, extraKeys: { Tab: "indentMore" },
  });
  editor.on("change", () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveCopy, 300);
  });
  window.addEventListener("pagehide", saveCopy);
  $("lesson-select").addEventListener("change", (e) => {
    saveCopy();
    cancelDemo();
    showLesson(course.find((l) => l.number === Number(e.target.value)));
  });
  $("demo").addEventListener("click", runDemo);
  $("check").addEventListener("click", runCheck);
  $("hint").addEventListener("click", () => {
    stateOf(lesson).hints = Math.min(stateOf(lesson).hints + 1, lesson.hints.length);
    saveProgress();
    showHints();
    const shown = $("hints").lastElementChild;
    if (shown) shown.scrollIntoView({ block: "nearest" });
  });
  $("load").addEventListener("click", async () => {
    await cancelDemo();
    await saveCopy();
    consoleView.print("echo", consoleView.prompt + `:lesson ${lesson.number}`);
    await sandbox.statement(`:lesson ${lesson.number}`);
  });
  $("original").addEventListener("click", () => editor.setValue(lesson.exercise));
  $("download").addEventListener("click", () =>
    download(fileName(lesson), new Blob([editor.getValue()], { type: "text/x-lua" })));
  $("download-all").addEventListener("click", downloadAll);
  $("stop").addEventListener("click", () => sandbox.restart("Stopped"));
}

wire();
showLesson(lesson);
sandbox.start().then((m) => {
  if (m.failure) return;
  setBusy(false);
  consoleView.print("note", "kobj, the kobject sandbox, in your browser. :help lists the commands.");
  refreshViews();
});

// What scripts driving the page (its tests, a teacher's tools) may call. Output comes as
// the terminal would print it: standard output and standard error apart.
function collector() {
  const out = { output: [], errors: [] };
  return [out, (stream, t) => (stream === "err" ? out.errors : out.output).push(t)];
}

window.kobjPage = {
  ready: () => sandbox.ready,
  lessons: () => course.map((l) => ({ number: l.number, slug: l.slug, title: l.title })),
  // lesson @number's check of @text, as `kobj lesson check N FILE`
  check: async (number, text) => {
    const l = course.find((x) => x.number === number);
    if (!l) throw new Error(`no lesson ${number}`);
    const [out, sink] = collector();
    const r = await check(l, text, sink);
    return Object.assign(r, { output: out.output.join("\n"), errors: out.errors.join("\n") });
  },
  // lesson @number's demo with no prediction given, as `kobj lesson run N` off a terminal
  demo: async (number) => {
    await cancelDemo();
    const [out, sink] = collector();
    let m = await sandbox.send("demo", { lesson: number }, sink);
    while (m.status === "ask") m = await sandbox.send("answer", { answer: null }, sink);
    return { status: m.status, output: out.output.join("\n"), errors: out.errors.join("\n") };
  },
};
