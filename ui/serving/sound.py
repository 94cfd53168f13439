"""What the "Tokens from anything" page's Sound section reads (lab/sound.py, lab/audio_input.py,
and its spoken-digit model):

- `speech`: espeak-ng's speech for (text, language, voice), made once per server and kept
  (a Refused — no text, no espeak-ng on this server — is raised again, not cached);
- `audio`: the reader's WAV bytes (an upload or a browser recording) read into a 16 kHz
  wave and its notices, or the BadAudio's reason and values;
- `mel`: Whisper's log-mel spectrogram of a wave;
- `words_model`: the shipped spoken-digit model and its meta, loaded once per process
  (None when its files are missing); `run`: its pass over a wave (prediction, attention).
"""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.audio_input
import lab.sound


@st.cache_data(show_spinner=False, max_entries=32)
def speech(text: str, lang: str, voice: str) -> np.ndarray:
    """The synthesized wave (float32, 16 kHz); raises models.errors.Refused."""
    return lab.sound.synthesize(text, lang, voice=voice)


@st.cache_data(show_spinner=False, max_entries=8)
def audio(data: bytes) -> tuple[np.ndarray | None, list[tuple[str, dict]], str | None, dict]:
    """(wave, notices, None, {}) or (None, [], reason, values) for a file that cannot be used."""
    try:
        wave, notices = lab.audio_input.read_audio(data)
    except lab.audio_input.BadAudio as e:
        return None, [], e.reason, e.values
    return wave, notices, None, {}


@st.cache_data(show_spinner=False, max_entries=16)
def mel(wave: np.ndarray) -> np.ndarray:
    """[80, n_frames] Whisper log-mel of the wave (at most 30 s: the callers' waves are)."""
    return lab.sound.log_mel(wave)


def words_module():
    """lab.sound when it has the spoken-digit model (its loader and `run`), else None."""
    return lab.sound if hasattr(lab.sound, "load_words_model") and hasattr(lab.sound, "run") else None


@st.cache_resource(show_spinner=False)
def words_model():
    """(model, meta) of the shipped spoken-digit model, or None when it cannot be loaded."""
    module = words_module()
    if module is None:
        return None
    try:
        return module.load_words_model()
    except (OSError, ValueError, KeyError):
        return None


@st.cache_data(show_spinner=False, max_entries=16)
def run(wave: np.ndarray):
    """The model's pass over the wave (a SoundRun: mel, token_times, attentions, probs, labels,
    prediction), or None without a model."""
    loaded = words_model()
    if loaded is None:
        return None
    return words_module().run(loaded[0], wave)
