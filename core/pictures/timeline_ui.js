/* The timeline's panes, navigation and controls; #selftest is for the browser test. */

let shownFile = -1;
function showSource(site, stack) {
  const code = document.getElementById("code");
  const frames = [];
  for (let s = site, depth = 0; s >= 0 && T.sites[s] && depth < 64; s = T.sites[s][3], depth++) frames.push(s);
  const file = frames.length ? T.sites[frames[0]][0] : shownFile >= 0 ? shownFile : T.files.length ? 0 : -1;
  if (file !== shownFile && file >= 0) {
    const text = T.files[file][1];
    code.innerHTML = text === null ? `<div>(the source of ${esc(T.files[file][0])} is not in this recording)</div>`
      : text.replace(/\n$/, "").split("\n").map(l => `<div>${esc(l) || " "}</div>`).join("");
    shownFile = file;
    document.getElementById("file").textContent = T.files[file][0];
  }
  for (const el of code.querySelectorAll(".here, .caller")) el.className = "";
  frames.forEach((s, i) => {
    const [f, line] = T.sites[s];
    const el = f === shownFile && T.files[f][1] !== null ? code.children[line - 1] : null;
    if (el) el.className = i ? "caller" : "here";
  });
  const here = frames.length && T.files[shownFile][1] !== null ? code.children[T.sites[frames[0]][1] - 1] : null;
  if (here) here.scrollIntoView({block: "center"});
  stack.innerHTML = frames.map((s, i) => {
    const fn = T.sites[s][2];
    return `<li class="${i ? "" : "here"}" data-site="${s}">${esc(where(s))}${fn ? " in " + esc(fn) : ""}</li>`;
  }).join("") || (frame > nEvents ? "<li>the end of the run</li>" : frame ? "<li>no line: a call the sandbox made itself</li>" : "<li>the start of the run</li>");
}

function showHeld(S) {
  const list = document.querySelector("#held ul");
  const title = document.getElementById("heldtitle");
  const o = focus ? S.get(focus) : null;
  if (!o) {
    title.textContent = "References";
    list.innerHTML = "<li>click a box to see who holds it</li>";
    return;
  }
  title.textContent = `References on '${nameOf(focus)}' (${o.refs.length}, refcount ${o.c})`;
  /* one line per kind and place; a crowd of holders is named by its first few */
  const groups = new Map();
  for (const x of o.refs) {
    const key = x.k + "@" + x.s;
    if (!groups.has(key)) groups.set(key, {k: x.k, s: x.s, holders: []});
    groups.get(key).holders.push(x.h);
  }
  list.innerHTML = [...groups.values()].map(g => {
    const kind = T.refKinds[g.k];
    const names = g.holders.slice(0, 3).map(h => `'${nameOf(h)}'`).join(", ") +
      (g.holders.length > 3 ? ` and ${g.holders.length - 3} more` : "");
    const who = g.k === REF.PARENT || g.k === REF.KSET ? `${kind} ${names}`
      : g.holders.length > 1 ? `${kind} ×${g.holders.length}` : kind;
    return `<li>${esc(who)}, taken at ${esc(where(g.s, true))}</li>`;
  }).join("") || "<li>none</li>";
}

/* ------------------------------------------------------------------------- showing */

function scrollToFocus() {
  const pic = document.getElementById("picture");
  const d = drawnAs(focus);
  if (!d || frame > nEvents) return;
  const b = boxOf(d);
  const cx = (b[0] + 10) * zoom + 8, cy = (b[1] + 10) * zoom + 8;
  const r = {l: (b[0] - b[2] / 2 + 10) * zoom, t: (b[1] - b[3] / 2 + 10) * zoom, w: b[2] * zoom, h: b[3] * zoom};
  if (r.l < pic.scrollLeft || r.l + r.w > pic.scrollLeft + pic.clientWidth)
    pic.scrollLeft = cx - pic.clientWidth / 2;
  if (r.t < pic.scrollTop || r.t + r.h > pic.scrollTop + pic.clientHeight)
    pic.scrollTop = cy - pic.clientHeight / 2;
}

