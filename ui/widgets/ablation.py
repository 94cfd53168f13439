"""Ablation toggles for any page: zero heads, drop the positional encoding, remove the
mask, swap the norm, and the change in the model's output that follows.

    from ui.widgets.ablation import ablation_panel
    ablation_panel(sel)            # controls + the effect on the selected model and text

The work is lab.ablation (real hooks and config changes); this module holds the
widgets, the caches and the charts. A page may call `ablation_panel` once per run; its
widgets are keyed `abl_*` (pass another `prefix` to have two).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st
import torch

import viz_core as vz
from lab import ablation
from models.config import NORMS

from .. import serving
from ..i18n import t
from ..markup import md_escape
from ..page import explain
from ..serving import RunKey, encode, load_model, run_held
from ..sidebar import Selection
from . import figure_export


@st.cache_resource(show_spinner=False, max_entries=4)
def _rebuilt(key: str, device: str, drop_positional: bool, norm: str | None) -> ablation.Rebuilt:
    model, _ = load_model(key, device)
    return ablation.rebuild(model, ablation.Ablation(drop_positional=drop_positional, norm=norm))


@st.cache_data(max_entries=16, show_spinner=False)
def ablation_effect(key: RunKey, heads: tuple[tuple[int, int], ...],
                    drop_positional: bool, remove_mask: bool, norm: str | None) -> dict:
    """Run the model on the text with and without the ablation; the per-position change
    (lab.ablation.output_change) plus tokens and notes. Raises ValueError."""
    model, tok = load_model(key.model_key, key.device)
    ab = ablation.Ablation(heads=heads, drop_positional=drop_positional, remove_mask=remove_mask, norm=norm)
    ab.check(model)
    enc = encode(tok, model, key.text)
    if not enc.ids:
        raise ValueError("The text is empty.")
    kw = {}
    tokens = enc.tokens
    if model.cfg.arch == "encoder-decoder":
        tgt = encode(tok, model, key.target or key.text)
        kw, tokens = {"tgt_ids": tgt.ids}, tgt.tokens
    rebuilt = _rebuilt(key.model_key, key.device, drop_positional, norm if norm != model.cfg.norm else None)
    n = len(enc.ids)
    with torch.inference_mode():
        base = run_held(model, lambda m: m(enc.ids, **kw), n)
        out = run_held(rebuilt.model, lambda _m: _ablated(model, ab, rebuilt, lambda m: m(enc.ids, **kw)), n)
    logits = model.cfg.output == "logits"
    change = ablation.output_change(base, out, logits)
    res = {"tokens": list(tokens), "logits": logits, "missing": rebuilt.missing, "dropped": rebuilt.dropped,
           **change}
    if logits:
        res["top_base_tok"] = [tok.id_to_token(int(i)) for i in change["top_base"]]
        res["top_ablated_tok"] = [tok.id_to_token(int(i)) for i in change["top_ablated"]]
    return res


@st.cache_data(max_entries=16, show_spinner=False)
def task_accuracy(key: str, device: str, heads: tuple[tuple[int, int], ...], drop_positional: bool,
                  remove_mask: bool, norm: str | None, n: int = 128) -> tuple[float, float]:
    """Exact-sequence accuracy on the checkpoint's own task (models.training.tasks), without and
    with the ablation, on the same n seeded examples."""
    from models.training.tasks import get_task

    task = get_task(serving.task_of(key))
    model, _ = load_model(key, device)
    ab = ablation.Ablation(heads=heads, drop_positional=drop_positional, remove_mask=remove_mask, norm=norm)
    rebuilt = _rebuilt(key, device, drop_positional, norm if norm != model.cfg.norm else None)
    with torch.inference_mode():
        base = run_held(model, lambda m: task.evaluate(m, n=n), task.train_len)
        ablated = run_held(rebuilt.model, lambda _m: _ablated(model, ab, rebuilt, lambda m: task.evaluate(m, n=n)),
                           task.train_len)
    return float(base), float(ablated)


def _ablated(model, ab: ablation.Ablation, rebuilt: ablation.Rebuilt, fn):
    """fn(the ablated model): the rebuilt model (or the original, for hook-only ablations)
    with the ablation's hooks in place."""
    with ablation.applied(model, ab, rebuilt) as m:
        return fn(m)


def _head_label(layer: int, head: int) -> str:
    return f"L{layer} H{head}"


