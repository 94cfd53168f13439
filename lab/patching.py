"""Activation patching: run text B (corrupted) with one activation taken from text A
(clean), and measure how much of A's behaviour comes back.

Meng et al. 2022 ("causal tracing"), Wang et al. 2022 (the IOI circuit); TransformerLens's
`patching` module. Both texts must have the same number of tokens (an activation at
position p of A replaces the one at position p of B). A metric m reads one output
position; the recovered fraction of a patch is

    recovered = (m(patched) − m(B)) / (m(A) − m(B)),

1 when the patch brings back all of A's behaviour, 0 when it changes nothing.
Metrics: the logit difference between two tokens, the probability of a token, the KL
divergence from A's distribution (as −KL, so that A scores 0 and higher is closer to A),
and, for models without an LM head, the distance to A's final hidden state (as −‖h − h_A‖).

Sweeps patch one site at a time: the residual stream entering each layer (and leaving
the last) at each position, each attention or MLP output at each position, and each
head's output z at every position. The patched runs of one layer go through the model as
one batch (one row per patched position or head), and only the position the metric
reads is unembedded (`Transformer.forward(out_positions=...)`): docs/benchmarks.md,
"Activation patching", gives the cost as a ratio to one forward pass.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import torch

from models.errors import Refused
from models.hooks import hooks
from models.trace import Trace, act_name
from models.transformer import Transformer

SITES = ("resid", "attn_out", "mlp_out", "head")
METRICS = ("logit_diff", "prob", "kl", "hidden")
# gate(model, fn, n_tokens) runs one pass fn(model); the app passes its run gate (ui/serving)
Gate = Callable[[Transformer, Callable[[Transformer], Any], int], Any]
Progress = Callable[[int, int], None]


def direct(model: Transformer, fn: Callable[[Transformer], Any], n_tokens: int) -> Any:
    """The gate of a notebook: run the pass as it is."""
    return fn(model)


def metrics_for(model: Transformer) -> tuple[str, ...]:
    """The metrics that apply: the three logit metrics with an LM head, else the hidden state's."""
    return METRICS[:3] if model.cfg.output == "logits" else ("hidden",)


@dataclass(frozen=True)
class Metric:
    """What a run is scored by, at one output position."""

    kind: str                    # logit_diff | prob | kl | hidden
    position: int
    token: int | None = None     # logit_diff: the answer A favours; prob: the token
    other: int | None = None     # logit_diff: the answer B favours

    def __post_init__(self) -> None:
        if self.kind not in METRICS:
            raise ValueError(f"Unknown metric {self.kind!r}: use one of {', '.join(METRICS)}.")
        if self.kind in ("logit_diff", "prob") and self.token is None:
            raise ValueError(f"The {self.kind} metric needs a token.")
        if self.kind == "logit_diff" and self.other is None:
            raise ValueError("The logit difference needs a second token.")

    def of(self, out: torch.Tensor, clean: torch.Tensor) -> torch.Tensor:
        """The metric of every run: out [b, vocab] (logits) or [b, d] (hidden states);
        clean: A's output at the same position [vocab or d]. Returns [b] float64."""
        out, clean = out.double(), clean.double()
        if self.kind == "logit_diff":
            return out[:, self.token] - out[:, self.other]
        if self.kind == "prob":
            return out.softmax(-1)[:, self.token]
        if self.kind == "kl":
            lp_a, lp = clean.log_softmax(-1), out.log_softmax(-1)
            return -(lp_a.exp() * (lp_a - lp)).sum(-1).clamp_min(0)
        return -(out - clean).norm(dim=-1)


def recovered(value: np.ndarray | float, clean: float, corrupted: float) -> np.ndarray:
    """(m − m(B)) / (m(A) − m(B)); NaN where A and B score the same (nothing to recover)."""
    span = clean - corrupted
    if abs(span) <= 1e-9 * max(1.0, abs(clean)):
        return np.full(np.shape(value), np.nan)
    return (np.asarray(value, dtype=np.float64) - corrupted) / span


# ---- single patched runs ---------------------------------------------------------------------
@dataclass(frozen=True)
class Patch:
    """Take A's `kind` of `layer` at `positions` (None: all) into B's run; for kind "z",
    only head `head` (None: every head)."""

    kind: str                                # resid_pre | resid_mid | resid_post | attn_out | mlp_out | z
    layer: int
    positions: tuple[int, ...] | None = None
    head: int | None = None


def check_pair(model: Transformer, ids_a: Sequence[int], ids_b: Sequence[int]) -> None:
    """Refuse (with a sentence) a pair that cannot be patched position by position."""
    if model.cfg.arch == "encoder-decoder":
        raise Refused("patching_two_stacks", "Activation patching here compares two texts of a single-stack model "
                      "(encoder or decoder); an encoder-decoder reads two sequences.")
    if len(ids_a) != len(ids_b):
        raise Refused("lengths_differ", f"Text A has {len(ids_a)} tokens and text B has {len(ids_b)}: patching "
                      "replaces position p of B by position p of A, so both need the same number.",
                      a=len(ids_a), b=len(ids_b))


def _replace(value: torch.Tensor, clean: torch.Tensor, rows: Sequence[int | None],
             heads: Sequence[int | None] | None) -> torch.Tensor:
    """value [b, pos, ...] of B's batch with row i's position rows[i] (None: all) taken
    from clean [pos, ...]; with heads (z [b, pos, head, dh]): only head heads[i]."""
    value = value.clone()
    for i, pos in enumerate(rows):
        where = slice(None) if pos is None else pos
        if heads is None or heads[i] is None:
            value[i, where] = clean[where]
        else:
            value[i, where, heads[i]] = clean[where, heads[i]]
    return value


