"""Pre-LN vs Post-LN in training, and the gradient on the residual path (the residual page's
*Training: Pre-LN vs Post-LN* section).

- The shipped experiment (recipes/ln_training.py makes it): the same small decoder trained
  four times on the reverse task with the project's trainer, norm before or after each
  sub-layer, with or without a learning-rate warm-up; per run the loss of every step and the
  gradient norm of every layer's parameters at a few steps, on one fixed batch.
  `load_results` reads and checks it; `summary` condenses a run.
- `layer_grad_norms`: the loss gradient's norm per layer (embedding, each block, the head) on
  one batch, before any clipping; the recipe calls it during training.
- `residual_gradients`: on one sequence, the loss's gradient with respect to the residual
  stream around every sub-layer. A sub-layer's output is added to the stream, so the gradient
  arriving at that sum reaches the sub-layer's input twice: once unchanged through the
  identity (the "+1" of the Jacobian I + ∂f/∂x), once through the sub-layer. In a post-LN
  block the sum is followed by a norm, so what arrives there has already passed through the
  norm's Jacobian, at every layer on the way down.

Gradients are taken with `torch.autograd.grad`: the model's parameters' `.grad` stay as they were.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import torch
import torch.nn.functional as F

from models.trace import act_name
from models.training.tasks import IGNORE, Batch
from models.transformer import Transformer
from models.weights.checkpoint import CHECKPOINT_DIR

RESULTS = CHECKPOINT_DIR / "ln-training" / "runs.json"
FORMAT = "glassbox-ln-training"
RUN_FIELDS = ("norm_position", "warmup", "state", "error", "loss", "lr", "eval_steps", "accuracy",
              "grad_steps", "grad_labels", "grad_norms", "seconds")
LEARNED = 0.1            # a run "has learned" once its mean loss over WINDOW steps is under this
WINDOW = 25


# ---- the gradient of every layer's parameters ------------------------------------------------
def _group(name: str) -> str:
    """The layer a parameter belongs to: 'embed', 'L0', 'L1', ..., 'head'."""
    if name.startswith("blocks."):
        return "L" + name.split(".")[1]
    if name.startswith(("embed", "pos_embed", "ln_embed", "token_type")):
        return "embed"
    return "head"                       # ln_final, unembed


def layer_labels(model: Transformer) -> list[str]:
    """The groups of `layer_grad_norms`, in depth order."""
    return ["embed", *(f"L{i}" for i in range(model.cfg.n_layers)), "head"]


def batch_loss(model: Transformer, batch: Batch) -> torch.Tensor:
    """The trainer's loss: mean cross-entropy over the batch's answer tokens."""
    dev = model.device
    logits = model(batch.ids.to(dev)) if batch.tgt_ids is None else model(batch.ids.to(dev), batch.tgt_ids.to(dev))
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), batch.targets.to(dev).reshape(-1),
                           ignore_index=IGNORE)


def layer_grad_norms(model: Transformer, batch: Batch) -> tuple[list[str], np.ndarray]:
    """(layer labels, ‖∂loss/∂θ‖ of each layer's parameters): the L2 norm over all the
    parameters of the embedding, each block and the head (final norm + unembedding), on
    `batch`, before any clipping. The model's mode and its parameters' .grad are untouched."""
    labels = layer_labels(model)
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    was = model.training
    model.eval()
    try:
        with torch.inference_mode(False), torch.enable_grad():
            grads = torch.autograd.grad(batch_loss(model, batch), [p for _, p in named], allow_unused=True)
    finally:
        model.train(was)
    sq = dict.fromkeys(labels, 0.0)
    for (name, _), g in zip(named, grads):
        if g is not None:
            sq[_group(name)] += float(g.double().pow(2).sum())
    return labels, np.sqrt(np.array([sq[k] for k in labels]))


# ---- the gradient on the residual path ---------------------------------------------------------
@dataclass(frozen=True)
class ResidualGrad:
    """Per sub-layer (labels 'L0 attn', 'L0 mlp', ...; 'L0' for a parallel block), Frobenius
    norms over the sequence of: `total` the gradient at the sub-layer's input, `identity` the
    part the +1 carries (the gradient at the sum x + f), `branch` the part through the
    sub-layer (total − identity); `cos` the cosine of identity and branch."""

    labels: list[str]
    total: np.ndarray
    identity: np.ndarray
    branch: np.ndarray
    cos: np.ndarray
    loss: float
    n_predicted: int
    norm_position: str

    @property
    def ratio(self) -> np.ndarray:
        """‖branch‖ / ‖identity‖ per sub-layer."""
        return self.branch / np.maximum(self.identity, 1e-30)

    @property
    def carried(self) -> np.ndarray:
        """‖identity part of sub-layer i‖ / ‖gradient at sub-layer i+1's input‖, for every
        sub-layer but the last: exactly 1 when nothing sits between one sum and the next
        sub-layer's input (pre-LN); a post-LN norm in between rescales it."""
        return self.identity[:-1] / np.maximum(self.total[1:], 1e-30)

    @property
    def depth_ratio(self) -> float:
        """‖gradient at the first sub-layer's input‖ / ‖at the last one's‖."""
        return float(self.total[0] / max(self.total[-1], 1e-30))


def _sublayers(model: Transformer) -> list[tuple[str, str, str]]:
    """(label, hook at the sub-layer's input, hook of what it adds to the stream)."""
    out = []
    for i in range(model.cfg.n_layers):
        if model.cfg.parallel_residual:
            out.append((f"L{i}", act_name("resid_pre", i), act_name("attn_out", i)))
        else:
            out.append((f"L{i} attn", act_name("resid_pre", i), act_name("attn_out", i)))
            out.append((f"L{i} mlp", act_name("resid_mid", i), act_name("mlp_out", i)))
    return out


def residual_gradients(model: Transformer, ids: Sequence[int], answer: slice | None = None) -> ResidualGrad:
    """The loss's gradient on the residual stream around every sub-layer of a decoder, on one
    sequence. The loss is the mean next-token cross-entropy at the query positions `answer`
    (a toy task's answer), or at every position but the last."""
    cfg = model.cfg
    if cfg.arch != "decoder" or cfg.output != "logits":
        raise ValueError("The gradient view needs a decoder with a language-model head (it predicts the next token).")
    ids = [int(i) for i in ids]
    if len(ids) < 2:
        raise ValueError("The text needs at least two tokens: the loss predicts each next token.")
    positions = list(range(len(ids) - 1))[answer] if answer is not None else list(range(len(ids) - 1))
    if not positions:
        raise ValueError("No position to predict.")
    subs = _sublayers(model)
    kept: dict[str, torch.Tensor] = {}
    first = act_name("resid_pre", 0)

    def keep(x: torch.Tensor, name: str) -> torch.Tensor | None:
        if name == first:                  # a leaf, so the graph exists even if the weights need no grad
            x = x.detach().clone().requires_grad_(True)
            kept[name] = x
            return x
        kept[name] = x
        return None

    names = sorted({n for _, a, b in subs for n in (a, b)})
    x = torch.tensor([ids], device=model.device)
    with torch.inference_mode(False), torch.enable_grad():
        logits = model.run_with_hooks(x, fwd_hooks=[(n, keep) for n in names])
        pos = torch.tensor(positions, device=model.device)
        target = torch.tensor([ids[p + 1] for p in positions], device=model.device)
        loss = F.cross_entropy(logits[0, pos].float(), target)
        grads = dict(zip(names, torch.autograd.grad(loss, [kept[n] for n in names])))
    total, ident, branch, cos = [], [], [], []
    for _, inp, out in subs:
        g_in, g_id = grads[inp][0].double(), grads[out][0].double()
        g_br = g_in - g_id
        total.append(float(g_in.norm()))
        ident.append(float(g_id.norm()))
        branch.append(float(g_br.norm()))
        cos.append(float((g_id * g_br).sum() / max(float(g_id.norm() * g_br.norm()), 1e-30)))
    return ResidualGrad([s[0] for s in subs], np.array(total), np.array(ident), np.array(branch), np.array(cos),
                        float(loss.detach()), len(positions), cfg.norm_position)


# ---- the shipped experiment --------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """One training run of the shipped experiment (see `RUN_FIELDS`)."""

    norm_position: str
    warmup: int
    state: str
    error: str
    loss: np.ndarray              # one per step (a failed run stops early)
    lr: np.ndarray
    eval_steps: list[int]
    accuracy: list[float]
    grad_steps: list[int]         # the steps the gradient norms were measured at (0: the initial weights)
    grad_labels: list[str]
    grad_norms: np.ndarray        # [len(grad_steps), len(grad_labels)]
    seconds: float


@dataclass(frozen=True)
class Results:
    meta: dict                    # task, model, steps, lr, seed, command, ...
    runs: list[Run]

    def run(self, norm_position: str, warmup: bool) -> Run:
        for r in self.runs:
            if r.norm_position == norm_position and bool(r.warmup) == warmup:
                return r
        raise KeyError(f"No {norm_position}-LN run {'with' if warmup else 'without'} warm-up.")


def check_results(data: dict) -> None:
    """Refuse, with a sentence, a results file that does not have the schema."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"Not a {FORMAT} file.")
    for key in ("command", "task", "model", "steps", "lr", "warmup", "seed", "grad_steps", "runs"):
        if key not in data:
            raise ValueError(f"The results have no {key!r}.")
    if len(data["runs"]) != 4 or {(r.get("norm_position"), bool(r.get("warmup"))) for r in data["runs"]} != \
            {(n, w) for n in ("pre", "post") for w in (False, True)}:
        raise ValueError("The results need four runs: pre- and post-LN, each with and without warm-up.")
    for r in data["runs"]:
        missing = [k for k in RUN_FIELDS if k not in r]
        if missing:
            raise ValueError(f"A run has no {', '.join(missing)}.")
        if len(r["lr"]) != len(r["loss"]) or len(r["eval_steps"]) != len(r["accuracy"]):
            raise ValueError("A run's series have different lengths.")
        if len(r["grad_norms"]) != len(r["grad_steps"]) or any(len(row) != len(r["grad_labels"])
                                                               for row in r["grad_norms"]):
            raise ValueError("A run's gradient table does not match its steps and layers.")


def results_from(data: dict) -> Results:
    check_results(data)
    runs = [Run(r["norm_position"], int(r["warmup"]), r["state"], r["error"],
                np.array(r["loss"], dtype=float), np.array(r["lr"], dtype=float), list(r["eval_steps"]),
                list(r["accuracy"]), list(r["grad_steps"]), list(r["grad_labels"]),
                np.array(r["grad_norms"], dtype=float).reshape(len(r["grad_steps"]), len(r["grad_labels"])),
                float(r["seconds"])) for r in data["runs"]]
    return Results({k: v for k, v in data.items() if k != "runs"}, runs)


def load_results(path: Path = RESULTS) -> Results:
    """The shipped experiment (ValueError with a sentence when it is missing or malformed)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"The results file {Path(path).name} is missing; `python -m recipes.ln_training` makes it.")
    except json.JSONDecodeError as e:
        raise ValueError(f"The results file is not valid JSON ({e}).")
    return results_from(data)


