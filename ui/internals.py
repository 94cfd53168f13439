"""Cached numpy data for the FFN and residual-stream pages: one recorded pass per
(model, text), turned into the arrays the views need (models.ffn, models.residual).

A/B comparisons call the same functions for text B, so both texts share the cache.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from models import ffn as F
from models import residual as R

from .loaders import MAX_CHARS, RunInfo, _record, _unk_fraction, load_model, trace_budget_bytes


# what these pages read (not the attention maps: [L, H, n, n] twice would dominate memory)
RECORD = ["*hook_embed", "*hook_pos_embed", "*hook_type_embed", "*hook_resid_*", "*hook_*_out",
          "*mlp.hook_*", "*hook_normalized", "*hook_scale"]


def stack_for(arch: str) -> str | None:
    """The stack these pages read: the decoder of an encoder-decoder (its output is the
    model's output), else the only one."""
    return "decoder" if arch == "encoder-decoder" else None


@dataclass
class InternalsData:
    tokens: list[str]                 # tokens of the stack shown (decoder tokens for encoder-decoder)
    truncated: bool
    n_tokens_before: int
    unk_fraction: float
    pre: np.ndarray                   # [L, pos, d_ff] FFN pre-activations
    post: np.ndarray                  # [L, pos, d_ff] FFN activations (what W_out reads)
    labels: list[str]                 # decomposition steps: "embed", "L0 attn", ...
    contrib: dict[str, np.ndarray]    # models.residual.contribution_stats: [n, pos] each
    stream: np.ndarray                # [n, pos, d] the stream after every step
    decomp_error: float               # max |embed + sum of contributions - final| (pre-LN), else nan
    additive: bool
    norms: R.NormStats
    lens: R.Lens | None               # None when the model has no unembedding
    lens_tokens: list[list[list[str]]] | None   # [n, pos, k] strings of lens.top_ids
    run: RunInfo | None = None        # memory: budget cut, out-of-memory fallback, trace bytes


def internals(key: str, device: str, text: str, target: str) -> InternalsData:
    """One recorded pass (the hooks in RECORD) reduced to what the FFN and residual pages
    show (cached per text and memory budget)."""
    return _internals(key, device, text, target, trace_budget_bytes())


@st.cache_data(max_entries=8, show_spinner=False)
def _internals(key: str, device: str, text: str, target: str, budget: int) -> InternalsData:
    model, tok, enc, tgt, trace, info = _record(key, device, text, target, RECORD, budget)
    stack = stack_for(model.cfg.arch)
    seq = tgt if tgt is not None else enc
    prefix = "decoder." if stack else ""
    pre, post = F.activations(trace, model.cfg.n_layers, prefix)
    dec = R.decomposition(model, trace, stack)
    err = float(np.abs(dec.components.sum(0, dtype=np.float64) - dec.final).max()) if dec.additive else float("nan")
    lens = lens_tokens = None
    if R.has_unembedding(model):
        lens = R.logit_lens(model, trace, stack, k=5)
        lens_tokens = [[[tok.id_to_token(int(i)) for i in cell] for cell in row] for row in lens.top_ids]
    n_before = enc.n_tokens_before_truncation if enc.truncated else len(enc)
    norms = R.norm_stats(model, trace, stack)
    norms.inputs = norms.outputs = np.zeros((0,), np.float32)      # [n, pos, d] each: not kept in the cache
    if lens is not None:
        lens.final_probs = np.zeros((0,), np.float32)              # [pos, vocab]: not kept in the cache
    return InternalsData(
        tokens=list(seq.tokens), truncated=enc.truncated or len(text) > MAX_CHARS, n_tokens_before=n_before,
        unk_fraction=_unk_fraction(tok, enc.ids), pre=pre, post=post, labels=dec.labels,
        contrib=R.contribution_stats(dec), stream=dec.stream, decomp_error=err, additive=dec.additive,
        norms=norms, lens=lens, lens_tokens=lens_tokens, run=info,
    )


@st.cache_data(max_entries=32, show_spinner=False)
def neuron_projection(key: str, device: str, layer: int, neuron: int, k: int = 10) -> dict:
    """The tokens neuron `neuron` of `layer` promotes and suppresses (Geva et al.)."""
    model, tok = load_model(key, device)
    stack = stack_for(model.cfg.arch)
    proj = F.project_to_vocab(model, F.neuron_value(model, layer, neuron, stack), k)
    return {"via": proj.via,
            "top": [tok.id_to_token(int(i)) for i in proj.top_ids], "top_scores": proj.top_scores,
            "bottom": [tok.id_to_token(int(i)) for i in proj.bottom_ids], "bottom_scores": proj.bottom_scores}


@st.cache_data(max_entries=8, show_spinner=False)
def parameters(key: str, device: str) -> dict:
    model, _ = load_model(key, device)
    return {"parts": F.parameter_breakdown(model), "total": model.n_params,
            "ffn_layer": F.ffn_params_per_layer(model)}


def require_internals(sel) -> InternalsData:
    """The cached internals of the selection, with the same notes as the attention page
    (truncation, unknown tokens, random weights); stops the page with a message on error."""
    from .session import require_data

    return require_data(sel, internals)


def probe_example(key: str) -> tuple[str, str | None] | None:
    """(text, decoder text or None) of the fixed example of a shipped toy checkpoint's
    task (models.tasks), e.g. "abcd=dcba" for reverse: what that model was trained to
    read. None for other models."""
    from .ablation import toy_task

    task = toy_task(key)
    if not task:
        return None
    try:
        from models.tasks import get_task

        ex = get_task(task).probe()
        return ex.text, ex.tgt_text
    except (ImportError, ValueError):
        return None


def probe_text(key: str) -> str | None:
    ex = probe_example(key)
    return ex[0] if ex else None


def _use_text(text: str, target: str | None) -> None:
    st.session_state["text"] = text
    if target is not None:
        st.session_state["target"] = target


def task_example_button(sel) -> None:
    """For a toy checkpoint: a button that puts its task's example in the sidebar (the
    sidebar's example sentence is mostly unknown characters to a toy vocabulary). Call it
    outside fragments, so that the sidebar reruns too."""
    from .i18n import t
    from .shell import md_code

    ex = probe_example(sel.model_key)
    if ex is None or (ex[0] == sel.text and (ex[1] is None or ex[1] == sel.target)):
        return
    shown = ex[0] if ex[1] is None else f"{ex[0]} → {ex[1]}"
    st.button(t("use_task_example", text=md_code(shown)), key="use_task_example", on_click=_use_text, args=ex,
              icon=":material/science:")
