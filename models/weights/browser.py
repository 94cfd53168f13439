"""A model's browser form: everything `viz_core/web/model.js` needs to recompute the
forward pass on the reader's own machine, as one JSON-able dict (the "bundle").

    bundle = browser_model(model, tokenizer, weights="int8")
    bundle_bytes(bundle)            # what the reader downloads, before they do

The bundle holds
- "config": the fields of `TransformerConfig` the script reads (the browser subset, see
  `unsupported_feature`), with the attention scale already resolved;
- "tokenizer": a character vocabulary (CharTokenizer) or a WordPiece vocabulary with the
  BERT normalisation rules and the character classes `tokenizers` uses (MiniLM), plus the
  app's text limits (ui/serving/gate.encode);
- "weights": every parameter of the state dict (a tied unembedding once), each tensor
  {"dtype", "shape", "data"} with data = base64 of little-endian bytes:
    float32  exact;
    float16  |error| <= |w| * 2^-11 (round to nearest; any |w| > 65504 is refused);
    int8     matrices per row, w ~ q * scale with q in -127..127 and scale = max|row| / 127
             (one float32 per row, base64 in "scale"): |error| <= scale / 2 (+ float32
             rounding of q * scale);
             vectors (biases, norm gains) travel as float16: they are tiny and sensitive.
  With `deflate=True` (the int8 export) a tensor whose bytes shrink under zlib's deflate
  travels compressed, marked "packing": "deflate": MiniLM's int8 values carry ~7.3 bits of
  entropy per byte, so its weights drop from 22.6 to 20.6 MB (30.3 to 27.5 MB of base64).
  model.js inflates them with the browser's own DecompressionStream (`loadAsync`).

No streamlit here: the app, the HTML export and notebooks call the same functions.
"""
from __future__ import annotations

import base64
import functools
import json
import math
import zlib
from typing import Any

import numpy as np
import torch

from .. import limits, positional
from ..tokenizer import CharTokenizer, HFTokenizer, Tokenizer
from ..transformer import Transformer

FORMAT, VERSION = "glassbox-browser-model", 1
WEIGHT_FORMATS = ("float32", "float16", "int8")
FLOAT16_MAX = 65504.0
FLOAT16_RELATIVE_ERROR = math.ldexp(1.0, -11)   # half a float16 ulp, relative to |w| (normal numbers)
FLOAT16_ABSOLUTE_ERROR = math.ldexp(1.0, -25)   # half the smallest float16 subnormal (|w| < 2^-14)

# Fields the browser pass does not compute, with the value that makes them do nothing.
# A model whose config differs in one of them gets a ValueError that names the field.
INERT_FIELDS: dict[str, Any] = {
    "d_embed": None, "pos_offset": 0, "embed_multiplier": 1.0, "residual_multiplier": 1.0,
    "embed_scale_rounded": False, "parallel_residual": False, "shared_block_norm": False,
    "first_attn_norm": True, "norm_plus_one": False, "qk_norm": "none", "rope_scaling": "none",
    "rope_dim": None, "rope_local_base": None, "local_layers": (), "nope_layers": (),
    "attn_softcap": None, "attn_temperature": 1.0, "alibi_slope_scale": 1.0,
    "unembed_scale": False, "logit_bias": False, "unembed_bias": False, "logit_divisor": 1.0,
    "logit_softcap": None,
}
# The choices the browser pass computes, per config field.
SUPPORTED_CHOICES: dict[str, tuple[str, ...]] = {
    "arch": ("encoder", "decoder"),
    "norm": ("layernorm", "rmsnorm"),
    "norm_position": ("pre", "post"),
}
# Fields copied into the bundle's config as they are.
CONFIG_FIELDS = ("arch", "vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_len", "positional",
                 "norm", "norm_position", "norm_eps", "activation", "embed_norm", "embed_scale", "n_token_types",
                 "rope_base", "relative_buckets", "relative_max_distance", "sinusoidal_base", "sinusoidal_layout",
                 "output", "tie_embeddings")


# ---- what the browser pass computes ---------------------------------------------------------
def unsupported_feature(model: Transformer) -> str | None:
    """A sentence naming the first feature of this model the browser pass does not
    compute, or None when it computes them all."""
    cfg = model.cfg
    for name, allowed in SUPPORTED_CHOICES.items():
        if getattr(cfg, name) not in allowed:
            return f"{name} {getattr(cfg, name)!r} (the browser pass computes {', '.join(allowed)})"
    if cfg.attention.kind != "full":
        return f"the {cfg.attention.kind!r} attention pattern (the browser pass computes full and causal attention)"
    for name, inert in INERT_FIELDS.items():
        if getattr(cfg, name) != inert:
            return f"{name} = {getattr(cfg, name)!r}"
    return None


