"""Sound as tokens (Whisper, Radford et al. 2022): a waveform at 16 kHz cut into frames 25 ms
long every 10 ms, each frame an 80-bin log-mel spectrum; a convolution stem (k=3 stride 1,
then k=3 stride 2) halves the frame rate, so one token stands for 20 ms (30 s -> 1,500 tokens).

- `synthesize` makes speech offline with espeak-ng (English or Mandarin, voice variants,
  speed, pitch), resampled to 16 kHz;
- `log_mel` is Whisper's log-mel spectrogram, computed by transformers'
  `WhisperFeatureExtractor` itself (tests/unit/test_sound.py checks the equality);
- `frame_times`, `stem_tokens`, `token_times` are the arithmetic of frames and tokens;
- a small spoken-digit model: our own `models.Transformer` fed with vectors through its
  input-vectors entry (`inputs_embeds`), behind a conv stem like Whisper's (`SoundWords`);
  trained on digits spoken by espeak-ng in English and Mandarin (`words_data`,
  `train_words`), tested on voices it never heard, shipped by recipes/sound_words.py;
  `load_words_model` and `run` are what the page shows.
"""
from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import Transformer, TransformerConfig
from models.errors import Refused
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint, save_checkpoint

from .fit import fit

SAMPLE_RATE = 16_000          # Whisper's sample rate (Hz)
HOP = 160                     # 10 ms between frames
WINDOW = 400                  # 25 ms per frame (Whisper's n_fft)
N_MELS = 80
CHUNK_SECONDS = 30            # Whisper reads 30 s at a time: 3,000 frames, 1,500 tokens
N_SAMPLES = CHUNK_SECONDS * SAMPLE_RATE

ESPEAK = "espeak-ng"          # the executable (a name on PATH or a path); tests change it
MAX_TEXT = 300                # characters synthesize speaks at most (more is refused)
ESPEAK_TIMEOUT = 20           # seconds
LANGS = {"en": "en", "cmn": "cmn", "zh": "cmn"}     # our language code -> espeak-ng voice
SPEED = (80, 450)             # espeak-ng's words per minute, the range synthesize clamps to
PITCH = (0, 99)
NO_ESPEAK = "espeak-ng is not installed on this server, so it cannot make speech."


