"""Parity with Hugging Face transformers: our model's output next to transformers' on the
same token ids, computed (never asserted) for a model loaded from a HF folder.

`compare(source, ours, tokenizer, text, target)` builds the reference model with the
transformers Auto classes (eager attention, in our model's dtype: float32, bfloat16 or
float16), chosen by *our* config, not by the family's name, so a family added later needs
nothing here:

- a decoder with logits          -> AutoModelForCausalLM, its logits;
- an encoder returning hidden    -> AutoModel, its last_hidden_state;
- an encoder with logits         -> AutoModelForMaskedLM, its logits;
- an encoder-decoder             -> AutoModelForSeq2SeqLM, its logits, with
  decoder_input_ids = the target text's ids, or the decoder start token alone.

It returns a `Parity`: the largest absolute difference, whether it is within the
tolerance, the dtype and the tolerance it was held to (`tolerance_for`), what was compared
and the transformers version; or, when transformers cannot
build the model (not installed, an architecture it does not know, any error), `skipped`
with a reason id and an English sentence. It never raises.

**The reference is not a second copy of the model** (`shared_reference`). A 0.5 B model in
float32 is 2 GB; building transformers' model of it next to ours doubled that, and a class
asking for badges could not afford it. Of the two ways out, comparing a prefix of the layers
(the hidden state after block k) or sharing the weights, this module shares: the badge keeps
comparing the whole output ("logits over N tokens"), so what it says stays what was checked,
and nothing about the model's size changes what is compared. transformers' model is built on
the meta device (in float32, so torch's process-wide default dtype never changes), its
parameters are then the checkpoint's own tensors, memory-mapped from the safetensors files
(`safetensors.torch.load_file`): the pages of the file, which our model maps too when it is
loaded in the file's dtype, so no weight is held twice. Where the file's dtype is not the
compared dtype (a bfloat16 checkpoint checked in float32), a parametrization (`CastOnRead`)
casts each weight when a module reads it, one module's weight at a time, freed after use:
the same values a converted copy would hold, never the whole converted copy (the largest
transient is the embedding matrix). What transformers computes instead of reading (rotary
frequencies, embedding scales, sinusoidal tables, missing-but-allowed keys) is computed by
transformers' own `initialize_weights` in the compared dtype, as `from_pretrained` does.
Checkpoint names go through transformers' own renamings (legacy names, prefixes); a file
that needs a converting transform (fused or split tensors), or any failure of this path,
falls back to `from_pretrained` (a full copy, logged). Tested bitwise equal to
`from_pretrained(dtype=...)` for every tiny family from a bfloat16 file compared in float32,
and for one family of each kind from float32 to bfloat16 and bfloat16 to float16
(tests/unit/test_parity_shared.py). The price is time where the dtypes differ: the weights
are cast at every pass (a Qwen2.5-0.5B-shaped bfloat16 checkpoint checked in float32 on a
busy 2-core machine: +4 MB for the reference instead of +1.9 GB, a pass about twice as long).
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

TOLERANCE = 1e-4          # the app's badge in float32: float32 kernels differ by ~1e-6 on small models
MAX_CHARS = 20_000        # as the app (ui/serving/gate.py) feeds text

# bfloat16 / float16: our model is compared with transformers run in the SAME dtype (not with
# float32: half precision alone moves the logits of a deep model by several per cent of their
# largest value, 6.5 % measured on a 16-layer random Llama in bfloat16, so a bound against
# float32 could not tell a loader's bug from rounding). The tolerance is relative: HALF_EPS
# machine epsilons (torch.finfo(dtype).eps, bfloat16 2^-7, float16 2^-10) of the largest |value|
# of transformers' output, i.e. 1/16 of it in bfloat16 and 1/128 in float16. Measured against
# transformers in the same dtype (random weights, norms and biases off 1/0): the tiny model of
# every family within 1 eps (Llama, Qwen2, Gemma, Mistral, BERT, BART, Marian bitwise equal);
# 24-layer GPT-2, BERT and GPT-NeoX at 1.9-2.6 eps; 8 leaves room for deeper models while a
# dropped bias or a misplaced norm still moves the output by a large part of its scale.
HALF_EPS = 8


def tolerance_for(dtype: torch.dtype, scale: float) -> float:
    """The badge's bound on max |Δ| for a model in `dtype` whose reference output's largest
    |value| is `scale`: TOLERANCE in float32, HALF_EPS · eps(dtype) · scale in half precision."""
    if dtype == torch.float32:
        return TOLERANCE
    return HALF_EPS * torch.finfo(dtype).eps * scale


def dtype_of(model: Any) -> torch.dtype:
    """The dtype a model (ours or transformers') computes in: that of its first floating parameter
    (a `shared_reference` says its own: its parameters keep the file's dtype)."""
    said = getattr(model, "glassbox_dtype", None)
    if isinstance(said, torch.dtype):
        return said
    for p in model.parameters():
        if p.is_floating_point():
            return p.dtype
    return torch.float32


@dataclass(frozen=True)
class Parity:
    ok: bool | None                   # None: skipped
    max_abs_diff: float | None = None
    tolerance: float = TOLERANCE
    output: str = ""                  # "logits" or "hidden"
    n_tokens: int = 0
    transformers_version: str = ""
    dtype: str = "float32"            # the dtype both models ran in: float32, bfloat16 or float16
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
        return (f"{mark} transformers {self.transformers_version} in {self.dtype} on this text ({self.compared}): "
                f"max |Δ| = {self.max_abs_diff:.1e}, tolerance {self.tolerance:.1e}")


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
    """The transformers model of `source` (a folder, or an in-memory model, converted in
    place), in our model's dtype, eager attention, eval mode. Raises whatever transformers
    raises."""
    import transformers

    dtype = dtype_of(ours)
    if not isinstance(source, (str, Path)):
        model = source
    else:
        folder = Path(source).expanduser()
        auto = getattr(transformers, reference_class(ours))
        with BUILDING:      # one at a time: from_pretrained patches torch.nn.init process-wide and restores it after
            try:
                return shared_reference(auto, folder, dtype)        # the file's tensors, not a second copy
            except Exception as e:  # noqa: BLE001 - a layout this path cannot map: transformers' own load
                LOG.info("parity: the reference of %s is a full copy (%r)", folder.name, e)
            model = auto.from_pretrained(str(folder), local_files_only=True, dtype=dtype,
                                         attn_implementation="eager")
    model = model.to(dtype).eval()
    try:
        model.set_attn_implementation("eager")
    except (AttributeError, ValueError, TypeError):
        pass
    return model


class CastOnRead(torch.nn.Module):
    """A parametrization: the stored tensor (a view of the checkpoint file) read in `dtype`,
    computed each time a module reads its weight and freed after."""

    def __init__(self, dtype: torch.dtype) -> None:
        super().__init__()
        self.dtype = dtype

    def forward(self, stored: torch.Tensor) -> torch.Tensor:
        return stored.to(self.dtype)


def shared_reference(auto: Any, folder: Path, dtype: torch.dtype) -> Any:
    """transformers' model of `folder` (Auto class `auto`) computing in `dtype`, eager
    attention, eval mode, whose parameters are the checkpoint's memory-mapped tensors (cast
    on read where their dtype is not `dtype`): no copy of the weights. Raises LookupError
    for a checkpoint it cannot map name for name (the caller loads it the usual way), and
    whatever transformers raises. Call it holding BUILDING."""
    import re

    import transformers
    from safetensors.torch import load_file
    from torch.nn.utils import parametrize
    from transformers.conversion_mapping import get_model_conversion_mapping
    from transformers.core_model_loading import WeightConverter, WeightRenaming, rename_source_key

    from . import pretrained

    config = transformers.AutoConfig.from_pretrained(str(folder), local_files_only=True)
    if getattr(config, "quantization_config", None) is not None:
        raise LookupError("a quantized checkpoint")
    with torch.device("meta"):              # thread-local: no tensor is allocated, float32 leaves torch's default alone
        ref = auto.from_config(config, attn_implementation="eager", dtype=torch.float32)
    ref = ref.to(dtype)                     # on meta: free
    stored: dict[str, torch.Tensor] = {}
    for f in pretrained.weight_files(folder):
        stored.update(load_file(str(f)))    # memory-mapped: views of the file, nothing read yet
    state = ref.state_dict(keep_vars=True)
    transforms = get_model_conversion_mapping(ref)
    renamings = [t for t in transforms if isinstance(t, WeightRenaming)]
    converters = [t for t in transforms if isinstance(t, WeightConverter)]
    found: dict[str, torch.Tensor] = {}
    for key, tensor in stored.items():      # the checkpoint's names as transformers renames them when it loads
        name, converted = rename_source_key(key, renamings, converters, getattr(ref, "base_model_prefix", None) or None,
                                            state)
        if converted is not None:
            raise LookupError(f"{key} is converted when loaded ({converted})")
        if name in state:
            found[name] = tensor
    tied = {id(state[n]) for n in found}
    params = {n for n, _ in ref.named_parameters(remove_duplicate=False)}
    allowed = [re.compile(p) for p in (getattr(ref, "_keys_to_ignore_on_load_missing", None) or [])]
    computed = []
    for name, t in state.items():
        if name in found or id(t) in tied:
            continue
        if name in params and not any(p.search(name) for p in allowed):
            raise LookupError(f"the checkpoint has no tensor for {name}")
        computed.append(name)
    computed += [n for n, _ in ref.named_buffers() if n not in state]       # non-persistent: always computed
    for name in computed:                   # made real (in `dtype`) for transformers to compute, as from_pretrained
        owner, _, leaf = name.rpartition(".")
        module = ref.get_submodule(owner)
        if leaf in module._parameters:
            module._parameters[leaf] = torch.nn.Parameter(torch.empty_like(module._parameters[leaf], device="cpu"),
                                                          requires_grad=False)
        else:
            module._buffers[leaf] = torch.empty_like(module._buffers[leaf], device="cpu")
    ref.initialize_weights()                # only the real tensors: the rest is still meta, untouched
    ref.load_state_dict(found, strict=False, assign=True)     # then the file's tensors, never written to
    ref.tie_weights()
    left = [n for n, t in [*ref.named_parameters(), *ref.named_buffers()] if t.is_meta]
    if left:
        raise LookupError(f"nothing gives {left[0]} a value")
    for module in list(ref.modules()):      # (parametrizing adds modules)
        for leaf, b in list(module._buffers.items()):
            if b is not None and b.is_floating_point() and b.dtype != dtype:
                module._buffers[leaf] = b.to(dtype)          # small: biases, scales, tables
        for leaf, p in list(module._parameters.items()):
            if p is None:
                continue
            p.requires_grad_(False)
            if p.is_floating_point() and p.dtype != dtype:
                parametrize.register_parametrization(module, leaf, CastOnRead(dtype), unsafe=True)
    ref.glassbox_dtype = dtype              # dtype_of: its parameters keep the file's dtype
    return ref.eval()


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
            tolerance: float | None = None, reference: Any = None) -> Parity:
    """Our output against transformers' on `text` (and `target` for an encoder-decoder), both
    in our model's dtype. `source`: the HF folder (or an in-memory transformers model);
    `reference`: an already built transformers model (skips building one; ignored when it is
    in another dtype and `source` is a folder); `tolerance`: an absolute bound instead of
    the dtype's (`tolerance_for`). Never raises."""
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
    dtype = dtype_of(ours)
    if reference is not None and dtype_of(reference) != dtype and isinstance(source, (str, Path)):
        reference = None                        # built for a copy of this folder in another dtype
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
        theirs = theirs.float()
        diff = float((mine - theirs).abs().max())
        scale = float(theirs.abs().max())
    except Exception as e:  # noqa: BLE001
        LOG.info("parity: the comparison failed: %r", e)
        return skip("error", f"transformers {version} could not run this model ({type(e).__name__}).", version,
                    error=type(e).__name__)
    bound = tolerance_for(dtype, scale) if tolerance is None else tolerance
    ok = diff <= bound          # NaN is not ok
    return Parity(ok, diff, bound, ours.cfg.output if ours.cfg.output == "logits" else "hidden", n, version,
                  str(dtype).removeprefix("torch."))
