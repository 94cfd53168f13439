"""A small, deterministic trainer for the toy tasks, with live callbacks.

Same (task, config, settings) -> the same weights on the same CPU build: the weights are
initialised under `torch.manual_seed(seed)` (without touching the caller's random
state), batches come from `numpy.random.default_rng(seed)`, and nothing else is random
(no dropout unless the config asks for it, then seeded too).

Every `eval_every` steps the trainer measures exact-sequence accuracy on a fixed
evaluation batch; every `snapshot_every` steps it records the attention of the task's
probe input (a `Snapshot`), which the training page scrubs through afterwards.
`train(...)` checks a `threading.Event` between steps, so a Stop button ends a run
cleanly: what was learned so far, and its last snapshot, are kept.
"""
from __future__ import annotations

import copy
import math
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np
import torch
import torch.nn.functional as F

from ..config import TransformerConfig
from ..device import pick_device
from ..trace import Stack, record_names
from ..transformer import Transformer
from .tasks import IGNORE, Example, Task

STATES = ("running", "done", "stopped", "failed")


@dataclass(frozen=True)
class TrainSettings:
    """Optimisation settings (AdamW, linear warm-up then cosine decay to 10%)."""

    steps: int = 600
    lr: float = 3e-3
    batch_size: int = 64
    seed: int = 0
    warmup: int = 30
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    eval_every: int = 25
    snapshot_every: int = 25
    eval_size: int = 256
    target_accuracy: float | None = None   # stop early once evaluation accuracy reaches this
    time_budget: float | None = None       # seconds: stop after this long; the schedule follows the clock

    def __post_init__(self) -> None:
        if self.steps < 1:
            raise ValueError(f"Training needs at least 1 step (got {self.steps}).")
        if not self.lr > 0 or not math.isfinite(self.lr):
            raise ValueError(f"The learning rate must be a positive number (got {self.lr}).")
        if self.lr > 1.0:
            raise ValueError(f"A learning rate of {self.lr} would make the weights explode; use at most 1.")
        if self.batch_size < 1:
            raise ValueError(f"The batch size must be at least 1 (got {self.batch_size}).")
        if self.warmup < 0:
            raise ValueError(f"Warm-up steps cannot be negative (got {self.warmup}).")
        if self.eval_every < 1 or self.snapshot_every < 1:
            raise ValueError("Evaluation and snapshot intervals must be at least 1 step.")
        if self.time_budget is not None and not self.time_budget > 0:
            raise ValueError(f"The time budget must be a positive number of seconds (got {self.time_budget}).")

    def lr_at(self, step: int, seconds: float = 0.0) -> float:
        """Learning rate for step (1-based); with a time budget, the decay follows
        whichever is further along, the steps or the clock (`seconds` elapsed)."""
        if self.warmup and step <= self.warmup:
            return self.lr * step / self.warmup
        span = max(1, self.steps - self.warmup)
        progress = min(1.0, (step - self.warmup) / span)
        if self.time_budget:
            progress = max(progress, min(1.0, seconds / self.time_budget))
        return self.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


@dataclass
class Snapshot:
    """The probe's attention at one step: stack -> [layers, heads, q, k] float16; and,
    when the run has a detector sequence, the attention on it (lab/detectors.py scores
    each head on it: the induction head appearing during training)."""

    step: int
    loss: float
    accuracy: float
    patterns: dict[str, np.ndarray]
    detector_patterns: np.ndarray | None = None    # [layers, heads, q, k] float16 on TrainRun.detector_ids


