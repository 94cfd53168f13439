"""Checks that run before a model is built from a file: nothing is allocated until it is
known to fit.

A model file is two claims: a config ("48 layers, d_model 6,400") and a safetensors
header ("this tensor is F32 of shape [50257, 6400] at bytes 0..1,286,579,200"). Both are
read and checked here, without creating a single tensor:

1. `check_model(cfg, what, bytes_per_value)`: the parameters and buffers the config asks
   for, counted from the config alone (`model_bytes`, exact: tested against built models),
   in the dtype it will be built in, against the server's budget (`models/limits.py`,
   GLASSBOX_MODEL_BUDGET_MB), and the number of layers against its limit;
   `size_summary(cfg)` says the same count in every dtype, for a sentence before loading;
2. `read_header(file)`: the safetensors header alone (8 bytes of length, then JSON),
   every entry's dtype, shape and byte range checked against the file's size, as the
   safetensors format defines them;
3. `check_tensors(expected, header)`: every tensor the model needs is present, a float
   and of the right shape (`expected_shapes(cfg)` builds the model on PyTorch's meta
   device, which allocates no memory, once 1. has passed).

Every refusal is a `models.errors.Refused` with a reason id, the values its sentence
names and an English sentence that names files by their name, never a temporary path.
"""
from __future__ import annotations

import functools
import json
import math
import struct
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import torch

from .. import limits
from ..config import TransformerConfig
from ..errors import ModelTooBig, Refused

# bytes per value of each safetensors dtype; weights must be one of FLOATS
DTYPE_BYTES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
               "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
FLOATS = ("F16", "BF16", "F32", "F64")
MAX_HEADER_BYTES = 100_000_000        # the safetensors format's own limit on its JSON header
MAX_JSON_BYTES = 10_000_000           # a config.json or a checkpoint's JSON part (real ones: a few KB to ~2 MB;
                                      # parsed JSON can take 20x its size in memory)


# ---- the model a config describes -------------------------------------------------------------
def _norm_params(cfg: TransformerConfig, d: int | None = None) -> int:
    d = cfg.d_model if d is None else d
    layernorm = 2 * d if cfg.norm_bias else d                  # ModernBERT: LayerNorm without bias
    return {"layernorm": layernorm, "rmsnorm": d, "dyt": 2 * d + 1}[cfg.norm]


def _qk_norm_params(cfg: TransformerConfig) -> int:
    """Self-attention's q_norm and k_norm: over each head's d_head (Qwen3, Gemma 3) or over
    the whole projections (OLMo 2)."""
    if cfg.qk_norm == "head":
        return 2 * _norm_params(cfg, cfg.head_dim)
    if cfg.qk_norm == "full":
        return _norm_params(cfg, cfg.n_heads * cfg.head_dim) + _norm_params(cfg, cfg.kv_heads * cfg.head_dim)
    return 0


def _attention_params(cfg: TransformerConfig) -> int:
    d, q, kv = cfg.d_model, cfg.n_heads * cfg.head_dim, cfg.kv_heads * cfg.head_dim
    weights = d * q + 2 * d * kv + q * d
    return weights + ((q + 2 * kv) if cfg.has_qkv_bias else 0) + (d if cfg.bias else 0)


def _mlp_params(cfg: TransformerConfig) -> int:
    d, ff = cfg.d_model, cfg.d_ff
    n_in = 2 if cfg.gated else 1                 # W_in (+ W_gate)
    return n_in * d * ff + ff * d + ((n_in * ff + d) if cfg.bias else 0)


