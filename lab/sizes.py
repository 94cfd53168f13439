"""How many parameters a Transformer of a given shape has, part by part, and how many bytes
its KV cache holds per token: the arithmetic behind "GPT-2 small has 124 M parameters"
(the size calculator of the FFN page's *Size & parameters* view). The KV cache of a shape is
`lab.kv.kv_cache_bytes(shape, context)` (a Shape has the numbers it reads).

Plain integers, no torch. `shape_of` reads a shape from one of our configs, so the loaded
model's own count (`lab.ffn.parameter_breakdown`) checks the formula; the tests also check
it against transformers' GPT-2, LLaMA and BERT built on the meta device (no weights).

What the formula counts, per stack (an encoder-decoder has two, sharing one token table):
token embeddings vocab x d (once; the unembedding too when it is not tied), a learned position
table, segment (token-type) embeddings, T5's relative-position buckets x heads; per layer the
attention projections W_Q, W_K, W_V (n_kv_heads of them for GQA/MQA) and W_O with their
biases, the decoder's cross-attention in an encoder-decoder, the FFN's W_in (and W_gate when
gated) and W_out, and each block's norms; a norm after the embeddings (BERT) and after the
last block (pre-LN). Sinusoidal, RoPE and ALiBi positions have no parameters. Family details
beyond these (query/key norms, sandwich norms, embedding projections, a bias on the logits)
are left out: for such a model the page says the formula and the model differ.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ARCHS = ("decoder", "encoder", "encoder-decoder")
NORMS = ("layernorm", "rmsnorm", "layernorm_nobias", "dyt")
PARTS = ("embeddings", "attention", "ffn", "norms")     # lab.ffn.parameter_breakdown's names


@dataclass(frozen=True)
class Shape:
    """The numbers that decide a Transformer's parameter count (n_layers per stack)."""

    n_layers: int
    d_model: int
    n_heads: int
    d_ff: int
    vocab: int
    arch: str = "decoder"             # decoder | encoder | encoder-decoder
    n_kv_heads: int | None = None     # key/value heads: None = n_heads (MHA), 1 = MQA, else GQA
    d_head: int | None = None         # None = d_model // n_heads
    gated: bool = False               # SwiGLU / GeGLU: a gate matrix beside W_in
    bias: bool = True                 # biases in the attention and FFN linears
    norm: str = "layernorm"           # layernorm (weight and bias) | rmsnorm (weight) | layernorm_nobias | dyt
    final_norm: bool = True           # a norm after the last block (pre-LN; post-LN blocks end in one)
    embed_norm: bool = False          # a norm right after the embeddings (BERT)
    positions: int = 0                # rows of a learned position table; 0 = sinusoidal, RoPE, ALiBi or none
    relative_buckets: int = 0         # T5-style relative-position buckets (one bias per bucket and head)
    token_types: int = 0              # segment embeddings (BERT: 2)
    tied: bool = True                 # the unembedding is the token-embedding matrix
    unembed: bool = True              # an output layer to the vocabulary (False: hidden states out)

    def __post_init__(self) -> None:
        for name in ("n_layers", "d_model", "n_heads", "d_ff", "vocab"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be at least 1 (got {getattr(self, name)}).")
        for name in ("positions", "relative_buckets", "token_types"):
            if int(getattr(self, name)) < 0:
                raise ValueError(f"{name} cannot be negative (got {getattr(self, name)}).")
        if self.arch not in ARCHS:
            raise ValueError(f"arch must be one of {', '.join(ARCHS)} (got {self.arch!r}).")
        if self.norm not in NORMS:
            raise ValueError(f"norm must be one of {', '.join(NORMS)} (got {self.norm!r}).")
        if self.d_head is None and self.d_model % self.n_heads:
            raise ValueError(f"d_model {self.d_model} is not a multiple of {self.n_heads} heads; give d_head.")
        if not 1 <= self.kv_heads <= self.n_heads or self.n_heads % self.kv_heads:
            raise ValueError(f"{self.kv_heads} key/value heads cannot serve {self.n_heads} query heads "
                             "(the query heads must split evenly among them).")

    @property
    def head_dim(self) -> int:
        return int(self.d_head) if self.d_head is not None else self.d_model // self.n_heads

    @property
    def kv_heads(self) -> int:
        return int(self.n_kv_heads) if self.n_kv_heads is not None else self.n_heads

    @property
    def stacks(self) -> tuple[str, ...]:
        return ("encoder", "decoder") if self.arch == "encoder-decoder" else (self.arch,)


@dataclass(frozen=True)
class Count:
    """A shape's parameters: `parts` (PARTS, summing to `total`) and the pieces inside them."""

    parts: dict[str, int]
    total: int
    token_table: int          # vocab x d_model
    unembedding: int          # the output layer's own matrix (0 when tied or absent)
    position_table: int       # learned positions, segment embeddings and relative buckets, all stacks
    attention_layer: int      # one self-attention layer: W_Q, W_K, W_V, W_O and their biases
    ffn_layer: int            # one FFN: W_in (W_gate) W_out and their biases
    layers: int               # blocks in all stacks


def norm_params(shape: Shape, width: int | None = None) -> int:
    """Parameters of one norm over `width` dims (default d_model)."""
    d = shape.d_model if width is None else width
    return {"layernorm": 2 * d, "dyt": 2 * d + 1}.get(shape.norm, d)      # DyT: w, b and one alpha


def attention_params(shape: Shape) -> int:
    """One attention layer: W_Q [d, h*dh], W_K and W_V [d, kv*dh] each, W_O [h*dh, d], and biases."""
    d, q, kv = shape.d_model, shape.n_heads * shape.head_dim, shape.kv_heads * shape.head_dim
    weights = d * q + 2 * d * kv + q * d
    return weights + ((q + 2 * kv + d) if shape.bias else 0)


def ffn_params(shape: Shape) -> int:
    """One FFN: W_in [d, d_ff] (and W_gate when gated), W_out [d_ff, d], and biases."""
    d, ff, n_in = shape.d_model, shape.d_ff, 2 if shape.gated else 1
    return n_in * d * ff + ff * d + ((n_in * ff + d) if shape.bias else 0)


def count(shape: Shape) -> Count:
    """The parameters of `shape`, part by part (a shared tensor counted once)."""
    d = shape.d_model
    token = shape.vocab * d
    unembedding = shape.vocab * d if shape.unembed and not shape.tied else 0
    per_stack_positions = shape.positions * d + shape.token_types * d + shape.relative_buckets * shape.n_heads
    positions = per_stack_positions * len(shape.stacks)
    attn, ffn = attention_params(shape), ffn_params(shape)
    attention = norms = 0
    for stack in shape.stacks:
        cross = stack == "decoder" and shape.arch == "encoder-decoder"
        attention += shape.n_layers * attn * (2 if cross else 1)
        norms += shape.n_layers * norm_params(shape) * (3 if cross else 2)
        norms += norm_params(shape) * (int(shape.final_norm) + int(shape.embed_norm))
    parts = {"embeddings": token + unembedding + positions, "attention": attention,
             "ffn": shape.n_layers * len(shape.stacks) * ffn, "norms": norms}
    return Count(parts, sum(parts.values()), token, unembedding, positions, attn, ffn,
                 shape.n_layers * len(shape.stacks))


def single_vs_multi_head(d_model: int, n_heads: int) -> dict[str, int]:
    """The Q/K/V projections of one head of width d (3 d x d matrices) against h heads of
    width d/h (3 h matrices d x d/h): the same 3d^2 numbers; W_O adds d^2 (weights only)."""
    if d_model % n_heads:
        raise ValueError(f"d_model {d_model} is not a multiple of {n_heads} heads.")
    return {"single": 3 * d_model * d_model, "multi": 3 * n_heads * d_model * (d_model // n_heads),
            "w_o": d_model * d_model}


# ---- named models ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Preset:
    """A published model's shape and the size its paper gives (`paper`, in parameters; its name
    in each language is the UI's string sz_name_<key>).
    `note`: how that figure relates to the count: "rounded"; "corrected" (GPT-2: the released
    checkpoints have the counts this formula gives); "unspecified" (the paper does not say
    what it counted)."""

    shape: Shape
    paper: int
    source: str
    note: str = "rounded"


PRESETS: dict[str, Preset] = {
    # a 37,000-token vocabulary shared by both embeddings and the output layer (one table)
    "transformer_base": Preset(Shape(6, 512, 8, 2048, 37000, arch="encoder-decoder", final_norm=False),
                               65_000_000, "Vaswani et al. 2017, Table 3", note="unspecified"),
    "gpt2": Preset(Shape(12, 768, 12, 3072, 50257, positions=1024), 117_000_000,
                   "Radford et al. 2019, Table 2", note="corrected"),
    "gpt2_medium": Preset(Shape(24, 1024, 16, 4096, 50257, positions=1024), 345_000_000,
                          "Radford et al. 2019, Table 2", note="corrected"),
    "gpt2_large": Preset(Shape(36, 1280, 20, 5120, 50257, positions=1024), 762_000_000,
                         "Radford et al. 2019, Table 2", note="corrected"),
    "gpt2_xl": Preset(Shape(48, 1600, 25, 6400, 50257, positions=1024), 1_542_000_000,
                      "Radford et al. 2019, Table 2", note="corrected"),
    "gpt3": Preset(Shape(96, 12288, 96, 49152, 50257, positions=2048), 175_000_000_000,
                   "Brown et al. 2020, Table 2.1"),
    "llama_13b": Preset(Shape(40, 5120, 40, 13824, 32000, gated=True, bias=False, norm="rmsnorm", tied=False),
                        13_000_000_000, "Touvron et al. 2023, Table 2"),
}


def shape_of(cfg: Any) -> Shape:
    """The shape of one of our models' configs (models/config.py TransformerConfig)."""
    norm = cfg.norm if cfg.norm in ("rmsnorm", "dyt") else "layernorm" if cfg.norm_bias else "layernorm_nobias"
    d_head = None if cfg.d_head in (None, cfg.d_model // cfg.n_heads) else cfg.d_head
    return Shape(
        n_layers=cfg.n_layers, d_model=cfg.d_model, n_heads=cfg.n_heads, d_ff=cfg.d_ff, vocab=cfg.vocab_size,
        arch=cfg.arch, n_kv_heads=None if cfg.n_kv_heads == cfg.n_heads else cfg.n_kv_heads, d_head=d_head, gated=bool(cfg.gated), bias=bool(cfg.bias),
        norm=norm, final_norm=cfg.norm_position != "post", embed_norm=bool(cfg.embed_norm),
        positions=(cfg.max_len + cfg.pos_offset) if cfg.positional == "learned" else 0,
        relative_buckets=cfg.relative_buckets if cfg.positional == "relative" else 0,
        token_types=cfg.n_token_types, tied=bool(cfg.tie_embeddings), unembed=cfg.output == "logits",
    )
