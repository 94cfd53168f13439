"""The convolution zoo and LSRA (lab/conv_zoo.py): parameters counted from torch modules
against formulas written here, receptive fields measured with autograd against 1 + L(k−1)d,
output lengths, and LSRA's counts against nn.MultiheadAttention's own."""
from __future__ import annotations

import pytest
import torch
from torch import nn

from lab import conv_zoo


def test_counts_lengths_and_reach():
    torch.manual_seed(0)
    x = torch.randn(15, 16)                                          # 15 tokens of width 16
    rows = {r.kind: r for r in conv_zoo.zoo(x, kernel=3, dilation=2, groups=4, layers=2)}
    by_hand = {"standard": 16 * 16 * 3 + 16, "dilated": 16 * 16 * 3 + 16, "grouped": 16 * 4 * 3 + 16,
               "depthwise": 16 * 3 + 16, "separable": 16 * 3 + 16 + 16 * 16 + 16, "transposed": 16 * 16 * 3 + 16}
    for kind, want in by_hand.items():
        assert rows[kind].params == rows[kind].formula == want, kind
    assert rows["transposed"].out_len == 30 and rows["standard"].out_len == 15
    mid = 15 // 2
    assert rows["standard"].reach == list(range(mid - 2, mid + 3)) and rows["standard"].reach_formula == 5
    assert rows["dilated"].reach_formula == 9 and len(rows["dilated"].reach) <= 9
    assert set(rows["dilated"].reach) <= set(range(mid - 4, mid + 5))
    assert rows["depthwise"].reach == rows["standard"].reach


def test_measured_reach_of_one_layer_by_hand():
    conv = nn.Conv1d(2, 2, 5, padding=2)
    assert conv_zoo.measured_reach(conv, torch.randn(1, 2, 9), 0) == [0, 1, 2]      # the edge: padding on the left


def test_lsra_against_torch_modules():
    s = conv_zoo.lsra(64, 20, kernel=5, heads=4)
    assert s.attn_params == 4 * 64 * 64 + 4 * 64                     # W_Q, W_K, W_V, W_O and their biases
    assert s.lsra_attn_params == 4 * 32 * 32 + 4 * 32
    assert s.lsra_conv_params == (32 * 5 + 32) + (32 * 32 + 32)
    assert s.attn_macs == 4 * 20 * 64 * 64 + 2 * 20 * 20 * 64
    assert s.lsra_macs == 4 * 20 * 32 * 32 + 2 * 20 * 20 * 32 + 20 * 5 * 32 + 20 * 32 * 32
    assert (s.attn_reach, s.conv_reach) == (20, 5)
    with pytest.raises(ValueError):
        conv_zoo.lsra(7, 5)
    with pytest.raises(ValueError):
        conv_zoo.layer("deformable", 4)


def test_token_vectors_are_the_first_blocks_input():
    from models.config import TransformerConfig
    from models.transformer import Transformer
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(arch="decoder", vocab_size=20, d_model=8, n_layers=1, n_heads=2, d_ff=16,
                                          max_len=16, positional="learned")).eval()
    x = conv_zoo.token_vectors(model, [1, 2, 3])
    want = model.embed.weight[[1, 2, 3]] + model.pos_embed.weight[:3]
    torch.testing.assert_close(x, want.detach(), atol=1e-5, rtol=0)


def test_involution_by_hand():
    torch.manual_seed(1)
    inv = conv_zoo.layer("involution", 8, kernel=3, groups=2)
    assert conv_zoo.counted(inv) == conv_zoo.formula_params("involution", 8, 3, 2) == 8 * 2 + 2 + 2 * 3 * 2 + 3 * 2
    x = torch.randn(1, 8, 5)
    with torch.no_grad():
        out = inv(x)[0]
        want = torch.zeros(8, 5)
        xp = torch.nn.functional.pad(x[0], (1, 1))
        for i in range(5):                                         # each position makes its own kernel
            ker = inv.span(torch.relu(inv.reduce(x[0, :, i]))).view(2, 3)
            for c in range(8):
                want[c, i] = (ker[c // 4] * xp[c, i:i + 3]).sum()
    torch.testing.assert_close(out, want)
