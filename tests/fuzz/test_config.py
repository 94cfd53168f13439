"""Door: a TransformerConfig from JSON text or a dict (`TransformerConfig.from_json`,
`from_dict`), as checkpoints, the CLI's --config and traces carry it, then the model
budget (`safety.check_model`).

Inputs: the configs of the shipped checkpoints and the defaults with one value changed
(huge, negative, NaN, a float, a string, a list, a nested object, an unknown field),
random JSON, and texts that are not JSON (deep nesting, 5,000-digit numbers, a BOM).
An accepted config must round-trip through to_dict, be counted exactly (a small one is
built and its parameters counted) and either fit the budget or be refused.
"""
from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from models import Transformer, TransformerConfig
from models.weights import safety
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import BUDGET_MB, examples
from tests.fuzz.props import check_model_fits, run_door

VALID = [TransformerConfig().to_dict()] + [json.loads(artefacts.shipped(stem)[0])["config"] for stem in artefacts.SHIPPED]
FIELDS = sorted(VALID[0])
CHOICES = {"arch": ["encoder", "decoder", "encoder-decoder"], "positional": ["none", "sinusoidal", "learned", "rope",
                                                                             "alibi", "relative"],
           "norm": ["layernorm", "rmsnorm", "dyt"], "activation": ["relu", "gelu", "gelu_tanh", "swiglu"],
           "norm_position": ["pre", "post"], "output": ["logits", "hidden"]}


@st.composite
def config_dicts(draw):
    """A valid config with a few values changed: to other valid values (so that deep
    checks run), to hostile ones, or with fields added and removed."""
    d = dict(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(0, 4))):
        if not isinstance(d, dict):
            break
        name = draw(st.sampled_from(FIELDS))
        if name in CHOICES and draw(st.booleans()):
            d[name] = draw(st.sampled_from(CHOICES[name]))
        elif draw(st.booleans()):
            d[name] = draw(st.one_of(st.integers(-4, 300), artefacts.NUMBERS))
        else:
            d = artefacts.mutate_value(draw, d)
    if draw(st.integers(0, 9)) == 0:
        d = draw(artefacts.JSON)
    return d


TEXTS = st.one_of(
    config_dicts().map(lambda d: json.dumps(d, allow_nan=True)),
    st.text(max_size=100),
    st.sampled_from(["", "{", "[" * 100_000, '{"d_model": ' + "9" * 5000 + "}", '{"d_model": 1e999}',
                     "\ufeff{}", '{"d_model": 64, "d_model": "x"}', '{"attention": {"kind": "local", "window": -1}}',
                     '{"attention": {"global_tokens": [1e400]}}', '{"n_layers": 1000000000}', "NaN", '"decoder"']),
    st.binary(max_size=64),
)


def accepted(cfg: TransformerConfig) -> None:
    assert TransformerConfig.from_dict(cfg.to_dict()) == cfg                 # round trip
    result = run_door("config_dict", lambda: safety.check_model(cfg), counted=False)
    if isinstance(result, BaseException):
        return
    assert result == safety.model_bytes(cfg) <= BUDGET_MB * 1e6
    if result <= 2e6:                                                       # small: build it, count exactly
        model = Transformer(cfg, device="cpu")
        check_model_fits(model, BUDGET_MB)
        n = sum(p.numel() for p in model.parameters()) + sum(b.numel() for b in model.buffers())
        assert 4 * n == result, (cfg, 4 * n, result)
    else:
        safety.expected_shapes(cfg)


@examples("config_json")
@given(TEXTS)
def test_config_json(text):
    shown = text if isinstance(text, str) else text.decode("utf-8", "replace")
    cfg = run_door("config_json", lambda: TransformerConfig.from_json(text), given=shown)
    if isinstance(cfg, TransformerConfig):
        accepted(cfg)


@examples("config_dict")
@given(config_dicts())
def test_config_dict(d):
    cfg = run_door("config_dict", lambda: TransformerConfig.from_dict(d), given=json.dumps(d, allow_nan=True))
    if isinstance(cfg, TransformerConfig):
        accepted(cfg)
