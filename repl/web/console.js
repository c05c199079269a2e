// The prompt, as `kobj` has it at a terminal: "kobj:12> " (the number of the line, as
// origins give it: stdin:12), then "  ...13> " while a statement is unfinished; Up and
// Down walk the history (whole statements, kept in the browser); Tab completes names,
// fields, sysfs paths and commands (the sandbox's own completion); Ctrl-C or Escape
// drops the unfinished statement; Shift-Enter starts a new line.
// Output keeps the terminal's colours: its escape sequences become spans.
"use strict";

const ASK_PROMPT = "your prediction> "; // lessons/lib/predict.lua asks with it
// readline's word breaks, as repl/complete.c sets them
const WORD_BREAKS = " \t\n\"'`@$><=;|&{(,)}[]+-*/%^~#.:";
const HISTORY_KEY = "kobj.history", HISTORY_SIZE = 1000, MAX_LINES = 5000;

// Appends @text with its colour escapes (ESC [ n ; ... m) to @parent as spans.
function appendAnsi(parent, text, baseClass) {
  let classes = [];
  const re = /\x1b\[([\d;]*)m/g;
  let at = 0, m;
  const add = (s) => {
    if (!s) return;
    const span = document.createElement("span");
    span.className = [baseClass, ...classes].filter(Boolean).join(" ");
    span.textContent = s;
    parent.appendChild(span);
  };
  while ((m = re.exec(text))) {
    add(text.slice(at, m.index));
    at = re.lastIndex;
    for (const code of (m[1] || "0").split(";").map(Number)) {
      if (code === 0) classes = [];
      else if (code === 1) classes.push("bold");
      else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97))
        classes = classes.filter((c) => !c.startsWith("fg-")).concat("fg-" + code);
    }
  }
  add(text.slice(at));
}

class Console {
  // @sandbox: statement(text) -> status, complete(line, start, continuation) -> [..],
  // answer(text|null) -> status, busy() -> bool
  constructor(sandbox) {
    this.sandbox = sandbox;
    this.output = document.getElementById("output");
    this.input = document.getElementById("input");
    this.promptEl = document.getElementById("prompt");
    this.completions = document.getElementById("completions");
    this.buffer = "";   // the unfinished statement's lines
    this.prompt = this.freshPrompt = this.promptEl.textContent;
    this.asking = false; // a demo waits for a prediction
    this.history = loadJson(HISTORY_KEY, []);
    this.at = this.history.length;
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.input.addEventListener("input", () => this.fit());
    this.output.addEventListener("click", () => {
      if (!window.getSelection().toString()) this.input.focus();
    });
  }

  print(stream, text) {
    const line = document.createElement("div");
    appendAnsi(line, text, stream === "err" ? "err" : stream === "out" ? "" : stream);
    if (!text) line.textContent = "\u200b";
    this.output.appendChild(line);
    while (this.output.childElementCount > MAX_LINES) this.output.firstChild.remove();
    this.output.scrollTop = this.output.scrollHeight;
  }

  // @prompt: the sandbox's for the next line ("kobj:12> ", or "  ...13> " when
  // @continuing a statement); a demo's question comes first.
  setPrompt(prompt, continuing) {
    if (prompt) this.prompt = prompt;
    if (prompt && !continuing) this.freshPrompt = prompt;
    this.promptEl.textContent = this.asking ? ASK_PROMPT : this.prompt;
  }

  ask() {
    this.asking = true;
    this.buffer = "";
    this.setPrompt();
    this.input.focus();
  }

  fit() {
    this.input.style.height = "auto";
    this.input.style.height = this.input.scrollHeight + "px";
  }

  remember(text) {
    if (text.trim() === "" || this.history[this.history.length - 1] === text) return;
    this.history.push(text);
    this.history = this.history.slice(-HISTORY_SIZE);
    saveJson(HISTORY_KEY, this.history);
  }

  async submit() {
    if (this.sandbox.busy()) return;
    const line = this.input.value;
    this.input.value = "";
    this.fit();
    this.completions.hidden = true;
    this.print("echo", this.promptEl.textContent + line);
    if (this.asking) {
      this.asking = false;
      this.setPrompt();
      return this.sandbox.answer(line);
    }
    const text = this.buffer ? this.buffer + "\n" + line : line;
    const status = await this.sandbox.statement(text);
    if (status === "more") {
      this.buffer = text;
    } else {
      this.buffer = "";
      this.remember(text);
    }
    this.at = this.history.length;
    this.setPrompt();
  }

  cancel() {
    this.print("echo", this.promptEl.textContent + this.input.value + "^C");
    this.input.value = "";
    this.buffer = "";
    this.prompt = this.freshPrompt;
    this.fit();
    this.completions.hidden = true;
    if (this.asking) {
      this.asking = false;
      this.sandbox.answer(null);
    }
    this.setPrompt();
  }

  walkHistory(step) {
    const to = this.at + step;
    if (to < 0 || to > this.history.length) return;
    this.at = to;
    this.input.value = to === this.history.length ? "" : this.history[to];
    this.fit();
  }

  async complete() {
    const el = this.input;
    const upto = el.value.slice(0, el.selectionStart);
    let start = upto.length;
    while (start > 0 && !WORD_BREAKS.includes(upto[start - 1])) start--;
    const found = await this.sandbox.complete(upto, start, this.buffer !== "");
    if (found.length === 0) return;
    const word = upto.slice(start);
    let common = found[0];
    for (const c of found) while (!c.startsWith(common)) common = common.slice(0, -1);
    if (found.length === 1 || common.length > word.length) {
      el.setRangeText(found.length === 1 ? found[0] : common, start, upto.length, "end");
      this.completions.hidden = true;
    } else {
      this.completions.textContent = found.join("  ");
      this.completions.hidden = false;
    }
    this.fit();
  }

  onKey(e) {
    const el = this.input;
    const firstLine = !el.value.slice(0, el.selectionStart).includes("\n");
    const lastLine = !el.value.slice(el.selectionEnd).includes("\n");
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      this.submit();
    } else if (e.key === "Tab" && !this.asking) {
      e.preventDefault();
      this.complete();
    } else if (e.key === "Escape" || (e.key === "c" && e.ctrlKey && el.selectionStart === el.selectionEnd)) {
      e.preventDefault();
      this.cancel();
    } else if (e.key === "ArrowUp" && firstLine && !this.asking) {
      e.preventDefault();
      this.walkHistory(-1);
    } else if (e.key === "ArrowDown" && lastLine && !this.asking) {
      e.preventDefault();
      this.walkHistory(1);
    } else if (e.key === "l" && e.ctrlKey) {
      e.preventDefault();
      this.output.textContent = "";
    }
  }
}

function loadJson(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : JSON.parse(v);
  } catch (e) {
    return fallback;
  }
}

function saveJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // storage full or switched off: the page goes on, without remembering
  }
}