def _stack_params(cfg: TransformerConfig, decoder_of_encdec: bool) -> tuple[int, int]:
    """(parameters, buffer values) of one stack: its embeddings' extras, blocks, final norm."""
    params, buffers, e = 0, 0, cfg.embed_dim                     # e: ELECTRA's narrower embeddings (d_embed)
    if cfg.n_token_types:
        params += cfg.n_token_types * e
    if cfg.positional == "learned":
        params += (cfg.max_len + cfg.pos_offset) * e             # BART: 2 extra rows
    elif cfg.positional == "sinusoidal":
        buffers += cfg.max_len * cfg.d_model                     # the PE table (not a parameter)
    elif cfg.positional == "alibi":
        buffers += cfg.n_heads                                   # the slopes
    elif cfg.positional == "relative":
        params += cfg.relative_buckets * cfg.n_heads
    if cfg.embed_norm:
        params += _norm_params(cfg, e)
    if cfg.d_embed is not None:
        params += e * cfg.d_model + cfg.d_model                  # embed_proj (with bias)
    if not cfg.first_attn_norm and cfg.norm_position in ("pre", "sandwich", "post"):
        params -= _norm_params(cfg)                              # block 0 has no ln1 (ModernBERT)
    # ln1, ln2 (one norm for both parallel branches: Phi-2, StableLM); sandwich (Gemma 2/3): and ln1_out, ln2_out;
    # output (OLMo 2): ln1_out, ln2_out only
    n_norms = {"pre": 2, "post": 2, "sandwich": 4, "output": 2}[cfg.norm_position] - (1 if cfg.shared_block_norm else 0)
    block = _attention_params(cfg) + _qk_norm_params(cfg) + _mlp_params(cfg) + n_norms * _norm_params(cfg)
    if decoder_of_encdec:
        block += _attention_params(cfg) + _norm_params(cfg)      # cross-attention and its norm
    params += cfg.n_layers * block
    if cfg.final_norm:
        params += _norm_params(cfg)
    return params, buffers


def parameter_count(cfg: TransformerConfig) -> tuple[int, int]:
    """(parameters, buffer values) a `Transformer(cfg)` holds, from the config alone
    (tied embeddings counted once, as `model.n_params` does)."""
    params, buffers = cfg.vocab_size * cfg.embed_dim, 0          # the token embeddings
    stacks = [False, True] if cfg.arch == "encoder-decoder" else [False]
    for cross in stacks:
        p, b = _stack_params(cfg, cross)
        params, buffers = params + p, buffers + b
    if cfg.output == "logits" and not cfg.tie_embeddings:
        params += cfg.d_model * cfg.vocab_size                   # the unembedding
    if cfg.output == "logits" and cfg.unembed_bias:
        params += cfg.vocab_size                                 # a learned lm_head bias (Phi-2)
    if cfg.output == "logits" and cfg.logit_bias:
        buffers += cfg.vocab_size                                # Marian/BART final_logits_bias [1, vocab], a buffer
    return params, buffers


def model_bytes(cfg: TransformerConfig, bytes_per_value: int = 4) -> int:
    """Memory a `Transformer(cfg)` takes for its parameters and buffers: float32 (4 bytes a
    value) unless told (bfloat16, float16: 2; the model's floating buffers follow its dtype)."""
    params, buffers = parameter_count(cfg)
    return (params + buffers) * bytes_per_value


def check_model(cfg: TransformerConfig, what: str = "This model", bytes_per_value: int = 4) -> int:
    """Refuse a config the server cannot afford in the dtype it will be built in
    (`bytes_per_value`: 4 for float32, 2 for bfloat16/float16) with ModelTooBig naming both
    numbers, or one with too many layers; returns the bytes it needs."""
    max_layers = int(limits.value("layers"))
    if cfg.n_layers > max_layers:
        raise Refused("too_many_layers", f"{what} has {cfg.n_layers} layers; this server builds models of at most "
                      f"{max_layers} (GLASSBOX_MAX_LAYERS).", layers=cfg.n_layers, limit=max_layers)
    need, budget = model_bytes(cfg, bytes_per_value), limits.megabytes("model_mb")
    if need > budget:
        raise ModelTooBig(need, budget, what)
    return need


# ---- a model's size in each dtype, said before loading -----------------------------------------
# the dtypes a model can be loaded in (the load panel's choice) and the bytes of one value in each
DTYPE_SIZES: Mapping[str, int] = MappingProxyType({"float32": 4, "bfloat16": 2, "float16": 2})


