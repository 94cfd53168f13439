"""Before attention: what came before the Transformer's scaled dot-product self-attention,
computed on the walked head and on small trained models (the walk-through's section
"Before attention").

- `score_rows`: four score functions on the SAME query and keys, the walked head's own
  q and k: additive (Bahdanau et al. 2015: v·tanh(W1 q + W2 k), W1, W2, v seeded, not
  trained), dot (Luong et al. 2015), general (q W kᵀ, W seeded) and scaled dot (the
  model's own). `scaling_sweep`: what the 1/√d does to the softmax as the width grows
  (max weight and entropy of random unit-variance q, k, seeded).
- `raw_self_attention`: self-attention with no W_Q/W_K/W_V, softmax(X Xᵀ) X on the
  input embeddings; its score matrix is symmetric and each token's largest score is
  usually itself.
- `GRUSeq2Seq`: a GRU encoder–decoder whose decoder sees the input only through the
  encoder's last hidden state (the fixed-length context vector), and `copy_accuracy`:
  exact-sequence accuracy per input length on a fixed seeded batch of the copy task, for
  it and for a Transformer trained on the same lengths (recipes/before_attention.py).
- `cost_table`: Vaswani et al. (2017) Table 1, per-layer cost, sequential operations and
  maximum path length, with numbers for a length n, width d and kernel k.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.training.tasks import CopyTask, get_task
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint

from .attention import entropy
from .long_memory import softmax_rows

SEED = 0                 # the seeded weights of the additive and general scores
SCORES = ("additive", "dot", "general", "scaled")


# ---- 1. score functions ---------------------------------------------------------------------
@dataclass(frozen=True)
class SeededScores:
    """The seeded parameters of the additive and general scores for width d (said as such:
    untrained, drawn with variance 1/d so the scores have the size of a dot product)."""

    W1: np.ndarray      # [d, d] on the query
    W2: np.ndarray      # [d, d] on the key
    v: np.ndarray       # [d]
    W: np.ndarray       # [d, d] the general score's matrix


def seeded(d: int, seed: int = SEED) -> SeededScores:
    rng = np.random.default_rng(seed)
    s = 1.0 / math.sqrt(d)
    return SeededScores(rng.normal(0, s, (d, d)), rng.normal(0, s, (d, d)), rng.normal(0, 1.0, d),
                        rng.normal(0, s, (d, d)))


def scores(kind: str, q: np.ndarray, keys: np.ndarray, p: SeededScores, scale: float) -> np.ndarray:
    """One row of scores [m] of the query q [d] against keys [m, d]."""
    q = np.asarray(q, dtype=np.float64)
    keys = np.asarray(keys, dtype=np.float64)
    if kind == "additive":                                 # v · tanh(W1 q + W2 k_j)
        return np.tanh(q @ p.W1.T + keys @ p.W2.T) @ p.v
    if kind == "dot":
        return keys @ q
    if kind == "general":                                  # q W k_jᵀ
        return keys @ (p.W.T @ q)
    if kind == "scaled":
        return (keys @ q) * scale
    raise ValueError(f"unknown score function {kind!r}; known: {', '.join(SCORES)}.")


@dataclass(frozen=True)
class ScoreRow:
    kind: str
    scores: np.ndarray     # [m], masked keys -inf
    weights: np.ndarray    # [m]
    max_weight: float
    entropy: float
    top: int               # the key with the largest weight


def score_rows(q: np.ndarray, keys: np.ndarray, allowed: np.ndarray, scale: float,
               seed: int = SEED) -> list[ScoreRow]:
    """Every score function's row on the same q and keys (the allowed keys only)."""
    p = seeded(len(q), seed)
    out = []
    for kind in SCORES:
        s = scores(kind, q, keys, p, scale)
        w = softmax_rows(s, allowed)
        out.append(ScoreRow(kind, np.where(allowed, s, -np.inf), w, float(w.max()), float(entropy(w[None])[0]),
                            int(np.argmax(w))))
    return out


@dataclass(frozen=True)
class SweepPoint:
    d: int
    dot_mean: float           # mean of q·k (stays near 0)
    dot_std: float            # spread of q·k over the keys (grows like √d)
    max_dot: float            # mean over queries of the largest softmax weight, unscaled
    max_scaled: float         # the same with q·k/√d
    entropy_dot: float        # mean entropy (nats) of the unscaled rows
    entropy_scaled: float


