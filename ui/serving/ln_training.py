"""What the residual page's *Training: Pre-LN vs Post-LN* view reads (lab/ln_training.py):
the shipped experiment's curves, and the gradient on the residual path, live, for the shipped
reverse twins on their task's example (trained or initial weights) and for the loaded model on
the reader's text. Each pass through the run gate, cached by plain values."""
from __future__ import annotations

import streamlit as st

import lab.ln_training
from models.training.tasks import get_task
from models.training.trainer import build_model

from .gate import encode, load_model, run, run_held
from .run_key import RunKey

MAX_TOKENS = 128        # the reader's text: a backward pass holds every activation, so it is cut here
TWIN_SEED = 0           # the twins' training seed (recipes/toys.py): their initial weights are build_model(cfg, 0)


@st.cache_data(show_spinner=False)
def results() -> lab.ln_training.Results:
    """The shipped experiment (ValueError when the file is missing or malformed)."""
    return lab.ln_training.load_results()


@st.cache_resource(show_spinner=False, max_entries=4)
def _initial(key: str, device: str):
    """A twin's initial weights: the trainer's seeded initialisation of its config."""
    model, _ = load_model(key, device)
    return build_model(model.cfg, TWIN_SEED, device).eval()


@st.cache_data(max_entries=8, show_spinner=False)
def twin_gradients(key: str, device: str, task: str, initial: bool) -> tuple[lab.ln_training.ResidualGrad, str]:
    """(the residual gradients of a shipped twin on its task's example, the example's text)."""
    ex = get_task(task).probe()
    model = _initial(key, device) if initial else load_model(key, device)[0]
    grads = run_held(model, lambda m: lab.ln_training.residual_gradients(m, ex.ids, ex.answer), len(ex.ids))
    return grads, ex.text


@st.cache_data(max_entries=8, show_spinner=False)
def text_gradients(key: RunKey) -> tuple[lab.ln_training.ResidualGrad, int] | None:
    """(the residual gradients of the loaded model on the reader's text, tokens used); None
    when the text has fewer than two tokens (nothing to predict)."""
    model, tok = load_model(key.model_key, key.device)
    ids = list(encode(tok, model, key.text).ids)[:MAX_TOKENS]
    if len(ids) < 2:
        return None
    return run(key.model_key, key.device, lambda m, _n: lab.ln_training.residual_gradients(m, ids), len(ids)), len(ids)
