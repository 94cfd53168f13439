"""Step kinds of the "many heads" lesson: one head detector over every head of the model,
and how much attention each layer parks on the first and the last token (the sinks).

Scores come from the reader's model and text through the cached passes of `ui.serving`
(the attribution page's `detector_scores_on_text`, the attention page's head metrics);
the numbers behind the answers are in `lab/lesson_heads.py`.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import plotly.graph_objects as go

import viz_core as vz
from lab import lesson_heads
from lab.lessons import Param
from viz_core.figure import BLUE, ORANGE, add_title

from ..figure_words import head_terms
from ..i18n import t
from ..serving import attribution
from ..serving.run_key import RunKey
from . import Shown, StepContext, kind
from .attention import stack_of

DETECTORS = ("previous_token", "first_token", "duplicate_token", "induction")
STRONG = 0.5                       # a head "does" a pattern when half its weight goes there


@kind("head_detector", params=(Param("detector", "choice", default="previous_token", choices=DETECTORS),),
      facts={"detector": "text", "best_head": "text", "best_score": "num", "chance": "num", "n_strong": "int",
             "n_heads": "int"},
      question="choice", options=tuple(f"layers_{p}" for p in lesson_heads.PARTS))
def head_detector(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    s = ctx.sel
    stack = stack_of(ctx)
    det = p["detector"]
    scores = attribution.detector_scores_on_text(RunKey.of(s), (1,)).scores[stack]
    z = scores.scores[det]
    layer, head, best = scores.best(det)
    names = {d: t(f"at_det_{d}") for d in DETECTORS}
    fig = vz.head_metrics_chart({names[d]: scores.scores[d] for d in DETECTORS}, names[det], selected=(layer, head),
                                title=t("lk_detector_title", detector=names[det]),
                                terms=head_terms())
    facts = {"detector": names[det], "best_head": t("lk_head_name", layer=layer, head=head), "best_score": best,
             "chance": scores.chance[det], "n_strong": int(np.sum(np.nan_to_num(z) >= STRONG)), "n_heads": z.size}
    return Shown(fig, facts, answer=f"layers_{lesson_heads.layer_part(layer, z.shape[0])}", page="attribution",
                 params={"aview": "detectors", "dsource": "text", "detector": det})


def sink_bars(first: np.ndarray, last: np.ndarray, names: tuple[str, str], *, title: str = "",
              layer_word: str = "layer", weight_word: str = "weight") -> go.Figure:
    """Two bars per layer: the mean weight on the first and on the last token ([L] each).
    `names` are the two series' labels (escaped by the caller)."""
    x = [f"{layer_word} {i}" for i in range(len(first))]
    fig = go.Figure([go.Bar(x=x, y=np.asarray(v, np.float32), name=n, marker_color=c, text=[f"{a:.0%}" for a in v],
                            textposition="outside", cliponaxis=False, hovertemplate="%{x}: %{y:.1%}<extra></extra>")
                     for v, n, c in ((first, names[0], BLUE), (last, names[1], ORANGE))])
    top = float(max(np.max(first), np.max(last)))
    fig.update_layout(barmode="group", yaxis=dict(title=dict(text=weight_word), tickformat=".0%",
                                                  range=[0, min(1.0, top * 1.2 + 0.02)]),
                      height=380, margin=dict(l=10, r=10, t=50 if title else 10, b=10),
                      legend=dict(orientation="h", y=-0.15))
    return add_title(fig, title)


@kind("sinks", facts={"first_token": "text", "last_token": "text", "first_share": "num", "last_share": "num",
                      "peak_layer": "int", "peak_share": "num"},
      question="choice", options=("sink_first", "sink_last"))
def sinks(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    stack = stack_of(ctx)
    metrics = ctx.head_metrics(stack)
    shares = lesson_heads.sink_shares(metrics["attn_to_first"], metrics["attn_to_last"])
    tokens, _ = ctx.attention().tokens_of(stack)
    first, last = vz.escape_labels([tokens[0], tokens[-1]])
    fig = sink_bars(shares.first, shares.last, (t("lk_sink_first", token=first), t("lk_sink_last", token=last)),
                    title=t("lk_sinks_title"), layer_word=t("term_layer"), weight_word=t("lk_sink_weight"))
    peak = shares.peak_layer
    facts = {"first_token": vz.visible_label(tokens[0]), "last_token": vz.visible_label(tokens[-1]),
             "first_share": float(shares.first.mean()), "last_share": float(shares.last.mean()), "peak_layer": peak,
             "peak_share": float(shares.first[peak] + shares.last[peak])}
    return Shown(fig, facts, answer=f"sink_{shares.bigger}", page="attention",
                 params={"view": "metrics", "metric": "attn_to_first"})
