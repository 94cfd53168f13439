/* Glassbox model in the browser: the forward pass of models/transformer.py, recomputed on
 * the reader's machine from a bundle made by models/weights/browser.py.
 *
 *   const model = glassboxModel.load(bundle);        // bundle: the JSON object
 *   glassboxModel.loadAsync(bundle).then((model) => ...)   // the same, for deflated weights too
 *   const enc = model.tokenize("The cat sat.");      // {ids, tokens, truncated, n_tokens_before_truncation}
 *   const out = model.run(enc.ids);                   // {tokens, n, attention, hidden, logits}
 *   out.attention[layer][head]                        // Float32Array(n * n), row q, column k
 *   out.hidden                                        // Float32Array(n * d_model), the final stream
 *   out.logits                                        // Float32Array(n * vocab), or null (MiniLM)
 *
 * It reads top to bottom like the Python it mirrors; each section names the file and
 * function. The subset it computes (browser.py refuses every other model): encoder or
 * decoder; learned, sinusoidal, RoPE, ALiBi, T5 relative or no positions; LayerNorm or
 * RMSNorm before (pre) or after (post) each sub-layer; MHA, GQA, MQA; full attention (and
 * causal in a decoder), one sequence of at most max_len tokens without padding; ReLU, GELU
 * (erf and tanh), SiLU, SwiGLU and GeGLU feed-forward networks; logits (tied or not) or the
 * hidden state.
 *
 * Numbers: weights are decoded to float32 and every result is stored as float32
 * (Float32Array). The matrix products sum in float32 lanes (WebAssembly SIMD) or in
 * JavaScript's doubles (the fallback); the rest in doubles. Results differ from PyTorch's
 * float32 by rounding only (tests/e2e/test_browser_model_e2e.py: attention within 1e-4).
 * No network, no libraries, no DOM: token text is returned as data, never as HTML.
 */
