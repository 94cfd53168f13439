"""Evaluation of the shipped verse models on the held-out text of each part of the corpus
(corpus.PARTS: modern Chinese sections and pages, Chinese poems, English chapters).

Bits per character (bpc) of the character LM against two count baselines fit on the
same training text and the same symbol set (the model's vocabulary; a held-out character
it lacks is its <unk>):
- unigram: add-k smoothing, p(c) = (n(c) + k) / (N + kV);
- bigram: the unigram above as the prior of a Dirichlet-smoothed bigram (MacKay & Peto),
  p(c | a) = (n(a c) + b·p_uni(c)) / (n(a) + b).
k and b are tuned on a grid **on the held-out text itself**, which favours the baselines
(the model gets no such tuning), so the comparison is conservative.

Every model scores the same positions: each part's held-out text from its second
character on, the LM with up to `context` characters before it (windows of `context`,
stride context/2).
For the masked-LM encoder: bits per masked character on held-out windows (15% chosen,
all replaced by <mask>, a fixed seed) against the unigram baseline on the same characters.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import torch

from models.training import corpus
from models.training.tasks import IGNORE
from models.weights.checkpoint import CHECKPOINT_DIR

from . import verse
from .verse_tasks import MaskedCharTask

K_GRID = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
B_GRID = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
LN2 = math.log(2)


def ids_of(tok, text: str) -> np.ndarray:
    return np.asarray(tok.encode(text, add_special_tokens=False).ids, dtype=np.int64)


def unigram_logp(train: np.ndarray, v: int, k: float) -> np.ndarray:
    counts = np.bincount(train, minlength=v).astype(np.float64)
    return np.log((counts + k) / (counts.sum() + k * v))


def unigram_bits(train: np.ndarray, test: np.ndarray, v: int, k: float | None = None) -> tuple[float, float]:
    """(bits per character of test[1:], the k used); k=None tunes it on the grid."""
    if k is None:
        return min((unigram_bits(train, test, v, kk)[0], kk) for kk in K_GRID)
    return float(-unigram_logp(train, v, k)[test[1:]].mean() / LN2), k


def bigram_bits(train: np.ndarray, test: np.ndarray, v: int) -> tuple[float, float, float]:
    """(bits per character of test[1:], k, b) of the interpolated bigram, tuned on the grids."""
    pair = train[:-1] * v + train[1:]
    uniq, counts = np.unique(pair, return_counts=True)
    table = dict(zip(uniq.tolist(), counts.tolist()))
    prev_counts = np.bincount(train[:-1], minlength=v).astype(np.float64)
    q = test[:-1] * v + test[1:]
    n_ab = np.asarray([table.get(x, 0) for x in q.tolist()], dtype=np.float64)
    n_a = prev_counts[test[:-1]]
    best = None
    for k in K_GRID:
        p_uni = np.exp(unigram_logp(train, v, k))[test[1:]]
        for b in B_GRID:
            bits = float(-np.log((n_ab + b * p_uni) / (n_a + b)).mean() / LN2)
            if best is None or bits < best[0]:
                best = (bits, k, b)
    return best


@torch.no_grad()
def lm_bits(model, test: np.ndarray, context: int = 128) -> float:
    """Bits per character of test[1:] under the decoder, `context` characters of history at most."""
    ids = torch.as_tensor(test)
    n = len(ids)
    half = max(1, context // 2)
    total, done = 0.0, 1                 # done: the next target position to score
    for s in range(0, max(1, n - 1), half):
        e = min(s + context, n)
        first = max(done, s + 1)
        if first < e:
            logp = model(ids[s:e].unsqueeze(0))[0].float().log_softmax(-1)   # position j predicts j + 1
            total += float(-logp[first - 1 - s:e - 1 - s].gather(1, ids[first:e].unsqueeze(1)).sum())
            done = e
        if e == n:
            break
    scored = done - 1
    assert scored == n - 1
    return total / scored / LN2


@torch.no_grad()
def mlm_bits(model, task: MaskedCharTask, test: np.ndarray, seed: int = 0,
             context: int = 128) -> tuple[float, float, int]:
    """(bits per masked character, accuracy, masked count): all chosen characters -> <mask>."""
    rng = np.random.default_rng(seed)
    L = context - 1
    rows = [test[s:s + L] for s in range(0, len(test) - L + 1, L)]
    total, right, count = 0.0, 0, 0
    for i in range(0, len(rows), 32):
        ids = torch.as_tensor(np.stack(rows[i:i + 32]))
        chosen = torch.from_numpy(rng.random(ids.shape) < task.mask_rate)
        inp = ids.clone()
        inp[chosen] = task.mask_id
        cls = torch.full((ids.shape[0], 1), task.cls_id)
        logp = model(torch.cat([cls, inp], 1))[:, 1:].float().log_softmax(-1)
        tgt = torch.where(chosen, ids, torch.full_like(ids, IGNORE))
        sel = tgt != IGNORE
        lp = logp[sel].gather(1, tgt[sel].unsqueeze(1)).squeeze(1)
        total += float(-lp.sum())
        right += int((logp[sel].argmax(-1) == tgt[sel]).sum())
        count += int(sel.sum())
    return total / count / LN2, right / count, count


def masked_positions_unigram(train: np.ndarray, test: np.ndarray, v: int, seed: int = 0, context: int = 128) -> float:
    """The unigram's bits on exactly the characters mlm_bits masks (same seed, same rows)."""
    rng = np.random.default_rng(seed)
    L = context - 1
    rows = [test[s:s + L] for s in range(0, len(test) - L + 1, L)]
    k = unigram_bits(train, test, v)[1]
    logp = unigram_logp(train, v, k)
    chosen_ids = []
    for i in range(0, len(rows), 32):
        block = np.stack(rows[i:i + 32])
        chosen_ids.append(block[rng.random(block.shape) < MaskedCharTask.mask_rate])
    return float(-logp[np.concatenate(chosen_ids)].mean() / LN2)