def dtype_name(dtype: torch.dtype | str) -> str:
    """"float32", "bfloat16" or "float16" for a torch dtype or its name; ValueError otherwise."""
    name = str(dtype).removeprefix("torch.")
    if name not in DTYPE_SIZES:
        raise ValueError(f"A model is loaded in float32, bfloat16 or float16, not {name}.")
    return name


@dataclass(frozen=True)
class SizeSummary:
    """A model's size before anything is loaded: its parameter count, its bytes in each
    dtype and whether each fits the server's model budget (read when it was made)."""

    n_params: int                      # parameters (tied embeddings once, as model.n_params)
    n_buffers: int                     # buffer values (sinusoidal tables, ALiBi slopes, ...)
    nbytes: Mapping[str, int]          # dtype name -> bytes of parameters and buffers in it
    budget: int                        # the server's model budget in bytes (GLASSBOX_MODEL_BUDGET_MB)
    budget_from_machine: bool          # the budget came from the machine's free memory, not the operator

    @property
    def fits(self) -> Mapping[str, bool]:
        """dtype name -> whether the model in that dtype is within the budget."""
        return MappingProxyType({d: n <= self.budget for d, n in self.nbytes.items()})

    def fits_in(self, dtype: torch.dtype | str) -> bool:
        return self.fits[dtype_name(dtype)]


def size_of_count(n_params: int, n_buffers: int = 0) -> SizeSummary:
    """The summary of a model of `n_params` parameters (a published count, or a config's),
    against the budget in force now."""
    values = n_params + n_buffers
    return SizeSummary(n_params, n_buffers, MappingProxyType({d: values * b for d, b in DTYPE_SIZES.items()}),
                       limits.megabytes("model_mb"), not limits.LIMITS["model_mb"].is_set())


def size_summary(cfg: TransformerConfig) -> SizeSummary:
    """A config's size in float32, bfloat16 and float16 and what fits, from the config alone
    (the same count `check_model` refuses on; no tensor is made)."""
    return size_of_count(*parameter_count(cfg))


@functools.lru_cache(maxsize=16)
def expected_shapes(cfg: TransformerConfig) -> Mapping[str, tuple[int, ...]]:
    """The state dict's tensor shapes of `Transformer(cfg)` (read-only), from a model
    built on the meta device (no memory), remembered per config (a folder is checked
    before it is loaded, and loaded again after a page's cache drops it). Call
    `check_model(cfg)` first: building still creates one Python object per module."""
    from ..transformer import Transformer

    return MappingProxyType({name: tuple(t.shape) for name, t in Transformer.skeleton(cfg).state_dict().items()})


# ---- a safetensors header -----------------------------------------------------------------------
@dataclass(frozen=True)
class TensorInfo:
    dtype: str
    shape: tuple[int, ...]
    nbytes: int


@dataclass(frozen=True)
class Header:
    """What a safetensors file says it holds, checked against its size."""

    name: str                          # the file's name (for messages)
    tensors: dict[str, TensorInfo]
    data_bytes: int                    # the tensors' bytes together

    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {k: v.shape for k, v in self.tensors.items()}


def _corrupt(name: str, detail: str, **values: object) -> Refused:
    """`values`: what the sentence quotes from the file (a tensor's name), kept apart from it."""
    return Refused("weights_corrupt", f"{name} is not a readable safetensors file (corrupt or truncated?): {detail}.",
                   file=name, **values)


