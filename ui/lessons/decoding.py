"""Step kinds of the "masks and decoders" lesson: padding in a batch, the causal mask and
the attention it allows, a decoder's next-token candidates, generation one token at a
time, what the KV cache holds and costs, and the cached and recomputed logits compared.

A toy checkpoint reads its task's example (the sidebar's sentence is mostly unknown
characters to its small vocabulary); any other model reads the reader's text. The padded
batch is the masks page's (ui/serving/masks.py, `serving.run_padded`), generation and the cache check run
through the gate (`serving.run`), cache sizes come from `lab.kv`.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import streamlit as st

import lab.generate
import lab.masks
import viz_core as vz
import viz_core.generate
import viz_core.masks
from lab import kv, lesson_decoding
from lab.lessons import Param
from models.trace import Stack
from viz_core.labels import plain_labels

from .. import serving
from ..figure_words import mask_terms, weight_terms, words
from ..i18n import t
from ..markup import md_escape
from ..page import task_example
from ..serving.masks import lab_tokens, padded_batch
from ..serving.run_key import RunKey
from . import Shown, StepContext, kind
from .attention import label

N_NEW = 8                  # tokens the lesson generates
LAYER = Param("layer", "layer", default=0)
HEAD = Param("head", "head", default=0)


def texts(ctx: StepContext) -> tuple[str, str, bool]:
    """(text, generation prompt, whether it is a toy task's example): a toy checkpoint's
    example and the part of it before the answer; else the reader's text twice."""
    ex = task_example(ctx.sel.model_key)
    if ex is not None and ctx.cfg.arch != "encoder-decoder":
        prompt = lab.generate.task_prompt(serving.task_of(ctx.sel.model_key), ctx.cfg.arch)
        return ex[0], prompt or ex[0], True
    return ctx.sel.text, ctx.sel.text, False


def _example_note(text: str, toy: bool) -> str:
    return t("lk_dc_example", text=md_escape(text)) if toy else ""


# ---- padding ----------------------------------------------------------------------------------
@kind("padding", params=(LAYER, HEAD),
      facts={"n1": "int", "n2": "int", "n_pad": "int", "width": "int", "pad_weight": "num"},
      question="choice", options=("pad_zero", "pad_some"))
def padding(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    if ctx.cfg.arch == "encoder-decoder":
        raise ValueError(t("mk_padding_encdec"))
    text, _, toy = texts(ctx)
    words = text.split()
    short = " ".join(words[: max(1, len(words) // 2)]) if len(words) > 1 else text[: max(1, len(text) // 2)]
    s = ctx.sel
    data = padded_batch(s.model_key, s.device, text, short, p["layer"])
    row = int(np.argmin(data.lengths))
    fig = viz_core.masks.mask_figure(data.mask[row], data.tokens[row],
                                     title=t("mk_row_mask", i=row + 1, layer=p["layer"]),
                         terms=mask_terms())
    w = data.pad_weight(row, p["head"])
    facts = {"n1": data.lengths[0], "n2": data.lengths[1], "n_pad": data.n - data.lengths[row], "width": data.n,
             "pad_weight": w}
    caption = t("lk_dc_padded_texts", a=md_escape(text), b=md_escape(short))
    return Shown(fig, facts, answer="pad_zero" if w < lesson_decoding.MATCH_TOL else "pad_some", page="masks",
                 params={"mk_layer": str(p["layer"]), "mk_head": str(p["head"]), "text": text}, caption=caption)


# ---- the causal mask -------------------------------------------------------------------------------
def _self_stack(cfg) -> str:
    maps = Stack.attention_maps(cfg.arch)
    return (Stack.DECODER if Stack.DECODER in maps else maps[0]).value


@kind("causal_mask", params=(Param("query", "position", default=5),),
      facts={"query": "text", "n_keys": "int", "n_hidden": "int", "last": "text", "n": "int", "pairs": "int"},
      question="token")
def causal_mask(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    text, _, toy = texts(ctx)
    s = ctx.sel
    tokens, _ = lab_tokens(RunKey(s.model_key, s.device, text, s.target), _self_stack(ctx.cfg))
    mask = lab.masks.trained_mask(ctx.cfg, len(tokens), _self_stack(ctx.cfg)).cpu().numpy()
    q = min(max(p["query"] + len(tokens) if p["query"] < 0 else p["query"], 0), len(tokens) - 1)
    v = lesson_decoding.visible(mask, q)
    fig = viz_core.masks.mask_figure(mask, tokens, title=t("lk_dc_mask_title", q=label(tokens, q)), terms=mask_terms())
    facts = {"query": label(tokens, q), "n_keys": v.n_keys, "n_hidden": v.n_hidden,
             "last": label(tokens, v.last) if v.last >= 0 else "-", "n": len(tokens),
             "pairs": int(mask.sum())}
    return Shown(fig, facts, answer=v.last, tokens=list(tokens), page="masks", params={"text": text},
                 caption=_example_note(text, toy))


@kind("causal_weights", params=(LAYER, HEAD, Param("query", "position", default=-1)),
      facts={"layer": "int", "head": "int", "query": "text", "future": "num", "top_key": "text", "top_weight": "num"})
def causal_weights(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    text, _, toy = texts(ctx)
    s = ctx.sel
    data = serving.attention_data(RunKey(s.model_key, s.device, text, s.target))
    stack = _self_stack(ctx.cfg)
    q_tok, k_tok = data.tokens_of(stack)
    layer, head = p["layer"], p["head"]
    w = data.patterns[stack][layer, head]
    q = min(max(p["query"] + len(q_tok) if p["query"] < 0 else p["query"], 0), len(q_tok) - 1)
    future = float(np.triu(w, 1).max()) if w.shape[0] > 1 else 0.0
    top = int(np.argmax(w[q]))
    shown = np.where(data.masks[stack], w, np.nan).astype(np.float32)
    fig = vz.head_heatmap(shown, q_tok, k_tok, title=t("head_title", layer=layer, what=t("head_what", head=head)),
                          selected=(q, -1), clickable=False, square=False,
                          terms=weight_terms())
    vz.fit_height(fig, min(640, 200 + 22 * len(q_tok)))
    facts = {"layer": layer, "head": head, "query": label(q_tok, q), "future": future, "top_key": label(k_tok, top),
             "top_weight": float(w[q, top])}
    return Shown(fig, facts, page="attention", params={"view": "heads", "layer": str(layer), "head": str(head)},
                 caption=_example_note(text, toy))


# ---- one token at a time ----------------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def generated(key: str, device: str, prompt: str, n_new: int) -> tuple[lab.generate.Result, list[str]]:
    """Greedy generation of `n_new` tokens from `prompt` (through the gate), and the prompt's tokens."""
    model, tok = serving.load_model(key, device)
    p = lab.generate.prepare_prompt(tok, model.cfg, prompt, n_new)
    if not p.ids:
        raise ValueError("The text is empty.")
    res = serving.run(key, device,
                      lambda m, _n: lab.generate.generate(m, p.ids, lab.generate.Settings(max_new_tokens=n_new),
                                                          eos=lab.generate.eos_id(tok), names=[]),
                      len(p.ids) + n_new)
    return res, list(p.tokens)


def _generation(ctx: StepContext):
    _, prompt, toy = texts(ctx)
    s = ctx.sel
    res, prompt_tokens = generated(s.model_key, s.device, prompt, N_NEW)
    new_tokens = lab.generate.token_texts(ctx.tokenizer, res.new_ids)
    return res, prompt_tokens, new_tokens, prompt, toy


def _gen_params(prompt: str) -> dict[str, str]:
    return {"strategy": "greedy", "gen_n": str(N_NEW), "text": prompt}


@kind("next_token", facts={"prompt": "text", "top": "text", "top_prob": "num", "second": "text",
                           "second_prob": "num", "n_candidates": "int"},
      question="token")
def next_token(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    res, prompt_tokens, new_tokens, prompt, toy = _generation(ctx)
    s0 = res.steps[0]
    order = np.argsort(s0.candidates, kind="stable")               # candidates in vocabulary order
    cands = [lab.generate.token_text(ctx.tokenizer, s0.candidates[i]) for i in order]
    chosen = int(np.flatnonzero(order == 0)[0])                     # candidates[0] is the greedy pick
    fig = viz_core.generate.candidate_bars(cands, s0.model_probs[order], s0.probs[order], s0.kept[order],
                                           s0.final_probs[order],
                            chosen, title=t("lk_dc_next_title"),
                            terms=words("gen_term_", viz_core.generate.BAR_TERMS))
    facts = {"prompt": vz.visible_label(prompt, 80), "top": vz.visible_label(cands[chosen]),
             "top_prob": float(s0.model_probs[0]),
             "second": vz.visible_label(lab.generate.token_text(ctx.tokenizer, s0.candidates[1])),
             "second_prob": float(s0.model_probs[1]), "n_candidates": len(cands)}
    return Shown(fig, facts, answer=chosen, tokens=cands, page="generate", params=_gen_params(prompt))


@kind("generation", facts={"prompt": "text", "output": "text", "n_new": "int", "low": "num", "low_token": "text",
                           "mean": "num"})
def generation(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    res, prompt_tokens, new_tokens, prompt, toy = _generation(ctx)
    probs = np.array([s.chosen_prob for s in res.steps], dtype=np.float32)
    labels = plain_labels(new_tokens, start=1)
    fig = vz.token_bars(probs, labels, numbered=False, value_name=t("term_probability"),
                        title=t("lk_dc_gen_title", n=len(new_tokens)))
    low = int(np.argmin(probs))
    # a toy's symbols and a character model's characters run together ("长干", not "长 干"); words get spaces
    chars = toy or all(len(tok) <= 1 for tok in new_tokens)
    facts = {"prompt": vz.visible_label(prompt, 80), "output": vz.visible_label("".join(new_tokens)
                                                                              if chars else " ".join(new_tokens), 120),
             "n_new": len(new_tokens), "low": float(probs[low]), "low_token": labels[low], "mean": float(probs.mean())}
    return Shown(fig, facts, page="generate", params=_gen_params(prompt))


# ---- the KV cache -----------------------------------------------------------------------------------
@kind("kv_grid", params=(Param("step", "int", default=-1),),
      facts={"step": "int", "rows": "int", "n_layers": "int", "per_token": "int", "total_kib": "num",
             "measured_kib": "num", "shape": "text"})
def kv_grid(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    res, prompt_tokens, new_tokens, prompt, _ = _generation(ctx)
    cfg = ctx.cfg
    n = len(res.steps)
    i = min(max(p["step"] + n if p["step"] < 0 else p["step"], 0), n - 1)
    s = res.steps[i]
    rows = s.cache_rows or len(prompt_tokens) + i
    cache = kv.cache_at_step(cfg, rows, 1, s.cache_bytes)
    tokens = (prompt_tokens + new_tokens)[:rows]
    before = 0 if i == 0 else rows - 1
    fig = viz_core.generate.kv_cache_grid(cfg.n_layers, rows, before, tokens,
                           terms=words("gen_term_", viz_core.generate.CACHE_TERMS))
    facts = {"step": i + 1, "rows": rows, "n_layers": cfg.n_layers, "per_token": kv.kv_cache_bytes(cfg, 1).per_token,
             "total_kib": cache.total / 1024, "measured_kib": sum(cache.layer_bytes) / 1024,
             "shape": "[" + ", ".join(map(str, cache.shape)) + "]"}
    return Shown(fig, facts, page="generate", params=_gen_params(prompt))


@kind("kv_memory", facts={"per_token": "int", "max_len": "int", "at_max_kib": "num", "kind": "text",
                          "mha_kib": "num", "mqa_kib": "num"})
def kv_memory(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    cfg = ctx.cfg
    positions, curves = kv.kv_cache_curves(cfg, cfg.max_len)
    name = {d: t("gen_kv_label", kind=kv.attention_kind(cfg.n_heads, d), n=d) for d in curves}
    series = {name[d]: b for d, b in curves.items()}
    fig = viz_core.generate.kv_memory_chart(positions, series, current=name.get(cfg.kv_heads), at=cfg.max_len,
                             terms={"tokens": t("gen_term_tokens"), "bytes": t("gen_term_bytes")})
    size = kv.kv_cache_bytes(cfg, cfg.max_len)
    facts = {"per_token": size.per_token, "max_len": cfg.max_len, "at_max_kib": size.total / 1024,
             "kind": cfg.attention_kind, "mha_kib": kv.kv_cache_bytes(cfg, cfg.max_len, cfg.n_heads).total / 1024,
             "mqa_kib": kv.kv_cache_bytes(cfg, cfg.max_len, 1).total / 1024}
    return Shown(fig, facts, page="generate", params=_gen_params(texts(ctx)[1]))


@st.cache_data(max_entries=16, show_spinner=False)
def cache_check(key: str, device: str, prompt: str, n_new: int) -> lesson_decoding.CacheCheck:
    """Next-token logits with and without the KV cache, step by step (through the gate)."""
    model, tok = serving.load_model(key, device)
    ids = lab.generate.prepare_prompt(tok, model.cfg, prompt, n_new).ids
    return serving.run(key, device, lambda m, _n: lesson_decoding.cache_check(m, ids, n_new), len(ids) + n_new)


@kind("kv_check", facts={"max_diff": "num", "n_steps": "int", "same": "int", "tol": "num"},
      question="choice", options=("logits_match", "logits_differ"))
def kv_check(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    _, prompt, _ = texts(ctx)
    s = ctx.sel
    chk = cache_check(s.model_key, s.device, prompt, N_NEW)
    labels = plain_labels([lab.generate.token_text(ctx.tokenizer, tid) for tid in chk.new_ids], start=1)
    fig = vz.token_bars(chk.diff.astype(np.float32), labels, numbered=False, value_name=t("lk_dc_diff"),
                        title=t("lk_dc_check_title"))
    facts = {"max_diff": chk.max_diff, "n_steps": len(chk.new_ids), "same": chk.same_choice,
             "tol": lesson_decoding.MATCH_TOL}
    return Shown(fig, facts, answer="logits_match" if chk.match else "logits_differ", page="generate",
                 params=_gen_params(prompt))