@dataclass
class TrainRun:
    """Everything a run produces, updated in place while it trains (the app polls it)."""

    task: Task
    config: TransformerConfig
    settings: TrainSettings
    probe: Example
    state: str = "running"                # running | done | stopped | failed
    error: str = ""
    step: int = 0
    steps: list[int] = field(default_factory=list)       # one entry per step
    loss: list[float] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)
    eval_steps: list[int] = field(default_factory=list)  # one entry per evaluation
    accuracy: list[float] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)
    detector_ids: list[int] | None = None                # a sequence recorded at every snapshot (decoders)
    seconds: float = 0.0
    model: Transformer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def finished(self) -> bool:
        return self.state != "running"

    @property
    def final_accuracy(self) -> float:
        return self.accuracy[-1] if self.accuracy else 0.0

    @property
    def probe_stack(self) -> str:
        """The attention whose ideal pattern the task defines: the decoder's
        cross-attention of an encoder-decoder, else the only one."""
        return Stack.CROSS.value if self.config.arch == "encoder-decoder" else Stack.SELF.value

    def ideal_scores(self) -> list[float] | None:
        """Per snapshot: the best last-layer head's attention mass on the task's ideal
        keys (`Task.attention_score` on the probe); None when the task defines none."""
        try:
            return [max(self.task.attention_score(s.patterns[self.probe_stack][-1, h], example=self.probe)
                        for h in range(s.patterns[self.probe_stack].shape[1])) for s in self.snapshots]
        except (ValueError, KeyError, IndexError, NotImplementedError):
            return None

    def frozen_model(self) -> Transformer:
        """A copy of the model as it is now (eval mode), safe to use while training goes on."""
        with self.lock:
            m = copy.deepcopy(self.model)
        return m.eval()

    def card(self) -> dict:
        """The JSON card saved with a checkpoint."""
        return {"task": self.task.name, "positional": self.config.positional,
                "norm_position": self.config.norm_position, "seed": self.settings.seed, "steps": self.step,
                "train_len": self.task.train_len, "accuracy": round(self.final_accuracy, 4),
                "seconds": round(self.seconds, 1), "settings": asdict(self.settings)}


Callback = Callable[[TrainRun], None]