def controls(n_layers: int, n_heads: int, norm: str, positional: str, arch: str,
             prefix: str = "abl") -> ablation.Ablation:
    """The toggles; returns the chosen Ablation (empty when nothing is toggled)."""
    options = [_head_label(l, h) for l in range(n_layers) for h in range(n_heads)]
    c1, c2 = st.columns([3, 2])
    with c1:
        picked = st.multiselect(t("abl_heads"), options, key=f"{prefix}_heads", help=t("abl_heads_help"),
                                max_selections=len(options))
        norms = ["keep", *[n for n in NORMS if n != norm]]
        names = {"keep": t("abl_norm_keep", norm=t(f"bn_axis_{norm}")), **{n: t(f"bn_axis_{n}") for n in NORMS}}
        swap = st.selectbox(t("abl_norm"), norms, key=f"{prefix}_norm", format_func=names.__getitem__,
                            help=t("abl_norm_help"))
    with c2:
        drop_pe = st.checkbox(t("abl_drop_pe", pe=t(f"pos_{positional}")), key=f"{prefix}_pe",
                              disabled=positional == "none",
                              help=t("abl_drop_pe_help"))
        remove_mask = st.checkbox(t("abl_mask"), key=f"{prefix}_mask", help=t("abl_mask_help"))
    heads = tuple((int(s.split()[0][1:]), int(s.split()[1][1:])) for s in picked)
    return ablation.Ablation(heads=heads, drop_positional=drop_pe, remove_mask=remove_mask,
                      norm=None if swap == "keep" else swap)


def ablation_panel(sel: Selection, prefix: str = "abl") -> None:
    """Controls and the change in output for the selected model and text."""
    model, _ = load_model(sel.model_key, sel.device)
    cfg = model.cfg
    st.markdown(t("abl_intro"))
    ab = controls(cfg.n_layers, cfg.n_heads, cfg.norm, cfg.positional, cfg.arch, prefix)
    if ab.empty:
        st.info(t("abl_nothing"), icon=":material/toggle_off:")
        return
    try:
        res = ablation_effect(RunKey.of(sel), ab.heads, ab.drop_positional,
                              ab.remove_mask, ab.norm)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    notes = []
    if ab.remove_mask and cfg.arch != "decoder" and cfg.attention.kind == "full":
        notes.append(t("abl_mask_noop"))
    if res["dropped"]:
        notes.append(t("abl_dropped", names=", ".join(res["dropped"][:6]) + (" …" if len(res["dropped"]) > 6 else "")))
    if res["missing"]:
        notes.append(t("abl_missing", names=", ".join(res["missing"][:6]) + (" …" if len(res["missing"]) > 6 else "")))
    for n in notes:
        st.caption(md_escape(n))
    task = serving.task_of(sel.model_key)
    if task:
        try:
            base, ablated = task_accuracy(sel.model_key, sel.device, ab.heads, ab.drop_positional, ab.remove_mask,
                                          ab.norm)
            c1, c2 = st.columns(2)
            c1.metric(t("abl_acc_base", task=task), f"{base:.0%}")
            c2.metric(t("abl_acc_ablated", task=task), f"{ablated:.0%}", delta=f"{(ablated - base) * 100:+.0f} pp")
        except (ImportError, ValueError, KeyError) as e:
            st.caption(t("abl_acc_failed", error=explain(e)))
    tokens = res["tokens"]
    if res["logits"]:
        changed = int(np.sum(res["changed"]))
        c1, c2, c3 = st.columns(3)
        c1.metric(t("abl_mean_kl"), f"{float(np.mean(res['kl'])):.4g}")
        c2.metric(t("abl_changed"), f"{changed} / {len(tokens)}")
        c3.metric(t("abl_logit_diff"), f"{float(np.mean(res['logit_diff'])):+.4g}")
        figure_export.chart(vz.token_bars(res["kl"], tokens, title=t("abl_kl_title"), value_name="KL",
                               highlight=[i for i, c in enumerate(res["changed"]) if c]),
                 key=f"{prefix}_chart", width="stretch")
        table = pd.DataFrame({
            t("abl_col_pos"): range(len(tokens)),
            t("abl_col_token"): [vz.visible_label(x) for x in tokens],
            t("abl_col_before"): [vz.visible_label(x) for x in res["top_base_tok"]],
            t("abl_col_after"): [vz.visible_label(x) for x in res["top_ablated_tok"]],
            "KL": res["kl"].astype(float), t("abl_logit_diff"): res["logit_diff"].astype(float)})
        st.dataframe(table, hide_index=True, width="stretch", key=f"{prefix}_table")
        st.caption(t("abl_logits_caption"))
    else:
        c1, c2 = st.columns(2)
        c1.metric(t("abl_mean_cos"), f"{float(np.mean(res['cosine'])):.4f}")
        c2.metric(t("abl_mean_rel"), f"{float(np.mean(res['rel_change'])):.1%}")
        figure_export.chart(vz.token_bars(res["rel_change"], tokens, title=t("abl_rel_title"),
                               value_name=t("abl_mean_rel")), key=f"{prefix}_chart", width="stretch")
        st.caption(t("abl_hidden_caption"))
