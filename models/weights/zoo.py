"""The model catalogue the app offers, and how to load each entry.

Entry keys are stable strings used in URLs:
- "minilm": the bundled all-MiniLM-L6-v2 (real BERT weights, offline);
- "toy:<name>": a checkpoint shipped in models/checkpoints/ (trained toy models; kind
  "lm" for the small real language models trained on text, verse-lm and verse-mlm);
- "custom:<preset>": "build your own": a randomly initialised model of a preset
  architecture (GPT-2-, BERT-, LLaMA-, T5-style, the original Transformer, ...), which
  the app may modify field by field;
- "folder:<path>": a local Hugging Face folder (config.json + safetensors).

Every entry says whether it is available on this machine and, if not, why.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import torch

from ..config import MaskSpec, TransformerConfig
from ..errors import Refused
from ..tokenizer import Tokenizer, minilm_tokenizer
from ..transformer import Transformer
from .checkpoint import CHECKPOINT_DIR, load_checkpoint, read_checkpoint_info, shipped_checkpoints
from .families import config_from_hf
from .pretrained import CheckpointError, load_folder, minilm_path, read_hf_config

MINILM_VOCAB = 30522

# "build your own" starting points: small, random weights, the MiniLM WordPiece vocabulary
PRESETS: dict[str, tuple[str, str, TransformerConfig]] = {
    "gpt": ("GPT-2-style decoder", "causal, learned positions, pre-LayerNorm, GELU",
            TransformerConfig(arch="decoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2, n_heads=4, d_ff=256,
                              max_len=512, positional="learned", norm="layernorm", norm_position="pre",
                              activation="gelu_tanh")),
    "bert": ("BERT-style encoder", "bidirectional, learned positions, post-LayerNorm, GELU",
             TransformerConfig(arch="encoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2, n_heads=4, d_ff=256,
                               max_len=512, positional="learned", norm="layernorm", norm_position="post",
                               activation="gelu", embed_norm=True, output="hidden", tie_embeddings=False)),
    "llama": ("LLaMA-style decoder", "RoPE, RMSNorm, SwiGLU, grouped-query attention (4 query / 2 kv heads)",
              TransformerConfig(arch="decoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2, n_heads=4,
                                n_kv_heads=2, d_ff=172, max_len=512, positional="rope", norm="rmsnorm",
                                activation="swiglu", bias=False, tie_embeddings=False)),
    "transformer": ("Original Transformer", "encoder-decoder, sinusoidal positions, post-LayerNorm, ReLU",
                    TransformerConfig(arch="encoder-decoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2,
                                      n_heads=4, d_ff=256, max_len=512, positional="sinusoidal",
                                      norm_position="post", activation="relu")),
    "t5": ("T5-style encoder-decoder", "relative position buckets, RMSNorm, pre-norm, ReLU",
           TransformerConfig(arch="encoder-decoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2, n_heads=4,
                             d_ff=256, max_len=512, positional="relative", norm="rmsnorm", activation="relu",
                             bias=False)),
    "alibi": ("ALiBi decoder", "no position vectors: a linear distance penalty per head",
              TransformerConfig(arch="decoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2, n_heads=4, d_ff=256,
                                max_len=512, positional="alibi")),
    "longformer": ("Sparse encoder (Longformer)", "sliding window of ±2 tokens per side (5 keys) plus a global first token",
                   TransformerConfig(arch="encoder", vocab_size=MINILM_VOCAB, d_model=64, n_layers=2, n_heads=4,
                                     d_ff=256, max_len=512, positional="sinusoidal",
                                     attention=MaskSpec("longformer", window=2, global_tokens=(0,)),
                                     output="hidden", tie_embeddings=False)),
}


@dataclass(frozen=True)
class Entry:
    key: str                         # stable id for URLs
    label: str                       # short display name
    kind: str                        # pretrained | toy | lm | custom | folder
    description: str
    available: bool
    reason: str = ""                 # why it is not available (English: logs, notebooks)
    config: TransformerConfig | None = field(default=None, compare=False)  # known without loading
    card: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)  # a checkpoint's "meta"
    # why it is not available, as a refusal an app says in its reader's language (ui/refusals.py)
    refusal: Refused | None = field(default=None, compare=False, hash=False)

    @classmethod
    def refused(cls, key: str, label: str, kind: str, description: str, refusal: Refused,
                config: TransformerConfig | None = None) -> Entry:
        """An entry that is not available here, and why."""
        return cls(key, label, kind, description, False, str(refusal), config=config, refusal=refusal)

    @property
    def is_random(self) -> bool:
        return self.kind == "custom"

    @property
    def task(self) -> str | None:
        """The toy task this model was trained on (models.training.tasks), if any: the
        answer to "which example does this model read?" for every page."""
        task = self.card.get("task")
        return task if isinstance(task, str) and self.kind != "lm" else None   # an LM's "task" is its text


def _minilm_entry() -> Entry:
    label, desc = "MiniLM (BERT, 6×12)", "all-MiniLM-L6-v2: real pretrained BERT weights, bundled, offline"
    try:
        folder = minilm_path()
        if not (folder / "model.safetensors").exists():
            raise Refused("minilm_no_weights", f"{folder} has no model.safetensors.")
        return Entry("minilm", label, "pretrained", desc, True, config=config_from_hf(read_hf_config(folder)))
    except Refused as e:
        return Entry.refused("minilm", label, "pretrained", desc, e)


_TOY_MEMO: dict[tuple, list[Entry]] = {}


def toy_entries() -> list[Entry]:
    """The shipped checkpoints (models/weights/checkpoints), each with its card: toy
    models, and (kind "lm", card kind "language-model") the language models, listed first:
    the main ones (verse-lm, verse-mlm), then those of an experiment's family (the card's
    "family", e.g. the pe64-* models of recipes/pe_lm.py), so the first language
    model stays the app's default one.

    Read once per state of the folder: every page's sidebar asks for the catalogue on
    every run, and parsing 25 cards and configs was ~10 ms of each (a third of a cached
    rerun's CPU). The memo is keyed by each file's size and modification time, so a
    checkpoint written, replaced or removed is seen on the next call."""
    paths = shipped_checkpoints()
    sig = tuple((str(p), *_stat(p), *_stat(p.with_suffix(".safetensors"))) for p in paths)
    if sig not in _TOY_MEMO:
        _TOY_MEMO.clear()
        _TOY_MEMO[sig] = _read_toy_entries(paths)
    return list(_TOY_MEMO[sig])


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
        return st.st_size, st.st_mtime_ns
    except OSError:
        return -1, -1


def _read_toy_entries(paths: Sequence[Path]) -> list[Entry]:
    """`toy_entries` read from the files (see there)."""
    out = []
    for path in paths:
        key = f"toy:{path.stem}"
        try:
            doc = read_checkpoint_info(path)
            meta = doc.get("meta", {})
            kind = "lm" if meta.get("kind") == "language-model" else "toy"
            out.append(Entry(key, meta.get("label", path.stem), kind, meta.get("description", "trained toy model"),
                             True, config=TransformerConfig.from_dict(doc["config"]), card=meta))
        except ValueError as e:      # a Refused, or one of the config's own checks
            refusal = e if isinstance(e, Refused) else Refused("not_checkpoint", str(e), file=path.name)
            out.append(Entry.refused(key, path.stem, "toy", "shipped checkpoint", refusal))
    return sorted(out, key=lambda e: (e.kind != "lm", bool(e.card.get("family"))))


def folder_entry(path: str | Path) -> Entry:
    path = Path(path).expanduser()
    key, label = f"folder:{path}", f"Folder: {path.name or path}"
    try:
        if not path.is_dir():
            raise CheckpointError("not_folder", f"{path} is not a folder.", folder=path.name)
        cfg = config_from_hf(read_hf_config(path))
        if not any(path.glob("*.safetensors")):
            raise CheckpointError("no_weights", f"{path} has no .safetensors weights.", folder=path.name)
        return Entry(key, label, "folder", "local Hugging Face checkpoint", True, config=cfg)
    except Refused as e:
        return Entry.refused(key, label, "folder", "local Hugging Face checkpoint", e)


_CATALOGUE_MEMO: dict[tuple, tuple[float, list[Entry]]] = {}
RECHECK_S = 2.0      # how long a catalogue is trusted before its files are stat-ed again


def catalogue(folders: Sequence[str | Path] = ()) -> list[Entry]:
    """Everything the app can offer, available or not (with the reason).

    The catalogue without `folders` is remembered: a page's run asks for it up to 8 times
    (sidebar, model names, lesson library), which was a fifth of a cached lesson run. It is
    made again at once when the checkpoint folder's modification time (a file added, removed
    or renamed there) or MiniLM's config's changes, and its files are listed and checked
    again (`toy_entries`: each file's size and mtime) at least every RECHECK_S seconds. (The
    folder is not listed on every call: that glob was a seventh of the sidebar's time.)"""
    if folders:
        return _catalogue(folders)
    try:
        minilm = _stat(minilm_path() / "config.json")
    except Refused:
        minilm = None
    key = (_stat(CHECKPOINT_DIR), minilm)
    now = time.monotonic()
    hit = _CATALOGUE_MEMO.get(key)
    if hit is None or now - hit[0] > RECHECK_S:
        hit = (now, _catalogue(()))
        _CATALOGUE_MEMO.clear()
        _CATALOGUE_MEMO[key] = hit
    return list(hit[1])


def _catalogue(folders: Sequence[str | Path]) -> list[Entry]:
    minilm = _minilm_entry()
    custom = [Entry(f"custom:{k}", label, "custom", f"{desc} (random weights)", True, config=cfg)
              if minilm.available else
              Entry.refused(f"custom:{k}", label, "custom", f"{desc} (random weights)",
                            Refused("needs_minilm", "needs the MiniLM WordPiece tokenizer: " + minilm.reason), cfg)
              for k, (label, desc, cfg) in PRESETS.items()]
    return [minilm, *toy_entries(), *custom, *(folder_entry(f) for f in folders)]


def get(key: str, folders: Sequence[str | Path] = ()) -> Entry:
    """The entry for a key; 'folder:<path>' keys work for any path. Raises ValueError."""
    if key.startswith("folder:"):
        return folder_entry(key[len("folder:"):])
    for e in catalogue(folders):
        if e.key == key:
            return e
    raise ValueError(f"Unknown model {key!r}.")


def build_random(cfg: TransformerConfig, seed: int = 0, device: str | torch.device | None = "cpu") -> Transformer:
    """A randomly initialised model, the same for the same (config, seed), without
    touching the global random state."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Transformer(cfg, device="cpu")
    from ..device import pick_device

    return model.to(pick_device(device)).eval()


def load(key: str, device: str | torch.device | None = "cpu", *, config: TransformerConfig | None = None,
         seed: int = 0) -> tuple[Transformer, Tokenizer]:
    """(model, tokenizer) for a catalogue key. For custom entries, `config` replaces the
    preset (build your own) and `seed` picks the random weights."""
    entry = get(key)
    if not entry.available:
        raise ValueError(f"{entry.label} is not available here: {entry.reason}")
    if entry.kind == "pretrained":
        model, tok = load_folder(minilm_path(), device)
    elif entry.kind in ("toy", "lm"):
        model, tok, _ = load_checkpoint(CHECKPOINT_DIR / f"{key[len('toy:'):]}.json", device)
    elif entry.kind == "custom":
        cfg = config or entry.config
        tok = minilm_tokenizer()
        if cfg.vocab_size < tok.vocab_size:
            raise ValueError(f"This model uses the WordPiece vocabulary ({tok.vocab_size} tokens); vocab_size "
                             f"{cfg.vocab_size} is too small.")
        return build_random(cfg, seed, device), tok
    else:
        model, tok = load_folder(key[len("folder:"):], device)
    if tok is None:
        raise ValueError(f"{entry.label} has no tokenizer (tokenizer.json, vocab.txt or vocab.json + merges.txt).")
    return model, tok
