"""Train short, test long (Press et al. 2022, "Train Short, Test Long", Figure 1) at toy scale.

Six character-level decoders on the corpus of verse-lm (models/training/corpus.py), one per
positional scheme (models.config.POSITIONALS), identical in everything else: the same
seed, the same batches in the same order, the same FIXED number of steps (no time
budget, so the six runs are comparable and reproducible), trained at a context of 64
characters. They ship as `pe64-<scheme>` (fp16 safetensors + card). `evaluate` measures
bits per character on the held-out text at 1x to 8x the training length with Press et
al.'s non-overlapping windows (lab/length_curve.py) and writes docs/pe_lm.json and
docs/pe_lm.md.

The command is `python -m cli.pe_lm train|evaluate|all` (cli/pe_lm.py, `make pe-lm`); the
report writer is recipes/pe_lm_eval.py.

max_len: the learned table has exactly the 64 trained rows (it cannot read further);
the other schemes compute their positions for any length, so their max_len (512 = 8x)
only sizes the sinusoidal table and tells the app how much text it may feed them.
"""
from __future__ import annotations

import copy
from dataclasses import asdict
from pathlib import Path

from models.training import corpus
from models.training.trainer import TrainSettings, train
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint, save_checkpoint

from .verse import MIN_COUNT, SHARES, train_texts
from .verse_tasks import VerseLMTask

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs" / "pe_lm.json"
REPORT_MD = ROOT / "docs" / "pe_lm.md"
TRAIN_LEN = 64
EVAL_MAX = 8 * TRAIN_LEN
PREFIX = "pe64-"
SEED = 0
MODEL = dict(d_model=64, n_layers=2, n_heads=4, d_ff=256, norm="layernorm", norm_position="pre",
             activation="gelu", bias=False, tie_embeddings=True, embed_scale=True)
SETTINGS = TrainSettings(steps=1200, lr=3e-3, batch_size=32, seed=SEED, warmup=40, eval_every=100,
                         snapshot_every=100_000, eval_size=32)
# scheme -> (label en, label zh, description phrase en, description phrase zh)
NAMES = {"none": ("no positions", "无位置编码", "no positional encoding (NoPE: only the causal mask tells order)",
                  "不使用位置编码（只有因果掩码提供顺序）"),
         "sinusoidal": ("sinusoidal", "正弦位置编码", "sinusoidal position vectors (Vaswani et al.)", "使用正弦位置编码"),
         "learned": ("learned table", "可学习位置表", "a learned table of 64 position vectors",
                     "使用 64 个可学习的位置向量"),
         "rope": ("RoPE", "RoPE 旋转位置编码", "rotary position embeddings (RoPE)", "使用 RoPE 旋转位置编码"),
         "alibi": ("ALiBi", "ALiBi 线性偏置", "ALiBi's linear attention biases", "使用 ALiBi 线性注意力偏置"),
         "relative": ("T5 relative buckets", "T5 相对位置桶", "T5's relative position buckets", "使用 T5 相对位置桶")}


def stem(scheme: str) -> str:
    return f"{PREFIX}{scheme}"


def max_len(scheme: str) -> int:
    """The learned table ends at the training length; the others may read 8x."""
    return TRAIN_LEN if scheme == "learned" else EVAL_MAX


def task(docs: list[corpus.Doc] | None = None) -> VerseLMTask:
    """verse-lm's texts, tokenizer construction and shares, at a context of 64."""
    return VerseLMTask(train_texts(docs), SHARES, TRAIN_LEN, min_count=MIN_COUNT)


def config(t: VerseLMTask, scheme: str):
    return t.default_config(**MODEL, positional=scheme, max_len=max_len(scheme))


def loss_curve(losses: list[float], steps: list[int], every: int = 20) -> list[list[float]]:
    """[step, mean loss of the last `every` steps] pairs."""
    return [[steps[i - 1], round(sum(losses[i - every:i]) / every, 4)] for i in range(every, len(losses) + 1, every)]


def texts(scheme: str) -> dict[str, str]:
    """The card's labels and descriptions, English and Chinese."""
    en, zh, what, what_zh = NAMES[scheme]
    return {"label": f"Char LM · {en} (trained at 64)", "label_zh": f"字符级语言模型 · {zh}（训练长度 64）",
            "description": (f"A small character-level decoder with {what}, trained on 64-character windows of "
                            "verse-lm's corpus (modern Chinese from Debian's documentation, Tang poems, Song ci, the "
                            "King James Bible's poetic books); one of six models identical but for the positional "
                            "scheme, to test them on longer texts (Press et al. 2022)."),
            "description_zh": (f"小型字符级解码器，{what_zh}，在诗文语言模型的语料（Debian 文档中的现代中文、"
                               "唐诗、宋词、英王钦定本圣经诗歌书卷）的 64 字符窗口上训练；六个模型只有位置编码不同，"
                               "用来比较它们在更长文本上的表现（Press 等，2022）。")}


def card(scheme: str, run, settings: TrainSettings) -> dict:
    return {"task": run.task.name, "kind": "language-model", "family": "pe-lm", "positional": scheme,
            "context": TRAIN_LEN, "train_len": TRAIN_LEN, **texts(scheme),
            "seed": settings.seed, "steps": run.step, "seconds": round(run.seconds, 1),
            "settings": asdict(settings), "loss_curve": loss_curve(run.loss, run.steps), "dtype": "float16",
            "command": "make pe-lm"}


def train_one(scheme: str, t: VerseLMTask | None = None, settings: TrainSettings = SETTINGS,
              out_dir: Path = CHECKPOINT_DIR, log=print) -> Path:
    """Train the `scheme` model and save it as fp16 (returns the JSON path)."""
    t = t if t is not None else task()
    name = stem(scheme)

    def report(run):
        if run.step % 100 == 0 or run.finished:
            loss = run.loss[-1] if run.loss else float("nan")
            log(f"  {name}: step {run.step} loss {loss:.3f} ({run.seconds:.0f} s)")

    run = train(t, config(t, scheme), settings, callback=report)
    if run.state != "done":
        raise RuntimeError(f"{name} did not finish: {run.error or run.state}")
    path = save_checkpoint(copy.deepcopy(run.model).half(), t.tokenizer, out_dir / name, card(scheme, run, settings))
    log(f"saved {path} ({path.with_suffix('.safetensors').stat().st_size / 1e6:.2f} MB) in {run.seconds:.0f} s")
    return path


def load(scheme: str, folder: Path = CHECKPOINT_DIR):
    """(model in float32, tokenizer, meta) of a shipped pe64 model."""
    model, tok, meta = load_checkpoint(folder / f"{stem(scheme)}.json")
    return model.float().eval(), tok, meta
