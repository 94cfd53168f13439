"""Step kinds of the lesson "attention on a poem" (lessons/07-poems.toml): every head
scored on how it reads a poem's structure, the couplet (the same slot of the line before)
or the rhyme positions (the ends of earlier lines). The numbers: lab/lesson_poems.py, on
the reader's model and text (the cached attention pass of `ui.serving`)."""
from __future__ import annotations

from typing import Any, Mapping


import viz_core as vz
from lab import lesson_poems
from lab.lessons import Param

from ..i18n import t
from . import Shown, StepContext, kind
from .attention import stack_of

MEASURES = ("couplet", "rhyme")


@kind("poem_heads", params=(Param("measure", "choice", default="couplet", choices=MEASURES),),
      facts={"measure": "text", "best_head": "text", "best_score": "num", "chance": "num", "times": "num",
             "n_lines": "int", "n_pairs": "int"})
def poem_heads(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.attention()
    stack = stack_of(ctx)
    tokens, _ = data.tokens_of(stack)
    measure = p["measure"]
    score, chance = lesson_poems.scores(data.patterns[stack], list(tokens), measure)
    couplet, rhyme = lesson_poems.pairs(list(tokens))
    n_pairs = len(couplet if measure == "couplet" else rhyme)
    if not n_pairs:
        raise ValueError(t("lk_poem_one_line"))
    layer, head, value = lesson_poems.best(score)
    name = t(f"lk_poem_{measure}")
    fig = vz.head_metrics_chart({name: score}, name, selected=(layer, head), title=t("lk_poem_title", measure=name),
                                terms={w: t(f"term_{w}") for w in ("layer", "head")})
    facts = {"measure": name, "best_head": t("lk_head_name", layer=layer, head=head), "best_score": value,
             "chance": chance, "times": value / chance if chance else float("nan"),
             "n_lines": lesson_poems.n_lines(list(tokens)),
             "n_pairs": n_pairs}
    return Shown(fig, facts, page="attention", params={"view": "heads", "layer": str(layer), "head": str(head)})