function show(n, keepFocus) {
  frame = Math.max(0, Math.min(last, n));
  const fr = frame >= 1 && frame <= nEvents ? T.frames[frame - 1] : null;
  if (fr && !keepFocus && fr[4]) focus = fr[4];
  document.getElementById("slider").value = frame;
  document.getElementById("counter").textContent =
    frame > nEvents ? `the end (${nEvents} events)` : `event ${frame} of ${nEvents}`;
  const ev = document.getElementById("event");
  const pic = document.getElementById("picture");
  if (frame === 0) {
    ev.textContent = "Before the first event. \u2192 steps to it; \u2193 goes line by line, PgDn to the first diagnostic.";
    ev.className = "";
    pic.innerHTML = "<p>Nothing exists yet: the run starts with the next event.</p>";
  } else if (frame > nEvents) {
    ev.textContent = T.leak.text;
    ev.className = "end";
    pic.innerHTML = T.leak.svg;
    const svg = pic.querySelector("svg");
    if (svg) for (const a of ["width", "height"]) svg.setAttribute(a, parseFloat(svg.getAttribute(a)) * zoom + "pt");
  } else {
    ev.textContent = fr[3];
    ev.className = fr[2] === EV.DIAG ? "diag" : "";
    pic.innerHTML = draw(frame);
  }
  showSource(fr ? fr[0] : -1, document.querySelector("#stack ol"));
  showHeld(stateAt(Math.min(frame, nEvents)));
  document.getElementById("zoomlevel").textContent = `${Math.round(zoom * 100)}%`;
  for (const g of pic.querySelectorAll("svg g.node")) g.style.cursor = "pointer";
  lanesCursor();
  scrollToFocus();
  history.replaceState(null, "", `#frame=${frame}`);
}

/* The frame of the next (+1) or previous (-1) line: a debugger's step. A site stands for
 * the whole call stack, so a helper called again from another line is a new step. */
function lineOf(f) {
  return f >= 1 && f <= nEvents ? T.frames[f - 1][0] : -2;
}
function stepLine(dir) {
  const here = lineOf(frame);
  let f = frame + dir;
  while (f >= 1 && f <= nEvents && lineOf(f) === here) f += dir;
  if (dir < 0) {
    const there = lineOf(f);
    while (f > 1 && lineOf(f - 1) === there) f--;
  }
  return f;
}
function diagAfter(dir) {
  const list = dir > 0 ? diagFrames.filter(f => f > frame) : diagFrames.filter(f => f < frame).reverse();
  return list.length ? list[0] : frame;
}

function setZoom(z) {
  const pic = document.getElementById("picture");
  const fx = (pic.scrollLeft + pic.clientWidth / 2) / zoom, fy = (pic.scrollTop + pic.clientHeight / 2) / zoom;
  zoom = Math.max(0.2, Math.min(4, z));
  show(frame, true);
  pic.scrollLeft = fx * zoom - pic.clientWidth / 2;
  pic.scrollTop = fy * zoom - pic.clientHeight / 2;
}
function fitZoom() {
  const pic = document.getElementById("picture");
  return Math.min(1.5, (pic.clientWidth - 20) / (T.width + 20));
}

/* ------------------------------------------------------------ the scrubber's marks */

