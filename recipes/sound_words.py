"""The recipe of the small spoken-digit model the "Tokens from anything" page's Sound section
ships (lab/sound.py): the digits 0–9 spoken by espeak-ng in English and Mandarin, 20 voice
variants × 3 speeds × 2 pitches, each clip given a random lead-in and microphone-like noise
10–40 dB under the speech (seed 0). 16 voices train; 4 are held out (m7, f5, klatt3, Alex:
every speed, pitch and both languages of them), so the held-out accuracy is the accuracy on
voices the model never heard. 80-bin Whisper log-mel (transformers' WhisperFeatureExtractor),
a Whisper-like conv stem (stride 2: one token per 20 ms), our own Transformer (encoder,
2 layers × 4 heads, d_model 48, sinusoidal positions) fed with the vectors, read at [CLS];
one CPU thread. Baselines on the same held-out inputs: the majority class, and a logistic
regression on the time-pooled log-mel. Saved to models/weights/checkpoints/sound-words/.
Run: `python -m cli.sound_words`.
"""
from __future__ import annotations

import platform
from pathlib import Path

import lab.sound

SEED = 0
STEPS = 600
BATCH = 64
LR = 3e-3
D_MODEL = 48


def main(out_dir: Path = lab.sound.FOLDER, log=print) -> Path:
    """Make the data, train, measure the baselines, save; returns the JSON path."""
    data = lab.sound.words_data(SEED)
    log(f"data: {len(data.labels)} clips ({int(data.held_out.sum())} held out) in {data.seconds:.0f} s")
    r = lab.sound.train_words(data, seed=SEED, steps=STEPS, batch=BATCH, lr=LR, d_model=D_MODEL)
    base = lab.sound.baselines(data)
    by_lang = {lang: round(lab.sound.accuracy(r.model, data.mels[data.held_out & (data.langs == lang)],
                                              data.labels[data.held_out & (data.langs == lang)]), 4)
               for lang in ("en", "cmn")}
    meta = {"recipe": "recipes/sound_words.py", "seed": SEED, "steps": STEPS, "batch": BATCH, "lr": LR,
            "seconds": round(r.seconds, 1), "cpu_seconds": round(r.cpu_seconds, 1),
            "data_seconds": round(data.seconds, 1),
            "held_out_accuracy": round(r.accuracy, 4), "held_out_by_language": by_lang,
            "baseline_majority": round(base["majority"], 4), "baseline_logreg": round(base["logreg"], 4),
            "n_train": base["n_train"], "n_test": base["n_test"], "final_loss": round(r.losses[-1], 4),
            "train_voices": list(lab.sound.TRAIN_VOICES), "held_out_voices": list(lab.sound.HELD_OUT_VOICES),
            "speeds": list(lab.sound.SPEEDS), "pitches": list(lab.sound.PITCHES),
            "machine": f"{platform.machine()}, 1 thread",
            "data": "digits 0-9 in English and Mandarin spoken by espeak-ng; held out by voice"}
    path = lab.sound.save_words(r.model, meta, out_dir)
    log(f"held-out accuracy {r.accuracy:.3f} (en {by_lang['en']:.3f}, cmn {by_lang['cmn']:.3f}); "
        f"majority {base['majority']:.3f}, logistic regression {base['logreg']:.3f}; "
        f"trained in {r.seconds:.0f} s ({r.cpu_seconds:.0f} s of CPU) -> {path}")
    return path
