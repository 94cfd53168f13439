"""The two pre-training objectives (lab/objectives.py) on the shipped character models: the
causal model reads only the left side, the masked model both; bad positions are refused."""
from __future__ import annotations

import pytest

from lab import objectives
from ui.serving import load_model


def test_the_causal_model_sees_only_the_left_side():
    lm, tok = load_model("toy:verse-lm", "cpu")
    a = objectives.next_token(lm, tok, "abcdef", 3)
    b = objectives.next_token(lm, tok, "abcxyz", 3)
    assert a.top == b.top                                   # what follows position 3 changes nothing
    mlm, mtok = load_model("toy:verse-mlm", "cpu")
    c = objectives.masked(mlm, mtok, "abcdef", 3)
    d = objectives.masked(mlm, mtok, "abcxyz", 3)
    assert c.top != d.top                                   # the masked model reads the right side too
    with pytest.raises(ValueError, match="position 0"):
        objectives.next_token(lm, tok, "abc", 0)


def test_a_model_without_mask_tokens_is_refused():
    lm, tok = load_model("toy:verse-lm", "cpu")
    with pytest.raises(ValueError, match="not a masked language model"):
        objectives.masked(lm, tok, "abcdef", 2)
    with pytest.raises(ValueError, match="not in the text"):
        objectives.next_token(lm, tok, "abc", 7)