def evaluate_lm(model, tok, docs=None, context: int = 128) -> dict:
    """{part | "all": {"chars", "model", "unigram", "bigram", "k", "b"}} in bits per character;
    each part's baselines are fit on that part's training text."""
    docs = docs if docs is not None else corpus.load_corpus()
    v = tok.vocab_size
    out = {}
    sums = {"model": 0.0, "unigram": 0.0, "bigram": 0.0, "chars": 0}
    for lang in corpus.PARTS:
        train = ids_of(tok, corpus.split_text(docs, False, lang))
        test = ids_of(tok, corpus.split_text(docs, True, lang))
        uni, k = unigram_bits(train, test, v)
        bi, bk, bb = bigram_bits(train, test, v)
        mod = lm_bits(model, test, context)
        n = len(test) - 1
        out[lang] = {"chars": n, "model": round(mod, 3), "unigram": round(uni, 3), "bigram": round(bi, 3),
                     "unigram_k": k, "bigram_k": bk, "bigram_b": bb,
                     "unknown": int((test == tok.unk_id).sum())}
        for key, val in (("model", mod), ("unigram", uni), ("bigram", bi)):
            sums[key] += val * n
        sums["chars"] += n
    out["all"] = {key: round(sums[key] / sums["chars"], 3) for key in ("model", "unigram", "bigram")}
    out["all"]["chars"] = sums["chars"]
    return out


def evaluate_mlm(model, task: MaskedCharTask, docs=None) -> dict:
    docs = docs if docs is not None else corpus.load_corpus()
    v = task.tokenizer.vocab_size
    out = {}
    for lang in corpus.PARTS:
        train = ids_of(task.tokenizer, corpus.split_text(docs, False, lang))
        test = ids_of(task.tokenizer, corpus.split_text(docs, True, lang))
        bits, acc, n = mlm_bits(model, task, test)
        out[lang] = {"masked": n, "model": round(bits, 3), "accuracy": round(acc, 3),
                     "unigram": round(masked_positions_unigram(train, test, v), 3)}
    return out


