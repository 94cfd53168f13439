/* Glassbox attention viewer: every head of one text, drawn in the browser with canvas.
 *
 * One script for two hosts: the Streamlit component (ui/widgets/attention_canvas.py
 * appends an `export default` adapter) and the standalone HTML export
 * (viz_core/attention_html.py inlines it). No network, no libraries, no innerHTML:
 * token text only ever reaches the page through textContent and canvas fillText.
 *
 *   const viewer = glassboxAttention(root, payload, {onSelect(sel) {...}});
 *   viewer.select(layer, head)   viewer.destroy()
 *
 * payload: format glassbox-attention/1 (viz_core/attention_pack.py): uint8 cells
 * [layer, head, q, k], weight = byte / 255 * scale[head], deflated, base64; or, packed in
 * the browser by live.js, the same bytes as `cells` (Uint8Array) and the mask as `mask_bytes`.
 */
function glassboxAttention(root, payload, callbacks) {
  "use strict";
  callbacks = callbacks || {};
  const P = payload;
  const L = P.n_layers, H = P.n_heads, NQ = P.n_q, NK = P.n_k, CELLS = NQ * NK;
  const LBL = Object.assign({
    heading: "Layer {layer}, head {head}", preview: "(preview)",
    hint: "Keys: \u2190 \u2192 head, \u2191 \u2193 layer, Esc unpin, 0 reset zoom. Hover a tile to preview, click to select; " +
          "click a cell to pin it; drag to zoom, Shift+drag to pan, wheel to zoom.",
    query: "query", key: "key", weight: "weight", masked: "masked",
    pinned: "pinned: click the map or press Esc to unpin", reset: "Reset zoom",
    grid: "All heads (rows: layers, columns: heads)", map: "One head", lines: "Lines",
    lines_too_many: "Zoom the map to at most {max} tokens to draw lines ({n} shown).",
    scale: "colour: 0 \u2026 {max} (this head's largest weight)",
    error: "\u00b1{err} (uint8 per head)", loading: "Decoding\u2026", zoom: "queries {qa}\u2013{qb}, keys {ka}\u2013{kb}",
  }, P.labels || {});
  const fmt = (s, v) => String(s).replace(/\{(\w+)\}/g, (m, k) => (k in v ? String(v[k]) : m));
  const LINES_MAX = 96;
  const TS = Math.max(0.5, Math.min(3, Number(P.text_scale) || 1));   // presenter mode: bigger text
  const px = (n) => Math.round(n * TS) + "px sans-serif";
  const HEAD_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

  // ---- decode ------------------------------------------------------------------------------
  const unb64 = (s) => { const b = atob(s); const u = new Uint8Array(b.length); for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i); return u; };
  async function inflate(bytes) {
    if (P.compression !== "deflate") return bytes;
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }
  const maskBits = P.mask_bytes || unb64(P.mask);     // mask_bytes / cells: a payload packed in this browser (live.js)
  const allowed = (q, k) => { const i = q * NK + k; return (maskBits[i >> 3] >> (7 - (i & 7))) & 1; };
  const lutBytes = unb64(P.lut);
  const LUT = new Uint32Array(257);   // RGBA packed little-endian for ImageData; 256 = masked
  for (let i = 0; i < 256; i++) LUT[i] = (255 << 24) | (lutBytes[3 * i + 2] << 16) | (lutBytes[3 * i + 1] << 8) | lutBytes[3 * i];
  const nan = P.nan_rgb || [200, 200, 200];
  LUT[256] = (255 << 24) | (nan[2] << 16) | (nan[1] << 8) | nan[0];
  const css = (i) => `rgb(${lutBytes[3 * i]},${lutBytes[3 * i + 1]},${lutBytes[3 * i + 2]})`;
  let cells = null;                                   // Uint8Array [L, H, q, k]
  const byteAt = (l, h, q, k) => cells[((l * H + h) * NQ + q) * NK + k];
  const weight = (l, h, q, k) => byteAt(l, h, q, k) / 255 * P.scales[l * H + h];

  // ---- DOM (no innerHTML anywhere) ------------------------------------------------------------
  const el = (tag, cls, parent, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; if (parent) parent.appendChild(e); return e; };
  const box = el("div", "gb-att", null);
  box.style.fontSize = Math.round(16 * TS) + "px";
  box.tabIndex = 0;
  box.setAttribute("role", "application");
  box.setAttribute("aria-label", LBL.hint);
  const top = el("div", "gb-top", box);
  const heading = el("h3", "gb-heading", top);
  const status = el("span", "gb-status", top);
  el("div", "gb-hint", box, LBL.hint);
  // one wrapping row: the grid on a line of its own above the map and the lines, or (a deep model, more
  // layers than heads) beside the map, as tall as it, with the lines below (layout())
  const row = el("div", "gb-row", box);
  const gridCol = el("div", "gb-col", row);
  el("div", "gb-sub", gridCol, LBL.grid);
  const grid = el("canvas", "gb-grid", gridCol);
  const mapCol = el("div", "gb-col", row);
  const mapBar = el("div", "gb-bar", mapCol);
  el("span", "gb-sub", mapBar, LBL.map);
  const resetBtn = el("button", "gb-btn", mapBar, LBL.reset);
  resetBtn.type = "button";
  const zoomInfo = el("span", "gb-zoom", mapBar);
  const map = el("canvas", "gb-map", mapCol);
  const legend = el("div", "gb-legend", mapCol);
  const legendBar = el("canvas", "gb-legend-bar", legend);
  const legendText = el("span", "gb-legend-text", legend);
  const lineCol = el("div", "gb-col", row);
  el("div", "gb-sub", lineCol, LBL.lines);
  const lines = el("canvas", "gb-lines", lineCol);
  const linesNote = el("div", "gb-note", lineCol);
  const tip = el("div", "gb-tip", box);
  tip.style.display = "none";
  root.appendChild(box);

  // ---- state ----------------------------------------------------------------------------------
  const S = {
    layer: 0, head: 0, preview: null,      // preview: [l, h] while a tile is hovered
    extra: [],                             // more heads in the lines view ([l, h], Shift+click)
    lock: null, hover: null,               // [q, k]
    win: { qa: 0, qb: NQ, ka: 0, kb: NK },  // zoom window, end exclusive
    drag: null, draws: 0,
  };
  const shown = () => S.preview || [S.layer, S.head];
  const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
  const sizeCanvas = (c, w, h) => { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); c.style.width = w + "px"; c.style.height = h + "px"; const g = c.getContext("2d"); g.setTransform(dpr, 0, 0, dpr, 0, 0); return g; };
  let G = {};                               // geometry, recomputed by layout()

  function layout() {
    const W = Math.max(480, Math.floor(box.clientWidth || 900));
    const labelW = Math.round(40 * TS), top = Math.round(16 * TS), gap = 3;
    const margin = { left: Math.round(96 * TS), top: Math.round(84 * TS), right: 8, bottom: 8 };
    const mapH = (w) => margin.top + Math.max(120, w - margin.left - margin.right) + margin.bottom;
    const fit = (room, n) => Math.max(12, Math.min(56, Math.floor(room / n) - gap));
    let mapW = Math.min(640, Math.floor(W * 0.58)), tile = 0;
    // a deep model (24 x 14) would stack a grid taller than a screen above the map: beside the map instead,
    // its tiles as small as the map's height needs, and the map a little narrower when the row is short of room
    let beside = L > H;
    if (beside) {
      tile = Math.min(fit(W - labelW, H), fit(mapH(mapW) - top, L));
      mapW = Math.min(mapW, W - (labelW + H * (tile + gap)) - 24);   // the row's gap and the box's padding
      tile = Math.min(tile, fit(mapH(mapW) - top, L));
      beside = mapW >= 320;
    }
    if (!beside) {
      mapW = Math.min(640, Math.floor(W * 0.58));
      // above the map: the width's tiles, at most ~half a screen high (a 12-layer model: ~40 px tiles)
      const gridH = Math.max(Math.round(300 * TS), Math.min(Math.round(520 * TS), Math.round(0.55 * (window.innerHeight || 940))));
      tile = Math.min(fit(W - labelW, H), fit(gridH, L));
    }
    const gridW = labelW + H * (tile + gap);
    gridCol.style.flexBasis = beside ? "auto" : "100%";
    gridCol.style.maxWidth = beside ? gridW + "px" : "";       // its title wraps rather than push the map down
    G.grid = { labelW, top, tile, gap };
    G.gridCtx = sizeCanvas(grid, gridW, top + L * (tile + gap));
    const side = Math.max(120, mapW - margin.left - margin.right);
    G.map = { margin, side, w: mapW, h: margin.top + side + margin.bottom };
    G.mapCtx = sizeCanvas(map, G.map.w, G.map.h);
    G.lines = { w: beside ? Math.max(260, W - 8) : Math.max(260, W - mapW - 24), h: G.map.h };
    G.linesCtx = sizeCanvas(lines, G.lines.w, G.lines.h);
    const lg = sizeCanvas(legendBar, 160, 10);
    for (let i = 0; i < 160; i++) { lg.fillStyle = css(Math.round(i / 159 * 255)); lg.fillRect(i, 0, 1, 10); }
  }

  // ---- grid: one thumbnail per head (max-pooled) -------------------------------------------------
  let thumbs = [];
  function buildThumbs() {
    const T = Math.min(G.grid.tile, Math.max(NQ, NK));
    const tq = Math.min(T, NQ), tk = Math.min(T, NK);
    thumbs = [];
    for (let lh = 0; lh < L * H; lh++) {
      const img = new ImageData(tk, tq), px = new Uint32Array(img.data.buffer), base = lh * CELLS;
      for (let y = 0; y < tq; y++) {
        const q0 = Math.floor(y * NQ / tq), q1 = Math.max(q0 + 1, Math.floor((y + 1) * NQ / tq));
        for (let x = 0; x < tk; x++) {
          const k0 = Math.floor(x * NK / tk), k1 = Math.max(k0 + 1, Math.floor((x + 1) * NK / tk));
          let m = -1;
          for (let q = q0; q < q1; q++) for (let k = k0; k < k1; k++) { if (allowed(q, k)) { const b = cells[base + q * NK + k]; if (b > m) m = b; } }
          px[y * tk + x] = LUT[m < 0 ? 256 : m];
        }
      }
      const c = document.createElement("canvas"); c.width = tk; c.height = tq; c.getContext("2d").putImageData(img, 0, 0);
      thumbs.push(c);
    }
  }
  function tileAt(x, y) {
    const g = G.grid, step = g.tile + g.gap;
    const h = Math.floor((x - g.labelW) / step), l = Math.floor((y - g.top) / step);
    if (h < 0 || h >= H || l < 0 || l >= L) return null;
    if ((x - g.labelW) - h * step > g.tile || (y - g.top) - l * step > g.tile) return null;
    return [l, h];
  }
  function drawGrid() {
    const g = G.grid, c = G.gridCtx, step = g.tile + g.gap;
    c.clearRect(0, 0, grid.width, grid.height);
    c.imageSmoothingEnabled = false;
    c.fillStyle = "#555"; c.font = px(11); c.textBaseline = "middle"; c.textAlign = "center";
    // small tiles (many heads or layers): label every 2nd, 5th, ... column and row so labels never overlap
    const every = (room, need) => [1, 2, 5, 10, 20, 50].find((k) => k * room >= need) || 100;
    const hEvery = every(step, c.measureText("H" + (H - 1)).width + 4), lEvery = every(step, 11 * TS + 2);
    for (let h = 0; h < H; h += hEvery) c.fillText("H" + h, g.labelW + h * step + g.tile / 2, 8);
    c.textAlign = "right";
    for (let l = 0; l < L; l += lEvery) c.fillText("L" + l, g.labelW - 6, g.top + l * step + g.tile / 2);
    const [pl, ph] = shown();
    for (let l = 0; l < L; l++) for (let h = 0; h < H; h++) {
      const x = g.labelW + h * step, y = g.top + l * step;
      c.drawImage(thumbs[l * H + h], x, y, g.tile, g.tile);
      const sel = l === S.layer && h === S.head, prev = l === pl && h === ph && S.preview;
      const extra = S.extra.findIndex(([a, b]) => a === l && b === h);
      if (sel || prev || extra >= 0) {
        c.lineWidth = 2.5;
        c.strokeStyle = sel ? "#d62728" : prev ? "#ff7f0e" : HEAD_COLOURS[(extra + 1) % HEAD_COLOURS.length];
        c.strokeRect(x - 1, y - 1, g.tile + 2, g.tile + 2);
      }
    }
  }

  // ---- one head: heatmap of the zoom window -------------------------------------------------------
  const images = new Map();                 // "l,h" -> canvas NK x NQ (a few recent heads)
  function headImage(l, h) {
    const id = l + "," + h;
    if (images.has(id)) { const c = images.get(id); images.delete(id); images.set(id, c); return c; }
    const img = new ImageData(NK, NQ), px = new Uint32Array(img.data.buffer), base = (l * H + h) * CELLS;
    for (let i = 0; i < CELLS; i++) px[i] = (maskBits[i >> 3] >> (7 - (i & 7))) & 1 ? LUT[cells[base + i]] : LUT[256];
    const c = document.createElement("canvas"); c.width = NK; c.height = NQ; c.getContext("2d").putImageData(img, 0, 0);
    images.set(id, c);
    if (images.size > 6) images.delete(images.keys().next().value);
    return c;
  }
  function cellGeom() {
    const m = G.map.margin, w = S.win, nq = w.qb - w.qa, nk = w.kb - w.ka;
    return { x0: m.left, y0: m.top, cw: G.map.side / nk, ch: G.map.side / nq, nq, nk };
  }
  function cellAt(x, y) {
    const g = cellGeom();
    const k = Math.floor((x - g.x0) / g.cw), q = Math.floor((y - g.y0) / g.ch);
    if (k < 0 || k >= g.nk || q < 0 || q >= g.nq) return null;
    return [q + S.win.qa, k + S.win.ka];
  }
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + "\u2026" : s);
  function drawMap() {
    const c = G.mapCtx, g = cellGeom(), w = S.win, [l, h] = shown();
    c.clearRect(0, 0, G.map.w, G.map.h);
    c.imageSmoothingEnabled = false;
    c.drawImage(headImage(l, h), w.ka, w.qa, g.nk, g.nq, g.x0, g.y0, G.map.side, G.map.side);
    c.fillStyle = "#333";
    const fs = Math.min(12 * TS, Math.floor(Math.min(g.cw, g.ch)));
    if (fs >= 7) {
      c.font = fs + "px sans-serif";
      if (g.ch >= 7) { c.textAlign = "right"; c.textBaseline = "middle";
        for (let q = w.qa; q < w.qb; q++) c.fillText(clip(P.q_tokens[q], 12), g.x0 - 4, g.y0 + (q - w.qa + 0.5) * g.ch); }
      if (g.cw >= 7) { c.save(); c.textAlign = "left"; c.textBaseline = "middle";
        for (let k = w.ka; k < w.kb; k++) { c.save(); c.translate(g.x0 + (k - w.ka + 0.5) * g.cw, g.y0 - 4); c.rotate(-Math.PI / 3); c.fillText(clip(P.k_tokens[k], 12), 0, 0); c.restore(); }
        c.restore(); }
    } else {
      c.font = px(11); c.textAlign = "right"; c.textBaseline = "top";
      c.fillText(`${LBL.query} ${w.qa}\u2013${w.qb - 1}`, g.x0 - 4, g.y0);
      c.textAlign = "left"; c.textBaseline = "bottom";
      c.fillText(`${LBL.key} ${w.ka}\u2013${w.kb - 1}`, g.x0, g.y0 - 4);
    }
    const mark = (cell, colour) => {
      if (!cell || cell[0] < w.qa || cell[0] >= w.qb || cell[1] < w.ka || cell[1] >= w.kb) return;
      c.lineWidth = 2; c.strokeStyle = colour;
      c.strokeRect(g.x0 + (cell[1] - w.ka) * g.cw, g.y0 + (cell[0] - w.qa) * g.ch, Math.max(g.cw, 3), Math.max(g.ch, 3));
    };
    mark(S.lock, "#d62728");
    if (!S.lock) mark(S.hover, "#ffffff");
    if (S.drag && S.drag.brush) {
      const d = S.drag; c.lineWidth = 1; c.strokeStyle = "#d62728"; c.setLineDash([4, 3]);
      c.strokeRect(Math.min(d.x0, d.x1), Math.min(d.y0, d.y1), Math.abs(d.x1 - d.x0), Math.abs(d.y1 - d.y0)); c.setLineDash([]);
    }
    legendText.textContent = fmt(LBL.scale, { max: P.scales[l * H + h].toFixed(4) });
    zoomInfo.textContent = fmt(LBL.zoom, { qa: w.qa, qb: w.qb - 1, ka: w.ka, kb: w.kb - 1 });
  }

  // ---- lines (BertViz-style) -------------------------------------------------------------------------
  function drawLines() {
    const c = G.linesCtx, w = S.win, W = G.lines.w, Hh = G.lines.h;
    c.clearRect(0, 0, W, Hh);
    const nq = w.qb - w.qa, nk = w.kb - w.ka;
    if (Math.max(nq, nk) > LINES_MAX) { linesNote.textContent = fmt(LBL.lines_too_many, { max: LINES_MAX, n: Math.max(nq, nk) }); return; }
    linesNote.textContent = "";
    const heads = [shown(), ...S.extra.filter(([a, b]) => !(a === shown()[0] && b === shown()[1]))];
    const rowQ = (Hh - 16) / nq, rowK = (Hh - 16) / nk, fs = Math.max(8, Math.min(12 * TS, Math.floor(Math.min(rowQ, rowK)) - 1));
    const xl = Math.min(110 * TS, W * 0.32), xr = W - Math.min(110 * TS, W * 0.32);
    const focusQ = S.lock ? S.lock[0] : S.hover ? S.hover[0] : null;
    heads.forEach(([l, h], i) => {
      c.strokeStyle = HEAD_COLOURS[i % HEAD_COLOURS.length];
      for (let q = w.qa; q < w.qb; q++) {
        if (focusQ != null && q !== focusQ) continue;
        for (let k = w.ka; k < w.kb; k++) {
          if (!allowed(q, k)) continue;
          const b = byteAt(l, h, q, k);
          if (b < 6) continue;
          c.globalAlpha = Math.min(1, b / 255 * 0.95); c.lineWidth = 1 + 2 * b / 255;
          c.beginPath(); c.moveTo(xl + 4, 8 + (q - w.qa + 0.5) * rowQ); c.lineTo(xr - 4, 8 + (k - w.ka + 0.5) * rowK); c.stroke();
        }
      }
    });
    c.globalAlpha = 1; c.fillStyle = "#333"; c.font = fs + "px sans-serif"; c.textBaseline = "middle";
    if (fs * 0.9 <= Math.min(rowQ, rowK) + 2) {
      c.textAlign = "right";
      for (let q = w.qa; q < w.qb; q++) { c.font = (q === focusQ ? "bold " : "") + fs + "px sans-serif"; c.fillText(clip(P.q_tokens[q], 14), xl, 8 + (q - w.qa + 0.5) * rowQ); }
      c.textAlign = "left"; c.font = fs + "px sans-serif";
      for (let k = w.ka; k < w.kb; k++) c.fillText(clip(P.k_tokens[k], 14), xr, 8 + (k - w.ka + 0.5) * rowK);
    }
  }

  // ---- heading, tooltip ----------------------------------------------------------------------------
  function drawText() {
    const [l, h] = shown();
    heading.textContent = fmt(LBL.heading, { layer: l, head: h }) + (S.preview ? " " + LBL.preview : "");
    status.textContent = S.lock ? "\ud83d\udccc " + LBL.pinned : "";
    box.dataset.layer = S.layer; box.dataset.head = S.head;
    const cell = S.lock || S.hover;
    if (!cell) { tip.style.display = "none"; return; }
    const [q, k] = cell, lh = l * H + h;
    const lines_ = [`${LBL.query} ${q}: ${clip(P.q_tokens[q], 40)}`, `${LBL.key} ${k}: ${clip(P.k_tokens[k], 40)}`];
    if (allowed(q, k)) {
      const v = weight(l, h, q, k), err = P.max_error[lh];
      lines_.push(`${LBL.weight} ${v.toFixed(4)} ${fmt(LBL.error, { err: err.toPrecision(2) })}`);
      tip.dataset.weight = String(v); tip.dataset.error = String(err);
    } else { lines_.push(LBL.masked); tip.dataset.weight = "NaN"; }
    tip.dataset.q = q; tip.dataset.k = k;
    tip.textContent = lines_.join("\n");
    const g = cellGeom(), mr = map.getBoundingClientRect(), br = box.getBoundingClientRect();
    const x = mr.left - br.left + g.x0 + (k - S.win.ka + 1) * g.cw + 12, y = mr.top - br.top + g.y0 + (q - S.win.qa + 1) * g.ch + 8;
    tip.style.display = "block";
    tip.style.left = Math.min(x, br.width - 240) + "px"; tip.style.top = y + "px";
  }
  function redraw(what) {
    if (!cells) return;
    what = what || "all";
    if (what === "all" || what === "grid") drawGrid();
    drawMap(); drawLines(); drawText();
    S.draws++; box.dataset.draws = S.draws;
  }

  // ---- interaction ------------------------------------------------------------------------------------
  let sendTimer = null;
  function report() {
    if (!callbacks.onSelect) return;
    clearTimeout(sendTimer);   // a burst of key presses sends one selection, after it settles
    sendTimer = setTimeout(() => callbacks.onSelect({ layer: S.layer, head: S.head, query: S.lock ? S.lock[0] : null }), 250);
  }
  function select(l, h, quiet) {
    l = Math.max(0, Math.min(L - 1, l)); h = Math.max(0, Math.min(H - 1, h));
    if (l === S.layer && h === S.head) return;
    S.layer = l; S.head = h; S.preview = null;
    redraw();
    if (!quiet) report();
  }
  const local = (ev, c) => { const r = c.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; };
  function on(t, type, f, opts) { t.addEventListener(type, f, opts); off.push(() => t.removeEventListener(type, f, opts)); }
  const off = [];
  on(grid, "mousemove", (ev) => {
    const t = tileAt(...local(ev, grid));
    const same = (a, b) => (a && b ? a[0] === b[0] && a[1] === b[1] : a === b);
    const want = t && !(t[0] === S.layer && t[1] === S.head) ? t : null;
    if (!same(want, S.preview)) { S.preview = want; redraw(); }
  });
  on(grid, "mouseleave", () => { if (S.preview) { S.preview = null; redraw(); } });
  on(grid, "click", (ev) => {
    const t = tileAt(...local(ev, grid)); if (!t) return;
    box.focus({ preventScroll: true });
    if (ev.shiftKey) {
      const i = S.extra.findIndex(([a, b]) => a === t[0] && b === t[1]);
      if (i >= 0) S.extra.splice(i, 1); else S.extra.push(t);
      redraw(); return;
    }
    S.preview = null; select(t[0], t[1]);
  });
  function zoomAt(q, k, factor) {
    const w = S.win;
    const span = (a, b, n, c) => { const len = Math.max(2, Math.min(n, Math.round((b - a) * factor))); let s = Math.round(c - (c - a) * len / (b - a)); s = Math.max(0, Math.min(n - len, s)); return [s, s + len]; };
    [w.qa, w.qb] = span(w.qa, w.qb, NQ, q); [w.ka, w.kb] = span(w.ka, w.kb, NK, k);
    redraw("map");
  }
  function resetZoom() { S.win = { qa: 0, qb: NQ, ka: 0, kb: NK }; redraw("map"); }
  on(resetBtn, "click", resetZoom);
  on(map, "wheel", (ev) => {
    const cell = cellAt(...local(ev, map)); if (!cell) return;
    ev.preventDefault(); zoomAt(cell[0] + 0.5, cell[1] + 0.5, ev.deltaY > 0 ? 1.25 : 0.8);
  }, { passive: false });
  on(map, "mousedown", (ev) => { const [x, y] = local(ev, map); S.drag = { x0: x, y0: y, x1: x, y1: y, pan: ev.shiftKey, moved: false, win: { ...S.win } }; });
  on(map, "mousemove", (ev) => {
    const [x, y] = local(ev, map);
    if (S.drag) {
      const d = S.drag; d.x1 = x; d.y1 = y;
      if (Math.abs(x - d.x0) + Math.abs(y - d.y0) > 5) d.moved = true;
      if (d.moved && d.pan) {
        const g = cellGeom(), dq = Math.round((d.y0 - y) / g.ch), dk = Math.round((d.x0 - x) / g.cw);
        const nq = d.win.qb - d.win.qa, nk = d.win.kb - d.win.ka;
        const qa = Math.max(0, Math.min(NQ - nq, d.win.qa + dq)), ka = Math.max(0, Math.min(NK - nk, d.win.ka + dk));
        S.win = { qa, qb: qa + nq, ka, kb: ka + nk }; redraw("map"); return;
      }
      if (d.moved) { d.brush = true; drawMap(); return; }
    }
    if (S.lock) return;
    const cell = cellAt(x, y);
    const same = cell && S.hover && cell[0] === S.hover[0] && cell[1] === S.hover[1];
    if (!same) { S.hover = cell; drawMap(); drawLines(); drawText(); }
  });
  on(map, "mouseleave", () => { if (S.drag && !S.drag.moved) S.drag = null; if (!S.lock && S.hover) { S.hover = null; redraw("map"); } });
  on(window, "mouseup", (ev) => {
    const d = S.drag; if (!d) return; S.drag = null;
    if (d.brush && !d.pan) {
      const a = cellAt(Math.min(d.x0, d.x1), Math.min(d.y0, d.y1)) || [S.win.qa, S.win.ka];
      const b = cellAt(Math.max(d.x0, d.x1), Math.max(d.y0, d.y1)) || [S.win.qb - 1, S.win.kb - 1];
      if (b[0] > a[0] && b[1] > a[1]) S.win = { qa: a[0], qb: b[0] + 1, ka: a[1], kb: b[1] + 1 };
      redraw("map"); return;
    }
    if (d.moved || (ev.composedPath ? ev.composedPath()[0] : ev.target) !== map) return;
    box.focus({ preventScroll: true });
    const cell = cellAt(...local(ev, map));
    if (S.lock) { S.lock = null; S.hover = cell; } else if (cell) { S.lock = cell; }
    redraw("map"); report();
  });
  on(map, "dblclick", resetZoom);
  on(box, "keydown", (ev) => {
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[ev.key]) { ev.preventDefault(); const [dl, dh] = moves[ev.key]; select(S.layer + dl, S.head + dh); return; }
    if (ev.key === "Escape" && S.lock) { ev.preventDefault(); S.lock = null; redraw("map"); report(); return; }
    if (ev.key === "0") { resetZoom(); return; }
    if (ev.key === "+" || ev.key === "=" || ev.key === "-") {
      const w = S.win; zoomAt((w.qa + w.qb) / 2, (w.ka + w.kb) / 2, ev.key === "-" ? 1.25 : 0.8);
    }
  });
  let resizeTimer = null, lastW = box.clientWidth;
  const ro = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    if (box.clientWidth === lastW) return;      // only a new width changes the layout
    lastW = box.clientWidth;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { const old = G.grid && G.grid.tile; layout(); if (cells) { if (G.grid.tile !== old) buildThumbs(); redraw(); } }, 100);
  }) : null;

  // ---- start --------------------------------------------------------------------------------------------
  layout();
  heading.textContent = LBL.loading;
  const api = {
    select(l, h) { select(l, h, true); },
    state() { return { layer: S.layer, head: S.head, lock: S.lock, hover: S.hover, win: { ...S.win }, preview: S.preview }; },
    cellCenter(q, k) {     // viewport position of cell (q, k) in the current window (tests)
      const g = cellGeom(), r = map.getBoundingClientRect();
      return { x: r.left + g.x0 + (k - S.win.ka + 0.5) * g.cw, y: r.top + g.y0 + (q - S.win.qa + 0.5) * g.ch };
    },
    tileCenter(l, h) {
      const g = G.grid, r = grid.getBoundingClientRect(), step = g.tile + g.gap;
      return { x: r.left + g.labelW + h * step + g.tile / 2, y: r.top + g.top + l * step + g.tile / 2 };
    },
    zoom(qa, qb, ka, kb) { S.win = { qa, qb, ka, kb }; redraw("map"); },
    weight(l, h, q, k) { return cells && allowed(q, k) ? weight(l, h, q, k) : NaN; },
    payload() { return P; },
    destroy() { clearTimeout(sendTimer); off.forEach((f) => f()); if (ro) ro.disconnect(); box.remove(); },
    ready: null,
  };
  box.__gb = api;
  api.ready = (P.cells ? Promise.resolve(P.cells) : inflate(unb64(P.data))).then((raw) => {
    if (raw.length !== L * H * CELLS) throw new Error(`attention payload holds ${raw.length} bytes, expected ${L * H * CELLS}`);
    cells = raw;
    const s = P.selected || [0, 0];
    S.layer = Math.max(0, Math.min(L - 1, s[0] | 0)); S.head = Math.max(0, Math.min(H - 1, s[1] | 0));
    buildThumbs(); redraw();
    box.dataset.ready = "1";
    if (ro) ro.observe(box);
    return api;
  }).catch((err) => { heading.textContent = String(err && err.message || err); box.dataset.ready = "error"; });
  return api;
}
