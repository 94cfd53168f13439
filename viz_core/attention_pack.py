"""All heads of one text, packed once for the browser (the "instant" view and the
standalone HTML export draw it with viz_core/web/attention.js).

Format ``glassbox-attention/1`` (a JSON-safe dict):

- ``data``: base64 of the cells as uint8, order [layer, head, query, key], deflated
  (zlib) when ``compression == "deflate"``. A cell's weight is
  ``byte / 255 * scales[l * n_heads + h]``; the scale is the head's largest weight,
  so every head uses all 256 levels and the byte is also its colour (LUT index).
- ``max_error``: scale / 510 per head: the largest difference between a shown weight
  and the model's float32 weight (rounding to the nearest of 256 levels).
- ``mask``: base64 of a [query, key] bitmap (numpy ``packbits``, big-endian bits),
  1 = the query may attend to the key; masked cells hold byte 0 and show "masked".
- ``q_tokens`` / ``k_tokens``: plain strings (the script draws them with fillText /
  textContent, never as HTML).
- ``lut``: base64 of the palette's 256 x RGB colours; ``nan_rgb``: masked grey.

Sizes: 6 x 12 heads at 128 tokens are 1.18 MB of bytes before deflate; see
docs/benchmarks.md (render_payload) for the measured payload and export sizes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections.abc import Mapping, Sequence

import numpy as np

from .colors import NAN_RGB, SEQUENTIAL, colormap_lut

FORMAT = "glassbox-attention/1"
MAX_TOKENS = 2048          # longest sequence the browser script draws
LEVELS = 255               # bytes 0..255


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def pack_attention(patterns: np.ndarray, q_tokens: Sequence[str], k_tokens: Sequence[str] | None = None,
                   mask: np.ndarray | None = None, *, cmap: str = SEQUENTIAL,
                   labels: Mapping[str, str] | None = None, title: str = "",
                   compress: bool = True) -> dict:
    """Pack attention patterns [layers, heads, q, k] (float; NaN = masked) and an
    optional mask [q, k] (bool, True = may attend) into the browser payload described
    in the module docstring. A wrong shape or length raises ValueError."""
    p = np.asarray(patterns, dtype=np.float32)
    if p.ndim != 4:
        raise ValueError(f"pack_attention takes patterns of shape [layers, heads, q, k]; got shape {p.shape}.")
    n_layers, n_heads, n_q, n_k = p.shape
    if min(p.shape) == 0:
        raise ValueError(f"pack_attention needs at least one layer, head and token; got shape {p.shape}.")
    k_tokens = q_tokens if k_tokens is None else k_tokens
    if len(q_tokens) != n_q or len(k_tokens) != n_k:
        raise ValueError(f"pack_attention: {len(q_tokens)} query and {len(k_tokens)} key tokens for patterns "
                         f"of {n_q} queries and {n_k} keys.")
    if max(n_q, n_k) > MAX_TOKENS:
        raise ValueError(f"pack_attention draws at most {MAX_TOKENS} tokens; got {max(n_q, n_k)}.")
    allowed = np.isfinite(p).all(axis=(0, 1))                                # [q, k]
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        if m.shape != (n_q, n_k):
            raise ValueError(f"pack_attention: mask of shape {m.shape} for patterns of {n_q} x {n_k}.")
        allowed &= m
    values = np.where(allowed, p, 0.0)                                        # [L, H, q, k]
    if (values < 0).any():
        raise ValueError("pack_attention takes attention weights (>= 0); got a negative value.")
    scales = values.reshape(n_layers * n_heads, -1).max(axis=1).astype(np.float64)   # [L*H]
    safe = np.where(scales > 0, scales, 1.0)[:, None]
    q8 = np.rint(values.reshape(n_layers * n_heads, -1) / safe * LEVELS).clip(0, LEVELS).astype(np.uint8)
    raw = q8.tobytes()
    body = zlib.compress(raw, 1) if compress else raw      # level 1: 4x faster than 6 at 512 tokens
    lut = np.ascontiguousarray(colormap_lut(cmap), dtype=np.uint8)
    # the id changes with anything the viewer shows: cells, tokens, palette, words
    meta = json.dumps([list(q_tokens), list(k_tokens), dict(labels or {}), str(title)], ensure_ascii=False)
    digest = hashlib.sha1(raw + lut.tobytes() + meta.encode()).hexdigest()[:16]
    return {
        "format": FORMAT,
        "id": digest,
        "title": str(title),
        "n_layers": int(n_layers), "n_heads": int(n_heads), "n_q": int(n_q), "n_k": int(n_k),
        "q_tokens": [str(t) for t in q_tokens], "k_tokens": [str(t) for t in k_tokens],
        "encoding": "uint8, value = byte / 255 * scale (scale = head max)",
        "compression": "deflate" if compress else "none",
        "data": _b64(body),
        "scales": [float(s) for s in scales],
        "max_error": [float(s) / (2 * LEVELS) for s in scales],
        "mask": _b64(np.packbits(allowed.reshape(-1)).tobytes()),
        "lut": _b64(lut.tobytes()),
        "nan_rgb": list(NAN_RGB),
        "labels": dict(labels or {}),
    }


def unpack_attention(payload: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of :func:`pack_attention`: (weights [L, H, q, k] float32 with NaN on
    masked cells, max_error [L, H]). What the browser shows, for tests."""
    if payload.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} payload: format={payload.get('format')!r}")
    n_layers, n_heads, n_q, n_k = (int(payload[k]) for k in ("n_layers", "n_heads", "n_q", "n_k"))
    body = base64.b64decode(payload["data"])
    raw = zlib.decompress(body) if payload["compression"] == "deflate" else body
    q8 = np.frombuffer(raw, dtype=np.uint8).reshape(n_layers, n_heads, n_q, n_k)
    scales = np.asarray(payload["scales"], dtype=np.float64).reshape(n_layers, n_heads)
    values = (q8 / LEVELS * scales[:, :, None, None]).astype(np.float32)
    allowed = np.unpackbits(np.frombuffer(base64.b64decode(payload["mask"]), dtype=np.uint8))[: n_q * n_k]
    values[:, :, ~allowed.reshape(n_q, n_k).astype(bool)] = np.nan
    return values, np.asarray(payload["max_error"], dtype=np.float64).reshape(n_layers, n_heads)


def payload_json(payload: Mapping) -> str:
    """The payload as compact JSON (what the browser receives); its length in bytes is
    the payload size the benchmarks report."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
