"use strict";
/*
 * The timeline page: replays the run's events (T.frames) over one layout (T.nodes,
 * T.folds, T.routes) and shows, per frame, the picture, the event, the line of the script
 * that made it with its call stack, and the references held on the object in focus.
 * Frame 0 is before the first event, frames 1..n are the events, frame n + 1 the end.
 */
const EV = {INIT: 0, SET_NAME: 1, GET: 2, PUT: 3, ADD: 4, DEL: 5, RELEASE: 6, HOTPLUG: 7,
            DIAG: 8, LOAD: 9, UNLOAD: 10, SYSFS: 11, SCHED: 12};
const REF = {CREATOR: 0, SYSFS: 1, PARENT: 2, KSET: 3};
const ST = {RELEASED: 4};
const SHAPES = ["box", "folder", "tab", "component"];
const errors = [];
window.addEventListener("error", e => errors.push(String(e.message)));

const nodeById = new Map(T.nodes.map(n => [n[0], n]));
const foldOf = new Map();
for (const f of T.folds) for (const m of f[5]) foldOf.set(m, f);
const routes = new Map(T.routes.map(r => [r[0] + ">" + r[1], r[2]]));
const nEvents = T.frames.length;
const last = nEvents + 1;
const diagFrames = [];
T.frames.forEach((fr, i) => { if (fr[2] === EV.DIAG) diagFrames.push(i + 1); });
const threads = [...new Set(T.frames.map(fr => fr[1]))].sort((a, b) => a - b);
let frame = 0, zoom = 1, focus = 0;

function nameOf(id) { return T.names[id - 1] !== undefined ? T.names[id - 1] : "?"; }
function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c]));
}
function where(site, from) {
  if (site < 0 || !T.sites[site]) return "an unknown place";
  const [file, line] = T.sites[site];
  const short = `${T.files[file][0].replace(/^.*\//, "")}:${line}`;
  let outer = site;
  for (let depth = 0; T.sites[outer][3] >= 0 && depth < 64; depth++) outer = T.sites[outer][3];
  if (!from || outer === site) return short;
  const [ofile, oline] = T.sites[outer];
  return `${short} (from ${ofile === file ? "" : T.files[ofile][0].replace(/^.*\//, "") + ":"}${oline})`;
}

/* ------------------------------------------------------------------ replaying the log */

/* Per object: count, state, diagnostics, references held on it, files, links. */
function blank() { return {c: 0, s: -1, d: [], refs: [], f: 0, l: 0}; }
function clone(S) {
  const copy = new Map();
  for (const [id, o] of S) copy.set(id, {...o, d: o.d.slice(), refs: o.refs.slice()});
  return copy;
}

function apply(S, fr, n) {
  const [site, , kind, text, obj, , after, st, ref, refKind, holder, aux] = fr;
  if (!obj) return;
  if (!S.has(obj)) S.set(obj, blank());
  const o = S.get(obj);
  if (![EV.DIAG, EV.SET_NAME, EV.SYSFS, EV.SCHED, EV.HOTPLUG].includes(kind)) o.c = after;
  if (st >= 0) o.s = st;
  if (kind === EV.INIT) o.refs = [{r: 0, k: REF.CREATOR, h: 0, s: site}];
  else if (kind === EV.GET) o.refs.push({r: ref, k: refKind, h: holder, s: site});
  else if (kind === EV.PUT) {
    let i = o.refs.findIndex(x => x.r === ref);
    if (i < 0) i = o.refs.findIndex(x => x.r === 0 && x.k === refKind);
    if (i >= 0) o.refs.splice(i, 1);
  } else if (kind === EV.RELEASE || kind === EV.UNLOAD) o.refs = [];
  else if (kind === EV.DIAG) o.d.push([(/! (\S+)/.exec(text) || ["", "?"])[1], site, n]);
  else if (kind === EV.SYSFS) {
    if (aux === 0 || aux === 2) o.f++;
    if (aux === 1 || aux === 3) o.f = Math.max(0, o.f - 1);
    if (aux === 4) o.l++;
    if (aux === 5) o.l = Math.max(0, o.l - 1);
  }
}

const checkpoints = new Map([[0, new Map()]]);
let cache = {n: 0, S: new Map()};
function stateAt(n) {
  n = Math.min(n, nEvents);
  let base = cache.n <= n && n - cache.n < 256 ? cache.n : n - (n % 256);
  while (base !== cache.n && !checkpoints.has(base)) base -= 256;
  const S = base === cache.n ? cache.S : clone(checkpoints.get(base));
  for (let f = base + 1; f <= n; f++) {
    apply(S, T.frames[f - 1], f);
    if (f % 256 === 0 && !checkpoints.has(f)) checkpoints.set(f, clone(S));
  }
  cache = {n, S};
  return S;
}

