"""Step kinds of the lesson "Everything becomes tokens" (lessons/08-tokens.toml): the reader's
text cut four ways (characters, UTF-8 bytes, MiniLM's WordPiece, byte-level BPE learned on the
verse corpus), and a handwritten digit cut into patches and read by the shipped small ViTs.

These kinds read the sidebar's text but not its model: the cuts and the ViTs are those of the
"Tokens from anything" page (ui/serving/tokens.py, ui/serving/patches.py, cached once per
server). The lesson's own numbers and its questions' answers: lab/lesson_tokens.py.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import torch

import lab.patches
import lab.sound
import viz_core.positional
from lab import lesson_tokens, text, tokens
from lab.lesson_tokens import LENGTHS, QUADRANTS, SCHEMES
from lab.lessons import Param
from models.errors import Refused
from viz_core import lesson_tokens as figures

from ..i18n import t
from ..markup import md_code
from ..serving import patches as vit_serving
from ..serving.tokens import MAX_MERGES, bpe_at, cut_four_ways, verse_bpe, wordpiece_tokenizer
from . import Shown, StepContext, kind

MERGES = Param("merges", "int", default=500, lo=0, hi=MAX_MERGES)
DIGIT = Param("digit", "int", default=0, lo=0, hi=10_000)       # a held-out digit (wrapped to how many there are)
EXAMPLE_HAN = "词"                                                 # spelled out when the text has no Chinese


def source(ctx: StepContext) -> str:
    s = ctx.sel.text
    if not s.strip():
        raise ValueError(t("lk_tok_empty"))
    return s


def scheme_name(scheme: str, merges: int) -> str:
    return t(f"lk_tok_scheme_{scheme}", n=merges)


def rows(cs: dict[str, tokens.Cut], merges: int, marked: str | None = None) -> list:
    """Rows for the cut figure; `marked`: "unk" marks unknown pieces, a scheme name marks that row."""
    out = []
    for scheme, cut in cs.items():
        unk = {"[UNK]"} if scheme == "wordpiece" else set()
        marks = [(marked == "unk" and p in unk) or marked == scheme for p in cut.pieces]
        out.append((scheme_name(scheme, merges), cut.pieces, marks))
    return out


@kind("text_cuts", params=(MERGES,),
      facts={"n_chars": "int", "n_bytes": "int", "n_wordpiece": "int", "n_bpe": "int", "longest": "text",
             "merges": "int", "times": "num"},
      question="choice", options=tuple(f"cut_{s}" for s in SCHEMES))
def text_cuts(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    s = source(ctx)
    cs = cut_four_ways(s, p["merges"])
    lengths = {k: len(c) for k, c in cs.items()}
    top = lesson_tokens.longest(lengths)
    fig = figures.cut_rows(rows(cs, p["merges"], marked=top), title=t("lk_tok_cuts_title"), more=t("lk_tok_more"))
    facts = {"n_chars": lengths["chars"], "n_bytes": lengths["bytes"], "n_wordpiece": lengths.get("wordpiece", 0),
             "n_bpe": lengths["bpe"], "longest": scheme_name(top, p["merges"]), "merges": p["merges"],
             "times": lengths[top] / max(1, lengths["chars"])}
    return Shown(fig, facts, answer=f"cut_{top}", page="tokens", params={"tk_view": "text", "tk_merges": str(p["merges"])})


def utf8_line(s: str) -> str:
    """How UTF-8 spells the text's first Chinese character (an example when there is none)."""
    u = tokens.units(s)
    ch = s[u.han[0]] if u.han else EXAMPLE_HAN
    lay = text.utf8_layout(ch)
    return t("lk_tok_utf8", char=md_code(ch), cp=md_code(f"U+{lay.code_point:04X}"), n_bits=len(lay.bits),
             patterns=md_code(" ".join(lay.patterns)), hex=md_code(" ".join(f"{b:02x}" for b in lay.data)),
             n=len(lay.data))


@kind("bpe_count", params=(MERGES,),
      facts={"n_chars": "int", "n_bytes": "int", "n_bpe": "int", "n_han": "int", "per_han": "num", "merges": "int",
             "one": "int", "two": "int", "three": "int", "shared": "int"},
      question="choice", options=tuple(f"bpe_{b}" for b in ("fewer", "same", "more", "bytes")))
