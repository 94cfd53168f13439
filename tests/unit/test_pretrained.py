"""Parity with Hugging Face transformers (float32, eager attention), sources, bad checkpoints."""
import json
import shutil

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()
from transformers import (AutoModel, BertConfig, BertModel, GPT2Config, GPT2LMHeadModel,  # noqa: E402
                          LlamaConfig, LlamaForCausalLM)

from models.weights import families, pretrained  # noqa: E402
from models.weights.pretrained import CheckpointError, load  # noqa: E402

TOL = 1e-5


def assert_parity(ours, hf, ids, final_is_logits):
    """Every layer's hidden state and attention probabilities, and the final output."""
    out, trace = ours.run_with_cache(ids)
    with torch.no_grad():
        ref = hf(ids, output_attentions=True, output_hidden_states=True)
    n = ours.cfg.n_layers
    assert len(ref.attentions) == n
    assert (trace["blocks.0.hook_resid_pre"] - ref.hidden_states[0]).abs().max() <= TOL
    for i in range(n):
        # HF's last hidden state of a pre-LN model is after the final norm
        ours_h = trace[f"blocks.{i}.hook_resid_post"] if (i < n - 1 or ours.cfg.norm_position == "post") \
            else trace["ln_final.hook_normalized"]
        assert (ours_h - ref.hidden_states[i + 1]).abs().max() <= TOL, f"hidden state {i + 1}"
        assert trace[f"blocks.{i}.attn.hook_pattern"].shape == ref.attentions[i].shape
        assert (trace[f"blocks.{i}.attn.hook_pattern"] - ref.attentions[i]).abs().max() <= TOL, f"attention {i}"
    final = ref.logits if final_is_logits else ref.last_hidden_state
    assert (out - final).abs().max() <= TOL
    return trace, ref


# ---- the bundled MiniLM ------------------------------------------------------------------
@pytest.fixture(scope="module")
def minilm():
    ours, tok = load("minilm")
    hf = AutoModel.from_pretrained(str(pretrained.minilm_path()), attn_implementation="eager").eval()
    return ours, tok, hf


@pytest.mark.parametrize("text", [
    "The quick brown fox jumps over the lazy dog.",
    "注意力机制让模型关注重要的词。世界",
    "?!... ,;: -- (\"quoted\") [brackets] {braces} #$%&*",
])
def test_minilm_parity_on_texts(minilm, text):
    ours, tok, hf = minilm
    ids = torch.tensor([tok.encode(text).ids])
    trace, ref = assert_parity(ours, hf, ids, final_is_logits=False)
    # the trace's patterns are HF's output_attentions, element for element
    assert torch.equal(trace["blocks.5.attn.hook_pattern"], ref.attentions[5])


def test_minilm_parity_one_token(minilm):
    ours, _, hf = minilm
    assert_parity(ours, hf, torch.tensor([[101]]), final_is_logits=False)


def test_minilm_parity_256_tokens(minilm):
    ours, tok, hf = minilm
    enc = tok.encode("Transformers read every word at once and let attention decide what matters. " * 30,
                     max_len=256)
    assert len(enc) == 256 and enc.truncated
    assert_parity(ours, hf, torch.tensor([enc.ids]), final_is_logits=False)


def test_minilm_config_and_tokenizer(minilm):
    ours, tok, _ = minilm
    cfg = ours.cfg
    assert (cfg.arch, cfg.n_layers, cfg.n_heads, cfg.d_model, cfg.max_len) == ("encoder", 6, 12, 384, 512)
    assert (cfg.positional, cfg.norm_position, cfg.activation, cfg.n_token_types) == ("learned", "post", "gelu", 2)
    assert tok.vocab_size == cfg.vocab_size == 30522


def test_600_tokens_for_a_512_position_model(minilm):
    ours, tok, _ = minilm
    enc = tok.encode("token " * 600)
    assert len(enc) == 602
    with pytest.raises(ValueError, match="only 512"):
        ours.run_with_cache(enc.ids)
    short = tok.encode("token " * 600, max_len=ours.cfg.max_len)
    assert len(short) == 512 and short.truncated
    assert ours.run_with_cache(short.ids)[0].shape == (1, 512, 384)


# ---- tiny random models built from a config (no download) ----------------------------------
def tiny_gpt2():
    torch.manual_seed(0)
    return GPT2LMHeadModel(GPT2Config(n_embd=64, n_layer=3, n_head=4, vocab_size=100, n_positions=64,
                                      bos_token_id=0, eos_token_id=0)).eval()


def tiny_llama():
    torch.manual_seed(0)
    return LlamaForCausalLM(LlamaConfig(vocab_size=100, hidden_size=64, num_hidden_layers=3, num_attention_heads=4,
                                        num_key_value_heads=2, intermediate_size=128, max_position_embeddings=64,
                                        bos_token_id=0, eos_token_id=0, pad_token_id=0)).eval()


