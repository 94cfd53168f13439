"""lab/lesson_decoding.py: keys a query sees, and the KV cache check against the model."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import lesson_decoding
from models.weights import zoo


def test_visible_in_a_causal_mask():
    mask = np.tril(np.ones((7, 7), dtype=bool))
    v = lesson_decoding.visible(mask, 5)
    assert (v.n_keys, v.last, v.first, v.n_hidden) == (6, 5, 0, 1)
    assert lesson_decoding.visible(np.zeros((2, 2), bool), 0).last == -1


@torch.no_grad()
def test_cache_check_matches_recomputing():
    model, tok = zoo.load("toy:induction", "cpu")
    prompt = tok.encode("suftnmors").ids
    chk = lesson_decoding.cache_check(model, prompt, 4)
    assert chk.exact and chk.match and chk.same_choice == 4 and len(chk.new_ids) == 4
    assert chk.cache_rows == [len(prompt) + i for i in range(4)]
    # bytes: 2 (K, V) x layers x kv heads x d_head x 4 bytes per cached position
    cfg = model.cfg
    assert chk.cache_bytes[-1] == 2 * cfg.n_layers * cfg.kv_heads * cfg.head_dim * 4 * chk.cache_rows[-1]
    seq = torch.tensor([prompt])
    assert chk.new_ids[0] == int(model(seq)[0, -1].argmax())


def test_cache_check_refuses_an_encoder():
    model, _ = zoo.load("custom:bert", "cpu")
    with pytest.raises(ValueError):
        lesson_decoding.cache_check(model, [1, 2], 2)
