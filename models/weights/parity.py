"""Parity with Hugging Face transformers: our model's output next to transformers' on the
same token ids, computed (never asserted) for a model loaded from a HF folder.

`compare(source, ours, tokenizer, text, target)` builds the reference model with the
transformers Auto classes (float32, eager attention), chosen by *our* config, not by the
family's name, so a family added later needs nothing here:

- a decoder with logits          -> AutoModelForCausalLM, its logits;
- an encoder returning hidden    -> AutoModel, its last_hidden_state;
- an encoder with logits         -> AutoModelForMaskedLM, its logits;
- an encoder-decoder             -> AutoModelForSeq2SeqLM, its logits, with
  decoder_input_ids = the target text's ids, or the decoder start token alone.

It returns a `Parity`: the largest absolute difference, whether it is within the
tolerance, what was compared and the transformers version; or, when transformers cannot
build the model (not installed, an architecture it does not know, any error), `skipped`
with a reason id and an English sentence. It never raises.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from ..tokenizer import Tokenizer
from ..transformer import Transformer

# transformers' from_pretrained swaps torch.nn.init's functions for no-ops while it loads and
# puts them back after; two loads in two threads can interleave so that the no-ops stay
# (then every later load leaves buffers such as RoPE's inv_freq uninitialised). One at a time.
BUILDING = threading.Lock()

LOG = logging.getLogger("glassbox")

TOLERANCE = 1e-4          # the app's badge: float32 kernels differ by ~1e-6 on small models
MAX_CHARS = 20_000        # as the app (ui/serving/gate.py) feeds text


@dataclass(frozen=True)
class Parity:
    ok: bool | None                   # None: skipped
    max_abs_diff: float | None = None
    tolerance: float = TOLERANCE
    output: str = ""                  # "logits" or "hidden"
    n_tokens: int = 0
    transformers_version: str = ""
    skipped: str = ""                 # a reason id: no_transformers, not_hf, no_text, unknown_arch, error
    reason: str = ""                  # the English sentence of `skipped`
    values: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def compared(self) -> str:
        """What was compared, in English ("logits over 12 tokens")."""
        what = "logits" if self.output == "logits" else "last hidden states"
        return f"{what} over {self.n_tokens} tokens"

    def sentence(self) -> str:
        if self.ok is None:
            return f"parity not checked: {self.reason}"
        mark = "✓ matches" if self.ok else "✗ differs from"
        return (f"{mark} transformers {self.transformers_version} on this text ({self.compared}): "
                f"max |Δ| = {self.max_abs_diff:.1e}")


def skip(reason: str, sentence: str, version: str = "", **values: Any) -> Parity:
    return Parity(None, skipped=reason, reason=sentence, transformers_version=version, values=values)


def reference_class(ours: Transformer) -> str:
    """The transformers Auto class that returns what our model returns."""
    cfg = ours.cfg
    if cfg.arch == "encoder-decoder":
        return "AutoModelForSeq2SeqLM"
    if cfg.output != "logits":
        return "AutoModel"
    return "AutoModelForCausalLM" if cfg.arch == "decoder" else "AutoModelForMaskedLM"


def build_reference(source: Any, ours: Transformer) -> Any:
    """The transformers model of `source` (a folder, or an in-memory model returned as it
    is), float32, eager attention, eval mode. Raises whatever transformers raises."""
    import transformers

    if not isinstance(source, (str, Path)):
        model = source
    else:
        folder = Path(source).expanduser()
        auto = getattr(transformers, reference_class(ours))
        with BUILDING:      # one at a time: from_pretrained patches torch.nn.init process-wide and restores it after
            model = auto.from_pretrained(str(folder), local_files_only=True, dtype=torch.float32,
                                         attn_implementation="eager")
    model = model.float().eval()
    try:
        model.set_attn_implementation("eager")
    except (AttributeError, ValueError, TypeError):
        pass
    return model


def _version() -> str:
    try:
        import transformers
    except ImportError:
        return ""
    return str(transformers.__version__)


def decoder_ids(ours: Transformer, tokenizer: Tokenizer, target: str, start: int | None) -> list[int]:
    ids = tokenizer.encode(target[:MAX_CHARS], max_len=ours.cfg.max_len).ids if target.strip() else []
    if not ids:
        ids = [start if start is not None else 0]
    return ids


def compare(source: Any, ours: Transformer, tokenizer: Tokenizer, text: str, target: str = "",
            tolerance: float = TOLERANCE, reference: Any = None) -> Parity:
    """Our output against transformers' on `text` (and `target` for an encoder-decoder).
    `source`: the HF folder (or an in-memory transformers model); `reference`: an already
    built transformers model (skips building one). Never raises."""
    version = _version()
    if not version:
        return skip("no_transformers", "the transformers package is not installed.")
    if source is None and reference is None:
        return skip("not_hf", "this model does not come from a Hugging Face folder.", version)
    try:
        ids = tokenizer.encode(text[:MAX_CHARS], max_len=ours.cfg.max_len).ids
    except Exception as e:  # noqa: BLE001 - a tokenizer error is a sentence, never a traceback
        LOG.info("parity: the text cannot be tokenized: %r", e)
        return skip("error", "the text cannot be tokenized.", version)
    if not ids:
        return skip("no_text", "there is no text to compare on.", version)
    try:
        hf = reference if reference is not None else build_reference(source, ours)
    except Exception as e:  # noqa: BLE001 - unknown architecture, missing files, anything: a sentence
        LOG.info("parity: transformers cannot build %s: %r", source, e)
        if isinstance(e, (KeyError, ValueError)) and ("model_type" in str(e) or "Unrecognized" in str(e)
                                                       or "does not recognize" in str(e)):
            return skip("unknown_arch", f"transformers {version} does not know this architecture.", version)
        return skip("error", f"transformers {version} could not build this model ({type(e).__name__}).", version,
                    error=type(e).__name__)
    try:
        device = next(ours.parameters()).device
        x = torch.tensor([ids])
        with torch.no_grad():
            if ours.cfg.arch == "encoder-decoder":
                start = getattr(hf.config, "decoder_start_token_id", None)
                tgt = torch.tensor([decoder_ids(ours, tokenizer, target, start)])
                mine = ours(x.to(device), tgt.to(device)).float().cpu()
                theirs = hf(input_ids=x, decoder_input_ids=tgt).logits
                n = tgt.shape[1]
            else:
                mine = ours(x.to(device)).float().cpu()
                out = hf(input_ids=x)
                theirs = out.logits if ours.cfg.output == "logits" else out.last_hidden_state
                n = x.shape[1]
        if mine.shape != theirs.shape:
            return skip("error", f"the outputs have different shapes ({tuple(mine.shape)} and "
                        f"{tuple(theirs.shape)}).", version, error="shape")
        diff = float((mine - theirs.float()).abs().max())
    except Exception as e:  # noqa: BLE001
        LOG.info("parity: the comparison failed: %r", e)
        return skip("error", f"transformers {version} could not run this model ({type(e).__name__}).", version,
                    error=type(e).__name__)
    ok = diff <= tolerance      # NaN is not ok
    return Parity(ok, diff, tolerance, ours.cfg.output if ours.cfg.output == "logits" else "hidden", n, version)
