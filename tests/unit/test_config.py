import pytest

from models import MaskSpec, TransformerConfig


@pytest.mark.parametrize("kwargs, message", [
    (dict(d_model=30, n_heads=4), "divisible by n_heads"),
    (dict(n_heads=4, n_kv_heads=3), "divisible by n_kv_heads"),
    (dict(positional="wavelet"), "Unknown positional encoding"),
    (dict(norm="batchnorm"), "Unknown normalisation"),
    (dict(norm_position="middle"), "Unknown norm placement"),
    (dict(activation="tanh"), "Unknown activation"),
    (dict(arch="transformer"), "Unknown architecture"),
    (dict(n_layers=0), "n_layers must be a positive"),
    (dict(dropout=1.0), "dropout"),
    (dict(attention=MaskSpec("local", window=1), d_model=63, n_heads=3, positional="rope"), "even"),
])
def test_invalid_configs_explain_themselves(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TransformerConfig(**kwargs)


def test_window_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        TransformerConfig(attention=MaskSpec("local", window=0))


def test_derived_values():
    cfg = TransformerConfig(d_model=64, n_heads=8, n_kv_heads=2)
    assert (cfg.head_dim, cfg.kv_heads, cfg.attention_kind) == (8, 2, "GQA")
    assert TransformerConfig(n_kv_heads=1).attention_kind == "MQA"
    assert TransformerConfig().attention_kind == "MHA"


def test_frozen_hashable_and_json_round_trip():
    cfg = TransformerConfig(arch="encoder", positional="alibi", attention=MaskSpec("bigbird", global_tokens=(0, -1)))
    with pytest.raises(Exception):
        cfg.d_model = 8  # frozen
    assert hash(cfg) == hash(TransformerConfig.from_json(cfg.to_json()))
    assert TransformerConfig.from_json(cfg.to_json()) == cfg
    with pytest.raises(ValueError, match="Unknown config field"):
        TransformerConfig.from_dict({"d_model": 8, "colour": "red"})
