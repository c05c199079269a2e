// The Web Worker that runs the sandbox, so that a script that runs for long never
// freezes the page. Above this file, in the same source, come graphviz (Viz) and the
// sandbox compiled by emcc (createKobj). The page sends one request at a time,
// {id, cmd, ...}; the worker answers {id, type: "done", ...} after streaming the
// output as {type: "out", lines: [[stream, text]...]}.
"use strict";

const STATUS = ["done", "error", "more", "ask"]; // repl/web/web.h's enum web_status
let kobj = null;

// Output lines are sent in batches, at most every 50 ms, so a loop that prints a million
// lines cannot flood the page with messages.
let pending = [];
let lastFlush = 0;
function flush() {
  if (pending.length) postMessage({ type: "out", lines: pending });
  pending = [];
  lastFlush = Date.now();
}
function emit(stream, text) {
  pending.push([stream, text]);
  if (pending.length >= 500 || Date.now() - lastFlush > 50) flush();
}

function writeFile(file, text) {
  kobj.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
  kobj.FS.writeFile(file, text);
}

const call = (name, ret, types, args) => kobj.ccall(name, ret, types, args);
// A call that runs Lua may run a race's simulated threads, fibers whose switches unwind
// the WebAssembly stack to here, losing what the call returns; it keeps that for
// web_returned() (repl/web/web.h).
const run = (name, ret, types, args) => {
  call(name, null, types, args);
  return call("web_returned", ret, [], []);
};

async function open(req) {
  const viz = await Viz.instance();
  kobj = await createKobj({
    viz,
    print: (text) => emit("out", text),
    printErr: (text) => emit("err", text),
  });
  for (const [file, text] of Object.entries(req.course)) writeFile("/lessons/" + file, text);
  if (call("web_open", "number", ["number", "number"], [req.maxInstructions, req.maxMemory]) !== 0)
    throw new Error("the sandbox could not start (see the messages above)");
  return {};
}

const commands = {
  open,
  statement: (req) => ({
    status: STATUS[run("web_statement", "number", ["string"], [req.text])],
  }),
  complete: (req) => ({
    candidates: run("web_complete", "string", ["string", "number", "number"],
                     [req.line, req.start, req.continuation ? 1 : 0])
      .split("\n").filter((c) => c !== ""),
  }),
  // The student's copy goes where `:lesson N` finds it too (web.h's WEB_WORK).
  save: (req) => {
    writeFile("/home/kobj/lessons/" + req.file, req.text);
    return {};
  },
  check: (req) => {
    writeFile("/home/kobj/lessons/" + req.file, req.text);
    return JSON.parse(run("web_check", "string", ["number", "string"], [req.lesson, req.file]));
  },
  demo: (req) => ({ status: STATUS[run("web_demo", "number", ["number"], [req.lesson])] }),
  answer: (req) => ({
    status: STATUS[run("web_demo_answer", "number", ["string"], [req.answer])],
  }),
  cancel: () => {
    call("web_demo_cancel", null, [], []);
    return {};
  },
  views: (req) => {
    const out = {};
    for (const view of ["picture", "timeline"]) {
      if (!req[view]) continue;
      const text = call("web_" + view, "string", [], []);
      out[view] = text === null || text === "" ? { error: call("web_view_error", "string", [], []) }
                                               : { text };
    }
    return out;
  },
};

onmessage = async (e) => {
  const req = e.data;
  let answer;
  try {
    const fn = commands[req.cmd];
    if (!fn) throw new Error(`unknown request '${req.cmd}'`);
    answer = await fn(req);
    // the prompt for the next line: "kobj:12> ", or "  ...13> " within a statement
    const pending = answer.status === "more" ? req.text.split("\n").length : 0;
    answer.prompt = call("web_prompt", "string", ["number"], [pending]);
  } catch (err) {
    // An exception out of the WebAssembly (an abort, JavaScript's own stack running out)
    // leaves the sandbox half-way through a call: the page starts a fresh one.
    answer = { failure: String(err && err.message ? err.message : err), dead: req.cmd in commands };
  }
  flush();
  postMessage(Object.assign({ id: req.id, type: "done" }, answer));
};
