"""Glassbox models: an instrumented Transformer, its trace, and the pure functions
(positional encodings, masks) that the app's pages show.

Imports no streamlit, plotly or altair: everything here works in a notebook or a test.
"""
from .config import MaskSpec, TransformerConfig
from .device import available_devices, pick_device
from .hooks import HookPoint, Trace
from .tokenizer import CharTokenizer, Encoding, HFTokenizer, WordTokenizer
from .transformer import Transformer, scaled_dot_product_attention

__all__ = [
    "CharTokenizer",
    "Encoding",
    "HFTokenizer",
    "HookPoint",
    "MaskSpec",
    "Trace",
    "Transformer",
    "TransformerConfig",
    "WordTokenizer",
    "available_devices",
    "pick_device",
    "scaled_dot_product_attention",
]
