"""lab/sound.py: Whisper's log-mel equal to transformers' WhisperFeatureExtractor, frames and
tokens (10 ms frames 25 ms long, a stride-2 stem: one token per 20 ms) against torch's Conv1d
and the extractor's own STFT, espeak-ng speech in English and Mandarin (and its refusals),
the shipped spoken-digit model: loads, beats its baselines, reads voices it never heard."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
import torch

from lab import sound
from models.errors import Refused

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


@pytest.fixture(scope="module")
def word() -> np.ndarray:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    return sound.synthesize("three")


def whisper_extractor():
    from transformers import WhisperFeatureExtractor

    return WhisperFeatureExtractor(feature_size=80, sampling_rate=16000, hop_length=160, n_fft=400, chunk_length=30)


def test_log_mel_is_whispers(word):
    rng = np.random.default_rng(0)
    fe = whisper_extractor()
    for wave in (word, (0.1 * rng.standard_normal(12_345)).astype(np.float32), np.zeros(1600, np.float32)):
        want = fe(wave, sampling_rate=16000, return_tensors="np")["input_features"][0]      # [80, 3000], padded to 30 s
        got = sound.log_mel(wave)
        assert got.shape == (80, len(wave) // 160) and got.dtype == np.float32
        np.testing.assert_allclose(got, want[:, : len(wave) // 160], atol=1e-6)
    assert sound.log_mel(np.zeros(100, np.float32)).shape == (80, 0)


def test_log_mel_of_more_than_30_s_is_the_extractor_at_that_length():
    wave = (0.1 * np.random.default_rng(1).standard_normal(31 * 16000)).astype(np.float32)
    want = whisper_extractor()(wave, sampling_rate=16000, padding="max_length", max_length=len(wave),
                               return_tensors="np")["input_features"][0]
    np.testing.assert_allclose(sound.log_mel(wave), want, atol=1e-6)


def test_frame_times_arithmetic():
    start, end = sound.frame_times(3000)
    assert start.shape == end.shape == (3000,)
    np.testing.assert_allclose(np.diff(start), 0.010)
    np.testing.assert_allclose(end - start, 0.025)
    assert start[0] == pytest.approx(-0.0125) and end[-1] == pytest.approx(29.99 + 0.0125)


@pytest.mark.parametrize("at", [4000, 4080, 8123])
def test_a_click_is_heard_only_by_the_frames_whose_window_holds_it(at):
    """The extractor's own frames: a click at one sample is above the floor only in frames
    whose 25 ms window (frame_times) contains it, and loudest in the frame centred nearest."""
    wave = np.zeros(16000, np.float32)
    wave[at] = 1.0
    mel = sound.log_mel(wave)
    start, end = sound.frame_times(mel.shape[1])
    t = at / 16000
    heard = mel.max(0) > mel.min() + 1e-6
    assert heard.any() and not heard[(t <= start) | (t >= end)].any()
    assert abs(int(mel.max(0).argmax()) - at / 160) <= 0.5


@pytest.mark.parametrize("n", [1, 2, 3, 7, 100, 128, 1001, 3000])
def test_stem_tokens_is_a_conv1d_stacks_length(n):
    stack = torch.nn.Sequential(torch.nn.Conv1d(80, 4, 3, stride=1, padding=1), torch.nn.GELU(),
                                torch.nn.Conv1d(4, 4, 3, stride=2, padding=1))
    with torch.no_grad():
        assert stack(torch.zeros(1, 80, n)).shape[-1] == sound.stem_tokens(n)
        assert sound.Stem(8)(torch.zeros(1, 80, n)).shape[1] == sound.stem_tokens(n)     # the model's own stem
    assert sound.stem_tokens(3000) == 1500 and sound.stem_tokens(0) == 0
    np.testing.assert_allclose(sound.token_times(3), [0.0, 0.02, 0.04])


@needs_espeak
def test_synthesize_english_and_mandarin(word):
    zh = sound.synthesize("三", "cmn", voice="m2", speed=140, pitch=60)
    for wave in (word, zh):
        assert wave.dtype == np.float32 and wave.ndim == 1
        assert 0.2 < len(wave) / sound.SAMPLE_RATE < 3.0
        assert np.abs(wave).max() <= 1.0 and np.sqrt((wave ** 2).mean()) > 0.01
    assert not np.array_equal(word[:1000], zh[:1000])


@needs_espeak
def test_text_that_looks_like_an_option_is_spoken():
    wave = sound.synthesize("--version")        # read as an option, espeak-ng would print text, not a WAV
    assert len(wave) > 0.3 * sound.SAMPLE_RATE and np.abs(wave).max() > 0.05


def test_refusals(monkeypatch):
    for text in ("", "   "):
        with pytest.raises(Refused) as e:
            sound.synthesize(text)
        assert e.value.reason == "sound_empty"
    with pytest.raises(Refused) as e:
        sound.synthesize("x" * (sound.MAX_TEXT + 1))
    assert e.value.reason == "sound_text_too_long" and e.value.values == {"limit": sound.MAX_TEXT}
    with pytest.raises(ValueError):
        sound.synthesize("one", voice="f3 -w /tmp/x")
    with pytest.raises(ValueError):
        sound.synthesize("one", lang="klingon")
    monkeypatch.setattr(sound, "ESPEAK", "/nonexistent/espeak-ng")
    with pytest.raises(Refused) as e:
        sound.synthesize("one")
    assert e.value.reason == "sound_no_espeak"


@needs_espeak
def test_prepare_finds_the_word_and_batched_mels_equal_log_mel(word):
    wave = np.concatenate([np.zeros(8000, np.float32), 0.2 * word])
    clip, offset = sound.prepare(wave)
    assert clip.shape == (sound.CLIP,) and np.abs(clip).max() == pytest.approx(0.5)
    _, own = sound.prepare(word)                                   # espeak-ng's own lead-in silence
    assert offset == pytest.approx(0.5 + own, abs=0.011) and own > 0
    clips = np.stack([clip, sound.prepare(word)[0]])
    np.testing.assert_allclose(sound.clip_mels(clips), np.stack([sound.log_mel(c) for c in clips]), atol=1e-6)


@pytest.fixture(scope="module")
def shipped():
    return sound.load_words_model()


def test_shipped_checkpoint_beats_its_baselines(shipped):
    model, meta = shipped
    files = list(sound.FOLDER.iterdir())
    assert sum(f.stat().st_size for f in files) < 1_000_000
    card = json.loads((sound.FOLDER / f"{sound.STEM}.json").read_text())["meta"]
    assert card["held_out_accuracy"] == meta["held_out_accuracy"]
    assert meta["held_out_accuracy"] > meta["baseline_logreg"] > meta["baseline_majority"]
    assert meta["baseline_majority"] == pytest.approx(0.1)          # ten classes, balanced
    assert set(meta["held_out_voices"]).isdisjoint(meta["train_voices"])
    assert meta["held_out_voices"] == list(sound.HELD_OUT_VOICES) and meta["labels"] == list(sound.LABELS)


@needs_espeak
def test_shipped_model_reads_a_voice_it_never_heard(shipped):
    """Recomputed here, not read from the card: one held-out voice, both languages."""
    model, _ = shipped
    right = [sound.run(model, sound.synthesize(w, lang, voice="m7", speed=175, pitch=50)).index == d
             for lang, words in (("en", sound.DIGITS_EN), ("cmn", sound.DIGITS_ZH)) for d, w in enumerate(words)]
    assert np.mean(right) >= 0.9


@needs_espeak
def test_run_shapes_and_attention(shipped, word):
    model, _ = shipped
    wave = np.concatenate([np.zeros(4000, np.float32), word])
    r = sound.run(model, wave)
    n_tok = sound.stem_tokens(sound.CLIP // sound.HOP)
    assert r.mel.shape == (80, sound.CLIP // sound.HOP) and r.token_times.shape == (n_tok,)
    np.testing.assert_allclose(np.diff(r.token_times), 0.02, atol=1e-9)
    assert r.token_times[0] == pytest.approx(r.offset)
    assert r.offset == pytest.approx(0.25 + sound.prepare(word)[1], abs=0.011)
    assert len(r.attentions) == model.body.cfg.n_layers
    for a in r.attentions:
        assert a.shape == (model.body.cfg.n_heads, n_tok + 1, n_tok + 1)
        np.testing.assert_allclose(a.sum(-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(r.cls_attention, np.stack(r.attentions)[:, :, 0, 1:])
    assert r.probs.shape == (10,) and r.probs.sum() == pytest.approx(1.0, abs=1e-5)
    assert r.labels == list(sound.LABELS) and r.prediction == r.labels[r.index] == sound.LABELS[3]
    silent = sound.run(model, np.zeros(50, np.float32))                   # shorter than a frame: still an answer
    assert silent.mel.shape == r.mel.shape and np.isfinite(silent.probs).all()