def bpe_count(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    s = source(ctx)
    n = p["merges"]
    cs = {"chars": text.characters(s), "bytes": text.utf8_bytes(s), "bpe": text.bpe(bpe_at(n), s)}
    fig = figures.cut_rows(rows(cs, n, marked="bpe"), title=t("lk_tok_bpe_title", n=n), more=t("lk_tok_more"))
    costs = tokens.han_costs(cs["bpe"], s)
    per_han = tokens.per_unit(cs["bpe"], s)[1]
    facts = {"n_chars": len(cs["chars"]), "n_bytes": len(cs["bytes"]), "n_bpe": len(cs["bpe"]),
             "n_han": len(tokens.units(s).han), "per_han": per_han or 0.0, "merges": n,
             "one": costs["1"], "two": costs["2"], "three": costs["3"], "shared": costs["shared"]}
    answer = "bpe_" + lesson_tokens.bpe_bucket(len(cs["bpe"]), len(cs["chars"]), len(cs["bytes"]))
    return Shown(fig, facts, answer=answer, caption=utf8_line(s), page="tokens",
                 params={"tk_view": "text", "tk_merges": str(n)})


@kind("bpe_merges", params=(Param("every", "int", default=100, lo=10, hi=MAX_MERGES),),
      facts={"n_chars": "int", "n_bytes": "int", "n_last": "int", "merges": "int", "vocab": "int", "saved": "num"})
def bpe_merges(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    """The text's byte-level BPE length after 0, every, 2·every, … MAX_MERGES merges."""
    s = source(ctx)
    merges = list(verse_bpe().merges)
    xs = list(range(0, len(merges) + 1, p["every"]))
    if xs[-1] != len(merges):
        xs.append(len(merges))
    last = text.bpe_tokenizer(merges, len(merges))
    ys = [len(text.bpe(text.bpe_tokenizer(merges, n), s)) for n in xs]
    n_chars, n_bytes = len(s), len(s.encode("utf-8", "surrogatepass"))
    fig = figures.count_curve(xs, ys, [(t("lk_tok_level_bytes", n=n_bytes), n_bytes),
                                       (t("lk_tok_level_chars", n=n_chars), n_chars)],
                              title=t("lk_tok_curve_title"), x_name=t("lk_tok_curve_x"), y_name=t("lk_tok_curve_y"))
    facts = {"n_chars": n_chars, "n_bytes": n_bytes, "n_last": ys[-1], "merges": xs[-1],
             "vocab": last.get_vocab_size(), "saved": 1 - ys[-1] / n_bytes if n_bytes else 0.0}
    return Shown(fig, facts, page="tokens", params={"tk_view": "text", "tk_merges": str(xs[-1])})


@kind("wordpiece_unknown", facts={"n_pieces": "int", "n_unk": "int", "share": "num", "vocab": "int", "n_han": "int"},
      question="choice", options=tuple(f"unk_{b}" for b in ("none", "some", "most")))
def wordpiece_unknown(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    s = source(ctx)
    wp = wordpiece_tokenizer()
    if wp is None:
        raise ValueError(t("lk_tok_no_wordpiece"))
    cs = {"chars": text.characters(s), "wordpiece": text.wordpiece(wp, s)}
    cut = cs["wordpiece"]
    fig = figures.cut_rows(rows(cs, 0, marked="unk"), title=t("lk_tok_unk_title"), more=t("lk_tok_more"))
    facts = {"n_pieces": len(cut), "n_unk": cut.unknown, "share": cut.unknown_share, "vocab": cut.vocab_size,
             "n_han": len(tokens.units(s).han)}
    return Shown(fig, facts, answer="unk_" + lesson_tokens.unknown_bucket(cut.unknown, len(cut)), page="tokens",
                 params={"tk_view": "text"})


# ---- pictures ---------------------------------------------------------------------------------
def vits() -> dict:
    models = vit_serving.vits()
    if models is None:
        raise ValueError(t("lk_tok_no_vit"))
    return models


def digit(p: Mapping[str, Any]) -> tuple[np.ndarray, int, int]:
    """(image, its label, its index) of the held-out digit the step names."""
    images, labels = vit_serving.held_out()
    i = int(p["digit"]) % len(images)
    return images[i], int(labels[i]), i


def grey(fig):
    """Grey levels drawn on the one scale 0..1, without axis numbers (they would count the gaps)."""
    fig.update_traces(zmin=0.0, zmax=1.0, selector=lambda tr: tr.type == "heatmap" and tr.hoverinfo != "skip")
    if fig.layout.coloraxis.colorscale is not None:
        fig.update_layout(coloraxis_cmin=0.0, coloraxis_cmax=1.0)
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False)
    return fig


@kind("patch_sequence", params=(DIGIT,),
      facts={"side": "int", "p": "int", "n_patches": "int", "length": "int", "k": "int", "label": "int",
             "others": "text"},
      question="choice", options=tuple(f"len_{n}" for n in LENGTHS))
def patch_sequence(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    model = vits()["learned"][0]
    image, label, i = digit(p)
    size = model.front.p
    h, w = image.shape
    length = lesson_tokens.sequence_length(h, w, size)
    others = ", ".join(f"P = {q}: {lesson_tokens.sequence_length(h, w, q)}" for q in (1, 2, 4, 8) if q != size)
    fig = viz_core.positional.matrix_grid(
        lab.patches.with_gaps(image, size)[None], panel_titles=[""],
        title=t("lk_tok_patch_title", w=w, h=h, p=size, n=length - 1), x_name=t("tim_x"), y_name=t("tim_y"),
        value_name=t("tim_grey"), center=None, cols=1, panel_height=320)
    facts = {"side": h, "p": size, "n_patches": length - 1, "length": length, "k": size * size, "label": label,
             "others": others}
    return Shown(grey(fig), facts, answer=lesson_tokens.length_option(length), page="tokens",
                 params={"tk_view": "images", "tim_p": str(size), "tim_i": str(i)})


@kind("patch_conv", params=(DIGIT,), facts={"diff": "num", "d": "int", "k": "int", "p": "int", "n": "int"},
      question="choice", options=("conv_same", "conv_differs"))
def patch_conv(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    front = vits()["learned"][0].front
    image, _, _ = digit(p)
    x = lab.patches.as_batch(image)
    with torch.inference_mode():
        lin = front.proj(lab.patches.patchify(x, front.p))[0].numpy()       # [n, d]
        conv = front.as_conv(x)[0].numpy()
    diff = lab.patches.conv_difference(front, image)
    n, d = lin.shape
    fig = viz_core.positional.matrix_grid(
        np.stack([lin.T, conv.T, (lin - conv).T]),
        panel_titles=[t("lk_tok_conv_linear"), t("lk_tok_conv_conv", p=front.p), t("lk_tok_conv_diff")],
        title=t("lk_tok_conv_title", n=n, d=d), x_name=t("lk_tok_conv_x"), y_name=t("lk_tok_conv_y"),
        value_name=t("lk_tok_conv_value"), center=0.0, cols=3, panel_height=260)
    facts = {"diff": diff, "d": d, "k": front.p * front.p, "p": front.p, "n": n}
    return Shown(fig, facts, answer="conv_" + lesson_tokens.conv_answer(diff), page="tokens",
                 params={"tk_view": "images"})


@kind("cls_patch", params=(DIGIT,),
      facts={"patch": "int", "row": "int", "col": "int", "weight": "num", "quarter": "text", "pred": "int",
             "prob": "num", "label": "int", "uniform": "num"},
      question="choice", options=tuple(f"quad_{q}" for q in QUADRANTS))
def cls_patch(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    model = vits()["learned"][0]
    image, label, _ = digit(p)
    att = lab.patches.cls_attention(model, image, 0)
    roll = att["rollout"]                                            # [g, g], from [CLS] through every layer
    quarter, r, c = lesson_tokens.quadrant(roll)
    g, size = roll.shape[0], model.front.p
    big = np.kron(roll / roll.max(), np.ones((size, size)))          # on the picture's own pixels
    fig = viz_core.positional.matrix_grid(
        np.stack([lab.patches.with_gaps(image, size), lab.patches.with_gaps(big, size)]),
        panel_titles=[t("lk_tok_cls_digit", label=label), t("lk_tok_cls_rollout")],
        title=t("lk_tok_cls_title", patch=r * g + c + 1), x_name=t("tim_x"), y_name=t("tim_y"),
        value_name=t("lk_tok_cls_value"), center=None, cols=2, panel_height=300)
    facts = {"patch": r * g + c + 1, "row": r + 1, "col": c + 1, "weight": float(roll[r, c]),
             "quarter": t(f"lk_opt_quad_{quarter}"), "pred": int(att["probs"].argmax()),
             "prob": float(att["probs"].max()), "label": label, "uniform": float(roll.sum()) / roll.size}
    return Shown(grey(fig), facts, answer=f"quad_{quarter}", page="tokens",
                 params={"tk_view": "images", "tim_q": "0"})


@kind("patch_shuffle", params=(DIGIT, Param("seed", "int", default=0, lo=0, hi=999)),
      facts={"diff_learned": "num", "diff_none": "num", "before_learned": "int", "after_learned": "int",
             "before_none": "int", "after_none": "int"},
      question="choice", options=tuple(f"sh_{a}" for a in ("learned", "none", "both", "neither")))
def patch_shuffle(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    models = vits()
    image, _, _ = digit(p)
    res = {pos: lab.patches.shuffle_test(m, image, p["seed"]) for pos, (m, _) in models.items()}
    size = models["learned"][0].front.p
    shuffled = lab.patches.unshuffle_image(image, res["learned"]["perm"], size)
    fig = viz_core.positional.matrix_grid(
        np.stack([lab.patches.with_gaps(image, size), lab.patches.with_gaps(shuffled, size)]),
        panel_titles=[t("tim_original_panel"), t("tim_shuffled_panel")], title=t("lk_tok_shuffle_title"),
        x_name=t("tim_x"), y_name=t("tim_y"), value_name=t("tim_grey"), center=None, cols=2, panel_height=280)
    facts = {"diff_learned": res["learned"]["max_diff"], "diff_none": res["none"]["max_diff"]}
    for pos in ("learned", "none"):
        facts[f"before_{pos}"] = int(res[pos]["before"].argmax())
        facts[f"after_{pos}"] = int(res[pos]["after"].argmax())
    answer = "sh_" + lesson_tokens.shuffle_answer(res["learned"]["max_diff"], res["none"]["max_diff"])
    return Shown(grey(fig), facts, answer=answer, page="tokens", params={"tk_view": "images"})


# ---- sound ------------------------------------------------------------------------------------------
@kind("sound_tokens",
      facts={"samples": "int", "frames": "int", "tokens": "int", "hop_ms": "num", "window_ms": "num",
             "token_ms": "num", "per_30s": "int", "spoken": "text"},
      question="choice", options=tuple(f"snd_{n}" for n in lesson_tokens.SOUND_TOKENS))
def sound_tokens(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    """One second of the sidebar's text spoken by espeak-ng (a gliding tone when the server has
    no espeak-ng), as Whisper's log-mel frames and the tokens its convolution stem makes."""
    rate = lab.sound.SAMPLE_RATE
    s = source(ctx)
    try:
        wave = lab.sound.synthesize(s[:lab.sound.MAX_TEXT], "zh" if tokens.units(s).han else "en")
        spoken = t("lk_tok_sound_speech")
    except (Refused, OSError, ValueError):
        wave, spoken = lesson_tokens.chirp(1.0, rate), t("lk_tok_sound_tone")
    x = lesson_tokens.clip(wave, 1.0, rate)
    mel = lab.sound.log_mel(x)                                       # [80, frames]
    frames = mel.shape[1]
    n_tokens = lab.sound.stem_tokens(frames)
    fig = viz_core.positional.matrix_grid(
        mel[::-1][None], panel_titles=[""], title=t("lk_tok_sound_title", frames=frames, tokens=n_tokens),
        x_name=t("lk_tok_sound_x"), y_name=t("lk_tok_sound_y"), value_name=t("lk_tok_sound_value"), center=None,
        cols=1, panel_height=300)
    fig.update_yaxes(showticklabels=False)
    facts = {"samples": len(x), "frames": frames, "tokens": n_tokens, "hop_ms": 1000 * lab.sound.HOP / rate,
             "window_ms": 1000 * lab.sound.WINDOW / rate, "token_ms": 1000 * len(x) / rate / n_tokens,
             "per_30s": lab.sound.stem_tokens(lab.sound.N_SAMPLES // lab.sound.HOP), "spoken": spoken}
    return Shown(fig, facts, answer=lesson_tokens.sound_option(n_tokens), page="tokens", params={"tk_view": "sound"})
