"""Configuration of a Glassbox Transformer.

`TransformerConfig` is a frozen dataclass: one object describes a whole model, it is
hashable (so the app can cache on it) and it round-trips through JSON (`to_dict` /
`from_dict`) so checkpoints and traces carry it. Every invalid value or combination
raises a `ConfigError` (a `ValueError`) whose message a student can act on, with a reason
id and values an app can translate (`models/errors.py`). Values are checked for their
type too: a config read from a file may hold anything.
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError

ARCHS = ("encoder", "decoder", "encoder-decoder")
POSITIONALS = ("none", "sinusoidal", "learned", "rope", "alibi", "relative")
NORMS = ("layernorm", "rmsnorm", "dyt")
NORM_POSITIONS = ("pre", "post", "sandwich", "output")  # where a sub-layer's norm sits (Block docstring)
ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "silu", "swiglu", "geglu", "geglu_exact")
# W_out · (act(W_gate x) ⊙ W_in x): SiLU gate (LLaMA), GELU-tanh gate (Gemma, T5 v1.1), exact (erf) GELU gate (ModernBERT)
GATED = ("swiglu", "geglu", "geglu_exact")
QK_NORMS = ("none", "head", "full")   # RMSNorm on queries and keys: none | per head over d_head (Qwen3, Gemma 3) | over the whole projection (OLMo 2)
OUTPUTS = ("logits", "hidden")
SINUSOIDAL_LAYOUTS = ("interleaved", "halves")   # sin/cos pairs side by side (Vaswani) | [sin… | cos…] (Marian)
STOCK_BASE = 10000.0   # the stock base of RoPE's θ_i (RoFormer) and of the sinusoidal frequencies (Vaswani et al.)
ROPE_SCALINGS = ("none", "linear", "ntk", "yarn", "llama3", "dynamic", "longrope")  # RoPE context extension (models/positional.py, RopeScaling)
MASK_KINDS = ("full", "causal", "local", "dilated", "strided", "longformer", "bigbird", "prefix")


def _shown(value: object) -> str:
    """A value as a user wrote it (at most 40 characters): text as it is, anything else
    in JSON's spelling ([1, 2], {"a": null}, true), never a Python repr or type name."""
    if isinstance(value, str):
        return value[:40]
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=True)[:40]
    except (TypeError, ValueError):
        return _json_kind(value)


def _names(names: list) -> str:
    """Field names as a sentence shows them: at most 80 characters (a hostile file may
    have thousands of fields, each a page long)."""
    text = ", ".join(map(str, names))
    return text if len(text) <= 80 else text[:79] + "…"