/* ------------------------------------------------------------------------ the picture */

/* Where an object is drawn: its own box, its kset's fold (-kset), or nowhere (0). */
function drawnAs(id) {
  if (nodeById.has(id)) return id;
  const f = foldOf.get(id);
  return f ? -f[0] : 0;
}
function boxOf(d) {
  if (d > 0) { const n = nodeById.get(d); return [n[3], n[4], n[5], n[6]]; }
  const f = T.folds.find(x => x[0] === -d);
  return [f[1], f[2], f[3], f[4]];
}

/* The point where the segment from the centre of box a towards (x, y) leaves it. */
function clip(a, x, y) {
  const dx = x - a[0], dy = y - a[1];
  const t = Math.min(Math.abs(a[2] / 2 / (dx || 1e-9)), Math.abs(a[3] / 2 / (dy || 1e-9)), 1);
  return [a[0] + dx * t, a[1] + dy * t];
}
function path(from, to) {
  const r = routes.get(from + ">" + to);
  if (r) {
    let d = `M${r[0]},${r[1]}`;
    for (let i = 2; i + 5 < r.length; i += 6) d += ` C${r.slice(i, i + 6).join(",")}`;
    const e = clip(boxOf(to), r[r.length - 2], r[r.length - 1]);
    return d + ` L${e[0].toFixed(1)},${e[1].toFixed(1)}`;
  }
  const a = boxOf(from), b = boxOf(to);
  const p = clip(a, b[0], b[1]), q = clip(b, a[0], a[1]);
  return `M${p[0].toFixed(1)},${p[1].toFixed(1)} L${q[0].toFixed(1)},${q[1].toFixed(1)}`;
}

/* The references objects hold on one another, one edge per holder and object. */
function edgesOf(S) {
  const edges = new Map();
  for (const [id, o] of S) {
    for (const x of o.refs) {
      if (x.k !== REF.PARENT && x.k !== REF.KSET) continue;
      const from = drawnAs(x.h), to = drawnAs(id);
      if (!from || !to || from === to) continue;
      const key = from + ">" + to;
      const e = edges.get(key) || {from, to, parent: 0, kset: 0};
      e[x.k === REF.PARENT ? "parent" : "kset"]++;
      edges.set(key, e);
    }
  }
  return edges;
}

/* A kset's frame: the kset and the members that hold its kset reference now. */
function frames(S) {
  const boxes = new Map();
  const grow = (k, b) => {
    const r = boxes.get(k) || [1e9, 1e9, -1e9, -1e9];
    r[0] = Math.min(r[0], b[0] - b[2] / 2); r[1] = Math.min(r[1], b[1] - b[3] / 2);
    r[2] = Math.max(r[2], b[0] + b[2] / 2); r[3] = Math.max(r[3], b[1] + b[3] / 2);
    boxes.set(k, r);
  };
  for (const [id, o] of S) {
    const k = o.refs.length && nodeById.has(id) ? id : 0;
    if (!k) continue;
    for (const x of o.refs) {
      if (x.k !== REF.KSET) continue;
      const d = drawnAs(x.h);
      if (!d) continue;
      grow(k, boxOf(k));
      grow(k, boxOf(d));
    }
  }
  return boxes;
}

function textLines(x, y, h, lines) {
  let out = "", top = y - h / 2 + 4 + 13;
  for (const [text, size, style] of lines) {
    out += `<text x="${x}" y="${top}" text-anchor="middle" font-size="${size}" ${style}>${esc(text)}</text>`;
    top += size + 3.5;
  }
  return out;
}

function countText(o, fr, id) {
  const changed = fr && fr[4] === id && fr[5] !== fr[6] && ![EV.DIAG, EV.SET_NAME, EV.SYSFS, EV.HOTPLUG].includes(fr[2]);
  return changed ? [`refcount ${fr[5]} \u2192 ${fr[6]}`, 11, 'font-weight="bold"']
                 : [`refcount ${o.c}`, 11, ""];
}

