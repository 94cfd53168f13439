"""Doors of the tokens page's Sound section (lab/audio_input.py `read_audio`, ui/views/tokens_sound.py):
any bytes as an uploaded WAV or a browser recording — valid WAVs of odd sample rates, channel counts,
sample formats and lengths, the same truncated or with a byte flipped, random bytes — give a mono
float32 wave in [-1, 1] of 25 ms to 30 s at 16 kHz, or a BadAudio with one sentence; in the app, a
sentence or the spectrogram, never a traceback."""
from __future__ import annotations

import io

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.io import wavfile

from lab import audio_input
from tests.app.helpers import open_app
from tests.fuzz.fuzzing import examples
from tests.fuzz.props import damaged, run_door
from tests.fuzz.test_url_params import check_page

PAGE = "app_pages/tokens.py"
DTYPES = {"int16": np.int16, "uint8": np.uint8, "int32": np.int32, "float32": np.float32, "float64": np.float64}


def encoded(n: int, channels: int, rate: int, dtype: str, seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.2, 1.2, size=(n, channels) if channels > 1 else n)
    kind = DTYPES[dtype]
    if dtype == "uint8":
        data = np.clip(x * 127 + 128, 0, 255).astype(kind)
    elif dtype.startswith("int"):
        full = np.iinfo(kind).max
        data = np.clip(x * full, -full, full).astype(kind)
    else:
        data = x.astype(kind)
    buf = io.BytesIO()
    wavfile.write(buf, rate, data)
    return buf.getvalue()


@st.composite
def recordings(draw) -> tuple[str, bytes]:
    rate = draw(st.sampled_from([8_000, 11_025, 16_000, 22_050, 44_100, 48_000, 7_919, 96_000, 500, 250_000]))
    channels = draw(st.sampled_from([1, 1, 2, 3, 6]))
    dtype = draw(st.sampled_from(sorted(DTYPES)))
    n = draw(st.sampled_from([0, 1, 2, 399, 400, 1_000, 5_000]))
    data = encoded(n, channels, rate, dtype, draw(st.integers(0, 9)))
    how, data = damaged(draw, data)
    return f"{how} {dtype} {channels}ch {rate} Hz {n} samples", data


def check_audio(result) -> None:
    if isinstance(result, audio_input.BadAudio):
        assert result.reason in audio_input.BadAudio.SENTENCES
        return
    wave, notices = result
    assert wave.dtype == np.float32 and wave.ndim == 1
    assert audio_input.WINDOW <= len(wave) <= audio_input.MAX_SECONDS * audio_input.SAMPLE_RATE
    assert np.isfinite(wave).all() and np.abs(wave).max() <= 1.0
    assert all(name in ("mono", "resampled", "cut", "clipped", "silent") for name, _ in notices)


def long_recording() -> bytes:
    """Ten minutes at 8 kHz, 8-bit (4.8 MB): cut to 30 s with a notice."""
    buf = io.BytesIO()
    wavfile.write(buf, 8_000, np.full(8_000 * 600, 140, dtype=np.uint8))
    return buf.getvalue()


@examples("audio_bytes")
@example(("empty", b""))
@example(("ten minutes", long_recording()))
@example(("RIFF only", b"RIFF\xff\xff\xff\x7fWAVEfmt "))
@given(recordings())
def test_audio_bytes(case):
    how, data = case
    check_audio(run_door("audio_bytes", lambda: audio_input.read_audio(data), allow=(audio_input.BadAudio,),
                         what=how))


@examples("audio_upload_app")
@example(("one sample", encoded(1, 1, 16_000, "int16", 0)), "../名前\u202e.wav")
@given(recordings(), st.sampled_from(["a.wav", "../名前\u202e.wav", "x.WAV"]))
def test_audio_upload(case, name):
    how, data = case

    def run():
        at = open_app({"tk_view": "sound", "tsd_src": "upload"}, PAGE, direct=True, errors_ok=True)
        at.file_uploader(key="tsd_upload").set_value((name, data, "audio/wav")).run()
        return at

    at = run_door("audio_upload_app", run, what=how)
    check_page(at)
    assert at.warning or any(c.proto.id for c in at.get("plotly_chart")) or at.info