def _check_choice(what: str, value: str, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        shown = _shown(value)
        raise ConfigError("choice", f"Unknown {what} {shown!r}: choose one of {', '.join(allowed)}.", what=what,
                          value=shown, allowed=", ".join(allowed))


def _whole(obj: object, name: str, low: int | None = None, optional: bool = False) -> None:
    """The field `name` must be a whole number (>= low); an integral float from JSON
    (64.0) becomes an int. None is allowed when optional."""
    v = getattr(obj, name)
    if v is None and optional:
        return
    if isinstance(v, float) and v.is_integer():
        v = int(v)
        object.__setattr__(obj, name, v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError("whole", f"{name} must be a whole number (got {_shown(v)!r}).", name=name,
                          value=_shown(v))
    if low is not None and v < low:
        if low == 1:
            raise ConfigError("positive", f"{name} must be a positive number (got {v}).", name=name, value=v)
        raise ConfigError("at_least", f"{name} must be at least {low} (got {v}).", name=name, low=low, value=v)


def _real(obj: object, name: str) -> float:
    v = getattr(obj, name)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ConfigError("real", f"{name} must be a finite number (got {_shown(v)!r}).", name=name,
                          value=_shown(v))
    object.__setattr__(obj, name, float(v))
    return float(v)


def _layers(obj: object, name: str) -> None:
    """A list of layer indices (from JSON) becomes a sorted tuple of whole numbers, so the
    config stays hashable."""
    v = getattr(obj, name)
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__") or \
            any(isinstance(i, bool) or not isinstance(i, int) for i in v):
        raise ConfigError("layer_list", f"{name} must be a list of layer numbers (got {_shown(v)!r}).", name=name,
                          value=_shown(v))
    object.__setattr__(obj, name, tuple(sorted(set(int(i) for i in v))))


def _reals(obj: object, name: str) -> None:
    """A list of finite positive numbers (from JSON) becomes a tuple."""
    v = getattr(obj, name)
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__") or any(
            isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x <= 0 for x in v):
        raise ConfigError("real_list", f"{name} must be a list of positive numbers (got {_shown(v)!r}).", name=name,
                          value=_shown(v))
    object.__setattr__(obj, name, tuple(float(x) for x in v))


def _flag(obj: object, name: str) -> None:
    if not isinstance(getattr(obj, name), bool):
        raise ConfigError("flag", f"{name} must be true or false (got {_shown(getattr(obj, name))!r}).",
                          name=name, value=_shown(getattr(obj, name)))


@dataclass(frozen=True)
class MaskSpec:
    """Which (query, key) pairs self-attention may use; built by `models.masks.build`.

    In a decoder the pattern is intersected with the causal mask (a decoder never looks
    ahead), except `prefix`, which *is* a causal pattern with a bidirectional prefix.
    """

    kind: str = "full"                 # full|causal|local|dilated|strided|longformer|bigbird|prefix
    window: int = 2                    # local/longformer/bigbird: a query sees keys with |q-k| <= window
    dilation: int = 2                  # dilated: keep keys whose distance is a multiple of this
    stride: int = 4                    # strided: local block of `stride` keys + every stride-th key
    global_tokens: tuple[int, ...] = (0,)  # longformer/bigbird: positions that see and are seen by all
    n_random: int = 2                  # bigbird: random keys per query
    prefix_len: int = 2                # prefix: the first positions attend bidirectionally
    seed: int = 0                      # bigbird: seed of the random keys (same seed, same mask)

    def __post_init__(self) -> None:
        _check_choice("attention pattern", self.kind, MASK_KINDS)
        for name in ("window", "dilation", "stride", "n_random", "prefix_len", "seed"):
            _whole(self, name)
        if self.window < 1:
            raise ConfigError("mask_window", f"The attention window must be at least 1 token (got {self.window}).",
                              value=self.window)
        if self.dilation < 1:
            raise ConfigError("mask_dilation", f"The dilation must be at least 1 (got {self.dilation}).",
                              value=self.dilation)
        if self.stride < 1:
            raise ConfigError("mask_stride", f"The stride must be at least 1 (got {self.stride}).", value=self.stride)
        if self.n_random < 0:
            raise ConfigError("mask_random", f"BigBird needs zero or more random keys per query (got {self.n_random}).",
                              value=self.n_random)
        if self.prefix_len < 0:
            raise ConfigError("mask_prefix", f"The prefix length cannot be negative (got {self.prefix_len}).",
                              value=self.prefix_len)
        # lists from JSON become tuples so the spec stays hashable
        tokens = self.global_tokens
        if isinstance(tokens, (str, bytes)) or not hasattr(tokens, "__iter__") or \
                any(isinstance(g, bool) or not isinstance(g, int) for g in tokens):
            raise ConfigError("mask_global", "global_tokens must be a list of token positions (whole numbers).")
        object.__setattr__(self, "global_tokens", tuple(int(g) for g in tokens))

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "global_tokens": list(self.global_tokens)}