def scaling_sweep(n_keys: int, widths=(4, 16, 64, 256, 1024), n_queries: int = 64, seed: int = SEED
                  ) -> list[SweepPoint]:
    """Random q, k with unit-variance entries (seeded): as d grows the unscaled dot
    products spread like √d, the softmax tends to one-hot (max weight → 1, entropy → 0);
    divided by √d the rows keep the same shape at every width."""
    rng = np.random.default_rng(seed)
    out = []
    for d in widths:
        q = rng.normal(size=(n_queries, d))
        k = rng.normal(size=(n_keys, d))
        dots = q @ k.T
        w, ws = softmax_rows(dots, True), softmax_rows(dots / math.sqrt(d), True)
        out.append(SweepPoint(d, float(dots.mean()), float(dots.std()), float(w.max(-1).mean()), float(ws.max(-1).mean()),
                              float(entropy(w).mean()), float(entropy(ws).mean())))
    return out


# ---- 2. self-attention without parameters ------------------------------------------------------
@dataclass(frozen=True)
class RawAttention:
    scores: np.ndarray        # [n, n] X Xᵀ (symmetric)
    weights: np.ndarray       # [n, n] softmax rows (mask applied)
    out: np.ndarray           # [n, d] weights @ X
    asymmetry: float          # max |S - Sᵀ| (0 up to rounding)
    self_top: float           # share of rows whose largest weight is on the token itself
    diagonal: float           # mean weight a token gives itself
    uniform: float            # mean 1/(number of allowed keys): what a uniform row would give itself


def raw_self_attention(x: np.ndarray, allowed: np.ndarray) -> RawAttention:
    """softmax(X Xᵀ) X with no projections, on embeddings x [n, d] (mask [n, n])."""
    x = np.asarray(x, dtype=np.float64)
    s = x @ x.T
    w = softmax_rows(s, allowed)
    rows = np.arange(len(x))
    return RawAttention(s, w, w @ x, float(np.abs(s - s.T).max()), float(np.mean(w.argmax(-1) == rows)),
                        float(w[rows, rows].mean()), float(np.mean(1.0 / allowed.sum(-1))))