def read_header(source: bytes | Path, name: str | None = None) -> Header:
    """The header of a safetensors file (a path or its bytes), read and checked without
    reading the tensors: 8 bytes of little-endian length, a JSON object of
    {name: {dtype, shape, data_offsets}}, and byte ranges that tile the rest of the file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        name = name or "the weights"
        size, head = len(source), bytes(source[:8])
        read = lambda n: bytes(source[8:8 + n])                   # noqa: E731
    else:
        path = Path(source)
        name = name or path.name
        try:
            size = path.stat().st_size
            with open(path, "rb") as f:
                head = f.read(8)
        except OSError:                                         # a directory, no permission
            raise Refused("not_readable", f"{name} cannot be read.", file=name) from None

        def read(n: int) -> bytes:
            try:
                with open(path, "rb") as f:
                    f.seek(8)
                    return f.read(n)
            except OSError:
                raise Refused("not_readable", f"{name} cannot be read.", file=name) from None
    if size < 8 or len(head) < 8:
        raise _corrupt(name, f"it has {size} bytes, too few for a header")
    (n,) = struct.unpack("<Q", head)
    if n > MAX_HEADER_BYTES or 8 + n > size:
        raise _corrupt(name, f"its header claims {n} bytes but the file has {size}")
    try:
        doc = json.loads(read(n).decode("utf-8"))
    except (ValueError, RecursionError):      # not UTF-8, not JSON, a number of over 4,300 digits, too deep
        raise _corrupt(name, "its header is not JSON") from None
    if not isinstance(doc, dict):
        raise _corrupt(name, "its header is not a JSON object")
    data = size - 8 - n
    tensors: dict[str, TensorInfo] = {}
    spans = []
    for key, entry in doc.items():
        if key == "__metadata__":
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("dtype"), str) or entry["dtype"] not in DTYPE_BYTES:
            raise _corrupt(name, f"the entry {str(key)[:60]!r} has no known dtype", tensor=str(key)[:60])
        shape, offsets = entry.get("shape"), entry.get("data_offsets")
        if not isinstance(shape, list) or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in shape):
            raise _corrupt(name, f"the entry {str(key)[:60]!r} has no valid shape", tensor=str(key)[:60])
        if not isinstance(offsets, list) or len(offsets) != 2 or \
                any(isinstance(o, bool) or not isinstance(o, int) for o in offsets):
            raise _corrupt(name, f"the entry {str(key)[:60]!r} has no valid byte range", tensor=str(key)[:60])
        begin, end = offsets
        nbytes = math.prod(shape) * DTYPE_BYTES[entry["dtype"]]
        if not 0 <= begin <= end <= data or end - begin != nbytes:
            raise _corrupt(name, f"the entry {str(key)[:60]!r} does not fit the file", tensor=str(key)[:60])
        tensors[key] = TensorInfo(entry["dtype"], tuple(shape), nbytes)
        spans.append((begin, end))
    position = 0
    for begin, end in sorted(spans):                           # the ranges tile the data, no gap, no overlap
        if begin != position:
            raise _corrupt(name, "its byte ranges overlap or leave gaps")
        position = end
    if position != data:
        raise _corrupt(name, f"its tensors take {position} bytes but the file holds {data}")
    return Header(name, tensors, data)


def check_tensors(expected: Mapping[str, tuple[int, ...]], header: Header) -> None:
    """Every expected tensor is in the header, a float of the expected shape."""
    for key, shape in expected.items():
        info = header.tensors.get(key)
        if info is None:
            raise Refused("weights_missing", f"{header.name} is missing {key!r}.", file=header.name, tensor=key)
        if info.dtype not in FLOATS:
            raise Refused("weights_dtype", f"{key!r} in {header.name} is {info.dtype}, not a float.",
                          file=header.name, tensor=key, dtype=info.dtype)
        if info.shape != tuple(shape):
            raise Refused("weights_shape", f"{key!r} in {header.name} has shape {info.shape}, the config needs "
                          f"{tuple(shape)}.", file=header.name, tensor=key, shape=str(info.shape),
                          want=str(tuple(shape)))


def check_data_size(header: Header, need: int) -> None:
    """A weights file holds at most twice the model's float32 bytes (float64 weights)."""
    if header.data_bytes > 2 * need:
        raise Refused("weights_extra", f"{header.name} holds {header.data_bytes / 1e6:,.0f} MB of tensors, far "
                      f"more than the {need / 1e6:,.0f} MB its config needs.", file=header.name,
                      have=f"{header.data_bytes / 1e6:,.0f}", need=f"{need / 1e6:,.0f}")
