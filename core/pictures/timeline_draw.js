/* The timeline's picture of one frame (timeline_replay.js has the state it draws). */

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