def smooth(loss: np.ndarray, window: int = WINDOW) -> np.ndarray:
    """The running mean over the last `window` steps (fewer at the start)."""
    c = np.cumsum(np.insert(np.asarray(loss, dtype=float), 0, 0.0))
    n = np.arange(1, len(loss) + 1)
    lo = np.maximum(0, n - window)
    return (c[n] - c[lo]) / (n - lo)


@dataclass(frozen=True)
class Summary:
    learned_at: int | None        # the first step whose running mean loss is under LEARNED
    final_loss: float             # the running mean at the last step
    peak_loss: float              # the largest single-step loss after step 1
    final_accuracy: float
    steps: int


def summary(run: Run, threshold: float = LEARNED, window: int = WINDOW) -> Summary:
    s = smooth(run.loss, window)
    below = np.flatnonzero(s < threshold)
    return Summary(int(below[0]) + 1 if below.size else None, float(s[-1]) if s.size else math.nan,
                   float(run.loss[1:].max()) if run.loss.size > 1 else math.nan,
                   float(run.accuracy[-1]) if run.accuracy else 0.0, int(run.loss.size))


def first_over_last(run: Run, step: int) -> float:
    """‖gradient of the first block‖ / ‖of the last block‖ at a measured step: about 1 when
    every layer still learns, near 0 when the lower layers get nothing."""
    g = run.grad_norms[run.grad_steps.index(step)]
    blocks = [i for i, x in enumerate(run.grad_labels) if x.startswith("L")]
    return float(g[blocks[0]] / max(g[blocks[-1]], 1e-30))


def mean_block(run: Run, step: int) -> float:
    """The mean gradient norm over the blocks at a measured step."""
    g = run.grad_norms[run.grad_steps.index(step)]
    return float(np.mean([v for v, x in zip(g, run.grad_labels) if x.startswith("L")]))
