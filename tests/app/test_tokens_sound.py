"""The tokens page's Sound section (ui/views/tokens_sound.py) in English and Chinese: speech
synthesized from a word, its samples -> frames -> tokens counted from the audio, the waveform,
the log-mel spectrogram and the model's attention on one time axis, the notes' "30 ms" corrected,
the frames' overlapping windows; an uploaded WAV read with its notices; each bad upload a
sentence; no espeak-ng on the server a sentence."""
from __future__ import annotations

import io

import numpy as np
import pytest
from scipy.io import wavfile

from lab import sound
from tests.app.helpers import assert_ok, chart_ids, decode, open_app, spec

PAGE = "app_pages/tokens.py"


def markdown(at) -> str:
    return "\n".join(m.value for m in at.main.markdown)


def wav(samples: np.ndarray, rate: int = 16_000) -> bytes:
    buf = io.BytesIO()
    wavfile.write(buf, rate, samples)
    return buf.getvalue()


def chirp(seconds: float, rate: int) -> np.ndarray:
    t = np.arange(round(seconds * rate)) / rate
    return (0.4 * np.sin(2 * np.pi * (200 + 800 * t) * t)).astype(np.float32)


def heatmaps(at, key: str) -> list[dict]:
    return [tr for tr in spec(at, key)["data"] if tr["type"] == "heatmap"]


@pytest.mark.parametrize("lang, word", [("English", "seven"), ("中文", "七")])
def test_speech_counts_spectrogram_and_attention(lang, word):
    at = open_app({"lang": lang, "tk_view": "sound"}, PAGE)
    assert_ok(at)
    assert chart_ids(at) == ["tsd_spectrogram", "tsd_frames"]
    assert at.main.get("audio")                                          # the player
    wave = sound.synthesize(word, "zh" if lang == "中文" else "en")
    frames = len(wave) // sound.HOP
    md = markdown(at)
    assert f"{len(wave):,}" in md and f"{frames:,}" in md                 # counted from this audio
    assert f"{(frames + 1) // 2:,}" in md and "1,500" in md and "3,000" in md      # ⌈frames ÷ 2⌉
    heat = heatmaps(at, "tsd_spectrogram")
    assert len(heat) >= 1                                                # the spectrogram (and the attention)
    boxes = [m for m in at.main.markdown if "30" in m.value and "20" in m.value and "10" in m.value]
    assert boxes, "the note on the notes' 30 ms is missing"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_uploads_good_and_bad(lang):
    at = open_app({"lang": lang, "tk_view": "sound", "tsd_src": "upload"}, PAGE)
    assert at.info and not chart_ids(at)                                  # nothing chosen yet: one sentence
    stereo = np.stack([chirp(0.6, 44_100), chirp(0.6, 44_100)], 1)
    at.file_uploader(key="tsd_upload").set_value(("two.wav", wav(stereo, 44_100), "audio/wav")).run()
    assert_ok(at)
    assert chart_ids(at)[:2] == ["tsd_spectrogram", "tsd_frames"]
    said = " ".join(i.value for i in at.info)
    assert "44,100" in said and "2" in said                               # resampled and averaged, said so
    assert "9,600" in markdown(at)                                        # 0.6 s at 16 kHz
    for name, data, words in (
            ("x.wav", b"GIF89a not a sound", ("not a WAV", "不是能读取的 WAV")),
            ("one.wav", wav(np.zeros(1, dtype=np.int16)), ("1 of the 400 samples", "有 1 个采样点")),
            ("slow.wav", wav(np.zeros(100, dtype=np.int16), 300), ("300", "300"))):
        at.file_uploader(key="tsd_upload").set_value((name, data, "audio/wav")).run()
        assert_ok(at)
        assert at.warning and any(w in at.warning[0].value for w in words), (name, at.warning[0].value)
        assert not chart_ids(at)
    long = np.tile(np.array([120, 136], dtype=np.uint8), 8_000 * 300)    # ten minutes at 8 kHz, 8-bit
    at.file_uploader(key="tsd_upload").set_value(("long.wav", wav(long, 8_000), "audio/wav")).run()
    assert_ok(at)
    assert any("600.0" in i.value for i in at.info) and "480,000 \\(30\\.00" in markdown(at)   # cut to 30 s
    at.file_uploader(key="tsd_upload").set_value(("quiet.wav", wav(np.zeros(8000, dtype=np.int16)), "audio/wav"))
    at.run()
    assert_ok(at)
    assert at.warning and chart_ids(at)[:2] == ["tsd_spectrogram", "tsd_frames"]   # silence: said, still shown


