"""lab/ln_training.py and recipes/ln_training.py: the recipe runs (a few steps, a small model)
and writes the schema the view reads; the shipped file shows the contrast the page describes;
the per-layer gradient norms add up to the whole gradient; the residual-path gradients match
central finite differences and the +1 carries the gradient unchanged in pre-LN only."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from lab import ln_training
from models.config import TransformerConfig
from models.trace import act_name
from models.training.tasks import get_task
from models.transformer import Transformer
from recipes import ln_training as recipe


def tiny(norm_position: str, seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    cfg = TransformerConfig(arch="decoder", vocab_size=12, d_model=16, n_layers=2, n_heads=2, d_ff=32, max_len=32,
                            norm_position=norm_position)
    return Transformer(cfg).double().eval()


IDS = [2, 5, 7, 3, 9, 4, 6]


# ---- the recipe and the file ---------------------------------------------------------------------
def test_recipe_runs_and_writes_the_schema(tmp_path, monkeypatch):
    monkeypatch.setattr(recipe, "MODEL", {**recipe.MODEL, "n_layers": 2})     # the schema, cheaply
    out = recipe.main(["--steps", "6", "--warmup", "3", "--out", str(tmp_path / "runs.json")])
    data = json.loads(out.read_text())
    ln_training.check_results(data)
    res = ln_training.results_from(data)
    assert data["command"] == "python -m recipes.ln_training --steps 6 --lr 0.003 --warmup 3 --seed 0"
    assert len(res.runs) == 4
    for r in res.runs:
        assert r.loss.size == 6 and r.lr.size == 6 and r.state == "done"
        assert r.grad_steps == [0, 6] and r.grad_labels == ["embed", "L0", "L1", "head"]
        assert r.grad_norms.shape == (2, 4) and np.all(r.grad_norms > 0)
    # the same seed: the same initial weights, so the same step-0 gradients with and without warm-up
    for norm in ("pre", "post"):
        np.testing.assert_array_equal(res.run(norm, False).grad_norms[0], res.run(norm, True).grad_norms[0])
        assert res.run(norm, True).lr[0] == pytest.approx(recipe.LR / 3)              # linear warm-up
        assert res.run(norm, False).lr[0] > 0.9 * recipe.LR           # no warm-up: (nearly) the full rate at once


def test_the_shipped_file_shows_the_contrast():
    res = ln_training.load_results()
    assert res.meta["command"] == recipe.COMMAND
    assert (res.meta["steps"], res.meta["lr"], res.meta["warmup"], res.meta["model"]) == \
           (recipe.STEPS, recipe.LR, recipe.WARMUP, recipe.MODEL)
    s = {(r.norm_position, bool(r.warmup)): ln_training.summary(r) for r in res.runs}
    assert s["post", False].learned_at is None                  # post-LN without warm-up never learns...
    assert s["post", False].final_loss == pytest.approx(np.log(len(get_task("reverse").symbols)), abs=0.05)
    assert s["post", True].learned_at is not None               # ... with warm-up it does
    assert s["pre", False].learned_at is not None and s["pre", True].learned_at is not None
    # what the page says of the gradients: the lower post-LN layers starve without warm-up, not with it
    first = res.meta["grad_steps"][1]
    assert ln_training.first_over_last(res.run("post", False), first) < 0.05
    assert ln_training.first_over_last(res.run("post", True), first) > 0.1
    assert ln_training.first_over_last(res.run("pre", False), first) > 0.5
    r = res.run("post", False)
    g = r.grad_norms[r.grad_steps.index(first)]
    assert ln_training.first_over_last(r, first) == pytest.approx(g[1] / g[-2])          # L0 / L5 by hand
    assert ln_training.mean_block(r, first) == pytest.approx(np.mean(g[1:-1]))


def test_check_results_refuses_a_broken_file():
    good = json.loads(ln_training.RESULTS.read_text())
    with pytest.raises(ValueError, match="four runs"):
        ln_training.check_results({**good, "runs": good["runs"][:3]})
    bad = copy.deepcopy(good)
    bad["runs"][0]["lr"] = bad["runs"][0]["lr"][:-1]
    with pytest.raises(ValueError, match="lengths"):
        ln_training.check_results(bad)
    with pytest.raises(ValueError, match="Not a"):
        ln_training.check_results({"format": "x"})


def test_smooth_and_summary_by_hand():
    loss = np.array([3.0, 2.0, 1.0, 0.5, 0.05, 0.01, 0.01])
    w = 3
    by_hand = [loss[max(0, i + 1 - w):i + 1].mean() for i in range(loss.size)]
    np.testing.assert_allclose(ln_training.smooth(loss, w), by_hand)
    run = ln_training.Run("pre", 0, "done", "", loss, loss, [7], [1.0], [0], ["embed"], np.ones((1, 1)), 1.0)
    s = ln_training.summary(run, threshold=0.1, window=w)
    first = next(i for i, v in enumerate(by_hand) if v < 0.1) + 1
    assert s.learned_at == first == 7 and s.peak_loss == 2.0 and s.final_loss == pytest.approx(by_hand[-1])


# ---- the gradient of every layer ---------------------------------------------------------------------
def test_layer_grad_norms_add_up_to_the_whole_gradient():
    task = get_task("reverse")
    model = Transformer(task.default_config(n_layers=2, d_model=32, n_heads=2, d_ff=64)).eval()
    batch = task.batch(8, np.random.default_rng(0))
    labels, norms = ln_training.layer_grad_norms(model, batch)
    assert labels == ["embed", "L0", "L1", "head"]
    assert all(p.grad is None for p in model.parameters())            # the model's .grad untouched
    ref = copy.deepcopy(model)
    ln_training.batch_loss(ref, batch).backward()
    total = torch.sqrt(sum(p.grad.double().pow(2).sum() for p in ref.parameters() if p.grad is not None))
    assert np.sqrt((norms ** 2).sum()) == pytest.approx(float(total), rel=1e-6)
    block0 = torch.sqrt(sum(p.grad.double().pow(2).sum() for p in ref.blocks[0].parameters()))
    assert norms[1] == pytest.approx(float(block0), rel=1e-6)


# ---- the gradient on the residual path -----------------------------------------------------------------
def finite_difference(model: Transformer, hook: str, eps: float = 1e-5) -> np.ndarray:
    """∂loss/∂(the value at `hook`) by central differences, one coordinate at a time."""
    def loss_with(delta: torch.Tensor) -> float:
        logits = model.run_with_hooks(torch.tensor([IDS]), fwd_hooks=[(hook, lambda x, _n: x + delta)])
        return float(F.cross_entropy(logits[0, :-1], torch.tensor(IDS[1:])))
    shape = (1, len(IDS), model.cfg.d_model)
    g = np.zeros(shape)
    with torch.no_grad():
        for idx in np.ndindex(*shape):
            d = torch.zeros(shape, dtype=torch.float64)
            d[idx] = eps
            g[idx] = (loss_with(d) - loss_with(-d)) / (2 * eps)
    return g[0]


@pytest.mark.parametrize("norm", ["pre", "post"])
def test_residual_gradients_match_finite_differences(norm):
    model = tiny(norm)
    g = ln_training.residual_gradients(model, IDS)
    assert g.labels == ["L0 attn", "L0 mlp", "L1 attn", "L1 mlp"]
    # the second block's attention: its input is resid_pre, its sum's gradient is at attn_out
    at_input = finite_difference(model, act_name("resid_pre", 1))
    total = np.linalg.norm(at_input)
    ident = finite_difference(model, act_name("attn_out", 1))
    assert g.total[2] == pytest.approx(total, rel=1e-5)
    assert g.identity[2] == pytest.approx(np.linalg.norm(ident), rel=1e-5)
    branch = at_input - ident
    assert g.branch[2] == pytest.approx(np.linalg.norm(branch), rel=2e-3)     # a difference: less precise


def test_the_plus_one_is_clean_in_pre_ln_only():
    pre = ln_training.residual_gradients(tiny("pre"), IDS)
    post = ln_training.residual_gradients(tiny("post"), IDS)
    np.testing.assert_allclose(pre.carried, 1.0, rtol=1e-12)        # the sum feeds the next sub-layer as it is
    assert np.abs(post.carried - 1.0).max() > 0.01                   # a norm stands between


def test_residual_gradients_refuse():
    with pytest.raises(ValueError, match="two tokens"):
        ln_training.residual_gradients(tiny("pre"), [3])
    enc = Transformer(TransformerConfig(arch="encoder", vocab_size=12, d_model=16, n_layers=1, n_heads=2, d_ff=32))
    with pytest.raises(ValueError, match="decoder"):
        ln_training.residual_gradients(enc, IDS)
