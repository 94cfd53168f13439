"""The "real size" model of issue 32 (item 5): Qwen2.5-0.5B's shape (24 layers, 14 query
heads sharing 2 key/value heads) made narrow (d_head 8, so d_model 112, d_ff 224) and
random, with a character tokenizer.json. Every page and lesson is tested on it
(tests/app/test_real_size.py, tests/e2e/test_real_size_e2e.py): layouts, grids and pickers
that assume a 6 × 12 model show here; the weights are ~1 MB, so each pass is fast."""
from __future__ import annotations

from pathlib import Path

LAYERS, HEADS, KV_HEADS, D_HEAD = 24, 14, 2, 8
VOCAB = 80                       # the character tokenizer's ids fit (models/weights/tiny_hf.py)
NAME = "qwen2-24x14-gqa"


def save(root: str | Path, seed: int = 0) -> Path:
    """Write config.json, model.safetensors and tokenizer.json of the 24 × 14 GQA model
    under `root`/qwen2-24x14-gqa; returns the folder."""
    import torch
    import transformers

    from models.weights.tiny_hf import char_tokenizer_json

    folder = Path(root) / NAME
    config = transformers.Qwen2Config(
        vocab_size=VOCAB, hidden_size=HEADS * D_HEAD, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
        num_key_value_heads=KV_HEADS, intermediate_size=2 * HEADS * D_HEAD, max_position_embeddings=256,
        tie_word_embeddings=True, bos_token_id=0, eos_token_id=0)
    torch.manual_seed(seed)
    model = transformers.Qwen2ForCausalLM(config).float().eval()
    model.save_pretrained(folder, safe_serialization=True)
    (folder / "tokenizer.json").write_text(char_tokenizer_json(VOCAB), encoding="utf-8")
    return folder
