"""What the generation page's views compute beyond the run it keeps in session state,
through the gate and cached by plain values:

- `compare_settings`: repetition under greedy and a few sampling settings (lab/repetition.py);
- `forcing`: teacher forcing beside step-by-step generation (lab/teacher_forcing.py), for
  the "training vs generation" section.
"""
from __future__ import annotations

import streamlit as st

import viz_core as vz
from lab import generate, repetition, teacher_forcing

from .gate import encode, load_model, run, run_held
from .run_key import RunKey

MAX_TOKENS = 64          # teacher forcing: tokens of the sequence read


@st.cache_data(max_entries=16, show_spinner=False)
def compare_settings(key: str, device: str, prompt: tuple, source: tuple | None, n_new: int, n: int) -> list[dict]:
    """The same prompt under greedy and a few sampling settings (seed 0): repetition rate."""
    model, tok = load_model(key, device)
    rows = repetition.compare_repetition(model, prompt, n_new, n, source=source, eos=generate.eos_id(tok),
                                         gate=run_held)
    return [{"setting": r.setting, "rate": f"{r.rate:.0%}", "text": vz.visible_label(tok.decode(r.new_ids), 200)}
            for r in rows]


# ---- training vs generation ----------------------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def forcing(key: RunKey) -> tuple[teacher_forcing.TeacherForcing, list[str]] | None:
    """(both passes over the decoder sequence, its tokens), None for fewer than two tokens;
    an encoder-decoder's decoder reads the target text (or the source again)."""
    model, tok = load_model(key.model_key, key.device)
    source = None
    if model.cfg.arch == "encoder-decoder":
        source = encode(tok, model, key.text).ids[:MAX_TOKENS]
        ids, tokens = generate.encode_prompt(tok, key.target or key.text)
    else:
        ids, tokens = generate.encode_prompt(tok, key.text)
    ids, tokens = ids[: min(MAX_TOKENS, model.cfg.max_len)], tokens[: min(MAX_TOKENS, model.cfg.max_len)]
    if len(ids) < 2:
        return None
    return (run(key.model_key, key.device, lambda m, _n: teacher_forcing.teacher_forcing(m, ids, source), len(ids)),
            list(tokens))
