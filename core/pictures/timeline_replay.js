"use strict";
/*
 * The timeline page, in three scripts run as one: this one replays the run's events
 * (T.frames) into each object's count, state, diagnostics and references;
 * timeline_draw.js draws a frame over the one layout (T.nodes, T.folds, T.routes);
 * timeline_ui.js shows a frame with its source, call stack and references, and wires the
 * keys and controls.
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
