/* Glassbox live attention: a text box whose every change is run through the model in the
 * reader's browser (viz_core/web/model.js) and drawn by the attention viewer
 * (viz_core/web/attention.js). One script for the app's instant view (ui/widgets/attention_canvas.py)
 * and the live standalone HTML export (viz_core/attention_html.py).
 *
 *   const live = glassboxLive(root, model, base, {text, labels, serverPayload, selected, onSelect, onUse});
 *   live.setText(text)   live.setModel(model)   live.viewer()   live.state()   live.destroy()
 *
 * model: glassboxModel.load(bundle), or null while it is still arriving (the box waits, the
 * server's drawing shows). base: a glassbox-attention/1 payload (the palette, the
 * viewer's words, and the server's drawing of `text` when there is one: it is shown until the
 * reader types). Keystrokes are coalesced: at most one pass runs at a time and the newest
 * text is the next one run, so a fast typist never queues stale passes.
 * No network, no innerHTML: token text reaches the page through textContent and canvas only.
 */
function glassboxLivePack(model, text, base) {
  "use strict";
  const t0 = performance.now();
  const enc = model.tokenize(text);
  const out = model.run(enc.ids, { logits: false });     // the view draws attention only
  const t1 = performance.now();
  const L = out.attention.length, H = out.attention[0].length, n = out.n, cells = n * n;
  const causal = model.config.arch === "decoder";
  const bytes = new Uint8Array(L * H * cells), scales = new Array(L * H), maxError = new Array(L * H);
  // viz_core/attention_pack.py pack_attention: one scale per head (its largest allowed weight),
  // byte = round(weight / scale * 255); masked cells hold 0
  for (let l = 0; l < L; l++) {
    for (let h = 0; h < H; h++) {
      const a = out.attention[l][h], at = (l * H + h) * cells;
      let top = 0;
      for (let q = 0; q < n; q++) for (let k = causal ? q : n - 1; k >= 0; k--) if (a[q * n + k] > top) top = a[q * n + k];
      const s = top > 0 ? top : 1;
      for (let q = 0; q < n; q++) {
        const last = causal ? q : n - 1;
        for (let k = 0; k <= last; k++) bytes[at + q * n + k] = Math.min(255, Math.max(0, Math.round(a[q * n + k] / s * 255)));
      }
      scales[l * H + h] = top;
      maxError[l * H + h] = top / 510;
    }
  }
  const mask = new Uint8Array(Math.ceil(cells / 8));           // numpy packbits: big-endian bits
  for (let q = 0; q < n; q++) {
    for (let k = 0; k < n; k++) {
      if (causal && k > q) continue;
      const i = q * n + k;
      mask[i >> 3] |= 0x80 >> (i & 7);
    }
  }
  const labels = out.tokens.map(glassboxLive.visibleLabel);
  const payload = Object.assign({}, base, {
    id: "live:" + text, n_layers: L, n_heads: H, n_q: n, n_k: n, q_tokens: labels, k_tokens: labels,
    compression: "none", data: "", cells: bytes, mask: "", mask_bytes: mask, scales, max_error: maxError,
  });
  return {payload, enc, ms: t1 - t0};
}