def clean_run(model: Transformer, ids_a: Sequence[int], names: list[str], position: int,
              gate: Gate = direct) -> tuple[torch.Tensor, Trace]:
    """A's output at `position` [vocab or d] (unembedded alone, as the patched runs are:
    the same arithmetic, so a patch that restores A restores it bit for bit) and the
    activations `names` to patch from."""
    def fn(m: Transformer):
        out, trace = m.run_with_cache(ids_a, names=names, out_positions=[position])
        return out[0, 0], trace
    return gate(model, fn, len(ids_a))


@torch.no_grad()
def run_patched(model: Transformer, ids_b: Sequence[int], clean: Trace, patches: Sequence[Patch],
                out_positions: Sequence[int] | None = None, gate: Gate = direct) -> torch.Tensor:
    """B's output [1, pos, ...] (or at `out_positions`) with every patch in place at once."""
    fwd = []
    for p in patches:
        name = act_name(p.kind, p.layer)
        src = clean[name][0]

        def fn(value: torch.Tensor, _name: str, p: Patch = p, src: torch.Tensor = src) -> torch.Tensor:
            rows = [None] if p.positions is None else [list(p.positions)]
            return _replace(value, src, rows, None if p.head is None else [p.head])
        fwd.append((name, fn))

    def attempt(m: Transformer) -> torch.Tensor:
        with torch.inference_mode(), hooks(m, fwd):
            return m(ids_b, out_positions=out_positions)
    return gate(model, attempt, len(ids_b))


# ---- sweeps ------------------------------------------------------------------------------------
@dataclass
class Sweep:
    """One site patched at every (row, column): rows are layers ("final": the stream
    leaving the last layer), columns positions (or heads, for site "head")."""

    site: str                    # resid | attn_out | mlp_out | head
    rows: list[str]              # "L0", "L1", ..., ("final")
    values: np.ndarray           # [rows, cols] the metric of each patched run
    clean: float                 # the metric on A
    corrupted: float             # the metric on B
    runs: int                    # patched runs
    passes: int                  # batched forward passes they took (A and B's not counted)

    @property
    def recovered(self) -> np.ndarray:
        return recovered(self.values, self.clean, self.corrupted)


def sweep_patches(model: Transformer, site: str) -> list[tuple[str, str, int]]:
    """(row label, activation kind, layer) of every row of a sweep over `site`."""
    if site not in SITES:
        raise ValueError(f"Unknown site {site!r}: use one of {', '.join(SITES)}.")
    n = model.cfg.n_layers
    if site == "resid":
        return [(f"L{i}", "resid_pre", i) for i in range(n)] + [("final", "resid_post", n - 1)]
    kind = {"head": "z", "attn_out": "attn_out", "mlp_out": "mlp_out"}[site]
    return [(f"L{i}", kind, i) for i in range(n)]


def sweep_size(model: Transformer, site: str, n_tokens: int) -> tuple[int, int]:
    """(patched runs, multiply-adds they take, estimated) of a sweep over `site` on texts
    of n_tokens: each run reads every token through every block's weights once; the
    embeddings are look-ups and only one position is unembedded, so they are left out."""
    runs = len(sweep_patches(model, site)) * (model.cfg.n_heads if site == "head" else n_tokens)
    blocks = sum(p.numel() for name, p in model.named_parameters() if ".blocks." in f".{name}")
    return runs, runs * n_tokens * blocks


@torch.no_grad()
def sweep(model: Transformer, ids_a: Sequence[int], ids_b: Sequence[int], site: str, metric: Metric, *,
          batch: int = 64, gate: Gate = direct, progress: Progress | None = None) -> Sweep:
    """Patch `site` from A into B at every layer and position (every layer and head for
    site "head", each head's z at all positions) and score each run with `metric`.
    The runs of a layer go through the model `batch` at a time (one row per run)."""
    check_pair(model, ids_a, ids_b)
    n = len(ids_a)
    if not 0 <= metric.position < n:
        raise ValueError(f"Position {metric.position} does not exist: the texts have positions 0..{n - 1}.")
    rows = sweep_patches(model, site)
    names = sorted({act_name(kind, layer) for _, kind, layer in rows})
    out_a, trace_a = clean_run(model, ids_a, names, metric.position, gate)
    out_b = run_patched(model, ids_b, trace_a, [], [metric.position], gate)[0, 0]
    clean, corrupted = float(metric.of(out_a[None], out_a)[0]), float(metric.of(out_b[None], out_a)[0])
    cols = model.cfg.n_heads if site == "head" else n
    values = np.zeros((len(rows), cols))
    total, done, passes = len(rows) * cols, 0, 0
    ids = torch.as_tensor(list(ids_b), dtype=torch.long)
    batch = max(1, int(batch))
    for r, (_, kind, layer) in enumerate(rows):
        name = act_name(kind, layer)
        src = trace_a[name][0]
        for start in range(0, cols, batch):
            chunk = list(range(start, min(cols, start + batch)))
            if site == "head":
                where, heads = [None] * len(chunk), chunk
            else:
                where, heads = chunk, None

            def patch(value: torch.Tensor, _name: str, where=where, heads=heads, src=src) -> torch.Tensor:
                return _replace(value, src, where, heads)

            def attempt(m: Transformer, patch=patch, c: int = len(chunk)) -> torch.Tensor:
                with torch.inference_mode(), hooks(m, [(name, patch)]):
                    return m(ids.expand(c, n).to(m.device), out_positions=[metric.position])[:, 0]

            out = gate(model, attempt, n * len(chunk))
            values[r, chunk] = metric.of(out, out_a.to(out.device)).cpu().numpy()
            passes += 1
            done += len(chunk)
            if progress is not None:
                progress(done, total)
    return Sweep(site, [label for label, _, _ in rows], values, clean, corrupted, total, passes)
