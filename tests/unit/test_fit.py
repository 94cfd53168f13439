"""lab/fit.py: the optimisation loop the tokens page's small models share."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lab import fit


def test_rate_warms_up_then_decays_to_the_floor() -> None:
    steps, warmup, floor = 100, 10, 0.05
    r = [fit.rate(s, steps, warmup, floor) for s in range(steps + 1)]
    assert r[0] == pytest.approx(0.1 * (floor + (1 - floor) * (1 + math.cos(0)) / 2))
    assert all(a < b for a, b in zip(r[:9], r[1:10]))                    # rising while warming up
    assert all(a >= b for a, b in zip(r[10:], r[11:]))                    # then falling
    assert r[steps] == pytest.approx(floor)                               # to the floor
    assert r[50] == pytest.approx(floor + (1 - floor) / 2)                # halfway down the cosine


def test_fit_learns_is_seeded_and_restores_the_threads() -> None:
    threads = torch.get_num_threads()
    x = torch.linspace(-1, 1, 64)[:, None]
    y = 3 * x - 1

    def run(seed: int):
        torch.manual_seed(0)
        model = torch.nn.Linear(1, 1)
        rng = np.random.default_rng(seed)

        def loss():
            i = torch.as_tensor(rng.integers(0, len(x), 16))
            return torch.nn.functional.mse_loss(model(x[i]), y[i])

        seen = []
        fitted = fit.fit(model, loss, steps=200, lr=0.1, warmup=5, progress=lambda s, v: seen.append(s))
        return model, fitted, seen

    model, fitted, seen = run(0)
    assert len(fitted.losses) == 200 and fitted.losses[-1] < 0.01 * fitted.losses[0]
    assert seen == list(range(20, 201, 20)) and not model.training
    assert torch.get_num_threads() == threads
    again, _, _ = run(0)
    other, _, _ = run(1)
    assert torch.equal(model.weight, again.weight)
    assert not torch.equal(model.weight, other.weight)


def test_frozen_parameters_stay() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 1))
    model[0].weight.requires_grad_(False)
    before = model[0].weight.clone()
    fit.fit(model, lambda: model(torch.ones(4, 2)).pow(2).mean(), steps=5, lr=0.1)
    assert torch.equal(model[0].weight, before)