function buildMarks() {
  const marks = document.getElementById("marks");
  const at = f => `${(f / last) * 100}%`;
  marks.innerHTML = diagFrames.map(f => `<span style="left:${at(f)}" title="diagnostic at event ${f}" data-frame="${f}"></span>`).join("") +
    `<span class="end" style="left:${at(last)}" title="the end: the leak picture" data-frame="${last}"></span>`;
  marks.addEventListener("click", e => { if (e.target.dataset.frame) show(Number(e.target.dataset.frame)); });
  if (threads.length < 2) return;
  const lanes = document.getElementById("lanes");
  lanes.innerHTML = threads.map(t => {
    let runs = "", start = -1;
    T.frames.forEach((fr, i) => {
      if (fr[1] === t && start < 0) start = i;
      if ((fr[1] !== t || i === nEvents - 1) && start >= 0) {
        const end = fr[1] === t ? i + 1 : i;
        runs += `<rect x="${start + 1}" y="0" width="${end - start}" height="1" fill="#455a64"/>`;
        start = -1;
      }
    });
    return `<div data-thread="${t}"><span>thread ${t}</span><svg viewBox="0 0 ${last + 1} 1" preserveAspectRatio="none">${runs}<rect class="cursor" y="0" width="${Math.max(1, last / 300)}" height="1" fill="#e65100"/></svg></div>`;
  }).join("");
  lanes.addEventListener("click", e => {
    const row = e.target.closest("div[data-thread]");
    if (!row) return;
    const svg = row.querySelector("svg").getBoundingClientRect();
    const want = Math.round(((e.clientX - svg.left) / svg.width) * (last + 1));
    const t = Number(row.dataset.thread);
    let best = frame;
    T.frames.forEach((fr, i) => { if (fr[1] === t && Math.abs(i + 1 - want) < Math.abs(best - want)) best = i + 1; });
    show(best);
  });
}
function lanesCursor() {
  for (const c of document.querySelectorAll("#lanes rect.cursor")) c.setAttribute("x", frame);
}

function buildLegend() {
  const seen = new Set(T.frames.map(fr => fr[7]).filter(s => s >= 0));
  const chips = [...seen].sort((a, b) => a - b).map(s =>
    `<span style="background:${T.states[s][1]};border-color:${T.states[s][2]}">${esc(T.states[s][4])}</span>`);
  chips.push('<span style="border:2px solid #b00020">named by a diagnostic</span>',
             '<span style="border:3px solid #1e88e5">changed by this event</span>',
             '<span>&#8594; parent, - - &#8594; kset: references held</span>');
  document.getElementById("legend").innerHTML = chips.join("");
}

/* ------------------------------------------------------------------------- wiring */

document.getElementById("title").textContent = T.title;
document.title = T.title;
const slider = document.getElementById("slider");
slider.max = last;
slider.addEventListener("input", () => show(Number(slider.value)));
const buttons = {first: () => 0, prev: () => frame - 1, next: () => frame + 1, end: () => last,
                 prevline: () => stepLine(-1), nextline: () => stepLine(1),
                 prevdiag: () => diagAfter(-1), nextdiag: () => diagAfter(1)};
for (const [id, to] of Object.entries(buttons))
  document.getElementById(id).addEventListener("click", () => show(to()));
