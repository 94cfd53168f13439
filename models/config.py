"""Configuration of a Glassbox Transformer.

`TransformerConfig` is a frozen dataclass: one object describes a whole model, it is
hashable (so the app can cache on it) and it round-trips through JSON (`to_dict` /
`from_dict`) so checkpoints and traces carry it. Every invalid combination raises a
`ValueError` whose message a student can act on.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

ARCHS = ("encoder", "decoder", "encoder-decoder")
POSITIONALS = ("none", "sinusoidal", "learned", "rope", "alibi", "relative")
NORMS = ("layernorm", "rmsnorm", "dyt")
NORM_POSITIONS = ("pre", "post")
ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "swiglu")
OUTPUTS = ("logits", "hidden")
MASK_KINDS = ("full", "causal", "local", "dilated", "strided", "longformer", "bigbird", "prefix")


def _check_choice(what: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"Unknown {what} {value!r}: choose one of {', '.join(allowed)}.")


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
        if self.window < 1:
            raise ValueError(f"The attention window must be at least 1 token (got {self.window}).")
        if self.dilation < 1:
            raise ValueError(f"The dilation must be at least 1 (got {self.dilation}).")
        if self.stride < 1:
            raise ValueError(f"The stride must be at least 1 (got {self.stride}).")
        if self.n_random < 0:
            raise ValueError(f"BigBird needs zero or more random keys per query (got {self.n_random}).")
        if self.prefix_len < 0:
            raise ValueError(f"The prefix length cannot be negative (got {self.prefix_len}).")
        # lists from JSON become tuples so the spec stays hashable
        object.__setattr__(self, "global_tokens", tuple(int(g) for g in self.global_tokens))

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
    activation: str = "relu"           # relu | gelu | gelu_tanh | swiglu
    attention: MaskSpec = field(default_factory=MaskSpec)  # the self-attention pattern
    d_head: int | None = None          # width of one head; None = d_model // n_heads
    bias: bool = True                  # biases in attention and FFN linears (LLaMA: False)
    tie_embeddings: bool = True        # unembedding shares the token-embedding matrix
    dropout: float = 0.0               # dropout on embeddings, attention probs and sublayer outputs (train only)
    norm_eps: float = 1e-5             # epsilon inside LayerNorm / RMSNorm
    dyt_alpha: float = 0.5             # initial alpha of DyT: y = w * tanh(alpha * x) + b
    embed_norm: bool = False           # a norm right after the embeddings (BERT)
    n_token_types: int = 0             # segment (token-type) embeddings, 0 = none (BERT: 2)
    rope_base: float = 10000.0         # base of the RoPE frequencies
    rope_dim: int | None = None        # dims of each head that RoPE rotates; None = all of d_head
    relative_buckets: int = 32         # T5 relative-position buckets
    relative_max_distance: int = 128   # T5: distances beyond this share the last bucket
    output: str = "logits"             # logits (unembed to the vocabulary) | hidden (final hidden state)
    pad_id: int | None = None          # id of the padding token, if the tokenizer has one

    def __post_init__(self) -> None:
        _check_choice("architecture", self.arch, ARCHS)
        _check_choice("positional encoding", self.positional, POSITIONALS)
        _check_choice("normalisation", self.norm, NORMS)
        _check_choice("norm placement", self.norm_position, NORM_POSITIONS)
        _check_choice("activation", self.activation, ACTIVATIONS)
        _check_choice("output", self.output, OUTPUTS)
        if isinstance(self.attention, dict):  # from JSON
            object.__setattr__(self, "attention", MaskSpec(**self.attention))
        elif isinstance(self.attention, str):
            object.__setattr__(self, "attention", MaskSpec(self.attention))
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_len"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be a positive number (got {getattr(self, name)}).")
        if self.d_head is None and self.d_model % self.n_heads != 0:
            raise ValueError(
                f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads}) "
                "so that every head gets the same number of dimensions."
            )
        if self.n_kv_heads is not None:
            if self.n_kv_heads < 1 or self.n_heads % self.n_kv_heads != 0:
                raise ValueError(
                    f"n_heads ({self.n_heads}) must be divisible by n_kv_heads ({self.n_kv_heads}) "
                    "so that each key/value head is shared by the same number of query heads."
                )
        if self.positional == "rope" and self.rotary_dim % 2 != 0:
            raise ValueError(f"RoPE rotates pairs of dimensions, so it needs an even number of dims (got {self.rotary_dim}).")
        if self.rope_dim is not None and not 0 < self.rope_dim <= self.head_dim:
            raise ValueError(f"rope_dim must be between 1 and d_head ({self.head_dim}), got {self.rope_dim}.")
        if self.positional == "sinusoidal" and self.d_model % 2 != 0:
            raise ValueError(f"Sinusoidal encodings pair sin and cos, so d_model must be even (got {self.d_model}).")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1) (got {self.dropout}).")
        if self.n_token_types < 0:
            raise ValueError(f"n_token_types cannot be negative (got {self.n_token_types}).")

    # ---- derived values -------------------------------------------------------------
    @property
    def head_dim(self) -> int:
        """Width of one attention head."""
        return self.d_head if self.d_head is not None else self.d_model // self.n_heads

    @property
    def kv_heads(self) -> int:
        """Number of key/value heads (n_heads for MHA, 1 for MQA)."""
        return self.n_kv_heads if self.n_kv_heads is not None else self.n_heads

    @property
    def rotary_dim(self) -> int:
        return self.rope_dim if self.rope_dim is not None else self.head_dim

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
        return d

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TransformerConfig":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"Unknown config field(s): {', '.join(unknown)}.")
        return cls(**d)

    @classmethod
    def from_json(cls, text: str) -> "TransformerConfig":
        return cls.from_dict(json.loads(text))

    def replace(self, **changes: Any) -> "TransformerConfig":
        return dataclasses.replace(self, **changes)