function glassboxLive(root, model, base, options) {
  "use strict";
  options = options || {};
  const LBL = Object.assign({
    box: "Your text (recomputed in this browser as you type)",
    status: "{n} tokens · computed in this browser in {ms} ms",
    server: "{n} tokens · drawn by the server",
    truncated: "The browser read the first {kept} of {n} tokens.",
    empty: "Type some text to see its attention.",
    use: "Use this text on every page",
    waiting: "Loading the model into this browser…",
  }, options.labels || {});
  const fmt = (s, v) => String(s).replace(/\{(\w+)\}/g, (m, k) => (k in v ? String(v[k]) : m));
  const el = (tag, cls, parent, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; if (parent) parent.appendChild(e); return e; };

  const wrap = el("div", "gb-live", root);
  const label = el("label", "gb-live-label", wrap, LBL.box);
  const box = el("textarea", "gb-live-text", label);
  box.rows = 2;
  box.spellcheck = false;
  box.value = options.text || "";
  box.disabled = !model;
  if (!model) box.placeholder = LBL.waiting;
  const bar = el("div", "gb-live-bar", wrap);
  const status = el("span", "gb-live-status", bar);
  const useBtn = options.onUse ? el("button", "gb-btn gb-live-use", bar, LBL.use) : null;
  if (useBtn) { useBtn.type = "button"; useBtn.disabled = true; }
  const host = el("div", "gb-live-viewer", wrap);

  const S = { viewer: null, shown: null, pending: null, busy: false, runs: 0, last: null, since: 0 };
  const selected = () => {
    if (!S.viewer) return options.selected || [0, 0];
    const s = S.viewer.state();
    return [s.layer, s.head];
  };

  // a new viewer is built before the old one goes, so the page never shrinks in between
  function show(payload, note) {
    const old = S.viewer;
    const p = Object.assign({}, payload, { selected: selected() });
    S.viewer = glassboxAttention(host, p, { onSelect: options.onSelect });
    if (old) old.destroy();
    status.textContent = note;
    return S.viewer.ready;
  }

  function compute() {
    const text = S.pending, t0 = S.since;
    S.pending = null;
    if (!text.trim()) {
      status.textContent = LBL.empty;
      S.shown = text; done(); return;
    }
    let packed;
    try {
      packed = glassboxLivePack(model, text, base);
    } catch (err) {                                    // a sentence, never a stack trace
      status.textContent = String(err && err.message || err);
      done(); return;
    }
    const e = packed.enc;
    let note = fmt(LBL.status, { n: e.ids.length, ms: packed.ms.toFixed(0) });
    if (e.truncated) note += " " + fmt(LBL.truncated, { kept: e.ids.length, n: e.n_tokens_before_truncation });
    show(packed.payload, note).then(() => {
      S.runs += 1;
      S.shown = text;
      S.last = { text, n: e.ids.length, pass_ms: packed.ms, total_ms: performance.now() - t0 };
      wrap.dataset.runs = String(S.runs);
      done();
    }, done);
  }

  function done() {
    if (useBtn) useBtn.disabled = S.shown == null || S.shown === (options.text || "") || !S.shown.trim();
    if (S.pending !== null) setTimeout(compute, 0);
    else S.busy = false;
  }

  function schedule(text, since) {
    S.pending = text;
    if (!S.busy) { S.busy = true; S.since = since; setTimeout(compute, 0); }
  }

  const onInput = () => { if (model) schedule(box.value, performance.now()); };
  box.addEventListener("input", onInput);
  if (useBtn) useBtn.addEventListener("click", () => { if (S.shown && S.shown.trim()) options.onUse(S.shown); });

  // the first drawing: the server's, when it drew this text; else the browser's
  if (options.serverPayload) {
    show(options.serverPayload, model ? fmt(LBL.server, { n: options.serverPayload.n_q }) : LBL.waiting);
    S.shown = box.value;
    wrap.dataset.runs = "0";
  } else if (model) {
    schedule(box.value, performance.now());
  }
  wrap.dataset.model = model ? "ready" : "waiting";

  const api = {
    setText(text) { box.value = text; if (model) schedule(text, performance.now()); },
    setModel(m, failure) {
      if (!m) { status.textContent = String(failure || LBL.waiting); wrap.dataset.model = "failed"; return; }
      model = m;
      box.disabled = false; box.placeholder = "";
      wrap.dataset.model = "ready";
      if (box.value !== S.shown || !options.serverPayload) schedule(box.value, performance.now());
      else status.textContent = fmt(LBL.server, { n: options.serverPayload.n_q });
    },
    viewer() { return S.viewer; },
    state() { return { text: box.value, shown: S.shown, runs: S.runs, busy: S.busy, last: S.last }; },
    setOptions(more) { Object.assign(options, more); },
    destroy() { box.removeEventListener("input", onInput); if (S.viewer) S.viewer.destroy(); wrap.remove(); },
  };
  wrap.__gbLive = api;
  return api;
}

/* viz_core/labels.py visible_label: blank and invisible characters made visible, at most 24
 * characters (the last one "…"). */
glassboxLive.visibleLabel = function (token) {
  "use strict";
  const SYMBOLS = { "\n": "\u23ce", "\r": "\u240d", "\t": "\u21e5" };
  const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Cn}]$/u;
  const code = (c) => "\u27e8U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0") + "\u27e9";
  const chars = Array.from(String(token));
  let text;
  if (chars.length === 0) text = "\u2205";
  else if (chars.every((c) => /^\s$/u.test(c) && c !== "\ufeff") || chars.every((c) => /^\p{Mn}$/u.test(c))) {
    text = chars.map((c) => (c === " " ? "\u2423" : SYMBOLS[c] || code(c))).join("");
  } else {
    text = chars.map((c) => SYMBOLS[c] || (INVISIBLE.test(c) ? code(c) : c)).join("");
  }
  const cut = Array.from(text);
  return cut.length > 24 ? cut.slice(0, 23).join("") + "\u2026" : text;
};

/* The models loaded in this page, by id. In the app the browser-model component fills an
 * entry (ui/widgets/attention_canvas.py) and the viewer waits on it: two components, one document. */
glassboxLive.modelEntry = function (id) {
  "use strict";
  const reg = globalThis.__gbModels || (globalThis.__gbModels = {});
  if (!reg[id]) {
    const e = { model: null, error: null, waiters: [], started: false };
    e.settle = (model, error) => { e.model = model; e.error = error; e.waiters.splice(0).forEach((f) => f(e)); };
    e.wait = (f) => { if (e.model || e.error) f(e); else e.waiters.push(f); };
    reg[id] = e;
  }
  return reg[id];
};