@dataclass(frozen=True)
class TransformerConfig:
    """Everything that defines a model's shape and its architectural choices."""

    arch: str = "decoder"              # encoder | decoder | encoder-decoder
    vocab_size: int = 256              # number of token ids (shared by source and target)
    d_model: int = 64                  # width of the residual stream
    n_layers: int = 2                  # blocks per stack (encoder-decoder: each stack)
    n_heads: int = 4                   # query heads per attention layer
    n_kv_heads: int | None = None      # key/value heads: None = n_heads (MHA), 1 = MQA, else GQA
    d_ff: int = 256                    # hidden width of the feed-forward network
    max_len: int = 128                 # positions the model was built for (hard limit for learned PE)
    positional: str = "sinusoidal"     # none | sinusoidal | learned | rope | alibi | relative
    norm: str = "layernorm"            # layernorm | rmsnorm | dyt
    norm_position: str = "pre"         # pre (GPT-2, LLaMA) | post (original Transformer, BERT)
    activation: str = "relu"           # relu | gelu | gelu_tanh | silu | swiglu | geglu (the last two gated)
    attention: MaskSpec = field(default_factory=MaskSpec)  # the self-attention pattern
    d_head: int | None = None          # width of one head; None = d_model // n_heads
    bias: bool = True                  # biases in attention and FFN linears (LLaMA: False)
    tie_embeddings: bool = True        # unembedding shares the token-embedding matrix
    dropout: float = 0.0               # dropout on embeddings, attention probs and sublayer outputs (train only)
    norm_eps: float = 1e-5             # epsilon inside LayerNorm / RMSNorm
    dyt_alpha: float = 0.5             # initial alpha of DyT: y = w * tanh(alpha * x) + b
    embed_norm: bool = False           # a norm right after the embeddings (BERT)
    embed_scale: bool = False          # token embeddings × √d_model before positions (Vaswani, Gemma, Marian)
    n_token_types: int = 0             # segment (token-type) embeddings, 0 = none (BERT: 2)
    rope_base: float = STOCK_BASE         # base of the RoPE frequencies
    rope_dim: int | None = None        # dims of each head that RoPE rotates; None = all of d_head
    relative_buckets: int = 32         # T5 relative-position buckets
    relative_max_distance: int = 128   # T5: distances beyond this share the last bucket
    # seq2seq checkpoints (T5, Marian, BART); the defaults change nothing
    scale_attention: bool = True       # scores = q·k / √d_head; False: q·k unscaled (T5 folds the scale into its init)
    sinusoidal_layout: str = "interleaved"  # interleaved: sin, cos, sin, cos… | halves: [sin of all freqs | cos of all] (Marian)
    pos_offset: int = 0                # learned positions: position p reads row p + pos_offset (BART: 2); the table has max_len + pos_offset rows
    unembed_scale: bool = False        # final hidden × d_model^-0.5 before the unembedding (T5 with tied embeddings)
    logit_bias: bool = False           # a fixed bias added to every logit (Marian/BART final_logits_bias)
    output: str = "logits"             # logits (unembed to the vocabulary) | hidden (final hidden state)
    pad_id: int | None = None          # id of the padding token, if the tokenizer has one
    # -- issue 23 decoder families (models/weights/decoders.py) --
    qkv_bias: bool | None = None       # biases on W_Q/W_K/W_V only; None = follow `bias` (Qwen2: True, bias False)
    norm_plus_one: bool = False        # RMSNorm scales by (1 + w), w starts at 0 (Gemma)
    parallel_residual: bool = False    # x + attn(ln1 x) + mlp(ln2 x): both branches read x (GPT-NeoX, Pythia)
    # -- positional knobs (issue 21, lab/pe_knobs.py); the defaults are the stock schemes --
    rope_scaling: str = "none"         # none | linear (position interpolation) | ntk (NTK-aware base) | yarn
    rope_factor: float = 1.0           # the scaling's factor s (context s × longer)
    rope_original_len: int | None = None  # YaRN: the context the model was trained on; None = max_len
    sinusoidal_base: float = STOCK_BASE   # base of the sinusoidal frequencies
    alibi_slope_scale: float = 1.0     # every ALiBi slope × this
    attn_temperature: float = 1.0      # attention softmax temperature: softmax(scores / T)
    # -- issue 32 families (models/weights/*.py); the defaults change nothing --
    rope_low_freq_factor: float = 1.0  # llama3 scaling: wavelengths above original_len / this are interpolated by rope_factor
    rope_high_freq_factor: float = 4.0  # llama3 scaling: wavelengths below original_len / this keep their frequency
    rope_short_factor: tuple[float, ...] = ()  # longrope: per-pair divisors of the frequencies up to rope_original_len
    rope_long_factor: tuple[float, ...] = ()   # longrope: the divisors beyond rope_original_len
    rope_attn_factor: float | None = None  # cos and sin × this (longrope, YaRN); None = the scaling's own default
    rope_local_base: float | None = None  # RoPE base of the local (sliding-window) layers; None = rope_base (Gemma 3, ModernBERT)
    local_layers: tuple[int, ...] = ()  # layers whose self-attention is a sliding window (Gemma 2/3, ModernBERT)
    local_window: int = 0              # those layers: a query sees keys with |q - k| <= local_window (& causal in a decoder)
    nope_layers: tuple[int, ...] = ()  # layers whose attention has no RoPE (SmolLM3: every fourth)
    qk_norm: str = "none"              # none | head (RMSNorm of each head's q and k: Qwen3, Gemma 3) | full (of all of q, of all of k: OLMo 2)
    attn_scale: float | None = None    # scores = q·k × this; None = 1/√d_head (Gemma 2/3: query_pre_attn_scalar^-½, Granite)
    attn_softcap: float | None = None  # scores = c · tanh(scores / c) before the mask (Gemma 2)
    logit_softcap: float | None = None  # logits = c · tanh(logits / c) (Gemma 2)
    embed_multiplier: float = 1.0      # token embeddings × this (Granite)
    residual_multiplier: float = 1.0   # x + this × sublayer(x) (Granite)
    logit_divisor: float = 1.0         # logits ÷ this (Granite's logits_scaling)
    unembed_bias: bool = False         # the unembedding has a learned bias (Phi-2)
    norm_bias: bool = True             # LayerNorm has a bias (ModernBERT: none)
    d_embed: int | None = None         # width of the embeddings when it differs from d_model: a projection follows (ELECTRA)
    first_attn_norm: bool = True       # False: block 0's attention reads the (normalised) embeddings without a norm (ModernBERT)
    shared_block_norm: bool = False    # parallel residual with one norm read by both branches (Phi-2, StableLM): ln2 is ln1
    embed_scale_rounded: bool = False  # embed_scale's √d_model rounded to the weights' dtype first (Gemma; Marian: exact)

    def __post_init__(self) -> None:
        _check_choice("architecture", self.arch, ARCHS)
        _check_choice("positional encoding", self.positional, POSITIONALS)
        _check_choice("normalisation", self.norm, NORMS)
        _check_choice("norm placement", self.norm_position, NORM_POSITIONS)
        _check_choice("activation", self.activation, ACTIVATIONS)
        _check_choice("output", self.output, OUTPUTS)
        _check_choice("sinusoidal layout", self.sinusoidal_layout, SINUSOIDAL_LAYOUTS)
        _check_choice("RoPE scaling", self.rope_scaling, ROPE_SCALINGS)
        _check_choice("query/key norm", self.qk_norm, QK_NORMS)
        if isinstance(self.attention, dict):  # from JSON
            try:
                object.__setattr__(self, "attention", MaskSpec(**self.attention))
            except TypeError:
                unknown = sorted(set(self.attention) - {f.name for f in dataclasses.fields(MaskSpec)})
                names = _names(unknown)
                raise ConfigError("unknown_fields", f"Unknown attention field(s): {names}.", names=names) from None
        elif isinstance(self.attention, str):
            object.__setattr__(self, "attention", MaskSpec(self.attention))
        elif not isinstance(self.attention, MaskSpec):
            raise ConfigError("attention", "attention must be a pattern name or an object with its settings.")
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_len", "relative_buckets",
                     "relative_max_distance"):
            _whole(self, name, 1)
        for name in ("n_kv_heads", "d_head", "rope_dim", "rope_original_len", "d_embed"):
            _whole(self, name, 1, optional=True)
        _whole(self, "pad_id", 0, optional=True)
        _whole(self, "n_token_types")
        _whole(self, "pos_offset", 0)
        _whole(self, "local_window", 0)
        for name in ("local_layers", "nope_layers"):
            _layers(self, name)
        for name in ("rope_short_factor", "rope_long_factor"):
            _reals(self, name)
        for name in ("rope_local_base", "rope_attn_factor", "attn_scale", "attn_softcap", "logit_softcap"):
            if getattr(self, name) is not None and _real(self, name) <= 0:
                raise ConfigError("positive", f"{name} must be a positive number (got {getattr(self, name)}).",
                                  name=name, value=getattr(self, name))
        if self.local_layers and self.local_window < 1:
            raise ConfigError("local_window", "Sliding-window layers need a window of at least 1 token "
                              f"(local_window is {self.local_window}).", value=self.local_window)
        if self.d_embed is not None and self.output == "logits" and self.tie_embeddings:
            raise ConfigError("d_embed_tied", "A model whose embeddings are narrower than its stream (d_embed) "
                              "cannot tie them to the unembedding.")
        for name in ("bias", "tie_embeddings", "embed_norm", "embed_scale", "norm_plus_one", "parallel_residual",
                     "scale_attention", "unembed_scale", "logit_bias", "unembed_bias", "norm_bias", "first_attn_norm",
                     "shared_block_norm", "embed_scale_rounded"):
            _flag(self, name)
        if self.qkv_bias is not None:
            _flag(self, "qkv_bias")
        if self.parallel_residual and (self.norm_position != "pre" or self.arch != "decoder"):
            raise ConfigError("parallel_residual", "A parallel residual (attention and MLP side by side) needs a "
                              "pre-norm decoder.")
        if self.shared_block_norm and not self.parallel_residual:
            raise ConfigError("shared_block_norm", "One norm for both branches (shared_block_norm) needs a parallel "
                              "residual.")
        if self.norm_position in ("sandwich", "output") and self.arch == "encoder-decoder":
            raise ConfigError("norm_position_seq2seq", f"norm_position {self.norm_position!r} is for single-stack "
                              "models.", value=self.norm_position)
        for name in ("dropout", "norm_eps", "dyt_alpha", "rope_base", "rope_factor", "sinusoidal_base",
                     "alibi_slope_scale", "attn_temperature", "rope_low_freq_factor", "rope_high_freq_factor",
                     "embed_multiplier", "residual_multiplier", "logit_divisor"):
            _real(self, name)
        if self.d_head is None and self.d_model % self.n_heads != 0:
            raise ConfigError(
                "divisible", f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads}) "
                "so that every head gets the same number of dimensions.",
                a="d_model", a_value=self.d_model, b="n_heads", b_value=self.n_heads)
        if self.n_kv_heads is not None and self.n_heads % self.n_kv_heads != 0:
            raise ConfigError(
                "divisible_kv", f"n_heads ({self.n_heads}) must be divisible by n_kv_heads ({self.n_kv_heads}) "
                "so that each key/value head is shared by the same number of query heads.",
                heads=self.n_heads, kv=self.n_kv_heads)
        if self.positional == "rope" and self.rotary_dim % 2 != 0:
            raise ConfigError("rope_even", "RoPE rotates pairs of dimensions, so it needs an even number of dims "
                              f"(got {self.rotary_dim}).", value=self.rotary_dim)
        if self.rope_dim is not None and not 0 < self.rope_dim <= self.head_dim:
            raise ConfigError("rope_dim", f"rope_dim must be between 1 and d_head ({self.head_dim}), got "
                              f"{self.rope_dim}.", value=self.rope_dim, head=self.head_dim)
        if self.positional == "sinusoidal" and self.d_model % 2 != 0:
            raise ConfigError("sinusoidal_even", "Sinusoidal encodings pair sin and cos, so d_model must be even "
                              f"(got {self.d_model}).", value=self.d_model)
        if not 0.0 <= self.dropout < 1.0:
            raise ConfigError("dropout", f"dropout must be in [0, 1) (got {self.dropout}).", value=self.dropout)
        if self.n_token_types < 0:
            raise ConfigError("at_least", f"n_token_types cannot be negative (got {self.n_token_types}).",
                              name="n_token_types", low=0, value=self.n_token_types)
        for name in ("local_layers", "nope_layers"):
            bad = [i for i in getattr(self, name) if not 0 <= i < self.n_layers]
            if bad:
                raise ConfigError("layer_index", f"{name} names layer {bad[0]}, but the model has layers 0 to "
                                  f"{self.n_layers - 1}.", name=name, value=bad[0], n=self.n_layers)
        if self.rope_factor < 1.0:
            raise ConfigError("at_least", f"rope_factor must be at least 1 (got {self.rope_factor}).",
                              name="rope_factor", low=1, value=self.rope_factor)
        for name in ("norm_eps", "rope_base", "sinusoidal_base", "alibi_slope_scale", "attn_temperature",
                     "embed_multiplier", "residual_multiplier", "logit_divisor"):
            if getattr(self, name) > 0:
                continue
            raise ConfigError("positive", f"{name} must be a positive number (got {getattr(self, name)}).",
                              name=name, value=getattr(self, name))

    # ---- derived values -------------------------------------------------------------
    @property
    def head_dim(self) -> int:
        """Width of one attention head."""
        return self.d_head if self.d_head is not None else self.d_model // self.n_heads

    @property
    def has_qkv_bias(self) -> bool:
        """W_Q, W_K and W_V have biases (W_O and the MLP follow `bias`)."""
        return self.bias if self.qkv_bias is None else self.qkv_bias

    @property
    def kv_heads(self) -> int:
        """Number of key/value heads (n_heads for MHA, 1 for MQA)."""
        return self.n_kv_heads if self.n_kv_heads is not None else self.n_heads

    @property
    def rotary_dim(self) -> int:
        return self.rope_dim if self.rope_dim is not None else self.head_dim

    @property
    def embed_dim(self) -> int:
        """Width of the token (and position, segment) embeddings: d_embed, else d_model."""
        return self.d_embed if self.d_embed is not None else self.d_model

    @property
    def final_norm(self) -> bool:
        """A norm after the last block (every placement but post-norm, whose blocks end in one)."""
        return self.norm_position != "post"

    def layer_is_local(self, layer: int) -> bool:
        """Layer `layer` attends through the sliding window (cfg.local_layers)."""
        return layer in self.local_layers

    def layer_has_rope(self, layer: int) -> bool:
        """Layer `layer` rotates its queries and keys (RoPE, and not a NoPE layer)."""
        return self.positional == "rope" and layer not in self.nope_layers

    @property
    def gated(self) -> bool:
        """The feed-forward network has a gate (SwiGLU, GeGLU): three matrices, not two."""
        return self.activation in GATED

    @property
    def attention_kind(self) -> str:
        """'MHA', 'GQA' or 'MQA', for labels."""
        if self.kv_heads == self.n_heads:
            return "MHA"
        return "MQA" if self.kv_heads == 1 else "GQA"

    # ---- serialisation ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["attention"] = self.attention.to_dict()
        for name in ("local_layers", "nope_layers", "rope_short_factor", "rope_long_factor"):
            d[name] = list(d[name])
        return d

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TransformerConfig":
        if not isinstance(d, dict):
            raise ConfigError("config_not_object", "A config must be a JSON object of settings "
                              f"(this one is a {_json_kind(d)}).", kind=_json_kind(d))
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(map(str, set(d) - known))
        if unknown:
            names = _names(unknown)
            raise ConfigError("unknown_fields", f"Unknown config field(s): {names}.", names=names)
        return cls(**d)

    @classmethod
    def from_json(cls, text: str) -> "TransformerConfig":
        try:
            doc = json.loads(text)
        except (ValueError, TypeError, RecursionError):   # not JSON or not UTF-8, a number of over 4,300 digits
            raise ConfigError("config_not_json", "The config is not valid JSON.") from None
        return cls.from_dict(doc)

    def replace(self, **changes: Any) -> "TransformerConfig":
        return dataclasses.replace(self, **changes)


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words (never a Python type name)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {dict: "object", list: "array", str: "string", type(None): "null"}.get(type(value), "value")