def test_no_espeak_and_empty_text_are_sentences(monkeypatch):
    at = open_app({"lang": "中文", "tk_view": "sound", "tsd_text": " "}, PAGE)
    assert_ok(at)
    assert at.warning and "没有可以朗读的文字" in at.warning[0].value and not chart_ids(at)
    monkeypatch.setattr(sound, "ESPEAK", "no-such-espeak-ng-here")
    at = open_app({"lang": "English", "tk_view": "sound", "tsd_text": "nine hundred"}, PAGE)
    assert_ok(at)
    assert at.warning and "no espeak-ng" in at.warning[0].value and not chart_ids(at)


META = {"held_out_accuracy": 0.875, "held_out_by_language": {"en": 0.9, "cmn": 0.85}, "baseline_majority": 0.1,
        "baseline_logreg": 0.4567, "n_test": 480, "seconds": 61.0, "held_out_voices": ["m7", "Alex"]}


@pytest.fixture
def model(monkeypatch):
    """The shipped model if its files are there, else a seeded untrained one with a made-up
    meta (the section draws either the same way); the cached copies cleared around the test."""
    from ui.serving import sound as serving

    try:
        loaded = sound.load_words_model()
    except (OSError, ValueError):
        loaded = (sound.build_words(0), META)
        monkeypatch.setattr(sound, "load_words_model", lambda *a, **k: loaded)
    serving.words_model.clear()
    serving.run.clear()
    yield loaded
    serving.words_model.clear()
    serving.run.clear()


@pytest.mark.parametrize("lang, word", [("English", "four"), ("中文", "四")])
def test_model_attention_prediction_and_accuracy(model, lang, word):
    at = open_app({"lang": lang, "tk_view": "sound", "tsd_text": word}, PAGE)
    assert_ok(at)
    wave = sound.synthesize(word, "zh" if lang == "中文" else "en")
    result = sound.run(model[0], wave)                                   # the model's reading, computed here
    heat = heatmaps(at, "tsd_spectrogram")
    assert len(heat) == 2                                                # spectrogram + attention, one x axis
    layers, heads = len(result.attentions), result.attentions[0].shape[0]
    assert len(decode(heat[1]["y"])) == layers * heads + 1                       # [CLS] per layer and head + rollout
    md = markdown(at)
    k = int(np.argmax(result.probs))
    assert f"**{k} (" in md or f"**{k}（" in md                          # the prediction shown is the model's
    assert f"{result.probs[k]:.1%}".replace(".", "\\.").replace("%", "") in md
    meta = model[1]
    for key in ("held_out_accuracy", "baseline_majority", "baseline_logreg"):
        assert f"{meta[key]:.1%}".replace(".", "\\.").replace("%", "") in md
    at.selectbox(key=f"tsd_att__{'zh' if lang == '中文' else 'en'}").set_value("1.mean").run()
    assert_ok(at)
    heat = heatmaps(at, "tsd_spectrogram")
    assert len(decode(heat[1]["y"])) == len(result.token_times)                  # the audio tokens' map


def test_presenter_mode():
    at = open_app({"present": "1", "lang": "中文", "tk_view": "sound", "tsd_text": "九"}, PAGE, direct=True)
    assert_ok(at)
    assert chart_ids(at) == ["tsd_spectrogram", "tsd_frames"]