def check_supported(model: Transformer) -> None:
    """Raise ValueError when the browser pass cannot compute this model."""
    feature = unsupported_feature(model)
    if feature is not None:
        raise ValueError(f"This model has no browser form: the browser forward pass does not compute {feature}.")


# ---- config ------------------------------------------------------------------------------------
def browser_config(model: Transformer) -> dict[str, Any]:
    """The config subset model.js reads. attn_scale: what q·k is multiplied by
    (models/attention.py: cfg.attn_scale, else 1/√d_head, or 1 when scale_attention is off)."""
    cfg = model.cfg
    out = {name: getattr(cfg, name) for name in CONFIG_FIELDS}
    out["d_head"], out["n_kv_heads"] = cfg.head_dim, cfg.kv_heads
    out["attn_scale"] = cfg.attn_scale if cfg.attn_scale is not None else \
        cfg.head_dim ** -0.5 if cfg.scale_attention else 1.0
    if cfg.positional == "relative":
        out["relative_bucket_by_offset"] = relative_buckets_by_offset(model)
    return out


def relative_buckets_by_offset(model: Transformer) -> list[int]:
    """T5's bucket of every key - query offset from -(max_len - 1) to max_len - 1, computed
    by models/positional.relative_bucket itself: the browser reads this table instead of
    repeating the float32 logarithms in doubles, which could round the other way at a
    bucket's edge (for the shipped settings they agree, checked once)."""
    cfg = model.cfg
    offsets = torch.arange(-(cfg.max_len - 1), cfg.max_len)
    return positional.relative_bucket(offsets, bidirectional=cfg.arch != "decoder", num_buckets=cfg.relative_buckets,
                                      max_distance=cfg.relative_max_distance).tolist()


# ---- tokenizer ---------------------------------------------------------------------------------
def browser_tokenizer(tokenizer: Tokenizer, max_len: int) -> dict[str, Any]:
    """The tokenizer as data, with the limits the app applies before it
    (ui/serving/gate.encode: the first text_chars characters, then at most max_len tokens)."""
    limit = {"max_len": max_len, "max_chars": int(limits.value("text_chars"))}
    if isinstance(tokenizer, CharTokenizer):
        return {"kind": "char", "vocab": list(tokenizer.vocab), "lowercase": tokenizer.lowercase,
                "add_bos": tokenizer.add_bos, "unk_id": tokenizer.unk_id, "bos_id": tokenizer.bos_id, **limit}
    if isinstance(tokenizer, HFTokenizer):
        return {**wordpiece_tokenizer(json.loads(tokenizer.tok.to_str())), **limit}
    raise ValueError(f"The browser tokenizers are characters and WordPiece; this model's is {tokenizer.kind!r}.")


def wordpiece_tokenizer(doc: dict[str, Any]) -> dict[str, Any]:
    """A BERT WordPiece tokenizer.json as the data model.js reads: the vocabulary by id,
    the accent and case switches, the character classes (bert_character_classes: they carry
    the cleaning and CJK switches), the special tokens matched in the raw text, and the
    [CLS] … [SEP] template. Anything else (BPE, other normalisers) raises ValueError."""
    model, norm, pre, post = (doc.get(k) or {} for k in ("model", "normalizer", "pre_tokenizer", "post_processor"))
    parts = {"model": (model.get("type"), "WordPiece"), "normalizer": (norm.get("type"), "BertNormalizer"),
             "pre-tokenizer": (pre.get("type"), "BertPreTokenizer")}
    for what, (found, wanted) in parts.items():
        if found != wanted:
            raise ValueError(f"The browser tokenizer needs a {wanted} {what}; this tokenizer has {found!r}.")
    single = post.get("single", [])
    template = [next(iter(step)) for step in single]
    if post.get("type") != "TemplateProcessing" or template != ["SpecialToken", "Sequence", "SpecialToken"]:
        raise ValueError("The browser tokenizer needs the [CLS] text [SEP] template of BERT.")
    specials = post["special_tokens"]
    cls_id, sep_id = (specials[step["SpecialToken"]["id"]]["ids"][0] for step in (single[0], single[2]))
    added = doc.get("added_tokens", [])
    if any(t["normalized"] or t["lstrip"] or t["rstrip"] or t["single_word"] for t in added):
        raise ValueError("The browser tokenizer matches added tokens exactly as written (not normalised, no "
                         "stripping, not single-word only).")
    vocab = model["vocab"]
    by_id = [""] * (max(vocab.values()) + 1)
    for token, i in vocab.items():
        by_id[i] = token
    return {
        "kind": "wordpiece", "vocab": by_id, "unk_token": model["unk_token"],
        "prefix": model["continuing_subword_prefix"], "max_input_chars_per_word": model["max_input_chars_per_word"],
        # BertNormalizer: strip_accents None follows lowercase
        "strip_accents": norm["lowercase"] if norm["strip_accents"] is None else norm["strip_accents"],
        "lowercase": norm["lowercase"],
        "added_tokens": [{"content": t["content"], "id": t["id"]} for t in added],
        "cls_id": cls_id, "sep_id": sep_id,
        "char_classes": bert_character_classes(json.dumps({k: doc[k] for k in ("normalizer", "pre_tokenizer")})),
    }


