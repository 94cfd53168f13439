"""The two shipped language models on the bilingual corpus (models/training/corpus.py: Chinese
verse, modern Chinese from Debian's documentation, the KJV's poetic books):

- verse-lm:  a character-level decoder (RoPE, pre-RMSNorm, SwiGLU, tied embeddings);
- verse-mlm: a character-level masked-LM encoder (BERT's objective, <mask> and <cls>).

Both are trained by the project's trainer (models/training/trainer.py) under a wall-clock
budget and saved as fp16 safetensors in the checkpoint format (models/weights/checkpoint.py),
with the loss curve and samples in the card and in docs/verse_lm.json.

The command is `python -m cli.verse corpus|train|evaluate|all` (cli/verse.py; `make verse-lm`
runs all three); the report writer is recipes/verse_eval.py.
"""
from __future__ import annotations

import copy
from dataclasses import asdict
from pathlib import Path

import torch

from models.training import corpus
from models.training.trainer import TrainSettings, train
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint, save_checkpoint

from .verse_tasks import MaskedCharTask, VerseLMTask

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs" / "verse_lm.json"
# of each batch's windows, per part of the corpus (corpus.PARTS; of the training characters modern
# Chinese is 68%, the poems 3%, English 29%): modern Chinese, where the bigram is hardest to beat, gets
# the most; the poems keep a share of their own; English, far ahead of its bigram before, gets the rest
SHARES = {"zh-modern": 0.55, "zh-verse": 0.1, "en": 0.35}
MIN_COUNT = 1                        # the vocabulary: every character of the training text (no <unk> target)
CONTEXT = 128
# dropout 0.1: without it the 33K characters of poems, revisited ~30 times in the budget, were
# learnt by heart (0.7 bits per character on the training poems, 11.7 on the held-out ones)
MODEL = dict(d_model=128, n_layers=4, n_heads=4, d_ff=344, max_len=512, positional="rope", norm="rmsnorm",
             norm_position="pre", activation="swiglu", bias=False, tie_embeddings=True, dropout=0.1)
PROMPTS = {"zh": "床前明月光，", "en": "The LORD is my shepherd;"}
LABELS = {"verse-lm": ("Verse LM (characters, 中文 + English)",
                       "诗文语言模型（字符级，中文 + 英文）"),
          "verse-mlm": ("Verse MLM encoder (characters, 中文 + English)",
                        "诗文掩码编码器（字符级，中文 + 英文）")}


def train_texts(docs: list[corpus.Doc] | None = None) -> dict[str, str]:
    """{part: its training text} for the parts of SHARES."""
    docs = docs if docs is not None else corpus.load_corpus()
    return {part: corpus.split_text(docs, False, part) for part in SHARES}


def lm_task(docs=None) -> VerseLMTask:
    return VerseLMTask(train_texts(docs), SHARES, CONTEXT, min_count=MIN_COUNT)


def mlm_task(docs=None) -> MaskedCharTask:
    return MaskedCharTask(train_texts(docs), SHARES, CONTEXT, min_count=MIN_COUNT)


def _curve(run, every: int = 10) -> list[list[float]]:
    """[step, mean loss of the last `every` steps] pairs: the loss curve, compact."""
    out = []
    for i in range(every, len(run.loss) + 1, every):
        out.append([run.steps[i - 1], round(sum(run.loss[i - every:i]) / every, 4)])
    return out


def samples(model, tok, n_chars: int = 60, seed: int = 0) -> dict[str, dict[str, str]]:
    """Greedy and sampled (temperature 0.8) continuations of each language's prompt."""
    out = {}
    for lang, prompt in PROMPTS.items():
        ids = tok.encode(prompt).ids
        greedy = model.generate(ids, n_chars, temperature=0.0)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            sampled = model.generate(ids, n_chars, temperature=0.8)
        out[lang] = {"prompt": prompt, "greedy": tok.decode(_ids(greedy)[len(ids):]),
                     "sampled": tok.decode(_ids(sampled)[len(ids):])}
    return out


def _ids(x) -> list[int]:
    if isinstance(x, torch.Tensor):
        return x.reshape(-1).tolist()
    return list(x)


def fit(stem: str, task, settings: TrainSettings, out_dir: Path = CHECKPOINT_DIR, threads: int | None = None,
        log=print) -> Path:
    """Train `task` with the project's trainer and save it as fp16 (returns the JSON path)."""
    if threads:
        torch.set_num_threads(threads)
    cfg = task.default_config(**MODEL)

    def report(run):
        if run.step % 25 == 0 or run.finished:
            loss = run.loss[-1] if run.loss else float("nan")
            log(f"  {stem}: step {run.step} loss {loss:.3f} ({run.seconds:.0f} s)")

    run = train(task, cfg, settings, callback=report)
    if run.state == "failed":
        raise RuntimeError(f"{stem} failed: {run.error}")
    half = copy.deepcopy(run.model).half()
    en, zh = LABELS[stem]
    is_lm = task.arch == "decoder"
    meta = {"task": task.name, "kind": "language-model", "label": en, "label_zh": zh,
            "description": (f"A character-level {'decoder' if is_lm else 'masked-LM encoder'} trained "
                            f"{run.seconds / 60:.0f} min on a CPU on Tang poems, Song ci, modern Chinese from "
                            "Debian's documentation (the Debian Reference, the FAQ, manual pages) and the King James "
                            "Bible's poetic books (models/training/data/SOURCES.md)."),
            "description_zh": (f"字符级{'解码器' if is_lm else '掩码语言模型编码器'}，"
                               f"在 CPU 上训练 {run.seconds / 60:.0f} 分钟，"
                               "语料为唐诗三百首、宋词一百首、Debian 文档中的现代中文"
                               "（Debian 参考手册、常见问题、手册页）"
                               "和英王钦定本圣经的诗歌书卷。"),
            "seed": settings.seed, "steps": run.step, "seconds": round(run.seconds, 1), "context": CONTEXT,
            "settings": asdict(settings), "loss_curve": _curve(run), "dtype": "float16",
            "command": "make verse-lm"}
    if is_lm:
        meta["prompts"] = PROMPTS
        meta["samples"] = samples(run.model.eval(), task.tokenizer)
    path = save_checkpoint(half, task.tokenizer, out_dir / stem, meta)
    log(f"saved {path} ({path.with_suffix('.safetensors').stat().st_size / 1e6:.1f} MB) in {run.seconds:.0f} s")
    return path


def train_lm(minutes: float = 24, threads: int | None = None, out_dir: Path = CHECKPOINT_DIR) -> Path:
    settings = TrainSettings(steps=100_000, lr=3e-3, batch_size=16, warmup=40, eval_every=100, snapshot_every=100_000,
                             eval_size=32, time_budget=minutes * 60)
    return fit("verse-lm", lm_task(), settings, out_dir, threads)


def train_mlm(minutes: float = 8, threads: int | None = None, out_dir: Path = CHECKPOINT_DIR) -> Path:
    settings = TrainSettings(steps=100_000, lr=2e-3, batch_size=16, warmup=40, eval_every=100, snapshot_every=100_000,
                             eval_size=32, time_budget=minutes * 60)
    return fit("verse-mlm", mlm_task(), settings, out_dir, threads)


def load(stem: str = "verse-lm"):
    """(model, tokenizer, meta) of a shipped verse model."""
    return load_checkpoint(CHECKPOINT_DIR / f"{stem}.json")
