"""The plain forward's per-layer work: no value read back on the CPU in every layer (on a
GPU each such read waits for the queue of kernels to run dry), nothing computed only for
a hook nobody set, and the fast paths behind that keep the hooks' meaning."""
import collections

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from models import Transformer, TransformerConfig, positional

QWEN_LIKE = dict(arch="decoder", vocab_size=60, d_model=32, n_heads=4, n_kv_heads=2, d_ff=64, max_len=64,
                 positional="rope", norm="rmsnorm", activation="swiglu", bias=False, qkv_bias=True)

# ops whose answer is read on the CPU (a GPU -> CPU sync), and hook_scale's square root
READ_BACK = ("aten.equal", "aten.is_nonzero", "aten._local_scalar_dense", "aten.item", "aten.sqrt")


def make(n_layers: int = 2, **kw) -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(**{**QWEN_LIKE, "n_layers": n_layers, **kw}), device="cpu").eval()


class _Count(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.ops = collections.Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[str(func.overloadpacket)] += 1
        return func(*args, **(kwargs or {}))


def _ops(model: Transformer, ids: torch.Tensor) -> collections.Counter:
    with torch.inference_mode(), _Count() as count:
        model(ids)
    return count.ops


def test_a_plain_forward_reads_nothing_back_per_layer():
    ids = torch.randint(0, 60, (1, 9))
    two, six = _ops(make(2), ids), _ops(make(6), ids)
    for op in READ_BACK:
        assert two[op] == six[op], op                   # a few per pass (checking the ids, the mask), none per layer
    assert two["aten.sqrt"] == 0                        # hook_scale: computed only when hooked


def test_hook_scale_is_recorded_and_hooked_as_before():
    model = make(2)
    ids = torch.randint(0, 60, (1, 9))
    with torch.inference_mode():
        plain = model(ids)
    logits, trace = model.run_with_cache(ids)
    assert torch.equal(plain, logits)
    x = trace["blocks.1.hook_resid_pre"]
    expected = (x.pow(2).mean(-1, keepdim=True) + model.cfg.norm_eps).sqrt()
    assert torch.equal(trace["blocks.1.ln1.hook_scale"], expected)
    seen = []
    model.run_with_hooks(ids, fwd_hooks=[("blocks.*.ln2.hook_scale", lambda v, name: seen.append(name))])
    assert seen == ["blocks.0.ln2.hook_scale", "blocks.1.ln2.hook_scale"]


def test_layernorm_hook_scale_still_recorded():
    model = make(2, norm="layernorm", positional="learned", activation="gelu")
    ids = torch.randint(0, 60, (1, 9))
    _, trace = model.run_with_cache(ids, names="*hook_scale")
    assert len(trace.names()) == 5                      # ln1, ln2 of each block and ln_final
    _, full = model.run_with_cache(ids)
    resid = full["blocks.0.hook_resid_pre"]
    assert torch.allclose(full["blocks.0.ln1.hook_scale"], (resid.var(-1, unbiased=False, keepdim=True) + 1e-5).sqrt())


@pytest.mark.parametrize("n_layers", [2, 3])
def test_a_hook_that_edits_the_mask_in_place_reaches_the_layers_after_it(n_layers):
    """The layers share one mask. A user hook that writes into it in place (returning
    None) changes it for its own layer and every later one, as it always did: the layers
    after it, whose hook points only record, reuse the additive mask remade from it."""
    model = make(n_layers)
    ids = torch.randint(0, 60, (1, 9))

    def hide_first_key(mask):
        mask[..., 1:, 0] = False

    def in_place(mask, _name):
        hide_first_key(mask)

    def replaced(mask, _name):
        mask = mask.clone()
        hide_first_key(mask)
        return mask

    with torch.inference_mode():
        edited = model.run_with_hooks(ids, fwd_hooks=[("blocks.0.attn.hook_mask", in_place)])
        expected = model.run_with_hooks(ids, fwd_hooks=[("blocks.*.attn.hook_mask", replaced)])
        assert torch.equal(edited, expected)
        assert not torch.equal(edited, model(ids))      # the edit took effect; a new pass makes a new mask
        later = model.run_with_hooks(ids, fwd_hooks=[(f"blocks.{n_layers - 1}.attn.hook_mask", in_place)])
        only_last = model.run_with_hooks(ids, fwd_hooks=[(f"blocks.{n_layers - 1}.attn.hook_mask", replaced)])
        assert torch.equal(later, only_last)


def test_rope_takes_cos_and_sin_either_shaped():
    x = torch.randn(2, 5, 3, 8)
    cos, sin = positional.rope_cos_sin(5, 8)
    assert torch.equal(positional.apply_rope(x, cos, sin), positional.apply_rope(x, cos[None, :, None], sin[None, :, None]))
    cos, sin = positional.rope_cos_sin(5, 4)                 # partial rotary: the last 4 dims pass through
    y = positional.apply_rope(x, cos[None, :, None], sin[None, :, None])
    assert torch.equal(y, positional.apply_rope(x, cos, sin)) and torch.equal(y[..., 4:], x[..., 4:])