def corpus_stats(docs, tok) -> dict:
    """{part: documents, characters and distinct characters of each split, unknown held-out
    characters} of the corpus the models read, and the vocabulary size."""
    out = {}
    for part in corpus.PARTS:
        train, held = corpus.split_text(docs, False, part), corpus.split_text(docs, True, part)
        sources = sorted({d.source for d in docs if corpus.part_of(d) == part})
        out[part] = {"sources": sources,
                     "docs": sum(1 for d in docs if corpus.part_of(d) == part and not d.heldout),
                     "heldout_docs": sum(1 for d in docs if corpus.part_of(d) == part and d.heldout),
                     "train_chars": len(train), "heldout_chars": len(held), "distinct_train": len(set(train)),
                     "unknown_heldout": sum(1 for c in held if c not in tok.index)}
    out["vocab"] = tok.vocab_size
    return out


def write_report(path: Path) -> dict:
    docs = corpus.load_corpus()
    report = {}
    for stem in ("verse-lm", "verse-mlm"):
        model, tok, meta = verse.load(stem)
        size = (CHECKPOINT_DIR / f"{stem}.safetensors").stat().st_size
        entry = {"bytes": size, "parameters": sum(p.numel() for p in model.parameters()), "steps": meta.get("steps"),
                 "seconds": meta.get("seconds"), "vocab": tok.vocab_size, "loss_curve": meta.get("loss_curve")}
        if stem == "verse-lm":
            entry["bpc"] = evaluate_lm(model, tok, docs)
            entry["samples"] = verse.samples(model, tok)
            entry["samples_more"] = {f"seed {s}": verse.samples(model, tok, seed=s) for s in (1, 2)}
            report["corpus"] = corpus_stats(docs, tok)
        else:
            entry["masked"] = evaluate_mlm(model, verse.mlm_task(docs), docs)
        report[stem] = entry
    report = {k: report[k] for k in ("verse-lm", "verse-mlm", "corpus")}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return report


SECTION = "## Shipped language models"
PART_NAMES = {"zh-modern": "Modern Chinese (held-out sections, answers, manual pages)",
              "zh-verse": "Chinese verse (held-out poems)", "en": "English (held-out chapters)", "all": "overall"}


