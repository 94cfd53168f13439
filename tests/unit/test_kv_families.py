"""Memory per generated token: every family's bytes equal its formula, written out here."""
import numpy as np
import pytest

import lab.kv_families
from models.config import TransformerConfig

CFG = TransformerConfig(arch="decoder", vocab_size=50, d_model=96, n_layers=6, n_heads=12, n_kv_heads=4, d_ff=128)
N = np.array([1, 2, 7, 100, 4095, 4096, 4097, 10**6])


def formula(family: str, n: int, b: int, g: int, w: int, L: int = 6, h: int = 12, kv: int = 4, dh: int = 8,
            d: int = 96) -> int:
    """Bytes held at context n, from the papers' definitions (independent of lab/)."""
    if family == "mha":
        return 2 * L * h * dh * b * n                   # K and V, every head, every layer
    if family == "gqa":
        return 2 * L * g * dh * b * n
    if family == "mqa":
        return 2 * L * 1 * dh * b * n
    if family == "window":
        return 2 * L * kv * dh * b * min(n, w)
    if family == "yoco":                                # L/2 sliding-window layers + one global cache
        return 2 * kv * dh * b * ((L // 2) * min(n, w) + n)
    if family == "retention":
        return L * h * dh * dh * b
    if family == "rwkv":                                # (a, b, max) + 2 token-shift vectors per channel
        return L * 5 * d * b
    if family == "mamba":                               # d_inner = 2 d; state 16, conv 4 -> 3 kept inputs
        return L * (2 * d * 16 + 2 * d * 3) * b
    raise AssertionError(family)


@pytest.mark.parametrize("b", [4, 2, 1])
@pytest.mark.parametrize("family", lab.kv_families.FAMILIES)
def test_every_family_equals_its_formula(family, b):
    s = lab.kv_families.Settings(b, groups=3, window=4096)
    m = lab.kv_families.family_memory(CFG, family, N, s)
    want = np.array([formula(family, int(n), b, 3, 4096) for n in N])
    assert m.total.tolist() == want.tolist()
    nxt = np.array([formula(family, int(n) + 1, b, 3, 4096) - formula(family, int(n), b, 3, 4096) for n in N])
    assert m.next_token.tolist() == nxt.tolist()


def test_the_shapes_of_the_curves():
    s = lab.kv_families.Settings(2, groups=3, window=64)
    fams = {f.family: f for f in lab.kv_families.memory_table(CFG, lab.kv_families.context_grid(1, 10**5), s)}
    assert set(fams) == set(lab.kv_families.FAMILIES)
    for f in lab.kv_families.STATE_FAMILIES:            # constant: nothing added per token
        assert fams[f].constant and not fams[f].next_token.any()
    w = fams["window"]
    assert (w.next_token[w.contexts >= 64] == 0).all() and (w.next_token[w.contexts < 64] > 0).all()
    assert (fams["mha"].total == 12 * fams["mqa"].total).all()
    assert (fams["gqa"].total == 3 * fams["mqa"].total).all()
    # YOCO's next token adds one layer's K, V once the window is full: 1/L of the model's own cache
    big = fams["yoco"].contexts >= 64
    assert (fams["yoco"].next_token[big] * 6
            == lab.kv_families.held(CFG, "gqa", np.array([1]), lab.kv_families.Settings(2, 4))[0]).all()


def test_mha_matches_lab_kv():
    from lab.kv import kv_cache_bytes
    m = lab.kv_families.family_memory(CFG, "mha", [1000], lab.kv_families.Settings(4))
    assert m.total[0] == kv_cache_bytes(CFG, 1000, 12, 4).total


def test_bad_settings_are_named_not_raised():
    assert lab.kv_families.check(CFG, lab.kv_families.Settings(2, groups=5)) == "groups"
    assert lab.kv_families.check(CFG, lab.kv_families.Settings(2, groups=0)) == "groups"
    assert lab.kv_families.check(CFG, lab.kv_families.Settings(2, window=0)) == "window"
    assert lab.kv_families.check(CFG, lab.kv_families.Settings(0)) == "bytes"
    assert lab.kv_families.check(CFG, lab.kv_families.Settings(2, groups=6, window=1)) is None
    # GQA left out, the rest drawn
    fams = lab.kv_families.memory_table(CFG, [10], lab.kv_families.Settings(2, groups=5))
    assert "gqa" not in {f.family for f in fams} and len(fams) == len(lab.kv_families.FAMILIES) - 1
    with pytest.raises(ValueError):
        lab.kv_families.memory_table(CFG, [10], lab.kv_families.Settings(2, window=0))
    with pytest.raises(ValueError):
        lab.kv_families.context_grid(10, 10)


def test_context_grid():
    g = lab.kv_families.context_grid(1, 1000, 40)
    assert g[0] == 1 and g[-1] == 1000 and (np.diff(g) > 0).all()


def test_the_chart_draws_every_family_on_both_panels():
    import viz_core.kv_families
    fams = lab.kv_families.memory_table(CFG, lab.kv_families.context_grid(1, 5000),
                                        lab.kv_families.Settings(2, groups=3, window=64))
    names = {f"<b>{f.family}</b>'s": f for f in fams}
    fig = viz_core.kv_families.memory_chart(fams[0].contexts, {k: f.total for k, f in names.items()},
                                            {k: f.next_token for k, f in names.items()}, model_max=512)
    lines = [tr for tr in fig.data if tr.legendgroup]
    assert len(lines) == 2 * len(fams)
    assert all(tr.name.startswith("&lt;b&gt;") and "&#x27;" not in tr.name for tr in lines)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert np.array_equal(lines[0].y, fams[0].total)