def tiny_bert():
    torch.manual_seed(0)
    return BertModel(BertConfig(vocab_size=100, hidden_size=64, num_hidden_layers=3, num_attention_heads=4,
                                intermediate_size=128, max_position_embeddings=64)).eval()


@pytest.mark.parametrize("make, is_lm", [(tiny_gpt2, True), (tiny_llama, True), (tiny_bert, False)])
def test_tiny_models_in_memory(make, is_lm):
    hf = make()
    hf.set_attn_implementation("eager")
    ours, tok = load(hf)
    assert tok is None
    ids = torch.randint(0, 100, (2, 17), generator=torch.Generator().manual_seed(1))
    assert_parity(ours, hf, ids, final_is_logits=is_lm)


def test_llama_uses_gqa_and_rope():
    ours, _ = load(tiny_llama())
    assert (ours.cfg.positional, ours.cfg.norm, ours.cfg.activation, ours.cfg.attention_kind) == \
        ("rope", "rmsnorm", "swiglu", "GQA")


@pytest.mark.parametrize("make, is_lm", [(tiny_gpt2, True), (tiny_llama, True), (tiny_bert, False)])
def test_tiny_models_from_a_folder(tmp_path, make, is_lm):
    hf = make()
    hf.save_pretrained(tmp_path, safe_serialization=True)
    ours, tok = load(str(tmp_path))
    hf.set_attn_implementation("eager")
    assert_parity(ours, hf, torch.randint(0, 100, (1, 12)), final_is_logits=is_lm)


def test_gpt2_transposes_conv1d_weights():
    hf = tiny_gpt2()
    ours, _ = load(hf)
    c_attn = hf.transformer.h[1].attn.c_attn.weight          # Conv1D [in, 3*out]
    assert torch.equal(ours.blocks[1].attn.W_K.weight, c_attn[:, 64:128].t())
    assert "attn.c_proj.weight" in families.GPT2_TRANSPOSED
    assert ours.unembed.weight is ours.embed.weight            # GPT-2 ties its unembedding


def test_folder_tokenizers(tmp_path):
    shutil.copy(pretrained.minilm_path() / "vocab.txt", tmp_path / "vocab.txt")
    tok = pretrained.load_tokenizer(tmp_path)
    assert tok.encode("hello world").tokens == ["[CLS]", "hello", "world", "[SEP]"]
    assert pretrained.load_tokenizer(pretrained.minilm_path()).vocab_size == 30522
    assert pretrained.load_tokenizer(tmp_path / "nothing") is None


# ---- bad checkpoints: a clear message, nothing half-loaded ---------------------------------
@pytest.fixture
def bert_folder(tmp_path):
    tiny_bert().save_pretrained(tmp_path, safe_serialization=True)
    return tmp_path


def test_truncated_safetensors(bert_folder):
    f = bert_folder / "model.safetensors"
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    with pytest.raises(CheckpointError, match="corrupt or truncated"):
        load(str(bert_folder))


def test_garbage_safetensors(bert_folder):
    (bert_folder / "model.safetensors").write_bytes(b"\x00\x01 not a tensor file")
    with pytest.raises(CheckpointError, match="not a readable safetensors"):
        load(str(bert_folder))


def test_config_of_another_architecture(bert_folder):
    cfg = json.loads((bert_folder / "config.json").read_text())
    cfg["model_type"], cfg["architectures"] = "xlnet", ["XLNetLMHeadModel"]
    (bert_folder / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError, match="Unsupported architecture 'xlnet'"):
        load(str(bert_folder))


def test_config_that_does_not_match_the_weights(bert_folder):
    cfg = json.loads((bert_folder / "config.json").read_text())
    cfg["intermediate_size"] = 96
    (bert_folder / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError, match=r"encoder\.layer\.0\.intermediate\.dense\.weight' has shape"):
        load(str(bert_folder))


def test_missing_key_is_named(tmp_path):
    from safetensors.torch import load_file, save_file
    tiny_gpt2().save_pretrained(tmp_path, safe_serialization=True)
    w = load_file(str(tmp_path / "model.safetensors"))
    del w["transformer.h.2.mlp.c_fc.bias"]
    save_file(w, str(tmp_path / "model.safetensors"))
    with pytest.raises(CheckpointError, match=r"missing 'transformer\.h\.2\.mlp\.c_fc\.bias'"):
        load(str(tmp_path))


def test_folder_without_weights(bert_folder):
    (bert_folder / "model.safetensors").rename(bert_folder / "pytorch_model.bin")
    with pytest.raises(CheckpointError, match="never unpickles"):
        load(str(bert_folder))
    (bert_folder / "pytorch_model.bin").unlink()
    with pytest.raises(CheckpointError, match="No .safetensors weights"):
        load(str(bert_folder))


def test_hub_name_offline_names_the_folder_to_use(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(CheckpointError, match="offline.*load that folder instead"):
        load("gpt2")
    with pytest.raises(CheckpointError, match="does not exist"):
        load("./no/such/folder")
