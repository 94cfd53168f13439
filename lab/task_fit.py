"""Which architecture fits which task, read from the models' own configurations.

A task asks three things of a model: to read the whole input before answering (every token
sees the tokens on both sides), to write text (one token after another, each seeing only
what came before, and a head that scores the vocabulary), and to read a separate source
while it writes (cross-attention). A model's abilities are read from its config: whether
the self-attention mask of the stack that reads the input lets a token see later tokens
(`models.masks.self_attention_mask`, the mask the model itself builds), whether it has a
stack that writes (a decoder with a vocabulary head), and whether it has cross-attention.

The fit of a task follows from these, not from the architecture's name:
"yes" when the model does what the task asks as it is, "workaround" when it can with a
known detour (a decoder classifies from its last token, which has seen the whole text, or
translates with the source as a prompt; an encoder–decoder writes a label as text), "no"
when it cannot (an encoder writes no text left to right).
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from models import masks
from models.config import TransformerConfig

TASKS = ("classify", "tag", "generate", "translate")
FITS = ("yes", "workaround", "no")
PROBE_LEN = 8          # tokens of the mask the abilities are read from


@dataclass(frozen=True)
class Abilities:
    """What a model's config lets it do."""

    arch: str
    sees_later: bool      # the stack that reads the input lets a token attend to later tokens
    seen_share: float     # share of (query, key) pairs that stack's mask allows on PROBE_LEN tokens
    writes: bool          # a causal stack with a vocabulary head: it can write text token by token
    cross: bool           # a writing stack that reads a separate source (cross-attention)


@functools.lru_cache(maxsize=256)
def abilities(cfg: TransformerConfig, n: int = PROBE_LEN) -> Abilities:
    """A config's abilities, from the mask the model builds for n tokens. Remembered per
    config (a frozen, hashable dataclass): the overview asks for every catalogue entry's on
    each visit (6 ms for 33 models, a tenth of its run)."""
    reader_is_decoder = cfg.arch == "decoder"               # an encoder-decoder reads its input with its encoder
    mask = masks.self_attention_mask(cfg.attention, n, decoder=reader_is_decoder)     # [n, n] True = allowed
    later = bool(mask.triu(1).any())
    writes = cfg.arch in ("decoder", "encoder-decoder") and cfg.output == "logits"
    return Abilities(cfg.arch, later, float(mask.float().mean()), writes, cfg.arch == "encoder-decoder")


def fit(a: Abilities, task: str) -> str:
    """yes | workaround | no: how a model with abilities `a` does `task`."""
    if task not in TASKS:
        raise ValueError(f"Unknown task {task!r}; known: {', '.join(TASKS)}.")
    if not a.writes:                                        # reads only: labels from its token vectors
        if task in ("classify", "tag"):
            return "yes" if a.sees_later else "workaround"
        return "no"
    if a.cross:                                             # reads a source with one stack, writes with the other
        return "yes" if task == "translate" and a.sees_later else "workaround"
    if task == "generate":
        return "yes"
    return "workaround"                                     # decoder only: last token, or the source as a prompt


def best_tasks(a: Abilities) -> list[str]:
    """The tasks a model with abilities `a` fits as it is."""
    return [task for task in TASKS if fit(a, task) == "yes"]


@functools.lru_cache(maxsize=1)
def reference() -> Mapping[str, Abilities]:
    """The three architectures with their default masks: the rows of the task table (one
    read-only mapping, made once)."""
    def tiny(arch: str) -> TransformerConfig:
        return TransformerConfig(arch=arch, vocab_size=8, d_model=8, n_layers=1, n_heads=1, d_ff=8, max_len=PROBE_LEN)

    return MappingProxyType({arch: abilities(tiny(arch)) for arch in ("encoder", "decoder", "encoder-decoder")})
