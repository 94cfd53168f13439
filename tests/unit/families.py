"""Helpers of the checkpoint-family parity tests (tests/unit/test_families_*.py): a tiny
random transformers model of a family with its norms and biases moved off 1 and 0, and
random token ids."""
import torch

from models.weights import tiny_hf


def build(family, **changes):
    """A tiny random HF model of `family` (tiny_hf.TINY, config changed by `changes`),
    float32, eager attention, whose norm weights and biases are random too (HF starts them
    at 1 or 0, which would hide a (1 + w), a missing bias, a norm read by the wrong branch
    or a bias on the wrong rows)."""
    import transformers

    spec = tiny_hf.TINY[family]
    config = getattr(transformers, spec.config_class)(**{**spec.kwargs, **changes})
    torch.manual_seed(0)
    hf = getattr(transformers, spec.model_class)(config).float().eval()
    hf.set_attn_implementation("eager")
    with torch.no_grad():
        for _, p in hf.named_parameters():
            if p.dim() == 1:
                p.add_(torch.randn_like(p) * 0.1)
    return hf


def ids(batch=2, n=20, seed=1):
    return torch.randint(0, tiny_hf.VOCAB, (batch, n), generator=torch.Generator().manual_seed(seed))