# Where Unicode has assigned characters (15.1: up to U+323AF), and the tag, variation
# selector and private-use planes; every other code point is unassigned and belongs to no class.
PROBED_CODE_POINTS = ((0x0, 0x323AF), (0xE0000, 0x10FFFF))
_SEP = 0xA4D0        # LISU LETTER BA: a caseless letter no step of the normaliser changes or makes


def probed_points() -> np.ndarray:
    """Every code point of PROBED_CODE_POINTS but the surrogates (they are not characters), in order."""
    points = np.concatenate([np.arange(first, last + 1, dtype=np.uint32) for first, last in PROBED_CODE_POINTS])
    return points[(points < 0xD800) | (points > 0xDFFF)]


@functools.lru_cache(maxsize=4)
def bert_character_classes(parts: str) -> dict[str, list[list[int]]]:
    """How this BERT normaliser and pre-tokeniser treat each character, as ranges of code
    points [first, last], found by asking the `tokenizers` library itself (0.7 s on a slow
    2-core machine, once a process): "removed" (controls, and accents when they are stripped),
    "space" (becomes a space), "padded" (a CJK ideograph, spaced apart), "punct" (split off as
    its own word).

    The browser's own Unicode tables are newer than the ones compiled into `tokenizers`
    (U+2E43, U+07FD, ... are punctuation and marks to Chromium, letters to `tokenizers`: ~900
    code points differed), so model.js reads these tables instead of its regular expressions."""
    from tokenizers import Tokenizer, normalizers, pre_tokenizers

    doc = json.loads(parts)
    empty_model = {"type": "WordLevel", "vocab": {}, "unk_token": "x"}     # only the two parts are asked
    probe = Tokenizer.from_str(json.dumps({"version": "1.0", "model": empty_model, **doc}))
    normalizer, pre_tokenizer = probe.normalizer, probe.pre_tokenizer
    assert isinstance(normalizer, normalizers.BertNormalizer)
    assert isinstance(pre_tokenizer, pre_tokenizers.BertPreTokenizer)
    # The characters are asked in batches, each character between two SEPs ("SEP c SEP c ...
    # SEP"), one call per part and batch instead of two calls per character (7x faster with the
    # tables read with numpy). Each of the normaliser's steps (cleaning, CJK padding, NFD and
    # accent stripping, lower case) acts on one character, and SEP is a starter no mark
    # reorders across, so the piece between two SEPs is what c alone becomes between two
    # letters. SEP itself is asked alone, and a batch that does not come back as one piece per
    # character is asked character by character (tests/unit/test_browser_model.py checks that
    # both ways give the same tables).
    points = probed_points()
    points = points[points != _SEP]
    chunks = [_ask_batch(normalizer, pre_tokenizer, points[lo:lo + _BATCH]) for lo in range(0, len(points), _BATCH)]
    alone = _ask(normalizer, pre_tokenizer, np.array([_SEP], dtype=np.uint32))
    classes = {}
    for name in CHARACTER_CLASSES:
        members = points[np.concatenate([c[name] for c in chunks])]
        if alone[name][0]:
            members = np.sort(np.append(members, np.uint32(_SEP)))
        classes[name] = _ranges(members)
    return classes


_BATCH = 5000        # characters per call: the library's calls grow slower on longer strings
CHARACTER_CLASSES = ("removed", "space", "padded", "punct")


def _kinds(length: np.ndarray, first: np.ndarray, last: np.ndarray) -> dict[str, np.ndarray]:
    """The normaliser's classes from what each character became (its length, first and last
    code point): removed (nothing), space (one space), padded (spaces on both sides)."""
    return {"removed": length == 0, "space": (length == 1) & (first == 32),
            "padded": (length >= 2) & (first == 32) & (last == 32)}


