"""lab/audio_input.py: the reader's WAV bytes read into a 16 kHz mono float wave, each bad
file a BadAudio with a sentence, each change a notice; the numbers checked against numpy
and scipy computed here by hand."""
from __future__ import annotations

import io

import numpy as np
import pytest
from scipy.io import wavfile

from lab import audio_input
from lab.audio_input import SAMPLE_RATE, BadAudio, read_audio


def wav(samples: np.ndarray, rate: int = SAMPLE_RATE) -> bytes:
    buf = io.BytesIO()
    wavfile.write(buf, rate, samples)
    return buf.getvalue()


def tone(seconds: float, rate: int = SAMPLE_RATE, hz: float = 440.0) -> np.ndarray:
    t = np.arange(round(seconds * rate)) / rate
    return 0.5 * np.sin(2 * np.pi * hz * t)


def reasons(notices) -> list[str]:
    return [r for r, _ in notices]


def test_int16_mono_at_16k_is_read_as_is():
    pcm = np.round(tone(0.5) * 32767).astype(np.int16)
    wave, notices = read_audio(wav(pcm))
    assert wave.dtype == np.float32 and wave.shape == (8000,)
    np.testing.assert_allclose(wave, pcm / 32768.0, atol=1e-7)
    assert notices == []


@pytest.mark.parametrize("dtype, scale, offset", [(np.uint8, 128.0, 128.0), (np.int32, 2.0**31, 0.0)])
def test_other_pcm_widths_scaled_by_full_scale(dtype, scale, offset):
    raw = (np.round(tone(0.1) * (scale - 1)) + offset).astype(dtype)
    wave, _ = read_audio(wav(raw))
    np.testing.assert_allclose(wave, (raw.astype(np.float64) - offset) / scale, atol=1e-6)


def test_stereo_averaged_with_a_notice():
    left, right = tone(0.2, hz=300), tone(0.2, hz=500)
    wave, notices = read_audio(wav(np.stack([left, right], 1).astype(np.float32)))
    np.testing.assert_allclose(wave, (left + right) / 2, atol=1e-6)
    assert ("mono", {"channels": 2}) in notices


def test_48k_resampled_to_16k_by_resample_poly():
    from scipy import signal

    x = tone(0.3, 48_000).astype(np.float32)
    wave, notices = read_audio(wav(x, 48_000))
    assert "resampled" in reasons(notices) and len(wave) == 4800
    np.testing.assert_allclose(wave, signal.resample_poly(x.astype(np.float64), 1, 3), atol=1e-6)


def test_prime_rate_resampled_to_the_right_length():
    x = tone(0.5, 7919).astype(np.float32)                             # 3,960 samples
    wave, notices = read_audio(wav(x, 7919))
    assert "resampled" in reasons(notices) and len(wave) == int(np.ceil(len(x) * 16_000 / 7919))


def test_long_recording_cut_to_30_seconds():
    pcm = np.zeros(SAMPLE_RATE * 40, dtype=np.int16)
    pcm[::7] = 1000
    wave, notices = read_audio(wav(pcm))
    assert len(wave) == 30 * SAMPLE_RATE
    assert ("cut", {"seconds": "40.0", "limit": 30}) in notices


def test_silence_said_and_kept():
    wave, notices = read_audio(wav(np.zeros(4000, dtype=np.int16)))
    assert len(wave) == 4000 and reasons(notices) == ["silent"]


def test_float_past_full_scale_clipped():
    x = tone(0.1).astype(np.float32)
    x[5], x[6] = 3.0, np.nan
    wave, notices = read_audio(wav(x))
    assert "clipped" in reasons(notices) and wave[5] == 1.0 and wave[6] == 0.0 and np.isfinite(wave).all()


@pytest.mark.parametrize("data, reason", [
    (b"", "not_audio"), (b"RIFF\x00\x00", "not_audio"), (b"GIF89a not a sound at all", "not_audio"),
    (wav(np.zeros(1, dtype=np.int16)), "too_short"), (wav(np.zeros(0, dtype=np.int16)), "not_audio"),
    (wav(np.zeros(100, dtype=np.int16), 500), "bad_rate"),
])
def test_bad_files_are_sentences(data, reason):
    with pytest.raises(BadAudio) as e:
        read_audio(data)
    assert e.value.reason == reason and str(e.value)


def test_one_sample_file_names_its_length():
    with pytest.raises(BadAudio) as e:
        read_audio(wav(np.zeros(1, dtype=np.int16)))
    assert e.value.values == {"n": 1, "need": 400, "ms": "0.1"}


def test_size_limit_before_parsing(monkeypatch):
    monkeypatch.setattr(audio_input, "MAX_BYTES", 1000)
    with pytest.raises(BadAudio) as e:
        read_audio(b"\x00" * 2000)
    assert e.value.reason == "too_big"


def test_wav_bytes_round_trip():
    x = tone(0.1)
    wave, notices = read_audio(audio_input.wav_bytes(x))
    np.testing.assert_allclose(wave, x, atol=1 / 32767)
    assert notices == []