def markdown_section(report: dict) -> str:
    """The "Shipped language models" section of docs/benchmarks.md from a report."""
    lm, mlm, stats = report["verse-lm"], report["verse-mlm"], report["corpus"]
    bpc = lm["bpc"]
    rows = []
    for key, name in PART_NAMES.items():
        b = bpc[key]
        rows.append(f"| {name} | {b['chars']:,} | **{b['model']:.3f}** | {b['bigram']:.3f} | {b['unigram']:.3f} |")
    modern, poems = bpc["zh-modern"], bpc["zh-verse"]

    def quote(s: str) -> str:
        return s.replace("\n", " ⏎ ").replace("|", "\\|").strip()

    def kb(n: int) -> str:
        return f"{n / 1000:,.0f}K"

    samples = []
    for lang in ("zh", "en"):
        s0 = lm["samples"][lang]
        outs = [("greedy", s0["greedy"]), ("T=0.8, seed 0", s0["sampled"])]
        outs += [(f"T=0.8, {k}", v[lang]["sampled"]) for k, v in lm["samples_more"].items()][:1]
        for how, text in outs:
            samples.append(f"| {lang} | {how} | `{quote(s0['prompt'])}` → {quote(text)} |")
    tuning = "; ".join(f"{part}: k={bpc[part]['unigram_k']}, bigram k={bpc[part]['bigram_k']}, "
                       f"b={bpc[part]['bigram_b']}" for part in corpus.PARTS)
    shares = ", ".join(f"{verse.SHARES[p]:.0%} {p}" for p in corpus.PARTS)
    verdict = []
    for part, b in (("modern Chinese", modern), ("the poems", poems)):
        if b["model"] < b["bigram"]:
            verdict.append(f"On {part} the LM beats the bigram ({b['model']:.2f} vs {b['bigram']:.2f}).")
        else:
            verdict.append(f"On {part} the LM does **not** beat the bigram ({b['model']:.2f} vs {b['bigram']:.2f}; "
                           f"unigram {b['unigram']:.2f}).")
    masked = "; ".join(f"{part} {m['model']:.2f} bits (accuracy {m['accuracy']:.1%}) vs the unigram's "
                       f"{m['unigram']:.2f}" for part, m in mlm["masked"].items())
    return "\n".join([
        SECTION, "",
        "Two small models trained by the project's own trainer (`models/training/trainer.py`) on text shipped with "
        "the repository (`models/training/data/`, sources and licences in `SOURCES.md`): `verse.txt.xz`, "
        "唐诗三百首 and 宋词一百首 from Debian's `fortunes-zh` and the King James Bible's Psalms, Proverbs, "
        "Ecclesiastes and Song of Solomon from `bible-kjv-text` (public domain), and `zh_modern.txt.xz`, modern "
        "Chinese prose from Debian's documentation (`debian-reference-zh-cn`, `debian-faq-zh-cn`, `manpages-zh`; "
        "GPL-2+ / GFDL-1.2+); every 10th poem, chapter, section, answer and manual page held out. Training "
        f"characters: modern Chinese {kb(stats['zh-modern']['train_chars'])}, poems "
        f"{kb(stats['zh-verse']['train_chars'])}, English {kb(stats['en']['train_chars'])}. Reproduce with "
        "`make verse-lm` (`python -m cli.verse all`); figures: `docs/verse_lm.json`.",
        "",
        "| model | architecture | parameters | file (fp16) | vocabulary | steps | training (wall clock) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        f"| `verse-lm` | decoder, 4 layers × 4 heads, d_model 128, RoPE, pre-RMSNorm, SwiGLU, tied embeddings, "
        f"context 128 | {lm['parameters']:,} | {lm['bytes'] / 2**20:.1f} MiB | {lm['vocab']:,} characters | "
        f"{lm['steps']} | {lm['seconds'] / 60:.1f} min |",
        f"| `verse-mlm` | encoder, same size, 15% of characters masked (BERT's 80/10/10) | {mlm['parameters']:,} | "
        f"{mlm['bytes'] / 2**20:.1f} MiB | {mlm['vocab']:,} (+ `<mask>`, `<cls>`) | {mlm['steps']} | "
        f"{mlm['seconds'] / 60:.1f} min |",
        "",
        "Both were trained side by side, one thread each, on a 2-core machine: the budget is wall-clock time "
        "(`TrainSettings.time_budget`; the cosine decay follows the clock), so the number of steps, and the "
        f"weights, depend on the machine's load. Batches of 16 windows draw {shares}.",
        "",
        "Bits per character on the held-out text of each part (lower is better). The baselines are fit on the same "
        "part's training text over the same symbols (the model's vocabulary; a held-out character it lacks counts "
        "as `<unk>`): an add-k unigram and a bigram smoothed towards that unigram (Dirichlet prior b, MacKay & "
        f"Peto). k and b are tuned on the held-out text itself, which favours the baselines ({tuning}). The LM "
        "reads up to 128 characters of history (windows of 128, stride 64). Held-out characters missing from the "
        f"training text: {modern['unknown']} in modern Chinese, {poems['unknown']} in the poems"
        + (" (each costs the LM many bits: it never saw `<unk>` as a target)." if verse.MIN_COUNT == 1 else
           f" (characters seen fewer than {verse.MIN_COUNT} times are `<unk>` in training too)."),
        "",
        "| held-out text | characters | verse-lm | bigram | unigram |",
        "| --- | --- | --- | --- | --- |",
        *rows,
        "",
        " ".join(verdict),
        "",
        f"verse-mlm, masked characters (15% of held-out windows, all replaced by `<mask>`): {masked}. Its "
        "vocabulary has every character of the training text, so a Chinese sentence such as "
        "床前明月光，疑是地上霜。 has no unknown "
        "token (MiniLM's WordPiece reads most Chinese characters as [UNK]).",
        "",
        "Samples (60 new characters; ⏎ is a line break):",
        "",
        "| | decoding | prompt → continuation |",
        "| --- | --- | --- |",
        *samples,
        "",
    ])


def update_benchmarks(report: dict, path: Path) -> None:
    """Replace (or append) the section in docs/benchmarks.md."""
    text = path.read_text(encoding="utf-8")
    section = markdown_section(report)
    if SECTION in text:
        start = text.index(SECTION)
        # up to the next heading or the next benchmark's marker (the section sits among them)
        ends = [i for i in (text.find("\n## ", start + len(SECTION)), text.find("\n<!-- bench:", start)) if i != -1]
        nxt = min(ends) if ends else -1
        text = text[:start] + section + (text[nxt + 1:] if nxt != -1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text, encoding="utf-8")