function drawNode(nd, o, fr, mark) {
  const [id, name, kind, x, y, w, h, , ktype] = nd;
  const st = T.states[o.s];
  const released = o.s === ST.RELEASED;
  const stroke = mark || (o.d.length ? "#b00020" : st[2]);
  const width = mark ? 4 : o.d.length ? 2.5 : 1.2;
  const dash = released ? 'stroke-dasharray="5,3"' : "";
  let s = `<g class="node" data-id="${id}" data-refcount="${o.c}" data-state="${o.s}">`;
  s += `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="${SHAPES[kind] === "box" ? 9 : 2}" fill="${st[1]}" stroke="${stroke}" stroke-width="${width}" ${dash}/>`;
  if (kind === 1 || kind === 2)
    s += `<rect x="${x - w / 2}" y="${y - h / 2 - 6}" width="${w / 3}" height="6" fill="${st[1]}" stroke="${st[2]}"/>`;
  const lines = [[released ? `${name} #${id}` : name, 12, 'font-weight="bold"'], [ktype, 11, ""],
                 countText(o, fr, id), [st[0], 11, 'font-style="italic"']];
  const extra = [o.f ? `${o.f} file${o.f > 1 ? "s" : ""}` : "", o.l ? `${o.l} link${o.l > 1 ? "s" : ""}` : ""].filter(Boolean);
  if (o.d.length) extra.unshift(`! ${o.d[o.d.length - 1][0]}`);
  if (extra.length) lines.push([extra.join(" \u00b7 "), 10, o.d.length ? 'fill="#b00020"' : ""]);
  return s + textLines(x, y, h, lines) + "</g>";
}

function drawFold(f, S, fr, mark) {
  const [kset, x, y, w, h, members] = f;
  const counts = new Map();
  let n = 0, lo = Infinity, hi = -Infinity;
  for (const m of members) {
    const o = S.get(m);
    if (!o || o.s < 0) continue;
    n++;
    counts.set(o.s, (counts.get(o.s) || 0) + 1);
    lo = Math.min(lo, o.c); hi = Math.max(hi, o.c);
  }
  if (!n) return "";
  const states = [...counts].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${c} ${T.states[s][0]}`).join(", ");
  const lines = [[`\u2026 ${n} more`, 12, 'font-weight="bold"'], [states, 11, ""],
                 [lo === hi ? `refcount ${lo}` : `refcount ${lo} to ${hi}`, 11, ""]];
  if (mark && fr) lines.push([`${nameOf(fr[4])} changed`, 10, 'font-weight="bold"']);
  let s = `<g class="node fold" data-id="${-kset}" data-members="${n}">`;
  s += `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="9" fill="#ffffff" stroke="${mark || "#37474f"}" stroke-width="${mark ? 4 : 1.2}" stroke-dasharray="6,3"/>`;
  return s + textLines(x, y, h, lines) + "</g>";
}

function draw(n) {
  const S = stateAt(n);
  const fr = n > 0 ? T.frames[n - 1] : null;
  const mark = fr && fr[2] === EV.DIAG ? "#b00020" : "#1e88e5";
  const changed = fr ? drawnAs(fr[4]) : 0;
  const W = T.width + 20, H = T.height + 20;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * zoom}" height="${H * zoom}" viewBox="-10 -10 ${W} ${H}" font-family="Helvetica, Arial, sans-serif">`;
  svg += `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="#37474f"/></marker>` +
         `<marker id="vee" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10" fill="none" stroke="#0072b2"/></marker></defs>`;
  for (const [, b] of frames(S))
    svg += `<rect x="${b[0] - 8}" y="${b[1] - 8}" width="${b[2] - b[0] + 16}" height="${b[3] - b[1] + 16}" rx="8" fill="none" stroke="#78909c" stroke-dasharray="5,4"/>`;
  for (const e of edgesOf(S).values()) {
    const label = [e.parent ? "parent" : "", e.kset ? "kset" : ""].filter(Boolean).join(", ");
    svg += `<path class="edge" d="${path(e.from, e.to)}" fill="none" stroke="#37474f" ${e.parent ? "" : 'stroke-dasharray="6,4"'} marker-end="url(#arrow)"><title>${label}</title></path>`;
  }
  for (const [owner, target, name] of T.links) {
    const o = S.get(owner), a = drawnAs(owner), b = drawnAs(target);
    if (!o || !o.l || !a || !b || !S.get(target)) continue;
    const d = path(a, b), m = /L([\d.-]+),([\d.-]+)$/.exec(d);
    svg += `<path class="link" d="${d}" fill="none" stroke="#0072b2" stroke-dasharray="2,3" marker-end="url(#vee)"/>`;
    if (m) svg += `<text x="${m[1]}" y="${m[2] - 4}" font-size="10" fill="#0072b2">${esc(name)}</text>`;
  }
  for (const nd of T.nodes) {
    const o = S.get(nd[0]);
    if (o && o.s >= 0) svg += drawNode(nd, o, fr, changed === nd[0] ? mark : "");
  }
  for (const f of T.folds) svg += drawFold(f, S, fr, changed === -f[0] ? mark : "");
  return svg + "</svg>";
}

/* ------------------------------------------------------------ source, stack, references */

const codeOf = new Map();
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

T.names = T.names || [];
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