def _wav_samples(data: bytes) -> tuple[np.ndarray, int]:
    """(int16 samples as float32 in [-1, 1], sample rate) from the WAV espeak-ng writes to
    stdout. Its header's size fields say 0x7fffffff (it streams), so the data chunk is read
    to the end of the bytes rather than to its stated size."""
    if len(data) < 44 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise Refused("sound_espeak_failed", "espeak-ng did not write a WAV file.")
    rate = int.from_bytes(data[24:28], "little")
    at = data.find(b"data", 12)
    if at < 0:
        raise Refused("sound_espeak_failed", "espeak-ng did not write a WAV file.")
    pcm = data[at + 8:]
    pcm = pcm[: len(pcm) // 2 * 2]
    return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0, rate


def synthesize(text: str, lang: str = "en", *, voice: str = "", speed: int = 160, pitch: int = 50) -> np.ndarray:
    """Speech for `text` made offline by espeak-ng: float32 mono at 16 kHz in [-1, 1].

    `lang` "en" (English) or "cmn" / "zh" (Mandarin; Chinese characters are read as
    Mandarin). `voice` is an espeak-ng voice variant ("f3", "m2", "croak", ...; "" the
    language's default), spoken as `-v lang+voice`. `speed` (words per minute) is clamped to
    80..450, `pitch` to 0..99. The text goes to espeak-ng on its standard input (never through
    a shell and never as an argument, so a text that starts with "-" is spoken, not read as an
    option); the process is killed after ESPEAK_TIMEOUT seconds. espeak-ng writes 22,050 Hz;
    scipy's `resample_poly` takes it to 16 kHz (320/441, a polyphase low-pass filter).

    Refused (models.errors.Refused, `reason`): "sound_empty" (no text, or no sound came out),
    "sound_text_too_long" (more than MAX_TEXT characters; value `limit`), "sound_no_espeak"
    (espeak-ng is not installed on this server), "sound_espeak_failed" (it failed or timed out).
    A `lang` or `voice` that espeak-ng would not take is a ValueError (the UI offers a list).
    """
    from math import gcd

    from scipy.signal import resample_poly

    text = (text or "").strip()
    if not text:
        raise Refused("sound_empty", "There is no text to speak.")
    if len(text) > MAX_TEXT:
        raise Refused("sound_text_too_long", f"The text is longer than {MAX_TEXT} characters.", limit=MAX_TEXT)
    if lang not in LANGS:
        raise ValueError(f"Unknown language {lang!r}: one of {sorted(LANGS)}.")
    if voice and not (voice.replace("_", "").isalnum() and voice.isascii() and len(voice) <= 24):
        raise ValueError(f"Not an espeak-ng voice variant: {voice!r}.")
    exe = shutil.which(ESPEAK)
    if exe is None:
        raise Refused("sound_no_espeak", NO_ESPEAK)
    speed = int(np.clip(int(speed), *SPEED))
    pitch = int(np.clip(int(pitch), *PITCH))
    name = LANGS[lang] + (f"+{voice}" if voice else "")
    try:
        done = subprocess.run([exe, "--stdout", "--stdin", "-b", "1", "-v", name, "-s", str(speed), "-p", str(pitch)],
                              input=text.encode("utf-8"), capture_output=True, timeout=ESPEAK_TIMEOUT, check=False)
    except FileNotFoundError:
        raise Refused("sound_no_espeak", NO_ESPEAK) from None
    except subprocess.TimeoutExpired:
        raise Refused("sound_espeak_failed", "espeak-ng took too long.") from None
    if done.returncode != 0:
        raise Refused("sound_espeak_failed", "espeak-ng could not speak this text.")
    wave, rate = _wav_samples(done.stdout)
    if rate != SAMPLE_RATE and len(wave):
        g = gcd(SAMPLE_RATE, rate)
        wave = resample_poly(wave, SAMPLE_RATE // g, rate // g)
    wave = np.clip(np.asarray(wave, dtype=np.float32), -1.0, 1.0)
    if not len(wave) or not np.any(wave):
        raise Refused("sound_empty", "No sound came out for this text.")
    return wave


_EXTRACTOR = None


def extractor():
    """transformers' WhisperFeatureExtractor with Whisper's settings (80 mel bins, 16 kHz,
    hop 160, n_fft 400, 30 s chunks), made once; built from its arguments, nothing downloaded."""
    global _EXTRACTOR
    if _EXTRACTOR is None:
        from transformers import WhisperFeatureExtractor

        _EXTRACTOR = WhisperFeatureExtractor(feature_size=N_MELS, sampling_rate=SAMPLE_RATE, hop_length=HOP,
                                             chunk_length=CHUNK_SECONDS, n_fft=WINDOW)
    return _EXTRACTOR


def log_mel(wave: np.ndarray) -> np.ndarray:
    """Whisper's log-mel spectrogram of a 16 kHz waveform: float32 [80, len(wave) // 160].

    Computed by transformers' `WhisperFeatureExtractor` itself (the field's own code, the same
    numbers Whisper is fed), not re-implemented: a Hann window of 400 samples (25 ms) every
    160 (10 ms), centred on its frame (the STFT pads 200 samples each side), |STFT|², 80
    Slaney mel filters, log10 (floor 1e-10), then Whisper's normalisation: clamp at (max − 8)
    and map x -> (x + 4) / 4.

    Whisper always reads 30 s: the extractor pads the audio with zeros to 30 s (3,000
    frames). We call it the same way (padded to max(30 s, the audio)) and keep the frames
    the audio covers, the first len(wave) // 160. Those frames are exactly the extractor's:
    the last of them see the padding zeros past the audio's end as Whisper does, and the
    padding cannot move the clamp (its frames are silent, log10 = −10, never the maximum,
    unless the audio is all silence, where every frame is the floor either way). Audio longer
    than 30 s is padded to its own length in one piece (Whisper itself would cut it into 30 s
    chunks); callers that show Whisper's view cap it to 30 s first. NaN and ±inf samples
    (a broken float WAV) are read as 0.
    """
    x = np.nan_to_num(np.asarray(wave, dtype=np.float32).reshape(-1), nan=0.0, posinf=0.0, neginf=0.0)
    n = len(x) // HOP
    if n == 0:
        return np.zeros((N_MELS, 0), dtype=np.float32)
    fe = extractor()
    length = max(N_SAMPLES, -(-len(x) // HOP) * HOP)
    feats = fe(x, sampling_rate=SAMPLE_RATE, padding="max_length", max_length=length, truncation=True,
               return_tensors="np")["input_features"][0]
    return np.ascontiguousarray(feats[:, :n], dtype=np.float32)


def frame_times(n_frames: int) -> tuple[np.ndarray, np.ndarray]:
    """(start, end) in seconds of each frame's window: frame i is centred on sample 160·i
    (Whisper's STFT pads 200 samples before the audio), so it spans
    [0.01·i − 0.0125, 0.01·i + 0.0125): 25 ms long, 10 ms apart, frame 0 starting 12.5 ms
    before the audio (in the padding). Not clipped to the audio: callers that draw clip."""
    centre = np.arange(int(n_frames)) * (HOP / SAMPLE_RATE)
    half = WINDOW / 2 / SAMPLE_RATE
    return centre - half, centre + half


def stem_tokens(n_frames: int) -> int:
    """Tokens out of Whisper's convolution stem for n_frames frames: conv k=3 stride 1
    padding 1 keeps the length, conv k=3 stride 2 padding 1 gives floor((n − 1) / 2) + 1 =
    ceil(n / 2): one token per 20 ms; 3,000 frames (30 s) -> 1,500 tokens."""
    n = int(n_frames)
    return 0 if n <= 0 else (n + 2 * 1 - 3) // 2 + 1


def token_times(n_tokens: int) -> np.ndarray:
    """Centre time (s) of each token after the stem: token j is the stride-2 convolution
    centred on frame 2j, i.e. at 0.02·j s (its receptive field: frames 2j−2 .. 2j+2)."""
    return np.arange(int(n_tokens)) * (2 * HOP / SAMPLE_RATE)


# ---- the small spoken-digit model -------------------------------------------------------------------
# Ten classes, the digit's meaning, whichever language says it: "3" is "three" or "三", so
# the model must map two unrelated sounds to one class (20 classes would make it also
# a language detector, which a time-averaged spectrum does nearly as well).
DIGITS_EN = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
DIGITS_ZH = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")
LABELS = tuple(f"{d} · {en} · {zh}" for d, (en, zh) in enumerate(zip(DIGITS_EN, DIGITS_ZH)))
CLIP = 128 * HOP              # the model reads 1.28 s: 128 frames, 64 tokens after the stem
LEAD = 800                    # 50 ms kept before the first loud frame
TRAIN_VOICES = ("m1", "m2", "m3", "m4", "m5", "m6", "f1", "f2", "f3", "f4", "klatt", "klatt2",
                "Andy", "Annie", "david", "linda")
HELD_OUT_VOICES = ("m7", "f5", "klatt3", "Alex")          # never heard in training
SPEEDS = (130, 175, 230)
PITCHES = (35, 65)
FOLDER = CHECKPOINT_DIR / "sound-words"
STEM = "sound-words"


def prepare(wave: np.ndarray) -> tuple[np.ndarray, float]:
    """(the 1.28 s clip the model reads, where it starts in `wave` in seconds). The clip
    starts 50 ms before the first 10 ms frame whose energy is over 1 % of the loudest frame's
    and halfway (in dB) from the background (the quietest 10 % of frames) to the loudest, so
    the word and not a microphone's hiss before it; it is cut or zero-padded to CLIP samples, and scaled
    to a peak of 0.5 (the model does not depend on how loud the recording was). Only the
    first 30 s are searched; NaN and ±inf samples are read as 0."""
    x = np.nan_to_num(np.asarray(wave, dtype=np.float32).reshape(-1)[:N_SAMPLES], nan=0.0, posinf=0.0, neginf=0.0)
    start = 0
    if len(x) >= HOP:
        db = 10 * np.log10((x[: len(x) // HOP * HOP].reshape(-1, HOP) ** 2).mean(1) + 1e-10)
        lo, hi = float(np.percentile(db, 10)), float(db.max())
        if hi > -100:
            start = max(0, int(np.argmax(db > max(hi - 20.0, (lo + hi) / 2))) * HOP - LEAD)
    clip = np.zeros(CLIP, dtype=np.float32)
    seg = x[start:start + CLIP]
    clip[: len(seg)] = seg
    peak = float(np.abs(clip).max())
    return (clip * (0.5 / peak) if peak > 0 else clip), start / SAMPLE_RATE


def clip_mels(clips: np.ndarray) -> np.ndarray:
    """log_mel of many CLIP-long clips at once [n, 80, 128]: one batched extractor call,
    padded with 480 zeros instead of to 30 s. Equal to `log_mel(clip)` of each (tested): the
    kept frames see zeros past the clip either way, and the padding frames beyond are silent."""
    fe = extractor()
    feats = fe(list(np.asarray(clips, dtype=np.float32)), sampling_rate=SAMPLE_RATE, padding="max_length",
               max_length=CLIP + 3 * HOP, truncation=True, return_tensors="np")["input_features"]
    return np.ascontiguousarray(feats[:, :, : CLIP // HOP], dtype=np.float32)


@dataclass
class WordsData:
    mels: np.ndarray             # [n, 80, 128] float32
    labels: np.ndarray           # [n] digit 0..9
    langs: np.ndarray            # [n] "en" / "cmn"
    voices: np.ndarray           # [n] the espeak-ng variant
    held_out: np.ndarray         # [n] bool: a held-out voice
    seconds: float               # synthesis + features, wall clock


def words_data(seed: int = 0, voices: tuple[str, ...] = TRAIN_VOICES + HELD_OUT_VOICES,
               speeds: tuple[int, ...] = SPEEDS, pitches: tuple[int, ...] = PITCHES) -> WordsData:
    """Every digit in both languages by every voice × speed × pitch (espeak-ng), each given
    0..300 ms more silence in front and then white noise 10..40 dB under the speech over the
    whole of it (drawn from `seed`, as a microphone would add), prepared as `run` prepares
    audio, then log-mel."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    clips, labels, langs, names = [], [], [], []
    for voice in voices:
        for speed in speeds:
            for pitch in pitches:
                for lang, words in (("en", DIGITS_EN), ("cmn", DIGITS_ZH)):
                    for digit, word in enumerate(words):
                        w = synthesize(word, lang, voice=voice, speed=speed, pitch=pitch)
                        level = np.sqrt((w ** 2).mean()) * 10 ** (-rng.uniform(10, 40) / 20)
                        w = np.concatenate([np.zeros(int(rng.integers(0, 4800)), np.float32), w])
                        clips.append(prepare(w + level * rng.standard_normal(len(w)).astype(np.float32))[0])
                        labels.append(digit), langs.append(lang), names.append(voice)
    mels = np.concatenate([clip_mels(np.stack(clips[i:i + 256])) for i in range(0, len(clips), 256)])
    names = np.array(names)
    return WordsData(mels, np.array(labels, dtype=np.int64), np.array(langs), names,
                     np.isin(names, HELD_OUT_VOICES), time.perf_counter() - start)


class Stem(nn.Module):
    """Whisper's convolution stem, smaller: Conv1d(80 -> d, k=3, pad 1) + GELU, then
    Conv1d(d -> d, k=3, stride 2, pad 1) + GELU: [B, 80, frames] -> [B, ceil(frames/2), d]."""

    def __init__(self, d_model: int, n_mels: int = N_MELS) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d_model, 3, padding=1)
        self.conv2 = nn.Conv1d(d_model, d_model, 3, stride=2, padding=1)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.conv2(F.gelu(self.conv1(mel)))).transpose(1, 2)


class SoundWords(nn.Module):
    """Stem + a learned [CLS] vector in front + our Transformer (encoder, sinusoidal
    positions as Whisper's encoder; fed through `inputs_embeds`, its token embedding unused);
    the class logits are read at [CLS]."""

    def __init__(self, body: Transformer) -> None:
        super().__init__()
        self.stem = Stem(body.cfg.d_model)
        self.cls = nn.Parameter(torch.zeros(body.cfg.d_model))
        self.body = body

    def vectors(self, mel: torch.Tensor) -> torch.Tensor:
        v = self.stem(mel)
        return torch.cat([self.cls.expand(v.shape[0], 1, -1), v], dim=1)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """[B, 80, frames] -> class logits [B, 10]."""
        return self.body(inputs_embeds=self.vectors(mel), out_positions=[0])[:, 0]


def words_config(d_model: int = 48) -> TransformerConfig:
    return TransformerConfig(arch="encoder", vocab_size=len(LABELS), d_model=d_model, n_layers=2, n_heads=4,
                             d_ff=2 * d_model, max_len=1 + stem_tokens(CLIP // HOP), positional="sinusoidal",
                             norm="layernorm", norm_position="pre", activation="gelu", tie_embeddings=False)


def build_words(seed: int = 0, d_model: int = 48) -> SoundWords:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return SoundWords(Transformer(words_config(d_model), device="cpu"))


@dataclass
class TrainResult:
    model: SoundWords
    seconds: float               # training only, wall clock (the data's time is WordsData.seconds)
    cpu_seconds: float           # training only, this process's CPU time (one thread: the idle-machine time)
    losses: list[float]
    accuracy: float              # on the held-out voices


def accuracy(model: SoundWords, mels: np.ndarray, labels: np.ndarray) -> float:
    model.eval()
    with torch.inference_mode():
        return float((model(torch.as_tensor(mels)).argmax(-1).numpy() == labels).mean())


def train_words(data: WordsData, seed: int = 0, steps: int = 600, batch: int = 64, lr: float = 3e-3,
                d_model: int = 48) -> TrainResult:
    """Train on the training voices only: AdamW, warm-up then cosine decay, batches drawn by
    numpy's generator from `seed`, each mel shifted by 0..4 frames (SpecAugment-style time
    shift) and one band of 0..8 mel bins masked; one CPU thread. Returns the model and its
    accuracy on the held-out voices."""
    tr, te = ~data.held_out, data.held_out
    x, y = torch.as_tensor(data.mels[tr]), torch.as_tensor(data.labels[tr])
    model = build_words(seed, d_model)
    rng = np.random.default_rng(seed)
    floor = float(data.mels.min())

    def loss() -> torch.Tensor:
        i = torch.as_tensor(rng.integers(0, len(x), batch))
        xb = torch.roll(x[i], int(rng.integers(0, 5)), dims=2)
        lo = int(rng.integers(0, N_MELS - 8))
        xb[:, lo:lo + int(rng.integers(0, 9))] = floor
        return F.cross_entropy(model(xb), y[i])

    fitted = fit(model, loss, steps=steps, lr=lr, warmup=50, floor=0.05)
    return TrainResult(model, fitted.seconds, fitted.cpu_seconds, fitted.losses,
                       accuracy(model, data.mels[te], data.labels[te]))


def baselines(data: WordsData) -> dict[str, float]:
    """Held-out accuracy (the same held-out voices, the same log-mel inputs) of the majority
    class of the training labels, and of scikit-learn's LogisticRegression on the log-mel
    pooled over time (each bin's mean and standard deviation: 160 numbers per clip)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    tr, te = ~data.held_out, data.held_out
    pooled = np.concatenate([data.mels.mean(2), data.mels.std(2)], axis=1)
    majority = np.bincount(data.labels[tr]).argmax()
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=3000)).fit(pooled[tr], data.labels[tr])
    return {"majority": float((data.labels[te] == majority).mean()),
            "logreg": float(logreg.score(pooled[te], data.labels[te])),
            "n_train": int(tr.sum()), "n_test": int(te.sum())}


def save_words(model: SoundWords, meta: dict, folder: Path = FOLDER) -> Path:
    """The Transformer as a Glassbox checkpoint (`sound-words.json` + `.safetensors`), the stem
    and [CLS] beside it (`sound-words-front.safetensors`). Returns the JSON path."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    path = save_checkpoint(model.body, None, folder / STEM, {**meta, "labels": list(LABELS), "clip": CLIP})
    front = {k: v for k, v in model.state_dict().items() if not k.startswith("body.")}
    save_file({k: v.detach().contiguous() for k, v in front.items()}, str(folder / f"{STEM}-front.safetensors"))
    return path


def load_words_model(folder: Path = FOLDER) -> tuple[SoundWords, dict]:
    """(model, the checkpoint's meta: held-out accuracy, baselines, recipe ...) of the shipped
    spoken-digit model; every front-end tensor's shape checked."""
    from safetensors.torch import load_file

    body, _, meta = load_checkpoint(folder / f"{STEM}.json")
    model = SoundWords(body)
    state = load_file(str(folder / f"{STEM}-front.safetensors"))
    want = {k: tuple(v.shape) for k, v in model.state_dict().items() if not k.startswith("body.")}
    if {k: tuple(v.shape) for k, v in state.items()} != want:
        raise ValueError(f"{STEM}-front.safetensors does not match {STEM}.json.")
    model.load_state_dict(state, strict=False)
    return model.eval(), meta


@dataclass
class SoundRun:
    mel: np.ndarray              # [80, 128] the log-mel the model read (its clip)
    offset: float                # where that clip starts in the given audio (s)
    token_times: np.ndarray      # [64] centre of each audio token in the given audio (s)
    attentions: list             # per layer [heads, 1 + 64, 1 + 64]; position 0 is [CLS]
    cls_attention: np.ndarray    # [layers, heads, 64] what [CLS] gives each audio token
    rollout: np.ndarray          # [64] attention rollout from [CLS] through every layer
    probs: np.ndarray            # [10]
    labels: list                 # the 10 class names, LABELS
    prediction: str              # the most likely label
    index: int                   # its class


def run(model: SoundWords, wave: np.ndarray) -> SoundRun:
    """The model on a 16 kHz waveform. It reads one 1.28 s clip (what it was trained on):
    `prepare` finds the first loud frame, keeps 50 ms before it, cuts or pads to 1.28 s and
    scales it; anything after is not read (a long recording is capped to its first 30 s
    before the search). The times returned are in the given audio's seconds, so the
    attention lines up with its player."""
    from . import attention

    clip, offset = prepare(wave)
    mel = log_mel(clip)
    with torch.inference_mode():
        vectors = model.vectors(torch.as_tensor(mel)[None])
    out, trace = model.body.run_with_cache(inputs_embeds=vectors)
    pat = trace.patterns().float().cpu().numpy()                   # [layer, head, q, k]
    probs = out[0, 0].softmax(-1).float().cpu().numpy()
    k = int(probs.argmax())
    return SoundRun(mel=mel, offset=offset, token_times=offset + token_times(pat.shape[-1] - 1),
                    attentions=[p for p in pat], cls_attention=pat[:, :, 0, 1:],
                    rollout=attention.rollout(pat)[-1][0, 1:], probs=probs, labels=list(LABELS),
                    prediction=LABELS[k], index=k)
