"""The parity badge holds no second copy of the model: transformers' reference takes the
checkpoint's memory-mapped tensors (cast on read where the compared dtype differs) and is
bitwise the model `from_pretrained` builds (models/weights/parity.py, `shared_reference`)."""
from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
import torch

from models.weights import parity, pretrained, tiny_hf

TEXT = "Attention is all you need."
IDS = torch.tensor([[3, 5, 7, 9, 11, 13, 2, 4]])


def reference_output(model, family: str) -> torch.Tensor:
    spec = tiny_hf.TINY[family]
    kwargs = {"input_ids": IDS}
    if spec.seq2seq:
        kwargs["decoder_input_ids"] = torch.tensor([[0, 5, 6]])
    with torch.no_grad():
        out = model(**kwargs)
    return out.logits if hasattr(out, "logits") else out.last_hidden_state


def auto_class(family: str):
    import transformers

    spec = tiny_hf.TINY[family]
    name = ("AutoModelForSeq2SeqLM" if spec.seq2seq else "AutoModel" if spec.output == "hidden"
            else "AutoModelForCausalLM")
    return getattr(transformers, name)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """family -> {file dtype -> folder}: every tiny family saved in bfloat16 and float32."""
    root = tmp_path_factory.mktemp("stored")
    out = {}
    for family in tiny_hf.families():
        hf = tiny_hf.build(family)
        out[family] = {}
        for dtype in (torch.float32, torch.bfloat16):
            folder = root / f"{family}-{str(dtype)[6:]}"
            hf.to(dtype).save_pretrained(folder)
            (folder / "tokenizer.json").write_text(tiny_hf.char_tokenizer_json(hf.config.get_text_config().vocab_size))
            out[family][dtype] = folder
    return out


# every family for the usual case (a bfloat16 checkpoint checked in float32); the other
# directions on a family of each kind (rotary decoder, computed embedding scale, sinusoidal
# table computed by transformers, Conv1D, encoder, relative buckets, multimodal wrapper)
CASES = ([(f, torch.bfloat16, torch.float32) for f in tiny_hf.families()]
         + [(f, s, c) for f in ("llama", "gemma", "marian", "gpt2", "bert", "t5", "gemma3")
            if f in tiny_hf.TINY for s, c in ((torch.float32, torch.bfloat16), (torch.bfloat16, torch.float16))])


@pytest.mark.parametrize("family,stored_dtype,compared", CASES)
def test_the_shared_reference_is_bitwise_transformers_own(stored, family, stored_dtype, compared):
    folder = stored[family][stored_dtype]
    auto = auto_class(family)
    want = auto.from_pretrained(folder, dtype=compared, attn_implementation="eager").to(compared).eval()
    with parity.BUILDING:
        got = parity.shared_reference(auto, folder, compared)
    a, b = reference_output(want, family), reference_output(got, family)
    assert b.dtype == compared and torch.equal(a, b), float((a.float() - b.float()).abs().max())
    assert parity.dtype_of(got) == compared                  # the app's cache keeps it for models in that dtype


def mapped_ranges(folder: Path) -> list[tuple[int, int]]:
    """Address ranges of this process's memory mappings of `folder`'s safetensors files."""
    out = []
    for line in Path("/proc/self/maps").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[-1].startswith(str(folder.resolve())) and parts[-1].endswith(".safetensors"):
            lo, hi = parts[0].split("-")
            out.append((int(lo, 16), int(hi, 16)))
    return out


def stored_tensors(model) -> list[tuple[str, torch.Tensor]]:
    """The tensors a model keeps for its weights: a parametrized weight's stored original."""
    return [(n, p) for n, p in model.named_parameters()]


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/self/maps (Linux)")
@pytest.mark.parametrize("stored_dtype", [torch.bfloat16, torch.float32])
def test_every_weight_of_the_reference_is_a_view_of_the_file(stored, stored_dtype):
    """The badge's reference of a model compared in float32 holds no weight of its own: each
    parameter lies in a mapping of the checkpoint file, in the file's dtype."""
    folder = stored["qwen2"][stored_dtype]
    ours, _ = pretrained.load_folder(folder, dtype=torch.float32)
    ref = parity.build_reference(folder, ours)
    ranges = mapped_ranges(folder)
    assert ranges
    weights = stored_tensors(ref)
    assert weights and all(p.dtype == stored_dtype for _, p in weights)
    outside = [n for n, p in weights if not any(lo <= p.data_ptr() < hi for lo, hi in ranges)]
    assert outside == []
    if stored_dtype == torch.float32:                        # ours in the file's dtype maps the same file's pages
        assert any(lo <= ours.embed.weight.data_ptr() < hi for lo, hi in mapped_ranges(folder))