def build_model(cfg: TransformerConfig, seed: int, device: str | torch.device | None = "cpu") -> Transformer:
    """Seeded initial weights without touching the global random state."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Transformer(cfg, device="cpu")
        # Token (and learned position) vectors start at N(0, 1), PyTorch's default and the
        # scale of the sinusoidal table: with GPT-2's N(0, 0.02) a sinusoidal model's
        # positions drown its tokens and it learns very slowly (Vaswani et al. multiply
        # the embeddings by sqrt(d_model) for the same reason).
        with torch.no_grad():        # tensor methods: see models/transformer.py _init_weights
            for stack in (model, getattr(model, "encoder", None), getattr(model, "decoder", None)):
                if stack is not None and hasattr(stack, "pos_embed"):
                    stack.pos_embed.weight.normal_(0.0, 1.0)
            if not cfg.tie_embeddings:
                model.embed.weight.normal_(0.0, 1.0)
    return model.to(pick_device(device))


def check_fits(task: Task, cfg: TransformerConfig) -> None:
    """Refuse, with a sentence, a config that cannot run the task."""
    if cfg.arch != task.arch:
        def a(arch: str) -> str:
            return ("an " if arch[0] in "aeiou" else "a ") + arch
        raise ValueError(f"The {task.title} task needs {a(task.arch)} model, not {a(cfg.arch)} model.")
    if cfg.output != "logits":
        raise ValueError("Training predicts tokens, so the model needs a language-model head (output='logits').")
    if cfg.vocab_size < task.tokenizer.vocab_size:
        raise ValueError(f"The task has {task.tokenizer.vocab_size} tokens; vocab_size {cfg.vocab_size} is too small.")
    need = task.seq_len(task.train_len)
    if need > cfg.max_len:
        raise ValueError(f"Training sequences have {need} tokens but max_len is {cfg.max_len}.")


def snapshot(model: Transformer, task: Task, probe: Example, step: int, loss: float, acc: float,
             detector_ids: list[int] | None = None) -> Snapshot:
    """Record the probe's attention patterns (float16) in eval mode; with detector_ids
    (a decoder's), the attention on that sequence too."""
    was = model.training
    model.eval()
    names = record_names(model.cfg, ["pattern"])
    try:
        kw = {"tgt_ids": probe.tgt_ids} if probe.tgt_ids is not None else {}
        _, trace = model.run_with_cache(probe.ids, names=names, **kw)
        detector = None
        if detector_ids is not None and model.cfg.arch == "decoder":
            _, on_seq = model.run_with_cache(detector_ids, names=names)
            detector = on_seq.patterns().float().cpu().numpy().astype(np.float16)
    finally:
        model.train(was)
    patterns = {s.value: trace.patterns(0, s).float().cpu().numpy().astype(np.float16)
                for s in Stack.attention_maps(model.cfg.arch)}
    return Snapshot(step, loss, acc, patterns, detector)


def _direct(model: Transformer, fn: Callable[[Transformer], Any], n_tokens: int) -> Any:
    return fn(model)


def train(task: Task, cfg: TransformerConfig, settings: TrainSettings = TrainSettings(), *,
          device: str | torch.device | None = "cpu", callback: Callback | None = None,
          stop: threading.Event | None = None, run: TrainRun | None = None,
          gate: Callable[[Transformer, Callable[[Transformer], Any], int], Any] = _direct) -> TrainRun:
    """Train a fresh model on `task`. Returns the TrainRun (state 'done', 'stopped' or
    'failed'); pass `run` to have an existing object (the app's) filled in place.
    Exceptions inside the loop end the run as 'failed' with the message kept.

    gate(model, fn, n_tokens) runs each recorded probe pass (the snapshots); the app
    passes its run gate (`ui.serving.run_held`: the guard and the model's lock)."""
    check_fits(task, cfg)
    probe = task.probe()
    if run is None:
        run = TrainRun(task, cfg, settings, probe)
    model = build_model(cfg, settings.seed, device)
    model.train()
    run.model = model
    dev = model.device
    rng = np.random.default_rng(settings.seed)
    eval_batch = task.batch(settings.eval_size, np.random.default_rng(settings.seed + 10_000), task.train_len)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": settings.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=settings.lr, betas=(0.9, 0.98))
    gen_state = torch.random.fork_rng(devices=[])       # dropout, if any, is seeded and leaves the caller alone
    gen_state.__enter__()
    torch.manual_seed(settings.seed + 1)
    start = time.perf_counter()
    try:
        n_probe = len(probe.ids)

        def probe_at(step: int, loss: float, acc: float) -> Snapshot:
            return gate(model, lambda m: snapshot(m, task, probe, step, loss, acc, run.detector_ids),
                        n_probe + len(run.detector_ids or ()))

        run.snapshots.append(probe_at(0, float("nan"), task.accuracy(model, eval_batch)))
        for step in range(1, settings.steps + 1):
            if stop is not None and stop.is_set():
                run.state = "stopped"
                break
            lr = settings.lr_at(step, time.perf_counter() - start)
            for group in opt.param_groups:
                group["lr"] = lr
            b = task.batch(settings.batch_size, rng)
            ids = b.ids.to(dev)
            targets = b.targets.to(dev)
            with run.lock:
                logits = model(ids) if b.tgt_ids is None else model(ids, b.tgt_ids.to(dev))
                loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=IGNORE)
                if not torch.isfinite(loss):
                    raise FloatingPointError(f"The loss became {float(loss.detach())} at step {step}: the learning rate "
                                             f"({settings.lr}) is probably too high.")
                opt.zero_grad(set_to_none=True)
                loss.backward()
                if settings.grad_clip:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), settings.grad_clip)
                opt.step()
            run.step = step
            run.steps.append(step)
            run.loss.append(float(loss.detach()))
            run.lr.append(lr)
            out_of_time = settings.time_budget is not None and time.perf_counter() - start >= settings.time_budget
            last = step == settings.steps or out_of_time
            if step % settings.eval_every == 0 or last:
                run.eval_steps.append(step)
                run.accuracy.append(task.accuracy(model, eval_batch))
            if step % settings.snapshot_every == 0 or last:
                acc = run.accuracy[-1] if run.accuracy else 0.0
                run.snapshots.append(probe_at(step, float(loss.detach()), acc))
            run.seconds = time.perf_counter() - start
            if callback is not None:
                callback(run)
            if out_of_time:
                break
            if settings.target_accuracy is not None and run.accuracy and run.eval_steps[-1] == step \
                    and run.accuracy[-1] >= settings.target_accuracy:
                break
        if run.state == "running":
            run.state = "done"
        if run.state == "stopped" and run.step and (not run.snapshots or run.snapshots[-1].step != run.step):
            # a stopped run keeps a snapshot of exactly where it stopped
            acc = task.accuracy(model, eval_batch)
            run.eval_steps.append(run.step)
            run.accuracy.append(acc)
            run.snapshots.append(probe_at(run.step, run.loss[-1], acc))
    except (FloatingPointError, RuntimeError, ValueError) as e:
        run.state, run.error = "failed", str(e)
    finally:
        gen_state.__exit__(None, None, None)
        run.seconds = time.perf_counter() - start
        model.eval()
        if callback is not None:
            callback(run)
    return run


def same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    """Whether two models hold bitwise-identical parameters."""
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)