document.getElementById("zoomin").addEventListener("click", () => setZoom(zoom * 1.25));
document.getElementById("zoomout").addEventListener("click", () => setZoom(zoom / 1.25));
document.getElementById("zoomfit").addEventListener("click", () => setZoom(fitZoom()));
document.addEventListener("keydown", e => {
  const keys = {ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "nextline", ArrowUp: "prevline",
                PageDown: "nextdiag", PageUp: "prevdiag", "]": "nextdiag", "[": "prevdiag",
                Home: "first", End: "end"};
  if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) e.preventDefault();
  if (keys[e.key]) { e.preventDefault(); show(buttons[keys[e.key]]()); return; }
  const z = {"+": zoom * 1.25, "=": zoom * 1.25, "-": zoom / 1.25, "0": fitZoom()}[e.key];
  if (z !== undefined) { e.preventDefault(); setZoom(z); }
});
document.querySelector("#stack ol").addEventListener("click", e => {
  const li = e.target.closest("li[data-site]");
  if (!li) return;
  const s = Number(li.dataset.site), code = document.getElementById("code");
  if (T.sites[s][0] === shownFile && code.children[T.sites[s][1] - 1])
    code.children[T.sites[s][1] - 1].scrollIntoView({block: "center"});
});
const pic = document.getElementById("picture");
pic.addEventListener("click", e => {
  const g = e.target.closest("g.node");
  if (g && Number(g.dataset.id) > 0) { focus = Number(g.dataset.id); showHeld(stateAt(Math.min(frame, nEvents))); }
});
let pan = null;
pic.addEventListener("pointerdown", e => {
  if (e.button !== 0) return;
  pan = {x: e.clientX, y: e.clientY, l: pic.scrollLeft, t: pic.scrollTop, moved: false};
});
window.addEventListener("pointermove", e => {
  if (!pan) return;
  if (Math.abs(e.clientX - pan.x) + Math.abs(e.clientY - pan.y) > 3) { pan.moved = true; pic.classList.add("panning"); }
  pic.scrollLeft = pan.l - (e.clientX - pan.x);
  pic.scrollTop = pan.t - (e.clientY - pan.y);
});
window.addEventListener("pointerup", () => { pan = null; pic.classList.remove("panning"); });
pic.addEventListener("wheel", e => {
  if (!e.ctrlKey) return;
  e.preventDefault();
  setZoom(zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1));
}, {passive: false});

/* #selftest presses keys as a person would and reports what the page showed. */
function selftest() {
  const key = k => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
  const out = [];
  const look = k => {
    key(k);
    const nodes = [...document.querySelectorAll("#picture g.node")];
    const here = document.querySelector("#code div.here");
    const line = here ? [...here.parentNode.children].indexOf(here) + 1 : 0;
    const stack = [...document.querySelectorAll("#stack li")].map(li => li.textContent.replace(/ in .*/, "")).join("<");
    const held = [...document.querySelectorAll("#held li")].map(li => li.textContent.replace(/,? taken at .*/, "")).join(",");
    if (frame > nEvents) {
      const states = {};
      for (const g of nodes) { const c = g.getAttribute("class").split(" ")[2]; if (c) states[c] = (states[c] || 0) + 1; }
      out.push(`${k} ${frame} leak picture: ${Object.keys(states).sort().map(c => c + ":" + states[c]).join(",")}`);
      return;
    }
    out.push(`${k} ${frame} nodes=${nodes.map(g => g.dataset.refcount || "f").join("/")} ` +
             `line=${line} stack=${stack} held=${held}`);
  };
  for (const k of T.selftest || ["Home", "ArrowRight", "ArrowRight", "ArrowLeft", "End"]) look(k);
  const code = document.getElementById("code");
  out.push(`source=${document.getElementById("file").textContent}:${code.children.length}`);
  out.push(`lanes=${document.querySelectorAll("#lanes div[data-thread]").length} marks=${document.querySelectorAll("#marks span").length}`);
  show(nEvents);
  const svg = document.querySelector("#picture svg");
  out.push(`fits=${svg && svg.getBoundingClientRect().width <= pic.clientWidth ? "yes" : "no"} (picture ${svg ? Math.round(svg.getBoundingClientRect().width) : 0} px, view ${pic.clientWidth} px)`);
  out.push(`zoom=${(setZoom(zoom * 1.25), document.getElementById("zoomlevel").textContent)}`);
  out.push(`errors=${errors.length ? errors.join(" | ") : "none"}`);
  const box = document.getElementById("selftest");
  box.hidden = false;
  box.textContent = "selftest\n" + out.join("\n") + "\nselftest end";
}

buildMarks();
buildLegend();
const hash = location.hash;  /* show() rewrites it */
const asked = /frame=(\d+)/.exec(hash);
show(asked ? Number(asked[1]) : Math.min(1, nEvents));
if (hash.startsWith("#selftest")) {
  const keys = /keys=([^&]*)/.exec(hash);
  if (keys) T.selftest = decodeURIComponent(keys[1]).split(",");
  selftest();
}
