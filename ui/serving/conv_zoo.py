"""What the Beyond page's convolution section reads (ui/views/beyond_conv_zoo.py): the
sidebar's token vectors through every kind of convolution (lab/conv_zoo.py), in the gate."""
from __future__ import annotations

import streamlit as st

from lab import conv_zoo

from .gate import encode, load_model, run
from .run_key import RunKey

MAX_TOKENS = 128


@st.cache_data(max_entries=8, show_spinner=False)
def conv_rows(key: RunKey, kernel: int, dilation: int, groups: int, layers: int) -> tuple[list[conv_zoo.ZooRow], int, int]:
    """(the zoo's rows, tokens n, width d) on the sidebar's text."""
    model, tok = load_model(key.model_key, key.device)
    ids = encode(tok, model, key.text).ids[:MAX_TOKENS]
    x = run(key.model_key, key.device, lambda m, _n: conv_zoo.token_vectors(m, ids), len(ids))
    return conv_zoo.zoo(x, kernel, dilation, groups, layers), int(x.shape[0]), int(x.shape[1])
