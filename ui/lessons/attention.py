"""Step kinds of the attention lessons: tokens, Q/K/V, one query's scores step by step, the
weighted sum, one head, every head, head metrics and rollout.

Every number comes from the reader's model and text: one query of one head is walked
with `lab.walkthrough` (the walk-through page's cached `walk` in ui/serving/walkthrough.py,
checked against the model's own attention output), whole maps come from the cached
recorded pass.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

import lab.lesson_attention
import viz_core as vz
import viz_core.lesson_attention
from lab import lesson_heads, lesson_poems
from lab.lessons import Param
from models.trace import Stack
from viz_core.labels import plain_label

from .. import serving
from ..serving import walkthrough
from ..serving.run_key import RunKey
from ..figure_words import weight_terms
from ..i18n import t
from . import Shown, StepContext, kind

LAYER = Param("layer", "layer", default=0)
HEAD = Param("head", "head", default=0)
QUERY = Param("query", "position", default="auto", auto=True)
STAGES = ("dots", "scaled", "masked", "weights")


def _stack(ctx: StepContext) -> str:
    """The self-attention stack a lesson reads: the only one, or an encoder-decoder's decoder."""
    maps = Stack.attention_maps(ctx.cfg.arch)
    return (Stack.DECODER if Stack.DECODER in maps else maps[0]).value


stack_of = _stack                   # public: the other lesson modules read the same stack


def position(value: int | str, tokens: list[str]) -> int:
    """A lesson's position against this text: "auto" is the last word (not a special
    token or punctuation); negative counts from the end; a text shorter than the lesson
    expects uses its last token."""
    n = len(tokens)
    if value == "auto":
        return lab.lesson_attention.last_word(tokens)
    i = value + n if value < 0 else value
    return min(max(i, 0), n - 1)


def label(tokens: list[str], i: int) -> str:
    """How a token is named in a sentence: its position and visible text (escaped by the caller)."""
    return plain_label(i, tokens[i])


def walk(ctx: StepContext, layer: int, head: int, query: int | str):
    s = ctx.sel
    stack = _stack(ctx)
    q_tok, k_tok, _ = walkthrough.token_lists(RunKey.of(s), stack)
    query = position(query, q_tok)
    return walkthrough.walk(RunKey.of(s), stack, layer, head, query), q_tok, k_tok


def _walk_params(layer: int, head: int, query: int) -> dict[str, str]:
    return {"wt_layer": str(layer), "wt_head": str(head), "wt_query": str(query)}


def words_phrase(text: str) -> str:
    """How much text there is, in the UI language: "17 words", "18 个字" (Chinese is counted in
    characters, it has no spaces), or both for a mixed text."""
    words, han = lab.lesson_attention.word_counts(text)
    if han and words:
        return t("lk_words_both", words=words, han=han)
    if han:
        return t("lk_words_han", n=han)
    return t("lk_words_one" if words == 1 else "lk_words", n=words)


@kind("tokens", facts={"n_tokens": "int", "n_special": "int", "n_words": "int", "words": "text",
                       "unk_share": "num"})
