"""lab/patches.py and the model's input-vectors entry: patches in reading order (against a
by-hand numpy loop), the patch projection equal to a stride-P convolution, the shuffle test,
`inputs_embeds` equal to the token path, bad pictures refused with a reason, the shipped
ViTs' held-out accuracy as their cards say."""
from __future__ import annotations

import io

import numpy as np
import pytest
import torch

from lab import attention, patches
from models import Transformer, TransformerConfig


def by_hand(image: np.ndarray, p: int) -> np.ndarray:
    """[C, H, W] -> [n, C·p·p]: patch rows top to bottom, left to right, each flattened c, y, x."""
    c, h, w = image.shape
    out = []
    for r in range(h // p):
        for col in range(w // p):
            out.append([image[ch, r * p + y, col * p + x] for ch in range(c) for y in range(p) for x in range(p)])
    return np.array(out)


@pytest.mark.parametrize("p, c, h, w", [(2, 1, 8, 8), (4, 3, 8, 12), (1, 1, 3, 5), (3, 2, 6, 9)])
def test_patches_are_read_in_reading_order(p, c, h, w):
    img = np.random.default_rng(0).random((c, h, w)).astype(np.float32)
    got = patches.patchify(img[None], p)[0].numpy()
    np.testing.assert_array_equal(got, by_hand(img, p))


@pytest.mark.parametrize("p, c", [(2, 1), (4, 3), (8, 1)])
def test_patch_projection_is_a_stride_p_convolution(p, c):
    torch.manual_seed(1)
    front = patches.PatchEmbed(p, 16, channels=c)
    torch.nn.init.normal_(front.proj.bias)
    img = torch.rand(3, c, 16, 24)
    assert patches.conv_difference(front, img) < 1e-5
    by_matrix = front.proj(patches.patchify(img, p))                  # [b, n, d]
    assert by_matrix.shape == (3, (16 // p) * (24 // p), 16)
    vectors = front(img)                                               # [CLS] + patches
    assert torch.equal(vectors[:, 0], front.cls.expand(3, -1)) and torch.allclose(vectors[:, 1:], by_matrix)


def test_crop_and_gaps():
    img = np.arange(35, dtype=float).reshape(5, 7)
    assert patches.crop(img, 2).shape == (4, 6)
    g = patches.with_gaps(patches.crop(img, 2), 2)
    assert g.shape == (5, 8) and np.isnan(g[2]).all() and np.isnan(g[:, 2]).all() and np.isnan(g[:, 5]).all()
    assert np.nansum(g) == patches.crop(img, 2).sum()
    with pytest.raises(ValueError):
        patches.crop(img, 6)


@pytest.mark.parametrize("positional", ["none", "learned", "sinusoidal", "rope", "alibi"])
@pytest.mark.parametrize("arch", ["encoder", "decoder"])
def test_input_vectors_equal_the_token_path(arch, positional):
    cfg = TransformerConfig(arch=arch, vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=16,
                            positional=positional)
    torch.manual_seed(0)
    model = Transformer(cfg, device="cpu").eval()
    ids = torch.randint(0, 50, (2, 9))
    out, trace = model.run_with_cache(ids)
    with torch.no_grad():
        vectors = model.embed(ids)
    out2, trace2 = model.run_with_cache(inputs_embeds=vectors)
    assert torch.equal(out, out2)
    assert trace.names() == trace2.names()
    for name in trace.names():
        assert torch.equal(trace[name], trace2[name]), name
    mask = torch.tensor([[1] * 9, [1] * 6 + [0] * 3])
    assert torch.equal(model(ids, attention_mask=mask), model(inputs_embeds=vectors, attention_mask=mask))


def test_input_vectors_refused_with_a_sentence():
    model = Transformer(TransformerConfig(arch="encoder", vocab_size=10, d_model=16, n_layers=1, n_heads=2,
                                          max_len=4, positional="learned"), device="cpu")
    for bad in (torch.zeros(1, 3, 8), torch.zeros(3, 16), torch.zeros(1, 5, 16), torch.zeros(1, 0, 16)):
        with pytest.raises(ValueError, match="Input vectors"):
            model(inputs_embeds=bad)
    with pytest.raises(ValueError, match="Input vectors"):
        model([1, 2], inputs_embeds=torch.zeros(1, 2, 16))


@pytest.mark.parametrize("seed", [0, 3])
def test_shuffle_test(seed):
    image = patches.digits()[0][5]
    without = patches.shuffle_test(patches.build_vit("none", seed=1), image, seed)
    with_pos = patches.shuffle_test(patches.build_vit("learned", seed=1), image, seed)
    assert sorted(without["perm"]) == list(range(16)) and list(without["perm"]) != list(range(16))
    assert without["max_diff"] < 1e-5
    assert with_pos["max_diff"] > 1e-4
    # the shuffled picture read back holds the same patches, moved
    back = patches.unshuffle_image(image, without["perm"], 2)
    seq, moved = patches.patchify(image, 2)[0].numpy(), patches.patchify(back, 2)[0].numpy()
    np.testing.assert_array_equal(moved, seq[without["perm"]])


def test_rollout_rows_are_distributions_and_match_by_hand():
    """The ViT's rollout is lab.attention.rollout's last layer (mean of heads + identity, rows
    renormalised, multiplied through the layers)."""
    rng = np.random.default_rng(0)
    pat = rng.random((2, 3, 5, 5))
    pat /= pat.sum(-1, keepdims=True)
    got = attention.rollout(pat)[-1]
    a0 = pat[0].mean(0) + np.eye(5)
    a1 = pat[1].mean(0) + np.eye(5)
    want = (a1 / a1.sum(-1, keepdims=True)) @ (a0 / a0.sum(-1, keepdims=True))
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(got.sum(-1), 1.0)


def huge_png(w: int, h: int) -> bytes:
    """A PNG whose header claims w × h pixels (the data is a few bytes): a decompression bomb's shape."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def png(w: int, h: int, mode: str = "RGB") -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new(mode, (w, h), 128 if mode == "L" else (128, 128, 128)).save(buf, format="PNG")
    return buf.getvalue()


@pytest.mark.parametrize("data, reason", [(b"not a picture at all", "not_image"), (b"", "not_image"),
                                          (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "not_image"),
                                          (png(1, 1), "too_small"), (png(5000, 3, "L"), "too_big"),
                                          (huge_png(100_000, 100_000), "huge")])
def test_bad_pictures_are_refused_with_a_reason(data, reason):
    with pytest.raises(patches.BadImage) as e:
        patches.read_image(data)
    assert e.value.reason == reason


def test_a_large_picture_is_shrunk():
    image, size = patches.read_image(png(1000, 500))
    assert size == (1000, 500) and image.shape == (128, 256)
    assert np.allclose(image, 128 / 255)


def test_shipped_vits_score_as_their_cards_say():
    images, labels = patches.held_out()
    accs = {}
    for pos, stem in patches.STEMS.items():
        model, meta = patches.load_vit(stem)
        acc = patches.accuracy(model, images, labels)
        assert acc == pytest.approx(meta["held_out_accuracy"], abs=1e-3)
        accs[pos] = acc
        assert model.positional == pos
    base = patches.baselines()
    _, tr_labels = patches.digits()
    tr, te = patches.split(tr_labels)
    majority = np.bincount(tr_labels[tr]).argmax()
    assert base["majority"] == pytest.approx(float(np.mean(tr_labels[te] == majority)))
    assert accs["learned"] > 0.9 > base["majority"] + 0.5 and accs["sincos2d"] > 0.9


def test_cls_attention_shapes_and_sums():
    model, _ = patches.load_vit(patches.STEMS["learned"])
    image = patches.held_out()[0][0]
    att = patches.cls_attention(model, image)
    assert att["heads"].shape == (2, 4, 4, 4) and att["rollout"].shape == (4, 4)
    np.testing.assert_allclose(att["heads"].sum((-1, -2)) + att["cls"], 1.0, atol=1e-5)
    assert att["probs"].sum() == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("head", [True, False])
def test_hf_vit_parity(head):
    """A tiny random transformers ViT (3 channels, 16×16 pixels, 4×4 patches): our ViT with its
    weights gives the same [CLS] output and the same attention in every layer and head."""
    from transformers import ViTConfig, ViTForImageClassification, ViTModel

    cfg = ViTConfig(image_size=16, patch_size=4, num_channels=3, hidden_size=32, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=37, num_labels=5, attn_implementation="eager")
    torch.manual_seed(0)
    hf = (ViTForImageClassification(cfg) if head else ViTModel(cfg, add_pooling_layer=False)).eval()
    ours = patches.from_hf_vit(hf)
    pixels = torch.randn(2, 3, 16, 16)
    with torch.no_grad():
        ref = hf(pixel_values=pixels, output_attentions=True)
        out, trace = ours.run_with_cache(pixels)
    want = ref.logits if head else ref.last_hidden_state[:, 0]
    assert (out - want).abs().max() < 1e-5
    for layer, att in enumerate(ref.attentions):
        for b in range(2):
            assert (trace.pattern(layer, batch=b) - att[b]).abs().max() < 1e-6


def test_hf_vit_refused_where_it_differs():
    from transformers import ViTConfig, ViTModel

    cfg = ViTConfig(image_size=16, patch_size=4, hidden_size=32, num_hidden_layers=1, num_attention_heads=4,
                    intermediate_size=37, hidden_act="relu")
    with pytest.raises(ValueError, match="exact GELU"):
        patches.from_hf_vit(ViTModel(cfg, add_pooling_layer=False))


def test_hf_vit_legacy_key_names():
    """transformers 4.x named a layer's modules encoder.layer.{i}.attention.attention.query, ...:
    the same weights under those names give the same model."""
    from types import SimpleNamespace

    from transformers import ViTConfig, ViTModel

    cfg = ViTConfig(image_size=8, patch_size=4, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=20)
    torch.manual_seed(0)
    hf = ViTModel(cfg, add_pooling_layer=False).eval()
    new, old = patches.HF_LAYER["layers"], patches.HF_LAYER["encoder.layer"]
    rename = {n: o for (n, ours), (o, ours2) in zip(new.items(), old.items()) if ours == ours2}
    assert len(rename) == len(new)
    legacy = {}
    for k, v in hf.state_dict().items():
        if k.startswith("layers."):
            _, i, rest = k.split(".", 2)
            module, w = rest.rsplit(".", 1)
            k = f"encoder.layer.{i}.{rename[module]}.{w}"
        legacy[k] = v
    a = patches.from_hf_vit(hf)
    b = patches.from_hf_vit(SimpleNamespace(config=cfg, state_dict=lambda: legacy))
    pixels = torch.randn(1, 3, 8, 8)
    with torch.no_grad():
        assert torch.equal(a(pixels), b(pixels))


def test_training_is_seeded():
    """The recipe's claim: the same seed gives the same weights (a short run, twice)."""
    a = patches.train_vit("learned", seed=0, steps=15, batch=16)
    b = patches.train_vit("learned", seed=0, steps=15, batch=16)
    assert a.losses == b.losses
    for (k, x), (_, y) in zip(a.model.state_dict().items(), b.model.state_dict().items()):
        assert torch.equal(x, y), k
