"""What the Beyond page's sections compute, cached by plain values (numpy q, k, v hash by
their bytes). The computations are lab's (lab/beyond.py for the source, lab/long_memory.py,
lab/recurrent.py, lab/mixer.py, lab/kv_families.py, lab/ternary.py); model passes run
through the gate.

- the source: `random_qkv` (a head of the model comes from ui/serving/walkthrough.py `walk`);
- long memory: `xl`, `infini`, `dilated`;
- the recurrent family: `retention`, `gated`, `rwkv`, `ssm`;
- memory per token: `curves`, `at_context`;
- MLP-Mixer beside attention: `compared`;
- ternary weights: `matrix_view`, `errors`, `sizes`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import streamlit as st

import lab.ternary
import viz_core.ternary
from lab import beyond, kv_families, long_memory, mixer, recurrent
from lab.beyond import QKV
from models.config import TransformerConfig

from .gate import load_model, run
from .walkthrough import encodings
from .run_key import RunKey

LENGTHS = 2 ** np.arange(4, 21, 2)          # the size charts: n = 16 .. 1M


# ---- the source -----------------------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def random_qkv(n: int, d: int, seed: int) -> QKV:
    """Seeded standard-normal q, k, v (lab.beyond.random_qkv)."""
    return beyond.random_qkv(n, d, seed)


# ---- long memory ----------------------------------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def xl(q: np.ndarray, k: np.ndarray, v: np.ndarray, segment: int, layers: int, seed: int) -> long_memory.XL:
    return long_memory.transformer_xl(q, k, v, segment, layers, seed)


@st.cache_data(max_entries=8, show_spinner=False)
def infini(q: np.ndarray, k: np.ndarray, v: np.ndarray, segment: int, beta: float) -> long_memory.Infini:
    return long_memory.infini_attention(q, k, v, segment, beta)


@st.cache_data(max_entries=8, show_spinner=False)
def dilated(q: np.ndarray, k: np.ndarray, v: np.ndarray, text: str
            ) -> tuple[long_memory.Dilated, float, np.ndarray, np.ndarray]:
    pairs = long_memory.parse_pairs(text)
    d = long_memory.dilated_attention(q, k, v, pairs, causal=True)
    err = float(np.abs(d.out - long_memory.dilated_mix_by_parts(q, k, v, pairs, causal=True)).max())
    mix, dense = long_memory.keys_per_query(LENGTHS, pairs, causal=True)
    return d, err, mix, dense


# ---- the recurrent family -------------------------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def retention(q: np.ndarray, k: np.ndarray, v: np.ndarray, gamma: float, chunk: int) -> recurrent.RetentionForms:
    return recurrent.retention_forms(q, k, v, gamma, chunk)


@st.cache_data(max_entries=8, show_spinner=False)
def gated(q: np.ndarray, k: np.ndarray, v: np.ndarray, bias: float, seed: int) -> recurrent.GatedRetention:
    return recurrent.gated_retention(q, k, v, bias, seed)


@st.cache_data(max_entries=8, show_spinner=False)
def rwkv(k: np.ndarray, v: np.ndarray, bonus: float, channel: int) -> recurrent.RWKV:
    return recurrent.rwkv(k, v, bonus, channel)


@st.cache_data(max_entries=8, show_spinner=False)
def ssm(q: np.ndarray, k: np.ndarray, v: np.ndarray, n_state: int, channel: int, seed: int) -> recurrent.SSM:
    return recurrent.ssm(q, k, v, n_state, channel, seed)


# ---- memory per generated token -------------------------------------------------------------------
@st.cache_data(max_entries=32, show_spinner=False)
def curves(cfg_json: str, lo: int, hi: int, bytes_per_value: int, groups: int, window: int
           ) -> list[kv_families.FamilyMemory]:
    cfg = TransformerConfig.from_dict(json.loads(cfg_json))
    return kv_families.memory_table(cfg, kv_families.context_grid(lo, hi),
                                    kv_families.Settings(bytes_per_value, groups, window))


@st.cache_data(max_entries=32, show_spinner=False)
def at_context(cfg_json: str, n: int, bytes_per_value: int, groups: int, window: int) -> list[kv_families.FamilyMemory]:
    cfg = TransformerConfig.from_dict(json.loads(cfg_json))
    return kv_families.memory_table(cfg, [n], kv_families.Settings(bytes_per_value, groups, window))


# ---- MLP-Mixer beside attention -------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def compared(q: np.ndarray, k: np.ndarray, v: np.ndarray, mixing: str, shuffled: bool, seed: int
             ) -> mixer.MixerVsAttention:
    return mixer.compare(q, k, v, mixing, shuffled, seed)


# ---- ternary weights ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Summary:
    """The small numbers of one quantised matrix (cached beside its figure)."""

    rows: int
    cols: int
    gamma: float
    shares: tuple[float, float, float]
    weight_error: float          # ternary W~ gamma against W
    sign_error: float            # the 1-bit sign(W) mean|W| against W


@st.cache_data(max_entries=16, show_spinner=False)
def matrix_view(key: str, device: str, stack: str, layer: int, matrix: str, terms_json: str, title: str):
    """(figure, Summary) of one matrix: the weights are read, not run."""
    model, _ = load_model(key, device)
    w = lab.ternary.weights(model, stack, layer, matrix)
    q = lab.ternary.absmean(w)
    fig = viz_core.ternary.ternary_figure(w, q.gamma, q.shares, terms=json.loads(terms_json), title=title)
    return fig, Summary(*w.shape, q.gamma, q.shares, lab.ternary.relative_error(q.dequantised, w),
                        lab.ternary.relative_error(lab.ternary.sign_binary(w), w))


@st.cache_data(max_entries=16, show_spinner=False)
def errors(key: RunKey, stack: str, layer: int, matrix: str
           ) -> tuple[lab.ternary.MatrixError, int]:
    """The model run with and without the ternary matrix on the text (through the gate)."""
    model, src, tgt = encodings(key)
    ids, tgt_ids = src.ids, (tgt.ids if tgt is not None else None)
    n = len(ids) + (len(tgt_ids) if tgt_ids is not None else 0)
    return run(key.model_key, key.device,
               lambda m, _n: lab.ternary.matrix_error(m, ids, stack, layer, matrix, tgt_ids), n), n


@st.cache_data(max_entries=8, show_spinner=False)
def sizes(key: str, device: str) -> lab.ternary.ModelBytes:
    return lab.ternary.model_bytes(load_model(key, device)[0])