def anon_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon")


def trim() -> None:
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status (Linux)")
def test_the_badge_of_a_bfloat16_checkpoint_in_float32_allocates_no_second_copy(tmp_path):
    """A model of ~12 M parameters stored in bfloat16, loaded and compared in float32: the
    reference transformers used to build was a 48 MB float32 copy; now building it allocates
    almost nothing, and the badge still compares the whole output."""
    import transformers

    config = transformers.Qwen2Config(vocab_size=16000, hidden_size=256, intermediate_size=768, num_hidden_layers=4,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                                      tie_word_embeddings=True, bos_token_id=0, eos_token_id=0)
    torch.manual_seed(0)
    hf = transformers.Qwen2ForCausalLM(config).to(torch.bfloat16)
    folder = tmp_path / "mid"
    hf.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tiny_hf.char_tokenizer_json(100))
    full_mb = sum(p.numel() for p in hf.parameters()) * 4 / 2**20
    del hf
    ours, tok = pretrained.load_folder(folder, dtype=torch.float32)
    parity.build_reference(folder, ours)                     # once first: transformers' imports and caches
    trim()
    before = anon_mb()
    ref = parity.build_reference(folder, ours)
    trim()
    grew = anon_mb() - before
    assert grew < full_mb / 4, (grew, full_mb)
    p = parity.compare(folder, ours, tok, TEXT, reference=ref)
    assert p.ok is True and p.max_abs_diff <= 1e-5 and p.compared == f"logits over {p.n_tokens} tokens"
    assert private_mb(ref, folder) < full_mb / 4
    # what it used to cost, counted tensor by tensor (RSS alone cannot show it: the allocator
    # may hand the copy pages an earlier test freed, so the process need not grow)
    copy = transformers.AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
    assert private_mb(copy, folder) > 0.8 * full_mb
    del copy


def private_mb(model, folder: Path) -> float:
    """Megabytes of a model's weights that are its own: storages outside the file's mappings."""
    ranges = mapped_ranges(folder)
    seen, total = set(), 0
    for t in list(model.parameters()) + list(model.buffers()):
        storage = t.untyped_storage()
        ptr = storage.data_ptr()
        if ptr in seen or any(lo <= ptr < hi for lo, hi in ranges):
            continue
        seen.add(ptr)
        total += storage.nbytes()
    return total / 2**20


def test_a_checkpoint_the_shared_path_cannot_map_falls_back_to_a_full_load(stored, monkeypatch):
    folder = stored["llama"][torch.bfloat16]
    ours, tok = pretrained.load_folder(folder, dtype=torch.float32)

    def cannot(*args, **kwargs):
        raise LookupError("a fused tensor")

    monkeypatch.setattr(parity, "shared_reference", cannot)
    ref = parity.build_reference(folder, ours)
    assert not hasattr(ref, "glassbox_dtype") and next(ref.parameters()).dtype == torch.float32
    assert parity.compare(folder, ours, tok, TEXT, reference=ref).ok is True


def test_the_badge_of_a_loaded_bfloat16_checkpoint_matches(stored):
    """Through compare(): ours loaded in float32 from a bfloat16 file, the reference shared."""
    for family in ("llama", "bert", "gpt2", "t5"):
        folder = stored[family][torch.bfloat16]
        ours, tok = pretrained.load_folder(folder, dtype=torch.float32)
        p = parity.compare(folder, ours, tok, TEXT)
        assert p.ok is True and p.dtype == "float32" and p.max_abs_diff <= 1e-5, (family, p.sentence())
