"""The "Tokens from anything" page's Sound (Whisper-style) section: a waveform — speech made
offline by espeak-ng from the reader's text (English or Mandarin voice), the reader's
recording (`st.audio_input`) or an uploaded WAV (lab/audio_input.py) — played, drawn, and
cut the way Whisper cuts it: 25 ms windows every 10 ms, each an 80-bin log-mel spectrum
(lab/sound.py, transformers' WhisperFeatureExtractor), then a stride-2 convolution stem, one
token per 20 ms; the counts computed from this audio beside Whisper's 30 s chunk; a zoom on a
few frames' overlapping windows; the shipped spoken-digit model's attention over its tokens
drawn under the spectrogram on the same time axis, its prediction, and its held-out accuracy
against the baselines (ui/serving/sound.py)."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

import lab.audio_input
import lab.sound
from models.errors import Refused
from viz_core.colors import plotly_colorscale

from ..i18n import lang, t
from ..links import bound, choice, show_notices
from ..markup import markdown_table, md_code
from ..refusals import say
from ..serving import sound as serving
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

SOURCES = ("speech", "record", "upload")
LANGS = ("en", "zh")
VOICES = ("", "f3", "m3")                 # espeak-ng variants: the language's default, a female, a male
DEFAULT_TEXT = {"en": "seven", "zh": "七"}
ZOOM_FRAMES = 5                            # frames drawn one by one in the zoom
MAX_WAVE_POINTS = 3000                     # the waveform above this many samples: a min/max envelope
GAP_FRAMES = 160                           # up to this many frames, the spectrogram's columns are drawn apart


def section(sel: Selection) -> None:
    """The section (the sidebar's model is not read: the model here is the shipped one)."""
    st.caption(t("tsd_intro"))
    source = choice(st.radio, t("tsd_source"), SOURCES, param="tsd_src", default="speech", horizontal=True,
                    labels={s: t(f"tsd_source_{s}") for s in SOURCES})
    show_notices()
    wave = {"speech": spoken, "record": recorded, "upload": uploaded}[source]()
    if wave is None:
        return
    st.audio(lab.audio_input.wav_bytes(wave), format="audio/wav")      # as it is: st.audio would rescale
    mel = serving.mel(wave)
    counts(len(wave), mel.shape[1])
    loaded = serving.words_model()
    result = serving.run(wave) if loaded is not None else None
    att, rows = attention_choice(result) if result is not None else (None, [])
    fig = spectrogram_figure(wave, mel, result, att, rows)
    figure_export.chart(fig, key="tsd_spectrogram", width="stretch")
    st.caption(t("tsd_fig_caption", frames=mel.shape[1]) + ("" if att is None else " " + t(
        "tsd_att_caption_cls" if rows else "tsd_att_caption_map")))
    chunk_frames = lab.sound.N_SAMPLES // lab.sound.HOP
    misconception("tsd_30ms", t("tsd_mis_common"), t(
        "tsd_mis_shown", frames=f"{mel.shape[1]:,}", tokens=f"{lab.sound.stem_tokens(mel.shape[1]):,}",
        chunk=lab.sound.CHUNK_SECONDS, chunk_frames=f"{chunk_frames:,}",
        chunk_tokens=f"{lab.sound.stem_tokens(chunk_frames):,}"))
    figure_export.chart(zoom_figure(wave, mel), key="tsd_frames", width="stretch")
    st.caption(t("tsd_zoom_caption", n=ZOOM_FRAMES))
    if loaded is None:
        st.warning(t("tsd_no_model"))
    else:
        model_part(loaded[1], result)


# ---- the waveform's sources ------------------------------------------------------------------
def spoken() -> np.ndarray | None:
    """Speech synthesized from the reader's text, or None (a sentence said why)."""
    c1, c2, c3 = st.columns([3, 2, 2])
    ui = lang() if lang() in LANGS else "en"
    with c1:
        text = bound(st.text_input, t("tsd_text"), key="tsd_text", url_default=DEFAULT_TEXT[ui],
                     value=DEFAULT_TEXT[ui], max_chars=lab.sound.MAX_TEXT, help=t("tsd_text_help"))
    with c2:
        voice_lang = choice(st.radio, t("tsd_lang"), LANGS, param="tsd_lang", default=ui, horizontal=True,
                            labels={v: t(f"tsd_lang_{v}") for v in LANGS})
    with c3:
        voice = choice(st.selectbox, t("tsd_voice"), VOICES, param="tsd_voice", default="",
                       labels={v: t(f"tsd_voice_{v or 'default'}") for v in VOICES})
    show_notices()
    try:
        return serving.speech(text, voice_lang, voice)
    except Refused as e:
        st.warning(say(e))
        return None


def recorded() -> np.ndarray | None:
    """The reader's recording through the browser's microphone, or None."""
    f = st.audio_input(t("tsd_record"), key="tsd_rec", sample_rate=lab.sound.SAMPLE_RATE, help=t("tsd_record_help"))
    if f is None:
        st.info(t("tsd_record_wait"))
        return None
    return read(f.getvalue())


def uploaded() -> np.ndarray | None:
    """The reader's WAV file, or None."""
    f = st.file_uploader(t("tsd_upload"), type=["wav"], key="tsd_upload", help=t("tsd_upload_help"))
    if f is None:
        st.info(t("tsd_upload_wait"))
        return None
    return read(f.getvalue())


def read(data: bytes) -> np.ndarray | None:
    """The wave of a WAV file's bytes with its notices said, or None with the reason said."""
    wave, notices, reason, values = serving.audio(data)
    if reason is not None:
        st.warning(t(f"tsd_bad_{reason}", **values))
        return None
    for name, v in notices:
        (st.warning if name == "silent" else st.info)(t(f"tsd_note_{name}", **v))
    return wave


# ---- the counts ------------------------------------------------------------------------------
def counts(n_samples: int, n_frames: int) -> None:
    """Samples -> frames -> tokens for this audio and for Whisper's 30 s chunk, computed."""
    rate = lab.sound.SAMPLE_RATE
    chunk = lab.sound.N_SAMPLES
    chunk_frames = chunk // lab.sound.HOP
    sec = t("tsd_seconds")
    rows = [[t("tsd_row_samples", rate=f"{rate:,}"), f"{n_samples:,} ({n_samples / rate:.2f} {sec})",
             f"{chunk:,} ({chunk // rate} {sec})"],
            [t("tsd_row_frames", hop=lab.sound.HOP, window=lab.sound.WINDOW), f"{n_frames:,}", f"{chunk_frames:,}"],
            [t("tsd_row_tokens"), f"{lab.sound.stem_tokens(n_frames):,}",
             f"{lab.sound.stem_tokens(chunk_frames):,}"]]
    st.markdown(f"**{t('tsd_count_title')}**")
    st.markdown(markdown_table([t("tsd_col_step"), t("tsd_col_this"), t("tsd_col_chunk")], rows))
    st.caption(t("tsd_count_caption", n=f"{n_samples:,}", hop=lab.sound.HOP, frames=f"{n_frames:,}",
                 tokens=f"{lab.sound.stem_tokens(n_frames):,}"))


# ---- the figures -----------------------------------------------------------------------------
def envelope(wave: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(times, lows, highs): the wave itself when short, else min and max over equal bins."""
    rate = lab.sound.SAMPLE_RATE
    if len(wave) <= MAX_WAVE_POINTS:
        x = np.arange(len(wave)) / rate
        return x, wave, wave
    size = -(-len(wave) // (MAX_WAVE_POINTS // 2))
    n = len(wave) // size * size
    bins = wave[:n].reshape(-1, size)
    return (np.arange(bins.shape[0]) + 0.5) * size / rate, bins.min(axis=1), bins.max(axis=1)


def attention_choice(result) -> tuple[np.ndarray, list[str]]:
    """What the reader picks to draw under the spectrogram: "[CLS]" — the weight [CLS] gives
    each audio token, one row per layer and head plus the rollout — or one layer's head (or
    the mean of its heads) as the audio tokens' [T, T] map. (weights, row labels: [] for a map)."""
    n_layers, n_heads = len(result.attentions), int(np.asarray(result.attentions[0]).shape[0])
    options = ["cls"] + [f"{layer}.{head}" for layer in range(n_layers) for head in ["mean", *range(n_heads)]]

    def label(v: str) -> str:
        if v == "cls":
            return t("tsd_att_cls")
        layer, head = v.split(".")
        return t("tsd_layer_n", n=layer) + " · " + (t("tsd_head_mean") if head == "mean" else t("tsd_head_n", n=head))

    pick = choice(st.selectbox, t("tsd_att_pick"), options, param="tsd_att", default="cls",
                  labels={v: label(v) for v in options}, help=t("tsd_att_pick_help"))
    show_notices()
    if pick == "cls":
        cls = np.asarray(result.cls_attention)                                  # [layers, heads, T]
        rows = [label(f"{layer}.{head}") for layer in range(n_layers) for head in range(n_heads)]
        return np.concatenate([cls.reshape(-1, cls.shape[-1]), np.asarray(result.rollout)[None]]), \
            rows + [t("tsd_att_rollout")]
    layer, head = pick.split(".")
    a = np.asarray(result.attentions[int(layer)])[:, 1:, 1:]                   # audio tokens only
    return (a.mean(axis=0) if head == "mean" else a[int(head)]), []


def spectrogram_figure(wave: np.ndarray, mel: np.ndarray, result, att: np.ndarray | None,
                       rows_named: list[str]) -> go.Figure:
    """Waveform, log-mel spectrogram and (with a model) its attention over tokens, one time axis."""
    rows = 3 if att is not None else 2
    heights = [0.22, 0.38, 0.40] if rows == 3 else [0.35, 0.65]
    titles = [t("tsd_wave_title"), t("tsd_mel_title", bins=mel.shape[0], frames=mel.shape[1])]
    if att is not None:
        titles.append(t("tsd_att_title_cls" if rows_named else "tsd_att_title_map", tokens=len(result.token_times)))
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, row_heights=heights, vertical_spacing=0.07,
                        subplot_titles=titles)
    x, lo, hi = envelope(wave)
    sec = t("tsd_seconds")
    fig.add_trace(go.Scatter(x=x, y=hi, mode="lines", line=dict(width=1, color="#1f77b4"), showlegend=False,
                             hovertemplate=f"{sec}: %{{x:.3f}}<br>%{{y:.3f}}<extra></extra>"), row=1, col=1)
    if len(wave) > MAX_WAVE_POINTS:
        fig.add_trace(go.Scatter(x=x, y=lo, mode="lines", line=dict(width=1, color="#1f77b4"), fill="tonexty",
                                 showlegend=False, hoverinfo="skip"), row=1, col=1)
    hop_s = lab.sound.HOP / lab.sound.SAMPLE_RATE
    frame_x = np.arange(mel.shape[1]) * hop_s
    gap = 1 if mel.shape[1] <= GAP_FRAMES else 0
    fig.add_trace(go.Heatmap(
        x=frame_x, y=np.arange(mel.shape[0]), z=mel, colorscale=plotly_colorscale(), xgap=gap,
        colorbar=dict(title=dict(text=t("tsd_mel_value")), len=0.36, y=0.58 if rows == 3 else 0.33),
        hovertemplate=f"{sec}: %{{x:.2f}}<br>{t('tsd_mel_axis')}: %{{y}}<br>%{{z:.2f}}<extra></extra>"),
        row=2, col=1)
    if att is not None:
        tt = np.asarray(result.token_times, dtype=float)
        y = rows_named or tt
        fig.add_trace(go.Heatmap(
            x=tt, y=y, z=att, colorscale=plotly_colorscale(), zmin=0.0,
            colorbar=dict(title=dict(text=t("tsd_att_value")), len=0.36, y=0.18),
            hovertemplate=(f"{t('tsd_att_query') if not rows_named else ''} %{{y}}<br>{t('tsd_att_key')}: "
                           "%{x:.2f}<br>%{z:.3f}<extra></extra>")), row=3, col=1)
        fig.update_yaxes(title_text=t("tsd_att_query") if not rows_named else "", autorange="reversed",
                         row=3, col=1)
        start = float(result.offset)
        for r in (1, 2):                                  # the 1.28 s the model reads, over the audio
            fig.add_vrect(x0=start, x1=start + lab.sound.CLIP / lab.sound.SAMPLE_RATE, line=dict(width=1, color="#d62728"),
                          fillcolor="rgba(0,0,0,0)", layer="above", row=r, col=1)
    fig.update_yaxes(title_text=t("tsd_wave_axis"), row=1, col=1)
    fig.update_yaxes(title_text=t("tsd_mel_axis"), row=2, col=1)
    fig.update_xaxes(title_text=t("tsd_time_axis"), row=rows, col=1)
    end = max(len(wave) / lab.sound.SAMPLE_RATE, float(frame_x[-1]) if len(frame_x) else 0.0)
    if att is not None:                                   # the whole clip the model reads, padding included
        end = max(end, float(result.offset) + lab.sound.CLIP / lab.sound.SAMPLE_RATE)
    fig.update_xaxes(range=[-hop_s, end + hop_s])
    fig.update_layout(height=720 if rows == 3 else 460, margin=dict(l=60, r=20, t=40, b=50))
    return fig