# ---- 3. the fixed-length context vector --------------------------------------------------------
class GRUSeq2Seq(nn.Module):
    """A GRU encoder–decoder without attention (Cho et al. 2014; Sutskever et al. 2014):
    the encoder reads the input symbols, its last hidden state is the context vector, the
    only thing the decoder is given about the input. The decoder starts from it and reads
    "=" then the answer so far (teacher forcing), predicting the next answer symbol."""

    def __init__(self, vocab: int, hidden: int = 64, embed: int = 32) -> None:
        super().__init__()
        self.vocab, self.hidden, self.embed = vocab, hidden, embed
        self.emb = nn.Embedding(vocab, embed)
        self.encoder = nn.GRU(embed, hidden, batch_first=True)
        self.decoder = nn.GRU(embed, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def context(self, src: torch.Tensor) -> torch.Tensor:
        """[b, hidden]: the encoder's last hidden state (the fixed-length context vector)."""
        _, h = self.encoder(self.emb(src))
        return h[0]

    def forward(self, src: torch.Tensor, dec_in: torch.Tensor) -> torch.Tensor:
        """Logits [b, m, vocab] of the next answer symbol at each decoder input."""
        y, _ = self.decoder(self.emb(dec_in), self.context(src)[None])
        return self.out(y)


@dataclass
class CopyBatch:
    """Examples of the copy task of one input length, laid out for both models."""

    length: int
    src: torch.Tensor          # [b, n] the input symbols (GRU encoder)
    dec_in: torch.Tensor       # [b, n] "=" then y_1 … y_{n-1} (GRU decoder)
    answer: torch.Tensor       # [b, n] y_1 … y_n
    ids: torch.Tensor          # [b, 2n+2] <bos> x = y (the Transformer's sequence)


def copy_batch(task: CopyTask, n: int, length: int, rng: np.random.Generator) -> CopyBatch:
    """n seeded copy examples of `length` symbols (the task's own sampler and tokenizer)."""
    exs = [task.example(rng, length) for _ in range(n)]
    ids = torch.tensor([e.ids for e in exs])                 # every example has the same length
    sep = 1 + length                                         # position of "=" (after <bos> and x)
    return CopyBatch(length, ids[:, 1:sep], ids[:, sep:sep + length], ids[:, sep + 1:], ids)


def copy_task(max_len: int) -> CopyTask:
    """The copy task on inputs of 2..max_len symbols, the lengths both models train on."""
    return get_task("copy", train_len=max_len, sample_from=2)


@torch.no_grad()
def predictions(model: nn.Module, b: CopyBatch) -> torch.Tensor:
    """[b, n] each answer position's argmax (teacher forcing: the true answer so far)."""
    model.eval()
    if isinstance(model, GRUSeq2Seq):
        return model(b.src, b.dec_in).argmax(-1)
    logits = model(b.ids)                                    # a decoder Transformer
    sep = 1 + b.length
    return logits[:, sep:sep + b.length].argmax(-1)


def exact_accuracy(pred: torch.Tensor, answer: torch.Tensor) -> float:
    """Share of examples with every answer symbol right. Under teacher forcing this equals
    greedy decoding's: when each argmax is right given the true prefix, greedy writes it."""
    return float((pred == answer).all(-1).float().mean())


def eval_batches(lengths, n: int = 200, seed: int = 1234, max_len: int | None = None) -> list[CopyBatch]:
    """The fixed seeded evaluation batches, one per length."""
    task = copy_task(max_len or max(lengths))
    rng = np.random.default_rng(seed)
    return [copy_batch(task, n, L, rng) for L in lengths]


def copy_accuracy(model: nn.Module, batches: list[CopyBatch]) -> list[float]:
    """Exact-sequence accuracy per batch (per length)."""
    return [exact_accuracy(predictions(model, b), b.answer) for b in batches]


# the shipped pair (recipes/before_attention.py trains them): a subfolder, not catalogue models
OUT = CHECKPOINT_DIR / "before-attention"
GRU_STEM, TRANSFORMER_STEM = "gru-copy", "transformer-copy"
MAX_LEN = 16                 # both models trained on inputs of 2..MAX_LEN symbols
COMMAND = "python -m cli.before_attention"


def load_gru(out_dir: Path = OUT) -> tuple[GRUSeq2Seq, dict]:
    """The shipped GRU encoder–decoder and its card (OSError when the files are missing)."""
    from safetensors.torch import load_file

    meta = json.loads((out_dir / f"{GRU_STEM}.json").read_text())
    model = GRUSeq2Seq(meta["vocab"], hidden=meta["hidden"], embed=meta["embed"])
    state = load_file(str(out_dir / f"{GRU_STEM}.safetensors"))
    model.load_state_dict({k: v.float() for k, v in state.items()})          # stored as fp16
    return model.eval(), meta


def load_transformer(out_dir: Path = OUT):
    """The shipped Transformer of the same task and its card."""
    model, _, meta = load_checkpoint(out_dir / f"{TRANSFORMER_STEM}.json")
    return model.eval(), meta


# ---- 4. Vaswani et al. (2017) Table 1 ---------------------------------------------------------
LAYERS = ("self_attention", "recurrent", "convolutional", "restricted")


@dataclass(frozen=True)
class CostRow:
    layer: str
    complexity: str           # per layer, in O()
    sequential: str
    path: str
    ops: float                # the complexity's expression at n, d, k (r)
    steps: int                # sequential operations at n
    hops: int                 # maximum path length at n


def cost_table(n: int, d: int, k: int = 3, r: int | None = None) -> list[CostRow]:
    """Table 1 of the Transformer paper with n (length), d (width), k (kernel) and r (the
    restricted self-attention's neighbourhood) filled in. The convolution's path is
    log_k(n) for dilated convolutions (n/k contiguous kernels; we give the dilated one,
    as the table does)."""
    if n < 1 or d < 1 or k < 2:
        raise ValueError("n and d must be at least 1 and the kernel at least 2.")
    r = r or k
    return [
        CostRow("self_attention", "O(n²·d)", "O(1)", "O(1)", float(n) ** 2 * d, 1, 1),
        CostRow("recurrent", "O(n·d²)", "O(n)", "O(n)", float(n) * d ** 2, n, n),
        CostRow("convolutional", "O(k·n·d²)", "O(1)", "O(logₖ n)", float(k) * n * d ** 2, 1,
                max(1, math.ceil(math.log(n, k) - 1e-12)) if n > 1 else 1),
        CostRow("restricted", "O(r·n·d)", "O(1)", "O(n/r)", float(r) * n * d, 1, max(1, math.ceil(n / r))),
    ]
