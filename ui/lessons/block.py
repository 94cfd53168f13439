"""Step kinds of the "inside a block" lesson: the residual stream and what each sub-layer
adds to it, LayerNorm against RMSNorm on one token's vector, the FFN's strongest neurons
and the tokens they promote, and the logit lens.

Every number comes from the cached internals of the reader's model and text
(`serving.internals`, the residual and FFN pages' data) reduced by `lab.lesson_block`;
figures are the residual and FFN pages' builders.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

import viz_core as vz
from lab import lesson_block
from lab.lessons import Param
from models.training.tasks import get_task
from viz_core.walkthrough import vector_figure

from ..serving.run_key import RunKey
from .. import model_names, serving
from ..model_names import site_label, site_labels
from ..figure_words import ffn_terms
from ..i18n import t
from ..markup import md_escape
from . import Shown, StepContext, kind
from .attention import QUERY, label, position

# a small trained decoder read by the logit-lens step when the reader's model has no
# unembedding (MiniLM outputs hidden states): its lens shows the answer forming at layer 1
LENS_FALLBACK = "toy:induction"


def _res_params(view: str) -> dict[str, str]:
    return {"rview": view}


@kind("stream_map", facts={"n_steps": "int", "n_layers": "int", "error": "num", "low": "num", "high": "num"})
def stream_map(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.internals()
    z = data.contrib["stream_norm"]
    fig = vz.value_heatmap(z, site_labels(data.labels), data.tokens, title=t("res_norm_title"), value_name="‖x‖")
    facts = {"n_steps": len(data.labels), "n_layers": ctx.cfg.n_layers, "error": float(data.decomp_error),
             "low": float(z.min()), "high": float(z.max())}
    caption = t("lk_bl_additive" if data.additive else "lk_bl_post_ln")
    return Shown(fig, facts, page="residual", params=_res_params("stream"), caption=caption)


@kind("stream_norm", facts={"first": "num", "last": "num", "growth": "num", "n_up": "int", "n_blocks": "int"},
      question="choice", options=("stream_grow", "stream_shrink"))
def stream_norm(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.internals()
    trend = lesson_block.stream_trend(data.contrib["stream_norm"], data.labels)
    fig = vz.lines_chart({t("lk_bl_mean_norm"): (site_labels(trend.steps), trend.norms)}, title=t("lk_bl_norm_title"),
                         y_name="‖x‖")
    facts = {"first": float(trend.norms[0]), "last": float(trend.norms[-1]), "growth": trend.growth,
             "n_up": trend.n_up, "n_blocks": len(trend.steps) - 1}
    return Shown(fig, facts, answer=f"stream_{trend.direction}", page="residual", params=_res_params("stream"))


@kind("contributions", params=(QUERY,),
      facts={"query": "text", "top": "text", "top_norm": "num", "share": "num", "attn": "num", "mlp": "num"},
      question="choice", options=("sub_embed", "sub_attn", "sub_mlp"))
def contributions(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.internals()
    q = position(p["query"], data.tokens)
    c = data.contrib
    big = lesson_block.largest_contribution(data.labels, c["norm"], q)
    fig = vz.contribution_chart(site_labels(data.labels), c["norm"][:, q], c["cos_stream"][:, q], kinds=data.labels,
                                title=t("lk_bl_contrib_title", q=label(data.tokens, q)),
                                terms={"norm": t("term_norm"), "cosine": t("res_cos_stream")})
    facts = {"query": label(data.tokens, q), "top": site_label(big.label), "top_norm": big.norm, "share": big.share,
             "attn": big.attn_total, "mlp": big.mlp_total}
    return Shown(fig, facts, answer=f"sub_{big.kind}", page="residual", params=_res_params("stream"))


@kind("norm_stats", facts={"kind": "text", "n_norms": "int", "in_low": "num", "in_high": "num", "out_std": "num"})
def norm_stats(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    ns = ctx.internals().norms
    in_std, out_std = np.sqrt(ns.in_var).mean(1), np.sqrt(ns.out_var).mean(1)
    names = site_labels(ns.labels)
    fig = vz.lines_chart({t("res_in_std"): (names, in_std), t("res_out_std"): (names, out_std)},
                         title=t("res_norms_title"), y_name=t("res_std"))
    facts = {"kind": t(f"lk_bl_kind_{ns.kind}"), "n_norms": len(ns.labels), "in_low": float(in_std.min()),
             "in_high": float(in_std.max()), "out_std": float(out_std.mean())}
    return Shown(fig, facts, page="residual", params=_res_params("norms"))


@kind("norm_token", params=(Param("step", "int", default=-1), QUERY),
      facts={"query": "text", "step": "text", "mean": "num", "std": "num", "rms": "num", "cosine": "num",
             "ln_norm": "num", "sqrt_d": "num"},
      question="choice", options=("norms_agree", "norms_differ"))
def norm_token(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    """One token's stream after decomposition step `step` (negative: from the end; the
    last is what the final norm reads), LayerNorm'd and RMSNorm'd without gain or bias."""
    data = ctx.internals()
    n = len(data.labels)
    step = min(max(p["step"] + n if p["step"] < 0 else p["step"], 0), n - 1)
    q = position(p["query"], data.tokens)
    cmp = lesson_block.compare_norms(data.stream[step, q], ctx.cfg.norm_eps)
    fig = vector_figure({t("lk_bl_input"): cmp.x, "LayerNorm": cmp.layer, "RMSNorm": cmp.rms},
                           title=t("lk_bl_norm_token_title", step=site_label(data.labels[step]),
                                   q=label(data.tokens, q)),
                           terms={"dim": t("wt_term_dim"), "value": t("lk_bl_value")})
    facts = {"query": label(data.tokens, q), "step": site_label(data.labels[step]), "mean": cmp.mean, "std": cmp.std,
             "rms": cmp.rms_value, "cosine": cmp.cosine, "ln_norm": cmp.layer_norm,
             "sqrt_d": float(np.sqrt(cmp.x.size))}
    return Shown(fig, facts, answer="norms_agree" if cmp.agree else "norms_differ", page="residual",
                 params=_res_params("norms"))


def _ffn_params(layer: int, neuron: int) -> dict[str, str]:
    return {"fview": "activations", "layer": str(layer), "neuron": str(neuron)}


@kind("ffn_top", params=(Param("layer", "layer", default=-1), QUERY),
      facts={"layer": "int", "query": "text", "top_neuron": "text", "top_value": "num", "n_positive": "int",
             "d_ff": "int", "share": "num", "k": "int"})
def ffn_top(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.internals()
    layer = p["layer"]
    q = position(p["query"], data.tokens)
    top = lesson_block.top_neurons(data.post[layer], q)
    names = [f"n{i}" for i in top.ids]
    fig = vz.token_bars(top.values.astype(np.float32), names, numbered=False, value_name=t("term_activation"),
                        title=t("lk_bl_ffn_title", layer=layer, q=label(data.tokens, q)))
    facts = {"layer": layer, "query": label(data.tokens, q), "top_neuron": names[0], "top_value": float(top.values[0]),
             "n_positive": top.n_positive, "d_ff": top.d_ff, "share": top.top_share, "k": len(names)}
    return Shown(fig, facts, page="ffn", params=_ffn_params(layer, int(top.ids[0])))


@kind("ffn_vocab", params=(Param("layer", "layer", default=-1), QUERY),
      facts={"layer": "int", "neuron": "text", "promoted": "text", "suppressed": "text", "query": "text"})
def ffn_vocab(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data = ctx.internals()
    layer = p["layer"]
    q = position(p["query"], data.tokens)
    neuron = int(lesson_block.top_neurons(data.post[layer], q, k=1).ids[0])
    s = ctx.sel
    proj = serving.neuron_projection(s.model_key, s.device, layer, neuron)
    fig = vz.vocab_bars(proj["top"], proj["top_scores"], proj["bottom"], proj["bottom_scores"],
                        title=t("lk_bl_vocab_title", layer=layer, n=neuron),
                        terms=ffn_terms())
    facts = {"layer": layer, "neuron": f"n{neuron}", "query": label(data.tokens, q),
             "promoted": token_list(proj["top"][:3]), "suppressed": token_list(proj["bottom"][:3])}
    return Shown(fig, facts, page="ffn", params=_ffn_params(layer, neuron), caption=t(f"ffn_via_{proj['via']}"))


def token_list(tokens) -> str:
    """A few tokens in a sentence: quoted and listed the way the UI language lists them."""
    return t("lk_bl_token_sep").join(t("lk_bl_token_quoted", token=vz.visible_label(x)) for x in tokens)


def _lens_data(ctx: StepContext):
    """(internals, model label, text; "" for the reader's own) for the logit lens: the reader's model when it has
    an unembedding, else the small trained decoder LENS_FALLBACK on its task's example."""
    data = ctx.internals()
    if data.lens is not None:
        return data, "", ""
    entry = serving.entry(LENS_FALLBACK)
    text = get_task(entry.task).probe().text
    return serving.internals(RunKey(LENS_FALLBACK, ctx.sel.device, text)), model_names.label(entry), text


@kind("logit_lens", params=(QUERY,),
      facts={"query": "text", "final": "text", "final_prob": "num", "first": "text", "n_rows": "int",
             "model": "text"},
      question="choice", options=("lens_early", "lens_late"))
def logit_lens(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    data, other, example = _lens_data(ctx)
    lens = data.lens
    q = position(p["query"], data.tokens)
    settle = lesson_block.lens_settle(lens.top_ids, lens.top_probs, q)
    text = [[cell[0] for cell in row] for row in data.lens_tokens]
    fig = vz.value_heatmap(lens.top_probs[..., 0], site_labels(lens.labels), data.tokens, title=t("res_lens_title"),
                           value_name=t("term_probability"), zmin=0.0, zmax=1.0, text=text)
    facts = {"query": label(data.tokens, q), "final": vz.visible_label(data.lens_tokens[-1][q][0]),
             "final_prob": settle.final_prob, "first": site_label(lens.labels[settle.first]), "n_rows": settle.n_rows,
             "model": other or ctx.sel.model_label}
    caption = t("lk_bl_lens_fallback", model=md_escape(other), text=md_escape(example)) if other else ""
    params = _res_params("lens")
    if other:
        params = {**params, "model": other, "text": example}
    return Shown(fig, facts, answer="lens_early" if settle.halfway else "lens_late", page="residual",
                 params=params, caption=caption)
