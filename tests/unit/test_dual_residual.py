"""ResiDual against Post-LN and Pre-LN (lab/dual_residual.py): the three forwards written out
by hand on a tiny stack, and the gradient norms against torch.autograd.grad by hand."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import dual_residual


def ln(v):
    return torch.nn.functional.layer_norm(v, (v.shape[-1],))


def test_forwards_by_hand():
    torch.manual_seed(0)
    x = torch.randn(5, 8)
    subs = dual_residual.stack(8, 3, seed=2, gain=2.0)
    with torch.no_grad():
        p, d = x, x
        for f in subs:
            y = f(p)
            p, d = ln(p + y), d + y
        want_res = p + ln(d)
        post = x
        for f in subs:
            post = ln(post + f(post))
        pre = x
        shares = []
        for f in subs:
            y = f(ln(pre))
            shares.append(float(y.norm() / pre.norm()))
            pre = pre + y
        out = {k: dual_residual.forward(k, subs, x) for k in dual_residual.WIRINGS}
    torch.testing.assert_close(out["residual"][0], want_res)
    torch.testing.assert_close(out["post"][0], post)
    torch.testing.assert_close(out["pre"][0], ln(pre))
    assert out["pre"][1] == pytest.approx(shares)
    with pytest.raises(ValueError):
        dual_residual.forward("sandwich", subs, x)


def test_gradient_norms_and_pre_ln_shrinking_share():
    torch.manual_seed(0)
    x = torch.randn(6, 16)
    w = dual_residual.wirings(x, layers=8, seed=0, gain=4.0)
    subs = dual_residual.stack(16, 8, 0, 4.0)
    target = torch.randn(x.shape, generator=torch.Generator().manual_seed(1))
    y, _ = dual_residual.forward("pre", subs, x)
    grads = torch.autograd.grad((y * target).sum(), [p for f in subs for p in (f.w1.weight, f.w2.weight)])
    by_hand = [float(torch.sqrt(grads[2 * i].pow(2).sum() + grads[2 * i + 1].pow(2).sum())) for i in range(8)]
    np.testing.assert_allclose(w["pre"].grad_norm, by_hand, rtol=1e-4)
    assert w["pre"].share[-1] < w["pre"].share[0] / 2                        # the stream grows: later layers shrink
    assert w["post"].share[-1] == pytest.approx(w["residual"].share[-1])     # the same Post-LN stream
    assert w["post"].spread >= 1.0