def zoom_figure(wave: np.ndarray, mel: np.ndarray) -> go.Figure:
    """A few consecutive frames around the loudest one: the waveform there and each frame's
    25 ms Hann window, 10 ms after the one before, with the tokens' centres every 20 ms."""
    rate, hop, win = lab.sound.SAMPLE_RATE, lab.sound.HOP, lab.sound.WINDOW
    n_frames = mel.shape[1]
    whole = min(n_frames, len(wave) // hop)          # frames whose 10 ms step is all sound (not the cut end)
    steps = wave[: whole * hop].reshape(whole, hop) if whole else np.zeros((1, hop))
    energy = np.sqrt((steps.astype(np.float64) ** 2).mean(axis=1))
    first = int(np.clip(int(np.argmax(energy)) - ZOOM_FRAMES // 2, 0, max(0, n_frames - ZOOM_FRAMES)))
    shown = list(range(first, min(n_frames, first + ZOOM_FRAMES)))
    starts, ends = lab.sound.frame_times(n_frames)
    lo, hi = float(starts[shown[0]]) - 0.005, float(ends[shown[-1]]) + 0.005
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.4, 0.6], vertical_spacing=0.06)
    i0, i1 = max(0, int(lo * rate)), min(len(wave), int(np.ceil(hi * rate)))
    sec = t("tsd_seconds")
    fig.add_trace(go.Scatter(x=np.arange(i0, i1) / rate, y=wave[i0:i1], mode="lines", line=dict(width=1),
                             name=t("tsd_wave_title"), showlegend=False,
                             hovertemplate=f"{sec}: %{{x:.4f}}<br>%{{y:.3f}}<extra></extra>"), row=1, col=1)
    hann = np.hanning(win + 1)[:win]
    for k, i in enumerate(shown):
        x = starts[i] + np.arange(win) / rate
        fig.add_trace(go.Scatter(
            x=x, y=k + 0.8 * hann, mode="lines", fill="toself", line=dict(width=1), showlegend=False,
            name=t("tsd_frame_n", n=i),
            hovertemplate=f"{t('tsd_frame_n', n=i)}: %{{x:.4f}} {sec}<extra></extra>"), row=2, col=1)
    for j in range(lab.sound.stem_tokens(n_frames)):
        c = float(lab.sound.token_times(j + 1)[-1])
        if lo <= c <= hi:
            fig.add_vline(x=c, line=dict(dash="dot", width=1, color="#888"), row=2, col=1)
            fig.add_annotation(x=c, y=len(shown) - 0.1, text=t("tsd_token_n", n=j), showarrow=False,
                               yanchor="bottom", row=2, col=1)
    fig.update_yaxes(tickvals=list(range(len(shown))), ticktext=[t("tsd_frame_n", n=i) for i in shown],
                     range=[-0.2, len(shown) + 0.5], row=2, col=1)
    fig.update_yaxes(title_text=t("tsd_wave_axis"), row=1, col=1)
    fig.update_xaxes(title_text=t("tsd_time_axis"), range=[lo, hi], row=2, col=1)
    fig.update_layout(title=dict(text=t("tsd_zoom_title", n=len(shown), ms=round(1000 * hop / rate),
                                        win=round(1000 * win / rate))),
                      height=420, margin=dict(l=60, r=20, t=60, b=50))
    return fig


# ---- the model -------------------------------------------------------------------------------
def model_part(meta: dict, result) -> None:
    """The model's reading of this audio and, in an expander, its held-out accuracy."""
    st.subheader(t("tsd_model_title"))
    st.caption(t("tsd_model_intro"))
    probs = np.asarray(result.probs, dtype=float)
    order = np.argsort(-probs)[:5]
    st.markdown(t("tsd_pred", word=digit(int(order[0])), prob=float(probs[order[0]])))
    st.markdown(markdown_table([t("tsd_col_word"), t("tsd_col_prob")],
                               [[digit(int(i)), f"{probs[int(i)]:.1%}"] for i in order]))
    clip = lab.sound.CLIP / lab.sound.SAMPLE_RATE
    st.caption(t("tsd_model_caption", start=float(result.offset), end=float(result.offset) + clip, clip=clip))
    with st.expander(t("tsd_acc_expander")):
        accuracy(meta)


def digit(k: int) -> str:
    """Class k as the UI language says it: "7 (seven)" / "7（七）"."""
    return t("tsd_digit", d=k, word=(lab.sound.DIGITS_ZH if lang() == "zh" else lab.sound.DIGITS_EN)[k])


def accuracy(meta: dict) -> None:
    """Held-out accuracy of the model against its baselines, as its recipe measured them."""
    scores = meta_scores(meta)
    if not scores:
        st.info(t("tsd_acc_missing"))
        return
    st.markdown(markdown_table([t("tsd_col_model"), t("tsd_col_acc")],
                               [[t(f"tsd_m_{k}"), f"{v:.1%}"] for k, v in scores]))
    voices = ", ".join(md_code(str(v)) for v in meta.get("held_out_voices", []))      # espeak-ng's names
    st.caption(t("tsd_acc_caption", n=meta.get("n_test", "?"), voices=voices or "?",
                 seconds=float(meta.get("seconds", 0.0))))


SCORES = (("model", "held_out_accuracy"), ("majority", "baseline_majority"), ("logreg", "baseline_logreg"))


def meta_scores(meta: dict) -> list[tuple[str, float]]:
    """[(name, accuracy)] from the meta: the model's own, by language, then the baselines."""
    out = [(name, float(meta[k])) for name, k in SCORES if k in meta]
    by_lang = meta.get("held_out_by_language") or {}
    out[1:1] = [(f"model_{lang}", float(v)) for lang, v in by_lang.items() if lang in ("en", "cmn")]
    return out