(function (root) {
  "use strict";

  // ---- the bundle (models/weights/browser.py: encode_tensor, browser_weights) -------------------
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new Error("glassboxModel reads little-endian weights; this machine is big-endian.");
  }

  function base64Bytes(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  // float16 -> float32 for all 65536 bit patterns, made once (sign, 5-bit exponent, 10-bit fraction)
  let HALF_TABLE = null;
  function halfTable() {
    if (HALF_TABLE) return HALF_TABLE;
    HALF_TABLE = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) {
      const sign = h & 0x8000 ? -1 : 1, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
      HALF_TABLE[h] = exp === 0 ? sign * frac * Math.pow(2, -24)                      // subnormal
        : exp === 31 ? (frac ? NaN : sign * Infinity)
          : sign * (1 + frac / 1024) * Math.pow(2, exp - 15);
    }
    return HALF_TABLE;
  }

  /** One bundle tensor -> {shape, data: Float32Array} (browser.py: decode_tensor). A deflated
   *  tensor arrives here already inflated by loadAsync (entry.bytes). */
  function decodeTensor(entry) {
    if (entry.packing && !entry.bytes) {
      throw new Error("This model's weights are packed (" + entry.packing + "): load it with glassboxModel.loadAsync.");
    }
    const bytes = entry.bytes || base64Bytes(entry.data);
    const size = entry.shape.reduce((a, b) => a * b, 1);
    let data;
    if (entry.dtype === "float32") {
      data = new Float32Array(bytes.buffer, 0, size);
    } else if (entry.dtype === "float16") {
      const half = new Uint16Array(bytes.buffer, 0, size), table = halfTable();
      data = new Float32Array(size);
      for (let i = 0; i < size; i++) data[i] = table[half[i]];
    } else if (entry.dtype === "int8") {             // per row: w = q * scale[row]
      const q = new Int8Array(bytes.buffer, 0, size);
      const scale = new Float32Array(base64Bytes(entry.scale).buffer);
      const width = entry.shape[entry.shape.length - 1];
      data = new Float32Array(size);
      for (let r = 0; r < scale.length; r++) {
        const s = scale[r];
        for (let i = r * width, end = i + width; i < end; i++) data[i] = q[i] * s;
      }
    } else {
      throw new Error("Unknown weight type " + entry.dtype);
    }
    return {shape: entry.shape, data};
  }

  // ---- tokenizers (models/tokenizer.py, and ui/serving/gate.py: encode) -------------------------
  const codePoints = (text) => Array.from(text);            // one entry per Unicode code point, as Python's str

  /** Keep the first max_len ids (gate.encode: tok.encode(text, max_len=cfg.max_len)). */
  function encoding(ids, tokens, nBefore) {
    return {ids, tokens, truncated: nBefore > ids.length, n_tokens_before_truncation: nBefore};
  }

  /** CharTokenizer.encode: one token per character after NFC (and lower-casing if asked). */
  function charTokenizer(spec) {
    const index = new Map(spec.vocab.map((t, i) => [t, i]));
    return function tokenize(text) {
      let s = codePoints(String(text)).slice(0, spec.max_chars).join("").normalize("NFC");
      if (spec.lowercase) s = s.toLowerCase();
      let ids = [], tokens = [];
      for (const ch of codePoints(s)) {
        const id = index.has(ch) ? index.get(ch) : spec.unk_id;
        ids.push(id);
        tokens.push(id === spec.unk_id ? "<unk>" : ch);
      }
      if (spec.add_bos) { ids.unshift(spec.bos_id); tokens.unshift("<bos>"); }
      const n = ids.length;
      return encoding(ids.slice(0, spec.max_len), tokens.slice(0, spec.max_len), n);
    };
  }

  // BERT's normaliser and pre-tokeniser as Hugging Face `tokenizers` runs them (BertNormalizer,
  // BertPreTokenizer; compare transformers' BasicTokenizer). Which characters are controls,
  // spaces, CJK ideographs or punctuation comes from `tokenizers` itself (spec.char_classes,
  // browser.py: bert_character_classes): the browser's Unicode tables are newer than its own.
  const IS_SPACE = /[\t\n\r\p{White_Space}]/u;         // the pre-tokeniser's whitespace (char::is_whitespace)

  /** Whether code point cp lies in one of the sorted [first, last] ranges. */
  function inRanges(ranges, cp) {
    let lo = 0, hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < ranges[mid][0]) hi = mid - 1;
      else if (cp > ranges[mid][1]) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /** BertNormalizer: drop controls, spaces become " ", CJK ideographs get spaces around them;
   *  then strip accents (NFD, drop the marks) and lower-case, one character at a time. */
  function bertNormalize(spec, text) {
    const cls = spec.char_classes;
    let out = "";
    for (const ch of codePoints(text)) {
      const cp = ch.codePointAt(0);
      if (inRanges(cls.removed, cp)) continue;
      out += inRanges(cls.space, cp) ? " " : inRanges(cls.padded, cp) ? " " + ch + " " : ch;
    }
    if (spec.strip_accents) {
      out = codePoints(out.normalize("NFD")).filter((c) => !inRanges(cls.removed, c.codePointAt(0))).join("");
    }
    if (spec.lowercase) out = codePoints(out).map((c) => c.toLowerCase()).join("");   // per character, as Rust's
    return out;
  }

  /** BertPreTokenizer: split on whitespace (dropped) and punctuation (each mark a word of its own). */
  function bertPreTokenize(spec, text) {
    const words = [];
    let word = "";
    for (const ch of codePoints(text)) {
      const space = IS_SPACE.test(ch);
      if (space || inRanges(spec.char_classes.punct, ch.codePointAt(0))) {
        if (word) words.push(word);
        word = "";
        if (!space) words.push(ch);
      } else {
        word += ch;
      }
    }
    if (word) words.push(word);
    return words;
  }

  /** Greedy longest-match-first WordPiece of one word: "unaffable" -> un ##aff ##able. */
  function wordPiece(spec, index, word, ids) {
    const chars = codePoints(word);
    if (chars.length > spec.max_input_chars_per_word) { ids.push(index.get(spec.unk_token)); return; }
    const pieces = [];
    for (let start = 0; start < chars.length;) {
      let end = chars.length, found = -1;
      for (; end > start; end--) {
        const piece = (start > 0 ? spec.prefix : "") + chars.slice(start, end).join("");
        if (index.has(piece)) { found = index.get(piece); break; }
      }
      if (found < 0) { ids.push(index.get(spec.unk_token)); return; }   // one unknown piece: the word is [UNK]
      pieces.push(found);
      start = end;
    }
    ids.push(...pieces);
  }

  /** HFTokenizer.encode for BERT WordPiece: special tokens typed in the text ("[MASK]") are
   *  matched first, the rest normalised, split and cut into pieces; [CLS] ... [SEP] around it. */
  function wordPieceTokenizer(spec) {
    const index = new Map(spec.vocab.map((t, i) => [t, i]));
    const added = spec.added_tokens.slice().sort((a, b) => b.content.length - a.content.length);
    const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const addedRe = added.length ? new RegExp(added.map((t) => escape(t.content)).join("|"), "gu") : null;
    const addedId = new Map(added.map((t) => [t.content, t.id]));
    return function tokenize(text) {
      const s = codePoints(String(text)).slice(0, spec.max_chars).join("");
      const ids = [];
      let last = 0;
      const plain = (part) => {
        for (const word of bertPreTokenize(spec, bertNormalize(spec, part))) wordPiece(spec, index, word, ids);
      };
      if (addedRe) {
        for (const m of s.matchAll(addedRe)) {
          plain(s.slice(last, m.index));
          ids.push(addedId.get(m[0]));
          last = m.index + m[0].length;
        }
      }
      plain(s.slice(last));
      const n = ids.length + 2;
      const kept = [spec.cls_id, ...ids.slice(0, Math.max(0, spec.max_len - 2)), spec.sep_id];
      return encoding(kept, kept.map((i) => spec.vocab[i]), n);
    };
  }

  // ---- the matrix product in WebAssembly SIMD ------------------------------------------------
  /* Where the browser has WebAssembly SIMD (Chrome 91+, Firefox 89+, Safari 16.4+), `linear`
   * runs this kernel on weights copied into its memory (and on activations copied into its
   * scratch: Q·Kᵀ and pattern·V of each head): f32x4 products, 2 tokens x 4 outputs per step.
   * A MiniLM pass of 64 tokens takes ~100 ms with it, ~470 ms with the JavaScript loop below,
   * which stays the fallback (and glassboxModel.load(bundle, {wasm: false}) asks for it).
   * KERNEL_WASM is this text compiled with wabt 1.0.36 (`wat2wasm --enable-simd`, then base64):
   *
   * (module
   *   ;; y[i, o] = sum_k x[i, k] * w[o, k]: two tokens (rows of x) by four outputs (rows of w) at a
   *   ;; time, four k at a time (f32x4). x, w, y are byte offsets into the memory; n even, d and out
   *   ;; multiples of 4 (model.js pads x to an even number of rows and checks the rest).
   *   (import "env" "memory" (memory 1))
   *   (func $hsum (param $v v128) (result f32)
   *     (f32.add (f32.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v)))
   *              (f32.add (f32x4.extract_lane 2 (local.get $v)) (f32x4.extract_lane 3 (local.get $v)))))
   *   (func (export "linear")
   *     (param $x i32) (param $n i32) (param $d i32) (param $w i32) (param $out i32) (param $y i32)
   *     (local $row i32) (local $i i32) (local $o i32) (local $k i32)
   *     (local $x0 i32) (local $x1 i32) (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
   *     (local $y0 i32) (local $y1 i32)
   *     (local $p v128) (local $q v128) (local $v v128)
   *     (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
   *     (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $b3 v128)
   *     (local.set $row (i32.shl (local.get $d) (i32.const 2)))
   *     (block $end_i (loop $next_i
   *       (br_if $end_i (i32.ge_u (local.get $i) (local.get $n)))
   *       (local.set $x0 (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $row))))
   *       (local.set $x1 (i32.add (local.get $x0) (local.get $row)))
   *       (local.set $y0 (i32.add (local.get $y) (i32.shl (i32.mul (local.get $i) (local.get $out)) (i32.const 2))))
   *       (local.set $y1 (i32.add (local.get $y0) (i32.shl (local.get $out) (i32.const 2))))
   *       (local.set $o (i32.const 0))
   *       (block $end_o (loop $next_o
   *         (br_if $end_o (i32.ge_u (local.get $o) (local.get $out)))
   *         (local.set $w0 (i32.add (local.get $w) (i32.mul (local.get $o) (local.get $row))))
   *         (local.set $w1 (i32.add (local.get $w0) (local.get $row)))
   *         (local.set $w2 (i32.add (local.get $w1) (local.get $row)))
   *         (local.set $w3 (i32.add (local.get $w2) (local.get $row)))
   *         (local.set $a0 (v128.const i32x4 0 0 0 0)) (local.set $a1 (v128.const i32x4 0 0 0 0))
   *         (local.set $a2 (v128.const i32x4 0 0 0 0)) (local.set $a3 (v128.const i32x4 0 0 0 0))
   *         (local.set $b0 (v128.const i32x4 0 0 0 0)) (local.set $b1 (v128.const i32x4 0 0 0 0))
   *         (local.set $b2 (v128.const i32x4 0 0 0 0)) (local.set $b3 (v128.const i32x4 0 0 0 0))
   *         (local.set $k (i32.const 0))
   *         (block $end_k (loop $next_k
   *           (br_if $end_k (i32.ge_u (local.get $k) (local.get $row)))
   *           (local.set $p (v128.load (i32.add (local.get $x0) (local.get $k))))
   *           (local.set $q (v128.load (i32.add (local.get $x1) (local.get $k))))
   *           (local.set $v (v128.load (i32.add (local.get $w0) (local.get $k))))
   *           (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $p) (local.get $v))))
   *           (local.set $b0 (f32x4.add (local.get $b0) (f32x4.mul (local.get $q) (local.get $v))))
   *           (local.set $v (v128.load (i32.add (local.get $w1) (local.get $k))))
   *           (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $p) (local.get $v))))
   *           (local.set $b1 (f32x4.add (local.get $b1) (f32x4.mul (local.get $q) (local.get $v))))
   *           (local.set $v (v128.load (i32.add (local.get $w2) (local.get $k))))
   *           (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $p) (local.get $v))))
   *           (local.set $b2 (f32x4.add (local.get $b2) (f32x4.mul (local.get $q) (local.get $v))))
   *           (local.set $v (v128.load (i32.add (local.get $w3) (local.get $k))))
   *           (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $p) (local.get $v))))
   *           (local.set $b3 (f32x4.add (local.get $b3) (f32x4.mul (local.get $q) (local.get $v))))
   *           (local.set $k (i32.add (local.get $k) (i32.const 16)))
   *           (br $next_k)))
   *         (f32.store offset=0 (local.get $y0) (call $hsum (local.get $a0)))
   *         (f32.store offset=4 (local.get $y0) (call $hsum (local.get $a1)))
   *         (f32.store offset=8 (local.get $y0) (call $hsum (local.get $a2)))
   *         (f32.store offset=12 (local.get $y0) (call $hsum (local.get $a3)))
   *         (f32.store offset=0 (local.get $y1) (call $hsum (local.get $b0)))
   *         (f32.store offset=4 (local.get $y1) (call $hsum (local.get $b1)))
   *         (f32.store offset=8 (local.get $y1) (call $hsum (local.get $b2)))
   *         (f32.store offset=12 (local.get $y1) (call $hsum (local.get $b3)))
   *         (local.set $y0 (i32.add (local.get $y0) (i32.const 16)))
   *         (local.set $y1 (i32.add (local.get $y1) (i32.const 16)))
   *         (local.set $o (i32.add (local.get $o) (i32.const 4)))
   *         (br $next_o)))
   *       (local.set $i (i32.add (local.get $i) (i32.const 2)))
   *       (br $next_i)))))
   */
  const KERNEL_WASM =
    "AGFzbQEAAAABDwJgAXsBfWAGf39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwMCAAEHCgEGbGluZWFyAAEK4wQCGQAgAP0fACAA/R8B" +
    "kiAA/R8CIAD9HwOSkgvGBAIMfwt7IAJBAnQhBgJAA0AgByABTw0BIAAgByAGbGohCiAKIAZqIQsgBSAHIARsQQJ0aiEQIBAgBEEC" +
    "dGohEUEAIQgCQANAIAggBE8NASADIAggBmxqIQwgDCAGaiENIA0gBmohDiAOIAZqIQ/9DAAAAAAAAAAAAAAAAAAAAAAhFf0MAAAA" +
    "AAAAAAAAAAAAAAAAACEW/QwAAAAAAAAAAAAAAAAAAAAAIRf9DAAAAAAAAAAAAAAAAAAAAAAhGP0MAAAAAAAAAAAAAAAAAAAAACEZ" +
    "/QwAAAAAAAAAAAAAAAAAAAAAIRr9DAAAAAAAAAAAAAAAAAAAAAAhG/0MAAAAAAAAAAAAAAAAAAAAACEcQQAhCQJAA0AgCSAGTw0B" +
    "IAogCWr9AAQAIRIgCyAJav0ABAAhEyAMIAlq/QAEACEUIBUgEiAU/eYB/eQBIRUgGSATIBT95gH95AEhGSANIAlq/QAEACEUIBYg" +
    "EiAU/eYB/eQBIRYgGiATIBT95gH95AEhGiAOIAlq/QAEACEUIBcgEiAU/eYB/eQBIRcgGyATIBT95gH95AEhGyAPIAlq/QAEACEU" +
    "IBggEiAU/eYB/eQBIRggHCATIBT95gH95AEhHCAJQRBqIQkMAAsLIBAgFRAAOAIAIBAgFhAAOAIEIBAgFxAAOAIIIBAgGBAAOAIM" +
    "IBEgGRAAOAIAIBEgGhAAOAIEIBEgGxAAOAIIIBEgHBAAOAIMIBBBEGohECARQRBqIREgCEEEaiEIDAALCyAHQQJqIQcMAAsLCw==";
  const KERNELS = new WeakMap();                 // wasm memory's ArrayBuffer -> its kernel

  /** Copy the weights into a fresh wasm memory (tensor.data becomes a view of it) with three
   *  scratch regions of `size` floats (x, a copied W, y); null when the browser has no wasm SIMD. */
  function wasmKernel(tensors, size) {
    if (typeof WebAssembly !== "object") return null;
    const code = base64Bytes(KERNEL_WASM);
    if (!WebAssembly.validate(code)) return null;
    const align = (b) => Math.ceil(b / 16) * 16;
    let bytes = 0;
    for (const t of tensors) bytes += align(t.data.byteLength);
    const scratch = align(size * 4);
    const memory = new WebAssembly.Memory({initial: Math.ceil((bytes + 3 * scratch) / 65536)});
    let instance;
    try {             // a page whose Content-Security-Policy lacks 'wasm-unsafe-eval' may not compile it
      instance = new WebAssembly.Instance(new WebAssembly.Module(code), {env: {memory}});
    } catch (e) {
      return null;
    }
    let at = 0;
    for (const t of tensors) {
      const view = new Float32Array(memory.buffer, at, t.data.length);
      view.set(t.data);
      t.data = view;
      at += align(t.data.byteLength);
    }
    const kernel = {memory, linear: instance.exports.linear, size, x: at, w: at + scratch, y: at + 2 * scratch};
    KERNELS.set(memory.buffer, kernel);
    return kernel;
  }

  // ---- linear algebra -------------------------------------------------------------------------
  /** y [n, out] = x [n, inDim] · Wᵀ + b, W [out, inDim] as nn.Linear stores it (or any
   *  matrix: attention multiplies activations too). Through the wasm kernel when there is
   *  one (the model's, or the one W lives in), else the JavaScript loop. */
  function linear(x, n, inDim, W, b, kernel) {
    kernel = kernel || KERNELS.get(W.buffer);
    const y = (kernel && inDim % 4 === 0 && wasmProduct(kernel, x, n, inDim, W)) || jsProduct(x, n, inDim, W);
    const out = W.length / inDim;
    if (b) for (let i = 0; i < n; i++) for (let o = 0; o < out; o++) y[i * out + o] += b[o];
    return y;
  }

  /** x · Wᵀ by the wasm kernel, or null when it does not fit the scratch. x is copied in, its
   *  rows padded to an even count; W is read where it is (a weight) or copied in, its rows
   *  padded to a multiple of 4. */
  function wasmProduct(kernel, x, n, inDim, W) {
    const out = W.length / inDim, rows = n + (n % 2), cols = Math.ceil(out / 4) * 4;
    if (Math.max(rows, cols) * inDim > kernel.size || rows * cols > kernel.size) return null;
    const memory = kernel.memory.buffer;
    const X = new Float32Array(memory, kernel.x, rows * inDim);
    X.set(x.subarray(0, n * inDim));
    X.fill(0, n * inDim);
    let w = W.byteOffset;
    if (W.buffer !== memory || cols !== out) {
      const copy = new Float32Array(memory, kernel.w, cols * inDim);
      copy.set(W);
      copy.fill(0, out * inDim);
      w = kernel.w;
    }
    kernel.linear(kernel.x, rows, inDim, w, cols, kernel.y);
    const Y = new Float32Array(memory, kernel.y, rows * cols), y = new Float32Array(n * out);
    for (let i = 0; i < n; i++) y.set(Y.subarray(i * cols, i * cols + out), i * out);
    return y;
  }

  /** x · Wᵀ in JavaScript, blocked: 4 tokens × 2 outputs share each value read (1.6 GMAC/s
   *  in V8 against 0.6 for the plain triple loop); `dot` does the edges. */
  function jsProduct(x, n, inDim, W) {
    const out = W.length / inDim;
    const y = new Float32Array(n * out);
    const dot = (i, o) => {
      let a = 0;
      for (let k = 0, xi = i * inDim, wo = o * inDim; k < inDim; k++) a += x[xi + k] * W[wo + k];
      return a;
    };
    const i4 = n - (n % 4), o2 = out - (out % 2);
    for (let i = 0; i < i4; i += 4) {
      const x0 = i * inDim, x1 = x0 + inDim, x2 = x1 + inDim, x3 = x2 + inDim;
      for (let o = 0; o < o2; o += 2) {
        const w0 = o * inDim, w1 = w0 + inDim;
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;   // a: output o, c: output o + 1
        for (let k = 0; k < inDim; k++) {
          const w = W[w0 + k], v = W[w1 + k];
          const p0 = x[x0 + k], p1 = x[x1 + k], p2 = x[x2 + k], p3 = x[x3 + k];
          a0 += p0 * w; a1 += p1 * w; a2 += p2 * w; a3 += p3 * w;
          c0 += p0 * v; c1 += p1 * v; c2 += p2 * v; c3 += p3 * v;
        }
        const y0 = i * out + o, y1 = y0 + out, y2 = y1 + out, y3 = y2 + out;
        y[y0] = a0; y[y1] = a1; y[y2] = a2; y[y3] = a3;
        y[y0 + 1] = c0; y[y1 + 1] = c1; y[y2 + 1] = c2; y[y3 + 1] = c3;
      }
      for (let o = o2; o < out; o++) for (let r = i; r < i + 4; r++) y[r * out + o] = dot(r, o);
    }
    for (let i = i4; i < n; i++) for (let o = 0; o < out; o++) y[i * out + o] = dot(i, o);
    return y;
  }

  function add(a, b) {                                       // a + b, a new array
    const y = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) y[i] = a[i] + b[i];
    return y;
  }

  // ---- norms (models/norms.py) ------------------------------------------------------------------
  /** LayerNorm.forward: (x - mean) / sqrt(var + eps) · w + b per position. */
  function layerNorm(x, n, d, p, eps) {
    const y = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let mean = 0;
      for (let j = 0; j < d; j++) mean += x[o + j];
      mean /= d;
      let v = 0;
      for (let j = 0; j < d; j++) { const c = x[o + j] - mean; v += c * c; }
      const rstd = 1 / Math.sqrt(v / d + eps);
      for (let j = 0; j < d; j++) y[o + j] = (x[o + j] - mean) * rstd * p.weight[j] + (p.bias ? p.bias[j] : 0);
    }
    return y;
  }

  /** RMSNorm.forward: x / sqrt(mean(x²) + eps) · w. */
  function rmsNorm(x, n, d, p, eps) {
    const y = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let ms = 0;
      for (let j = 0; j < d; j++) ms += x[o + j] * x[o + j];
      const r = 1 / Math.sqrt(ms / d + eps);
      for (let j = 0; j < d; j++) y[o + j] = p.weight[j] * Math.fround(x[o + j] * r);
    }
    return y;
  }

  // ---- positions (models/positional.py) ---------------------------------------------------------
  /** sinusoidal_at: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(...) ("interleaved");
   *  "halves": all sines, then all cosines. [n, d]. */
  function sinusoidal(n, d, base, layout) {
    const pe = new Float32Array(n * d), half = d / 2;
    for (let pos = 0; pos < n; pos++) {
      for (let i = 0; i < half; i++) {
        const angle = pos / Math.pow(base, (2 * i) / d);
        const s = pos * d + (layout === "halves" ? i : 2 * i), c = layout === "halves" ? s + half : s + 1;
        pe[s] = Math.sin(angle); pe[c] = Math.cos(angle);
      }
    }
    return pe;
  }

  /** rope_cos_sin: angles m·θ_i with θ_i = base^(-2i/dim), in float32 as PyTorch computes them;
   *  cos and sin [n, dim/2] (the two halves of a head share them). */
  function ropeCosSin(n, dim, base) {
    const half = dim / 2, cos = new Float32Array(n * half), sin = new Float32Array(n * half);
    for (let i = 0; i < half; i++) {
      const invFreq = Math.fround(1 / Math.fround(Math.pow(base, Math.fround((2 * i) / dim))));
      for (let m = 0; m < n; m++) {
        const angle = Math.fround(m * invFreq);
        cos[m * half + i] = Math.cos(angle); sin[m * half + i] = Math.sin(angle);
      }
    }
    return {cos, sin, half};
  }

  /** apply_rope on x [n, heads, dh] in place: (x1, x2) -> (x1 cos - x2 sin, x2 cos + x1 sin),
   *  x1 the first half of each head, x2 the second (rotate_half). */
  function applyRope(x, n, heads, dh, rope) {
    const half = rope.half;
    for (let m = 0; m < n; m++) {
      for (let h = 0; h < heads; h++) {
        const o = (m * heads + h) * dh;
        for (let i = 0; i < half; i++) {
          const c = rope.cos[m * half + i], s = rope.sin[m * half + i];
          const x1 = x[o + i], x2 = x[o + i + half];
          x[o + i] = x1 * c - x2 * s;
          x[o + i + half] = x2 * c + x1 * s;
        }
      }
    }
  }

  /** alibi_slopes: 2^(-8/n), 2^(-16/n), ...; for n not a power of two, those of the power
   *  below, then every other slope of twice that. */
  function alibiSlopes(nHeads) {
    const powerOfTwo = (n) => Array.from({length: n}, (_, i) => Math.fround(Math.pow(Math.pow(2, -8 / n), i + 1)));
    if (Number.isInteger(Math.log2(nHeads))) return powerOfTwo(nHeads);
    const p = Math.pow(2, Math.floor(Math.log2(nHeads)));
    return powerOfTwo(p).concat(powerOfTwo(2 * p).filter((_, i) => i % 2 === 0).slice(0, nHeads - p));
  }

  /** The score bias [head][q * n + k]: ALiBi's -slope·|q - k|, or T5's learned bias of the
   *  bucket of k - q (relative_bias; the buckets come from browser.py, made by relative_bucket). */
  function positionBias(cfg, W, n) {
    const H = cfg.n_heads, bias = [];
    if (cfg.positional === "alibi") {
      const slopes = alibiSlopes(H);
      for (let h = 0; h < H; h++) {
        const b = new Float32Array(n * n);
        for (let q = 0; q < n; q++) for (let k = 0; k < n; k++) b[q * n + k] = -slopes[h] * Math.abs(q - k);
        bias.push(b);
      }
      return bias;
    }
    if (cfg.positional === "relative") {
      const table = W["rel_bias.weight"].data, buckets = cfg.relative_bucket_by_offset, zero = cfg.max_len - 1;
      for (let h = 0; h < H; h++) {
        const b = new Float32Array(n * n);
        for (let q = 0; q < n; q++) for (let k = 0; k < n; k++) b[q * n + k] = table[buckets[zero + k - q] * H + h];
        bias.push(b);
      }
      return bias;
    }
    return null;
  }

  // ---- attention (models/attention.py: Attention.forward, scaled_dot_product_attention) ----------
  /** One head's rows of x [n, heads, dh] as a matrix [n, dh]. */
  function headRows(x, n, heads, h, dh) {
    const out = new Float32Array(n * dh);
    for (let i = 0; i < n; i++) out.set(x.subarray((i * heads + h) * dh, (i * heads + h + 1) * dh), i * dh);
    return out;
  }

  /** Multi-head self-attention of one layer. x [n, d] (already normalised when pre-norm).
   *  Query head h reads key/value head floor(h / group). Returns the output [n, d] and the
   *  pattern of every head, softmax(q·k·scale + bias) over the keys a query may see
   *  (all of them in an encoder, k <= q in a decoder; hidden ones are exactly 0). */
  function attention(cfg, W, p, x, n, ctx) {
    const H = cfg.n_heads, KV = cfg.n_kv_heads, dh = cfg.d_head, d = cfg.d_model, group = H / KV;
    const q = linear(x, n, d, W[p + "W_Q.weight"].data, W[p + "W_Q.bias"] && W[p + "W_Q.bias"].data);
    const k = linear(x, n, d, W[p + "W_K.weight"].data, W[p + "W_K.bias"] && W[p + "W_K.bias"].data);
    const v = linear(x, n, d, W[p + "W_V.weight"].data, W[p + "W_V.bias"] && W[p + "W_V.bias"].data);
    if (ctx.rope) { applyRope(q, n, H, dh, ctx.rope); applyRope(k, n, KV, dh, ctx.rope); }
    const z = new Float32Array(n * H * dh), patterns = [], nk = Math.ceil(n / 4) * 4;
    for (let h = 0; h < H; h++) {
      const kvh = Math.floor(h / group), bias = ctx.bias && ctx.bias[h];
      const scores = linear(headRows(q, n, H, h, dh), n, dh, headRows(k, n, KV, kvh, dh), null, ctx.kernel);  // [q, k]
      const pattern = new Float32Array(n * n), padded = new Float32Array(n * nk), row = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const last = ctx.causal ? i : n - 1;                   // the keys query i may see: 0..last
        let max = -Infinity;
        for (let j = 0; j <= last; j++) {
          let s = Math.fround(scores[i * n + j] * cfg.attn_scale);
          if (bias) s += bias[i * n + j];
          row[j] = s;
          if (s > max) max = s;
        }
        let sum = 0;
        for (let j = 0; j <= last; j++) { row[j] = Math.exp(row[j] - max); sum += row[j]; }
        for (let j = 0; j <= last; j++) pattern[i * n + j] = padded[i * nk + j] = row[j] / sum;
      }
      // z = pattern · V of this head, as a product with Vᵀ [dh, keys] (keys padded to a multiple of 4)
      const vt = new Float32Array(dh * nk);
      for (let j = 0; j < n; j++) for (let e = 0; e < dh; e++) vt[e * nk + j] = v[(j * KV + kvh) * dh + e];
      const zh = linear(padded, n, nk, vt, null, ctx.kernel);   // [q, dh]
      for (let i = 0; i < n; i++) z.set(zh.subarray(i * dh, (i + 1) * dh), (i * H + h) * dh);
      patterns.push(pattern);
    }
    const out = linear(z, n, H * dh, W[p + "W_O.weight"].data, W[p + "W_O.bias"] && W[p + "W_O.bias"].data);
    return {out, patterns};
  }

  // ---- feed-forward (models/feedforward.py: MLP.forward, ACTIVATION_FNS) -------------------------
  // erf by Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7, about float32's own rounding)
  function erf(x) {
    const t = 1 / (1 + 0.3275911 * Math.abs(x));
    const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
      * Math.exp(-x * x);
    return x >= 0 ? y : -y;
  }
  const gelu = (x) => 0.5 * x * (1 + erf(x / Math.SQRT2));                                       // exact (BERT)
  const geluTanh = (x) => 0.5 * x * (1 + Math.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));  // GPT-2
  const silu = (x) => x / (1 + Math.exp(-x));
  const ACTIVATIONS = {
    relu: (x) => (x > 0 ? x : 0), gelu, gelu_tanh: geluTanh, silu,
    swiglu: silu, geglu: geluTanh, geglu_exact: gelu,          // the gates of the gated networks
  };
  const GATED = new Set(["swiglu", "geglu", "geglu_exact"]);

  /** W_out · act(W_in x), or gated: W_out · (act(W_gate x) ⊙ W_in x). x [n, d] -> [n, d]. */
  function mlp(cfg, W, p, x, n) {
    const d = cfg.d_model, act = ACTIVATIONS[cfg.activation];
    const bias = (name) => W[p + name + ".bias"] && W[p + name + ".bias"].data;
    const h = linear(x, n, d, W[p + "W_in.weight"].data, bias("W_in"));
    if (GATED.has(cfg.activation)) {
      const gate = linear(x, n, d, W[p + "W_gate.weight"].data, bias("W_gate"));
      for (let i = 0; i < h.length; i++) h[i] = act(gate[i]) * h[i];
    } else {
      for (let i = 0; i < h.length; i++) h[i] = act(h[i]);
    }
    return linear(h, n, cfg.d_ff, W[p + "W_out.weight"].data, bias("W_out"));
  }

  // ---- the model (models/transformer.py) ---------------------------------------------------------
  /** make_norm: the config's norm, with the weights of the module `name` (ln1, ln_final, ...). */
  function norm(cfg, W, name, x, n) {
    const p = {weight: W[name + ".weight"].data, bias: W[name + ".bias"] ? W[name + ".bias"].data : null};
    return (cfg.norm === "rmsnorm" ? rmsNorm : layerNorm)(x, n, cfg.d_model, p, cfg.norm_eps);
  }

  /** Block._sublayer: pre-norm x + f(ln(x)); post-norm ln(x + f(x)). */
  function sublayer(cfg, W, ln, x, n, f) {
    if (cfg.norm_position === "post") return norm(cfg, W, ln, add(x, f(x)), n);
    return add(x, f(norm(cfg, W, ln, x, n)));
  }

  /** _run_stack + forward for one sequence: embeddings, positions, the blocks, the final
   *  norm, and the unembedding when the model has one. */
  function forward(cfg, W, kernel, ids, wantLogits) {
    const n = ids.length, d = cfg.d_model;
    if (n === 0) throw new Error("The input is empty: give at least one token.");
    if (n > cfg.max_len) {                                     // tokenize() keeps max_len, as the app does
      throw new Error("The browser pass reads at most " + cfg.max_len + " tokens (got " + n + ").");
    }
    // embeddings: token rows (× √d_model when embed_scale), + segment 0 (BERT), + additive PE
    const E = W["embed.weight"].data, scale = cfg.embed_scale ? Math.sqrt(d) : 1;
    let x = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      if (!(Number.isInteger(id) && id >= 0 && id < cfg.vocab_size)) {
        throw new Error("Token id " + id + " is outside the vocabulary.");
      }
      for (let j = 0; j < d; j++) x[i * d + j] = E[id * d + j] * scale;
    }
    if (cfg.n_token_types) {
      const T = W["type_embed.weight"].data;                // every token is in segment 0
      for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) x[i * d + j] += T[j];
    }
    const pe = cfg.positional === "learned" ? W["pos_embed.weight"].data
      : cfg.positional === "sinusoidal" ? sinusoidal(n, d, cfg.sinusoidal_base, cfg.sinusoidal_layout) : null;
    if (pe) for (let i = 0; i < n * d; i++) x[i] += pe[i];
    if (cfg.embed_norm) x = norm(cfg, W, "ln_embed", x, n);
    // positions that act inside attention, and the mask: causal in a decoder, full in an encoder
    const ctx = {
      causal: cfg.arch === "decoder",
      rope: cfg.positional === "rope" ? ropeCosSin(n, cfg.d_head, cfg.rope_base) : null,
      bias: positionBias(cfg, W, n),
      kernel,                                                   // for the products of activations
    };
    const patterns = [];                                        // [layer][head] -> Float32Array(n * n)
    for (let layer = 0; layer < cfg.n_layers; layer++) {        // Block.forward
      const p = "blocks." + layer + ".";
      x = sublayer(cfg, W, p + "ln1", x, n, (h) => {
        const a = attention(cfg, W, p + "attn.", h, n, ctx);
        patterns.push(a.patterns);
        return a.out;
      });
      x = sublayer(cfg, W, p + "ln2", x, n, (h) => mlp(cfg, W, p + "mlp.", h, n));
    }
    if (cfg.norm_position !== "post") x = norm(cfg, W, "ln_final", x, n);   // cfg.final_norm
    let logits = null;
    if (cfg.output === "logits" && wantLogits !== false) {
      const U = cfg.tie_embeddings ? E : W["unembed.weight"].data;
      logits = linear(x, n, d, U, null);                         // [n, vocab]
    }
    return {attention: patterns, hidden: x, logits};
  }

  // ---- the public object -------------------------------------------------------------------------
  /** A model from its bundle: {config, tokenize(text), run(ids), kernel}. options.wasm = false:
   *  the JavaScript matrix loop even where WebAssembly SIMD exists. */
  function load(bundle, options) {
    if (!bundle || bundle.format !== "glassbox-browser-model" || bundle.version !== 1) {
      throw new Error("Not a Glassbox browser model (format glassbox-browser-model, version 1).");
    }
    const cfg = bundle.config, spec = bundle.tokenizer;
    const W = {};
    for (const name of Object.keys(bundle.weights)) W[name] = decodeTensor(bundle.weights[name]);
    // scratch for the largest product: max_len tokens (+ padding) by the widest matrix or by max_len keys
    const rows = cfg.max_len + 4;
    const widest = Math.max(cfg.d_model, cfg.d_ff, cfg.n_heads * cfg.d_head,
      cfg.output === "logits" ? cfg.vocab_size : 0);
    const kernel = options && options.wasm === false ? null
      : wasmKernel(Object.values(W), rows * Math.max(widest, rows));
    const tokenize = spec.kind === "char" ? charTokenizer(spec)
      : spec.kind === "wordpiece" ? wordPieceTokenizer(spec) : null;
    if (!tokenize) throw new Error("Unknown tokenizer kind " + spec.kind);
    const tokenText = spec.kind === "char" ? (i) => (i === spec.unk_id ? "<unk>" : spec.vocab[i])
      : (i) => spec.vocab[i];
    return {
      config: cfg,
      kernel: kernel ? "wasm-simd" : "javascript",
      tokenize,
      /** The pass over token ids: {tokens, attention[layer][head]: Float32Array(n*n), hidden, logits}.
       *  options.logits = false skips the unembedding (logits null): what the attention view needs. */
      run(ids, options) {
        const out = forward(cfg, W, kernel, Array.from(ids), !(options && options.logits === false));
        return {tokens: Array.from(ids, tokenText), n: ids.length, ...out};
      },
    };
  }

  /** The browser's own zlib (DecompressionStream, no network): a deflated tensor's bytes. */
  async function inflate(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  /** load(), for a bundle whose tensors may travel deflated ("packing": "deflate": the int8
   *  export, models/weights/browser.py): inflates them first. A Promise of the model. */
  async function loadAsync(bundle, options) {
    const weights = {};
    await Promise.all(Object.keys((bundle && bundle.weights) || {}).map(async (name) => {
      const entry = bundle.weights[name];
      if (!entry.packing) { weights[name] = entry; return; }
      if (entry.packing !== "deflate") throw new Error("Unknown weight packing " + entry.packing);
      weights[name] = Object.assign({}, entry, { bytes: await inflate(base64Bytes(entry.data)) });
    }));
    return load(bundle && bundle.weights ? Object.assign({}, bundle, { weights }) : bundle, options);
  }

  root.glassboxModel = {load, loadAsync};
})(typeof globalThis !== "undefined" ? globalThis : this);
