"""Glassbox models: the instrumented Transformer, its trace, and the pure functions
(positional encodings, masks) that the app's pages show.

The parts: config, transformer (norms, attention module, MLP, block, stacks, model),
attention (the attention function and its per-head CPU path), kv_cache, hooks (hook
points, recording), trace (Trace, Stack, act_name: the one place hook names are
spelled), masks, positional, tokenizer, device, runtime; weights/ (checkpoints,
pretrained loaders, the catalogue) and training/ (toy tasks, trainer, recipes).

Imports no streamlit, plotly or altair: everything here works in a notebook or a test.

Importing this package applies `runtime.tune_allocator()` (glibc keeps large freed
blocks in the heap, so `run_with_cache` does not page-fault its trace in again on every
pass); set GLASSBOX_TUNE_ALLOCATOR=0 before the import to leave the allocator alone.
"""
from . import runtime

runtime.tune_allocator_by_default()

from .attention import scaled_dot_product_attention
from .config import MaskSpec, TransformerConfig
from .device import available_devices, pick_device
from .hooks import HookPoint
from .tokenizer import CharTokenizer, Encoding, HFTokenizer, WordTokenizer
from .trace import Stack, Trace, act_name, record_names
from .transformer import Transformer

__all__ = [
    "CharTokenizer",
    "Encoding",
    "HFTokenizer",
    "HookPoint",
    "MaskSpec",
    "Stack",
    "Trace",
    "Transformer",
    "TransformerConfig",
    "WordTokenizer",
    "act_name",
    "available_devices",
    "pick_device",
    "record_names",
    "scaled_dot_product_attention",
]
