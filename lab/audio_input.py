"""The reader's audio: the bytes of an uploaded WAV file or of a browser recording
(`st.audio_input` sends a WAV) read into the waveform the sound section analyses —
mono, float32 in [-1, 1], 16 kHz (lab/sound.py's SAMPLE_RATE, Whisper's rate).

`read_audio(data)` returns (wave, notices); every file it cannot use is a `BadAudio` with
a reason and the values of its sentence (the UI says it in either language):

- `too_big`: more than MAX_BYTES (checked before anything is parsed);
- `not_audio`: not a WAV file scipy can read (random bytes, a truncated or damaged header,
  an unknown sample format), or a file with no sample at all;
- `bad_rate`: a sample rate outside MIN_RATE..MAX_RATE;
- `too_short`: shorter than one analysis window (WINDOW samples at 16 kHz, 25 ms): a
  1-sample file.

What it can use, it uses, and each change is a notice (reason, values): `mono` (channels
averaged), `resampled` (from another rate, by scipy.signal.resample_poly), `cut` (longer
than MAX_SECONDS: the first MAX_SECONDS kept, as Whisper reads 30-second chunks),
`clipped` (float samples past ±1 or not finite), `silent` (every sample zero, or below
SILENT: shown all the same).
"""
from __future__ import annotations

import io
import math
import warnings
from fractions import Fraction

import numpy as np

SAMPLE_RATE = 16_000          # lab/sound.py's rate (Whisper's): everything is read at this rate
WINDOW = 400                  # one 25 ms analysis window at 16 kHz: a shorter file is refused
MAX_SECONDS = 30              # Whisper's chunk: a longer recording is cut to its first 30 s
MAX_BYTES = 64 * 1024 * 1024  # a 10-minute recording at 48 kHz, 16-bit mono is 58 MB
MIN_RATE, MAX_RATE = 1_000, 192_000
SILENT = 1e-4                 # a peak below this (about −80 dB of full scale) is silence
MAX_POLY = 2_000              # resample_poly's up/down at most this, else an FFT resample


class BadAudio(ValueError):
    """An audio file that cannot be used: an English sentence, and `reason` + `values` for
    the UI's sentence in either language."""

    SENTENCES = {"too_big": "This file has {size} MB; the limit is {limit} MB.",
                 "not_audio": "This file is not a WAV recording that can be read.",
                 "bad_rate": "This file says its sample rate is {rate} Hz; rates from {low} to {high} Hz are read.",
                 "too_short": "This recording is {ms} ms long: shorter than one 25 ms window ({n} of the {need} samples it needs)."}

    def __init__(self, reason: str, **values) -> None:
        super().__init__(self.SENTENCES[reason].format(**values))
        self.reason, self.values = reason, values


def read_audio(data: bytes) -> tuple[np.ndarray, list[tuple[str, dict]]]:
    """(wave [n] float32 in [-1, 1] at SAMPLE_RATE, notices [(reason, values)]) from a WAV
    file's bytes; a BadAudio for a file it cannot use (module docstring)."""
    if len(data) > MAX_BYTES:
        raise BadAudio("too_big", size=f"{len(data) / 2**20:.0f}", limit=f"{MAX_BYTES / 2**20:.0f}")
    rate, samples = parse(data)
    notices: list[tuple[str, dict]] = []
    if samples.ndim == 2:
        if samples.shape[1] == 0:
            raise BadAudio("not_audio")
        if samples.shape[1] > 1:
            notices.append(("mono", {"channels": samples.shape[1]}))
        samples = samples.mean(axis=1)
    if samples.size == 0:
        raise BadAudio("not_audio")
    if not MIN_RATE <= rate <= MAX_RATE:
        raise BadAudio("bad_rate", rate=f"{rate:,}", low=f"{MIN_RATE:,}", high=f"{MAX_RATE:,}")
    if len(samples) > MAX_SECONDS * rate:
        notices.append(("cut", {"seconds": f"{len(samples) / rate:.1f}", "limit": MAX_SECONDS}))
        samples = samples[: MAX_SECONDS * rate]
    if rate != SAMPLE_RATE:
        notices.append(("resampled", {"rate": f"{rate:,}", "to": f"{SAMPLE_RATE:,}"}))
        samples = resample(samples, rate)
    wave = samples.astype(np.float32)
    if len(wave) < WINDOW:
        raise BadAudio("too_short", n=len(wave), need=WINDOW, ms=f"{1000 * len(wave) / SAMPLE_RATE:.1f}")
    repaired = np.clip(np.nan_to_num(wave, nan=0.0, posinf=1.0, neginf=-1.0), -1.0, 1.0)
    if not np.array_equal(repaired, wave):
        notices.append(("clipped", {}))
        wave = repaired
    if float(np.abs(wave).max()) < SILENT:
        notices.append(("silent", {}))
    return wave, notices


def parse(data: bytes) -> tuple[int, np.ndarray]:
    """(sample rate, samples [n] or [n, channels] float64 in about [-1, 1]) of a WAV file;
    BadAudio("not_audio") for anything scipy cannot read."""
    from scipy.io import wavfile

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")             # unknown chunks skipped: scipy's WavFileWarning
            rate, raw = wavfile.read(io.BytesIO(data), mmap=False)
        rate, raw = int(rate), np.asarray(raw)
        samples = scaled(raw)
    except BadAudio:
        raise
    except Exception:         # noqa: BLE001 - scipy's reader of a damaged file raises ValueError, EOFError,
        # struct.error, ... and (scipy 1.17, a float file with an empty data chunk) UnboundLocalError
        raise BadAudio("not_audio") from None
    if samples.ndim not in (1, 2):
        raise BadAudio("not_audio")
    return rate, samples


def scaled(raw: np.ndarray) -> np.ndarray:
    """Integer PCM to float64 in [-1, 1) by its full scale (8-bit WAV is unsigned, centred on
    128; scipy puts 24-bit samples in the top bytes of an int32); float samples as they are."""
    if raw.dtype.kind == "f":
        return raw.astype(np.float64)
    if raw.dtype == np.uint8:
        return (raw.astype(np.float64) - 128.0) / 128.0
    if raw.dtype.kind == "i":
        return raw.astype(np.float64) / float(2 ** (8 * raw.dtype.itemsize - 1))
    raise BadAudio("not_audio")


def resample(samples: np.ndarray, rate: int) -> np.ndarray:
    """`samples` at `rate` resampled to SAMPLE_RATE: scipy's polyphase filter when the ratio
    is a small fraction (48 kHz -> 16 kHz is 1/3, 44.1 kHz is 160/441), else its FFT
    resampling to the exact length (a prime rate would need a filter of millions of taps)."""
    from scipy import signal

    ratio = Fraction(SAMPLE_RATE, rate)
    if max(ratio.numerator, ratio.denominator) <= MAX_POLY:
        return signal.resample_poly(samples, ratio.numerator, ratio.denominator)
    return signal.resample(samples, max(1, math.ceil(len(samples) * SAMPLE_RATE / rate)))


def wav_bytes(wave: np.ndarray, rate: int = SAMPLE_RATE) -> bytes:
    """A float wave in [-1, 1] as the bytes of a 16-bit PCM WAV file (for tests and the
    browser's player)."""
    from scipy.io import wavfile

    buf = io.BytesIO()
    pcm = np.round(np.clip(np.asarray(wave, dtype=np.float64), -1.0, 1.0) * 32767).astype(np.int16)
    wavfile.write(buf, rate, pcm)
    return buf.getvalue()
