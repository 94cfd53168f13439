"""models/weights/parity.py: our output against transformers' on the same ids, computed."""
import json
import shutil

import pytest
import torch

from models.tokenizer import HFTokenizer
from models.weights import parity, pretrained, tiny_hf

TEXT = "Attention is all you need."


@pytest.fixture(scope="module", params=["llama", "bert", "gpt2"])
def tiny(request, tmp_path_factory):
    folder = tiny_hf.save(request.param, tmp_path_factory.mktemp(request.param))
    model, tok = pretrained.load_folder(folder)
    return request.param, folder, model, tok


def test_a_tiny_folder_matches_transformers(tiny):
    family, folder, model, tok = tiny
    p = parity.compare(folder, model, tok, TEXT)
    assert p.ok is True and p.skipped == ""
    assert p.max_abs_diff <= 1e-5
    assert p.n_tokens == len(tok.encode(TEXT).ids) and p.n_tokens > 0
    assert p.output == ("hidden" if family == "bert" else "logits")
    assert p.transformers_version and p.compared.endswith(f"over {p.n_tokens} tokens")
    assert p.sentence().startswith("✓ matches transformers")


def test_a_changed_weight_differs(tiny):
    _, folder, model, tok = tiny
    import copy

    broken = copy.deepcopy(model)
    with torch.no_grad():
        broken.blocks[0].mlp.W_out.weight[0] += 0.5
    p = parity.compare(folder, broken, tok, TEXT)
    assert p.ok is False and p.max_abs_diff > 1e-3
    assert p.sentence().startswith("✗")


def test_an_in_memory_model_is_compared_as_it_is():
    hf = tiny_hf.build("gpt2")
    ours = pretrained.load_hf_model(hf)
    tok = HFTokenizer.from_str(tiny_hf.char_tokenizer_json(tiny_hf.VOCAB))
    p = parity.compare(hf, ours, tok, "hello")
    assert p.ok is True


def test_skipped_cases_say_why_and_never_raise(tiny, tmp_path):
    _, folder, model, tok = tiny
    assert parity.compare(None, model, tok, TEXT).skipped == "not_hf"
    assert parity.compare(folder, model, tok, "").skipped == "no_text"
    unknown = tmp_path / "unknown"
    shutil.copytree(folder, unknown)
    doc = json.loads((unknown / "config.json").read_text())
    doc["model_type"] = "glassbox-nope"
    (unknown / "config.json").write_text(json.dumps(doc))
    p = parity.compare(unknown, model, tok, TEXT)
    assert p.ok is None and p.skipped == "unknown_arch" and p.reason
    assert p.sentence().startswith("parity not checked: ")
    gone = parity.compare(tmp_path / "missing", model, tok, TEXT)
    assert gone.ok is None and gone.skipped in ("error", "unknown_arch")


def test_the_reference_class_follows_our_config_not_the_family_name(tiny):
    family, _, model, _ = tiny
    want = {"bert": "AutoModel", "gpt2": "AutoModelForCausalLM", "llama": "AutoModelForCausalLM"}[family]
    assert parity.reference_class(model) == want


def test_cli_tiny_model_writes_a_folder_the_loader_reads(tmp_path, capsys):
    from cli.__main__ import main

    assert main(["tiny-model", "llama", str(tmp_path / "t")]) == 0
    model, tok = pretrained.load_folder(tmp_path / "t")
    assert model.cfg.arch == "decoder" and tok is not None
    assert main(["tiny-model", "llama", str(tmp_path / "t")]) == 2      # never writes over a folder
    assert "not an empty folder" in capsys.readouterr().err


def test_our_models_initialise_while_transformers_loads():
    """transformers' from_pretrained replaces torch.nn.init's functions with no-ops while it
    loads (process-wide); a model another thread builds meanwhile must still get real weights."""
    import torch
    from transformers.initialization import no_init_weights

    from models.config import TransformerConfig
    from models.training.trainer import build_model
    from models.transformer import Transformer

    cfg = TransformerConfig(arch="decoder", vocab_size=50, d_model=32, n_layers=1, n_heads=2, d_ff=64, max_len=16,
                            positional="learned", tie_embeddings=False)
    torch.manual_seed(0)
    ref = Transformer(cfg, device="cpu")
    with no_init_weights():
        torch.manual_seed(0)
        inside = Transformer(cfg, device="cpu")
        trained = build_model(cfg, seed=0)
    for model in (inside, trained):
        for name, p in model.named_parameters():
            assert torch.isfinite(p).all() and p.detach().abs().max().item() < 10, name
    assert 0.01 < inside.embed.weight.std().item() < 0.03                 # N(0, 0.02), not leftover memory
    assert inside.blocks[0].attn.W_Q.bias.abs().max().item() == 0.0
    assert ref.embed.weight.shape == inside.embed.weight.shape   # (the values differ: nn.Linear's own reset draws
    #                                                              from the seed too, and is a no-op in there)


def test_two_references_built_at_once_leave_torch_init_alone(tmp_path):
    """Two badges computed in two threads: torch.nn.init is itself again afterwards, and both
    references match (a load racing another one used to keep transformers' no-op init)."""
    import threading

    import torch

    from models.weights import parity, pretrained, tiny_hf

    original = torch.nn.init.normal_
    folders = [tiny_hf.save(f, tmp_path / f) for f in ("qwen2", "llama")]
    results = {}

    def badge(folder):
        ours, tok = pretrained.load_folder(folder)
        results[folder.name] = parity.compare(folder, ours, tok, "Hello, world! A poem, a line.")

    threads = [threading.Thread(target=badge, args=(f,)) for f in folders * 2]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert torch.nn.init.normal_ is original
    assert all(r.ok for r in results.values()), {k: r.sentence() for k, r in results.items()}