def _ask(normalizer, pre_tokenizer, points: np.ndarray) -> dict[str, np.ndarray]:  # noqa: ANN001
    """The classes of `points`, asking about each character alone, between two letters."""
    outs, punct = [], []
    for cp in points.tolist():
        probe = "a" + chr(cp) + "b"
        outs.append(normalizer.normalize_str(probe)[1:-1])
        punct.append(len(pre_tokenizer.pre_tokenize_str(probe)) == 3)
    ends = [(ord(o[0]), ord(o[-1])) if o else (0, 0) for o in outs]
    return {**_kinds(np.array([len(o) for o in outs]), np.array([e[0] for e in ends]), np.array([e[1] for e in ends])),
            "punct": np.array(punct, dtype=bool)}


def _ask_batch(normalizer, pre_tokenizer, points: np.ndarray) -> dict[str, np.ndarray]:  # noqa: ANN001
    """`_ask` for every character of `points` in one call per part (character by character when
    the normalised batch does not split into one piece per character: one became SEP)."""
    pairs = np.empty((len(points), 2), dtype="<u4")
    pairs[:, 0], pairs[:, 1] = _SEP, points
    batch = pairs.tobytes().decode("utf-32-le") + chr(_SEP)
    out = np.frombuffer(normalizer.normalize_str(batch).encode("utf-32-le"), dtype="<u4")
    seps = np.flatnonzero(out == _SEP)
    if len(seps) != len(points) + 1:
        return _ask(normalizer, pre_tokenizer, points)
    start, end = seps[:-1] + 1, seps[1:]
    kinds = _kinds(end - start, out[np.minimum(start, len(out) - 1)], out[end - 1])
    # the pre-tokeniser splits on spaces and isolates punctuation: character i (at 2i + 1) is
    # punctuation when it is a word of its own (offsets in characters)
    isolated = [a // 2 for _, (a, b) in pre_tokenizer.pre_tokenize_str(batch) if b == a + 1 and a % 2 == 1]
    kinds["punct"] = np.zeros(len(points), dtype=bool)
    kinds["punct"][isolated] = True
    return kinds


def _ranges(members: np.ndarray) -> list[list[int]]:
    """Sorted code points as ranges [first, last] of consecutive ones."""
    if len(members) == 0:
        return []
    breaks = np.flatnonzero(np.diff(members.astype(np.int64)) != 1)
    firsts, lasts = members[np.r_[0, breaks + 1]], members[np.r_[breaks, len(members) - 1]]
    return [[int(a), int(b)] for a, b in zip(firsts, lasts)]


# ---- weights -----------------------------------------------------------------------------------
def le_bytes(array: np.ndarray) -> bytes:
    """The array's bytes, little-endian."""
    return array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


def b64(array: np.ndarray) -> str:
    """base64 of the array's bytes, little-endian."""
    return base64.b64encode(le_bytes(array)).decode("ascii")


def encode_tensor(name: str, tensor: torch.Tensor, weights: str, *, deflate: bool = False) -> dict[str, Any]:
    """One tensor as {"dtype", "shape", "data"(, "scale", "packing")}; see the module docstring."""
    w = tensor.detach().to("cpu", torch.float32).numpy()
    shape = list(w.shape)
    if weights == "float32":
        entry, raw = {"dtype": "float32", "shape": shape}, le_bytes(w)
    elif weights == "int8" and w.ndim >= 2:
        rows = w.reshape(-1, shape[-1])
        scale = np.abs(rows).max(axis=1) / 127.0                                   # [rows]
        q = np.round(rows / np.where(scale > 0, scale, 1.0)[:, None]).clip(-127, 127).astype(np.int8)
        entry, raw = {"dtype": "int8", "shape": shape, "scale": b64(scale.astype(np.float32))}, q.tobytes()
    else:
        big = float(np.abs(w).max(initial=0.0))
        if big > FLOAT16_MAX:
            raise ValueError(f"{name} holds {big:g}, beyond float16's range (65504): use float32 weights.")
        entry, raw = {"dtype": "float16", "shape": shape}, le_bytes(w.astype(np.float16))
    packed = _deflate(raw) if deflate else raw
    if len(packed) < len(raw):
        entry["packing"] = "deflate"
    else:
        packed = raw
    entry["data"] = base64.b64encode(packed).decode("ascii")
    return entry


def _deflate(raw: bytes) -> bytes:
    """zlib's deflate with Huffman coding only: int8 and float16 weights hold few repeated
    strings for its usual search to find, so that search costs time and saves nothing
    (MiniLM's int8 weights: 20.61 MB in 0.36 s, against 20.64 MB in 0.88 s at level 6)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_HUFFMAN_ONLY)
    return packer.compress(raw) + packer.flush()


def unique_tensors(model: Transformer) -> dict[str, torch.Tensor]:
    """The state dict with a tensor shared by two names (the tied unembedding) once, under
    its first name: what a bundle carries (model.js reads embed.weight for the unembedding)."""
    seen: set[int] = set()
    out = {}
    for name, tensor in model.state_dict().items():
        if tensor.data_ptr() not in seen:
            seen.add(tensor.data_ptr())
            out[name] = tensor
    return out


def browser_weights(model: Transformer, weights: str, *, deflate: bool = False) -> dict[str, dict[str, Any]]:
    """Every parameter of the bundle (`unique_tensors`) by its module path, encoded."""
    return {name: encode_tensor(name, tensor, weights, deflate=deflate) for name, tensor in unique_tensors(model).items()}


def decode_tensor(entry: dict[str, Any]) -> np.ndarray:
    """The float32 values model.js reads from one bundle tensor (the inverse of encode_tensor)."""
    raw = base64.b64decode(entry["data"])
    if entry.get("packing") == "deflate":
        raw = zlib.decompress(raw)
    elif entry.get("packing") is not None:
        raise ValueError(f"Unknown weight packing {entry['packing']!r}.")
    if entry["dtype"] == "int8":
        scale = np.frombuffer(base64.b64decode(entry["scale"]), "<f4")
        values = np.frombuffer(raw, np.int8).reshape(len(scale), -1) * scale[:, None]
    else:
        values = np.frombuffer(raw, {"float32": "<f4", "float16": "<f2"}[entry["dtype"]])
    return values.astype(np.float32).reshape(entry["shape"])


# ---- the bundle ----------------------------------------------------------------------------------
def weights_bytes(model: Transformer, weights: str, *, deflate: bool = False) -> int:
    """The bytes the weights take in a bundle (base64 included): the bundle is this plus the
    config and the tokenizer (MiniLM's vocabulary: ~0.5 MB). Without deflate it is counted
    without building anything; deflated sizes are known only by compressing (~0.4 s for MiniLM)."""
    if deflate:
        return sum(len(e["data"]) + len(e.get("scale", "")) for e in browser_weights(model, weights, deflate=True).values())
    per = {"float32": 4, "float16": 2, "int8": 1}[weights]
    raw = 0
    for tensor in unique_tensors(model).values():
        rows = tensor.shape[0] if tensor.ndim >= 2 and weights == "int8" else 0
        raw += tensor.numel() * (2 if weights == "int8" and tensor.ndim < 2 else per) + 4 * rows
    return math.ceil(raw / 3) * 4


def exact_weights(model: Transformer) -> str:
    """The smallest weight format that carries this model's parameters exactly: "float16"
    when every value is a float16 number already (the shipped verse and pe64 models are
    stored so), else "float32"."""
    for tensor in unique_tensors(model).values():
        w = tensor.detach().to("cpu", torch.float32)
        if w.abs().max().item() > FLOAT16_MAX or not torch.equal(w.to(torch.float16).to(torch.float32), w):
            return "float32"
    return "float16"


def browser_model(model: Transformer, tokenizer: Tokenizer, *, weights: str = "float16",
                  deflate: bool = False) -> dict[str, Any]:
    """The browser form of a loaded model (see the module docstring). Raises ValueError for
    a model the browser pass cannot compute, a tokenizer it cannot run, or an unknown
    weight format. deflate: tensors travel deflated where that is smaller (model.js's
    `loadAsync` reads them; `load` refuses them)."""
    if weights not in WEIGHT_FORMATS:
        raise ValueError(f"Unknown weight format {weights!r}: choose one of {', '.join(WEIGHT_FORMATS)}.")
    check_supported(model)
    return {
        "format": FORMAT, "version": VERSION, "weights_format": weights,
        "config": browser_config(model),
        "tokenizer": browser_tokenizer(tokenizer, model.cfg.max_len),
        "weights": browser_weights(model, weights, deflate=deflate),
    }


def bundle_json(bundle: dict[str, Any]) -> str:
    """The bundle as the text that travels (compact JSON, non-ASCII characters as they are)."""
    return json.dumps(bundle, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def bundle_bytes(bundle: dict[str, Any]) -> int:
    """The size of the bundle in bytes (UTF-8 of bundle_json): what a reader downloads."""
    return len(bundle_json(bundle).encode("utf-8"))

