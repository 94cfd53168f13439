"""Step kinds of the lessons: what a step computes from the model and which figure it draws.

A lesson file (`lessons/*.toml`, checked by `lab.lessons`) names a kind per step; the kinds
live in the modules of this package, one module per topic (`TOPICS`, the explicit list this
package imports), each function registered with `@kind(name, params=..., facts=..., question=...)`. A kind receives a `StepContext` (the
reader's model and text, with the cached passes of `ui.serving`) and the step's checked
parameters, and returns a `Shown`: one figure, the facts the "what to notice" sentence
names (numbers from the trace, never typed in), the right answer to the step's question
computed from the model, and where the explorer shows the same thing.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from lab.lessons import KindSpec, Param

from .. import serving
from ..i18n import STRINGS, t
from ..sidebar import Selection

__all__ = ["KINDS", "Kind", "Param", "Shown", "StepContext", "kind", "specs"]


@dataclass
class StepContext:
    """The reader's model and text, with the cached passes a kind may read."""

    sel: Selection
    model: Any                         # models.Transformer (its cfg: n_layers, n_heads, arch…)
    tokenizer: Any

    @property
    def cfg(self):
        return self.model.cfg

    def attention(self) -> serving.AttentionData:
        return serving.attention_data(serving.RunKey.of(self.sel))

    def internals(self) -> serving.InternalsData:
        return serving.internals(serving.RunKey.of(self.sel))

    def head_metrics(self, stack: str) -> dict:
        return serving.head_metrics(serving.RunKey.of(self.sel), stack)

    def rollout(self, stack: str):
        return serving.rollout(serving.RunKey.of(self.sel), stack)


@dataclass
class Shown:
    """What one step shows: a figure, the facts its notice names, the right answer (a
    token position for a "token" question, an option id for a "choice" one), the tokens
    a token question offers, and the explorer page + URL parameters showing the same."""

    figure: Any
    facts: dict[str, Any] = field(default_factory=dict)
    answer: Any = None
    tokens: list[str] | None = None
    page: str = ""
    params: dict[str, str] = field(default_factory=dict)
    caption: str = ""                 # an extra line under the figure (already escaped)


@dataclass(frozen=True)
class Kind:
    spec: KindSpec
    run: Callable[[StepContext, Mapping[str, Any]], Shown]
    shared: bool = True     # its Shown depends only on the model, text, parameters, language and look


KINDS: dict[str, Kind] = {}


def kind(name: str, *, params: tuple[Param, ...] = (), facts: Mapping[str, str] | None = None,
         question: str | None = None, options: tuple[str, ...] = (), archs: tuple[str, ...] = (),
         shared: bool = True):
    """Register a step kind. Its default notice is the string `lk_<name>_notice` (ui/strings),
    filled with the same facts; a lesson file may give its own. `shared`: the kind's Shown
    depends on nothing but the model, the text, the step's parameters, the language and the
    look (palette, text scale), so every session showing the same step to the same text gets
    one Shown, built once (ui/serving/lessons.py `step_shown`: a class of 30 builds each
    figure once); False for a kind that reads this session's state or draws while it runs."""
    def register(fn: Callable[[StepContext, Mapping[str, Any]], Shown]):
        if name in KINDS:
            raise RuntimeError(f"step kind {name!r} registered twice")
        KINDS[name] = Kind(KindSpec(name, params, dict(facts or {}), question, options, archs), fn, shared)
        return fn
    return register


def default_notice(name: str) -> str | None:
    key = f"lk_{name}_notice"
    return t(key) if key in STRINGS else None


# the modules that register the step kinds, one per topic (imported in this order)
TOPICS = ("attention", "block", "decoding", "heads", "poems", "positions", "tokens", "training")


def _load() -> None:
    for topic in TOPICS:
        importlib.import_module(f"{__name__}.{topic}")


def specs() -> dict[str, KindSpec]:
    """Every registered kind's spec (what lab.lessons checks a file against)."""
    return {name: k.spec for name, k in KINDS.items()}


_load()