def tokens(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    enc = serving.encode(ctx.tokenizer, ctx.model, ctx.sel.text)
    toks, ids = list(enc.tokens), list(enc.ids)
    offsets = list(enc.offsets) or [(0, 1)] * len(ids)
    flags = [a == b for a, b in offsets]                 # special tokens cover no character of the text
    facts = {"n_tokens": len(toks), "n_special": sum(flags), "n_words": lab.lesson_attention.word_count(ctx.sel.text),
             "words": words_phrase(ctx.sel.text), "unk_share": serving.unk_fraction(ctx.tokenizer, ids)}
    fig = viz_core.lesson_attention.token_strip(toks, ids, flags, title=t("lk_tokens_title", n=len(toks)),
                                                terms={"id": "id"})
    return Shown(fig, facts, page="walkthrough")


@kind("qkv", params=(LAYER, HEAD), facts={"layer": "int", "head": "int", "d_head": "int", "d_model": "int",
                                           "n_heads": "int"})
def qkv(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    w, q_tok, k_tok = walk(ctx, p["layer"], p["head"], 0)
    q = w.q_rot if w.rope else w.q_all
    k = w.k_rot if w.rope else w.k_all
    fig = viz_core.lesson_attention.qkv_figure(q, k, w.v_all, q_tok, k_tok,
                                               title=t("lk_qkv_title", layer=w.layer, head=w.head),
                        names=(t("term_query") + " Q", t("term_key") + " K", t("lk_value") + " V"),
                        dim_name=t("wt_term_dim"))
    facts = {"layer": w.layer, "head": w.head, "d_head": q.shape[1], "d_model": ctx.cfg.d_model,
             "n_heads": ctx.cfg.n_heads}
    return Shown(fig, facts, page="walkthrough", params=_walk_params(w.layer, w.head, 0))


@kind("score_row", params=(LAYER, HEAD, QUERY, Param("stage", "choice", default="weights", choices=STAGES)),
      facts={"layer": "int", "head": "int", "query": "text", "top_key": "text", "top_value": "num",
             "low": "num", "high": "num", "spread": "num", "sqrt_dk": "num", "n_keys": "int", "n_masked": "int",
             "entropy": "num"},
      question="token")
def score_row(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    w, q_tok, k_tok = walk(ctx, p["layer"], p["head"], p["query"])
    values = {"dots": w.dots, "scaled": w.scores, "masked": w.masked, "weights": np.where(w.mask, w.weights, np.nan)}
    row = values[p["stage"]]
    f = lab.lesson_attention.row_facts(row)
    facts = {"layer": w.layer, "head": w.head, "query": label(q_tok, w.query), "top_key": label(k_tok, f.top),
             "top_value": f.top_value, "low": f.low, "high": f.high, "spread": f.high - f.low,
             "sqrt_dk": float(np.sqrt(w.q.shape[0])), "n_keys": f.n_keys, "n_masked": f.n_masked,
             "entropy": lab.lesson_attention.row_facts(values["weights"]).entropy}
    title = t(f"lk_stage_{p['stage']}", q=label(q_tok, w.query), layer=w.layer, head=w.head)
    if p["stage"] == "weights":
        fig = vz.query_bars(row.astype(np.float32), k_tok, title=title,
                            terms={"key": t("term_key"), "weight": t("term_weight")})
    else:
        fig = viz_core.lesson_attention.signed_bars(row, k_tok, highlight=f.top, title=title,
                                                    value_name=t(f"lk_value_{p['stage']}"))
    answer = int(np.nanargmax(np.where(w.mask, w.weights, -1.0)))
    return Shown(fig, facts, answer=answer, tokens=list(k_tok), page="walkthrough",
                 params=_walk_params(w.layer, w.head, w.query))


@kind("weighted_sum", params=(LAYER, HEAD, QUERY),
      facts={"query": "text", "top_key": "text", "top_share": "num", "z_norm": "num", "error": "num"})
def weighted_sum(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    w, q_tok, k_tok = walk(ctx, p["layer"], p["head"], p["query"])
    weights = np.where(w.mask, w.weights, 0.0)
    norms = np.linalg.norm(weights[:, None] * w.v_all, axis=1)
    top = int(np.argmax(norms))
    fig = viz_core.lesson_attention.weighted_values(weights, w.v_all, k_tok,
                                                    title=t("lk_sum_title", q=label(q_tok, w.query)),
                             sum_label=t("lk_sum_row"), dim_name=t("wt_term_dim"))
    facts = {"query": label(q_tok, w.query), "top_key": label(k_tok, top), "top_share": float(weights[top]),
             "z_norm": float(np.linalg.norm(w.z)), "error": w.error}
    return Shown(fig, facts, page="walkthrough", params=_walk_params(w.layer, w.head, w.query))


PICKS = ("given", "previous", "first", "broad", "last", "couplet", "rhyme")


def pick_head(ctx: StepContext, p: Mapping[str, Any], stack: str) -> tuple[int, int]:
    """The step's head: the one it names, or (layer/head "auto") the head that scores
    highest on the step's `pick` (previous token, first token, broadest, last token) for this text."""
    if p["layer"] != "auto" and p["head"] != "auto":
        return p["layer"], p["head"]
    data = ctx.attention()
    tokens, _ = data.tokens_of(stack)
    pick = p.get("pick", "previous")
    if pick == "broad":
        layer, head, _ = lab.lesson_attention.broadest_head(ctx.head_metrics(stack)["entropy"])
    elif pick == "last":
        layer, head, _ = lesson_heads.argmax_head(ctx.head_metrics(stack)["attn_to_last"])
    elif pick in ("couplet", "rhyme"):                # a poem's structure (lab/lesson_poems.py)
        layer, head, _ = lesson_poems.best(lesson_poems.scores(data.patterns[stack], list(tokens), pick)[0])
    else:
        layer, head, _ = lab.lesson_attention.strongest_head(data.patterns[stack], tokens,
                                           "first_token" if pick == "first" else "previous_token")
    return layer, head


@kind("head_map", params=(Param("layer", "layer", default="auto", auto=True),
                          Param("head", "head", default="auto", auto=True),
                          Param("pick", "choice", default="previous", choices=PICKS), QUERY),
      facts={"layer": "int", "head": "int", "previous": "num", "first": "num", "self": "num", "query": "text",
             "top_key": "text", "top_weight": "num"},
      question="token")
def head_map(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.attention()
    stack = _stack(ctx)
    layer, head = pick_head(ctx, p, stack)
    q_tok, k_tok = data.tokens_of(stack)
    pattern = np.where(data.masks[stack], data.patterns[stack][layer, head], np.nan).astype(np.float32)
    query = position(p["query"], q_tok)
    row = lab.lesson_attention.row_facts(pattern[query])
    shares = lab.lesson_attention.pattern_shares(data.patterns[stack][layer, head], k_tok)
    fig = vz.head_heatmap(pattern, q_tok, k_tok, title=t("head_title", layer=layer, what=t("head_what", head=head)),
                          selected=(query, -1), clickable=False, square=False,
                          terms=weight_terms())
    vz.fit_height(fig, min(640, 200 + 22 * len(q_tok)))
    facts = {"layer": layer, "head": head, **shares, "query": label(q_tok, query), "top_key": label(k_tok, row.top),
             "top_weight": row.top_value}
    return Shown(fig, facts, answer=row.top, tokens=list(k_tok), page="attention",
                 params={"view": "heads", "layer": str(layer), "head": str(head)})


@kind("all_heads", facts={"n_layers": "int", "n_heads": "int", "n_maps": "int", "prev_head": "text",
                          "prev_score": "num", "first_head": "text", "first_score": "num"})
def all_heads(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.attention()
    stack = _stack(ctx)
    patterns = data.patterns[stack]
    tokens, _ = data.tokens_of(stack)
    pl, ph, ps = lab.lesson_attention.strongest_head(patterns, tokens, "previous_token")
    fl, fh, fs = lab.lesson_attention.strongest_head(patterns, tokens, "first_token")
    # the title through model_view, which leaves room for it; no "click one": a lesson's grid selects nothing
    fig = vz.model_view(patterns, terms={"tile": t("term_tile")}, title=t("lk_all_heads_title"))
    vz.mark_tile(fig, pl, ph)
    facts = {"n_layers": patterns.shape[0], "n_heads": patterns.shape[1],
             "n_maps": patterns.shape[0] * patterns.shape[1],
             "prev_head": t("lk_head_name", layer=pl, head=ph), "prev_score": ps,
             "first_head": t("lk_head_name", layer=fl, head=fh), "first_score": fs}
    return Shown(fig, facts, page="attention", params={"view": "heads", "layer": str(pl), "head": str(ph)})


METRICS = ("entropy", "mean_distance", "attn_to_first", "attn_to_last", "sparsity")


@kind("head_metrics", params=(Param("metric", "choice", default="entropy", choices=METRICS),),
      facts={"metric": "text", "max_head": "text", "max_value": "num", "min_head": "text", "min_value": "num"})
def head_metrics(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    stack = _stack(ctx)
    metrics = ctx.head_metrics(stack)
    z = metrics[p["metric"]]
    hi, lo = int(np.nanargmax(z)), int(np.nanargmin(z))
    H = z.shape[1]
    named = {t(f"metric_{m}"): metrics[m] for m in METRICS if m in metrics}
    fig = vz.head_metrics_chart(named, t(f"metric_{p['metric']}"), title=t(f"metric_{p['metric']}"),
                                terms={"layer": t("term_layer"), "head": t("term_head")})
    facts = {"metric": t(f"metric_{p['metric']}"), "max_head": t("lk_head_name", layer=hi // H, head=hi % H),
             "max_value": float(z.flat[hi]), "min_head": t("lk_head_name", layer=lo // H, head=lo % H),
             "min_value": float(z.flat[lo])}
    return Shown(fig, facts, page="attention", params={"view": "metrics"})


@kind("rollout", params=(QUERY,), facts={"query": "text", "top_key": "text", "top_weight": "num",
                                         "first_layer_top": "text"},
      question="token")
def rollout(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    stack = _stack(ctx)
    roll = ctx.rollout(stack)                                   # [L, q, q]
    tokens, _ = ctx.attention().tokens_of(stack)
    query = position(p["query"], tokens)
    last = roll[-1]
    top = int(np.argmax(last[query]))
    first_top = int(np.argmax(roll[0][query]))
    fig = vz.head_heatmap(last.astype(np.float32), tokens, tokens, title=t("lk_rollout_title", n=roll.shape[0]),
                          selected=(query, -1), clickable=False, square=False,
                          terms=weight_terms())
    vz.fit_height(fig, min(640, 200 + 22 * len(tokens)))
    facts = {"query": label(tokens, query), "top_key": label(tokens, top), "top_weight": float(last[query, top]),
             "first_layer_top": label(tokens, first_top)}
    return Shown(fig, facts, answer=top, tokens=list(tokens), page="attention",
                 params={"view": "rollout", "layer": str(roll.shape[0] - 1)})
