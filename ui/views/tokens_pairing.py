"""The "Tokens from anything" page's Pairing (CLIP-style) section: the two towers of
recipes/pairing_digits.py (pictures of digits, the digits' words in English or Chinese) with
their held-out zero-shot accuracy against chance and a supervised logistic regression; one
batch's similarity matrix (pictures × captions, the true pairs on the diagonal) with its
contrastive loss written out in both directions; zero-shot classification of a held-out
digit or an upload by the captions of the chosen language (lab/pairing.py;
ui/serving/pairing.py)."""
from __future__ import annotations

import math

import numpy as np
import streamlit as st
import torch

import lab.pairing
import lab.patches
import viz_core.positional
from viz_core.patches import grey
from viz_core import escape_labels

from ..i18n import lang as ui_lang
from ..i18n import t
from ..links import bound, choice, show_notices
from ..markup import markdown_table, md_code
from ..serving import pairing as serving
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

SOURCES = ("digit", "upload")


def section(sel: Selection) -> None:
    """The section (the sidebar's selection is not read: the models here are the shipped towers)."""
    st.caption(t("tpr_intro"))
    loaded = serving.towers()
    if loaded is None:
        st.warning(t("tpr_no_model"))
        return
    model, meta = loaded
    images, labels = serving.held_out()
    card(model, meta)
    lang = choice(st.radio, t("tpr_lang"), lab.pairing.LANGS, param="tpr_lang", default=ui_lang(),
                  horizontal=True, labels={x: t(f"tpr_lang_{x}") for x in lab.pairing.LANGS})
    one_batch(model, images, labels, lang)
    zero_shot(model, images, labels, lang)


def card(model: lab.pairing.Towers, meta: dict) -> None:
    """What the towers are, their held-out zero-shot accuracy beside the baselines."""
    scores = serving.scores()
    st.subheader(t("tpr_model_title"))
    params = sum(q.numel() for q in model.parameters()) - model.image_body.embed.weight.numel()
    scale = model.inverse_temperature()
    st.caption(t("tpr_model_caption", img_layers=model.image_body.cfg.n_layers, heads=model.image_body.cfg.n_heads,
                 d=model.image_body.cfg.d_model, shared=lab.pairing.D_SHARED, txt_layers=model.text_body.cfg.n_layers,
                 params=params, steps=int(meta.get("steps", 0)), seconds=float(meta.get("seconds", 0.0)),
                 n_train=scores["n_train"], tau=1 / scale, scale=scale))
    rows = [[t("tpr_m_zs_en"), f"{scores['zs_en']:.1%}", t("tpr_no")],
            [t("tpr_m_zs_zh"), f"{scores['zs_zh']:.1%}", t("tpr_no")],
            [t("tpr_m_logreg"), f"{scores['logreg']:.1%}", t("tpr_yes")],
            [t("tpr_m_chance"), f"{scores['chance']:.1%}", "—"]]
    st.markdown(f"**{t('tpr_acc_title', n=scores['n_test'])}**")
    st.markdown(markdown_table([t("tpr_col_method"), t("tpr_col_acc"), t("tpr_col_labels")], rows, markup=True))
    st.caption(t("tpr_acc_caption"))
    words = serving.words()
    if words is not None:
        same = float(np.diag(words).mean())
        other = float(words[~np.eye(10, dtype=bool)].mean())
        st.caption(t("tpr_words", same=same, other=other))


def one_batch(model: lab.pairing.Towers, images: np.ndarray, labels: np.ndarray, lang: str) -> None:
    """A batch of ten pairs: the pictures, the similarity matrix, the loss by hand."""
    st.subheader(t("tpr_batch_title"))
    st.caption(t("tpr_batch_intro"))
    seed = int(bound(st.number_input, t("tpr_seed"), 0, 999, 0, key="tpr_seed", url_default="0",
                     help=t("tpr_seed_help")))
    show_notices()
    b = lab.pairing.batch(model, images, labels, seed, lang)
    n = len(b["idx"])
    fig = viz_core.positional.matrix_grid(
        images[b["idx"]], panel_titles=[str(i + 1) for i in range(n)], title=t("tpr_pics_title"),
        x_name=t("tpr_x"), y_name=t("tpr_y"), value_name=t("tpr_grey"), center=None, cols=n, panel_height=110)
    figure_export.chart(grey(fig), key="tpr_pictures", width="stretch")
    sim = b["sim"]
    fig = viz_core.positional.matrix(sim, title=t("tpr_sim_title"), x_name=t("tpr_sim_x"), y_name=t("tpr_sim_y"),
                                     value_name=t("tpr_sim_value"), center=0.0, zrange=(-1.0, 1.0), height=460)
    fig.update_traces(text=[[f"{v:.2f}" for v in row] for row in sim], texttemplate="%{text}",
                      selector=dict(type="heatmap"))
    fig.update_xaxes(tickvals=list(range(n)), ticktext=escape_labels(b["captions"]))
    fig.update_yaxes(tickvals=list(range(n)), ticktext=[t("tpr_pic", i=i + 1) for i in range(n)])
    figure_export.chart(fig, key="tpr_similarity", width="stretch")
    parts = lab.pairing.loss_parts(sim, b["scale"])
    with torch.no_grad():
        trainer = float(lab.pairing.contrastive(torch.as_tensor(sim), b["scale"]))
    st.markdown(f"**{t('tpr_loss_title')}**")
    st.markdown(t("tpr_loss_intro", scale=b["scale"]))
    st.latex(r"\mathcal{L} = \frac{1}{2}\Big(-\frac{1}{n}\sum_i \log \frac{e^{s_{ii}/\tau}}{\sum_j e^{s_{ij}/\tau}}"
             r" \;-\; \frac{1}{n}\sum_i \log \frac{e^{s_{ii}/\tau}}{\sum_j e^{s_{ji}/\tau}}\Big)")
    rows = [[str(i + 1), f"`{b['captions'][i]}`", f"{sim[i, i]:.3f}", f"{parts['p_i2t'][i]:.3f}",
             f"{-math.log(parts['p_i2t'][i]):.3f}", f"{parts['p_t2i'][i]:.3f}", f"{-math.log(parts['p_t2i'][i]):.3f}"]
            for i in range(n)]
    st.markdown(markdown_table([t("tpr_col_i"), t("tpr_col_caption"), t("tpr_col_cos"), t("tpr_col_row"),
                                t("tpr_col_nll_row"), t("tpr_col_col"), t("tpr_col_nll_col")], rows, markup=True))
    st.markdown(t("tpr_loss_sum", i2t=parts["i2t"], t2i=parts["t2i"], loss=parts["loss"], torch=trainer,
                  chance=math.log(n)))
    off = sim[~np.eye(n, dtype=bool)]
    misconception("tpr_mixed", t("tpr_mis_common"), t("tpr_mis_shown", diag=float(np.diag(sim).mean()),
                                                     off=float(off.mean())))


def zero_shot(model: lab.pairing.Towers, images: np.ndarray, labels: np.ndarray, lang: str) -> None:
    """A held-out digit or an upload classified by the 10 captions of `lang`."""
    st.subheader(t("tpr_zs_title"))
    st.caption(t("tpr_zs_intro"))
    c1, c2 = st.columns(2)
    with c1:
        source = choice(st.radio, t("tpr_source"), SOURCES, param="tpr_src", default="digit", horizontal=True,
                        labels={s: t(f"tpr_source_{s}") for s in SOURCES})
    label = None
    if source == "digit":
        with c2:
            index = int(bound(st.number_input, t("tpr_digit"), 0, len(images) - 1, 0, key="tpr_i",
                              url_default="0", help=t("tpr_digit_help", n=len(images))))
        show_notices()
        digit, label = images[index], int(labels[index])
    else:
        digit = uploaded()
        if digit is None:
            return
    probs = lab.pairing.zero_shot(model, digit, lang)[0]
    captions = list(lab.pairing.CAPTIONS[lang])
    c1, c2 = st.columns([1, 2])
    with c1:
        fig = viz_core.positional.matrix_grid(digit[None], panel_titles=[""], title=t("tpr_shown_8"),
                                              x_name=t("tpr_x"), y_name=t("tpr_y"), value_name=t("tpr_grey"),
                                              center=None, cols=1, panel_height=260)
        figure_export.chart(grey(fig), key="tpr_digit_picture", width="stretch")
    with c2:
        fig = viz_core.positional.bars(probs, captions, title=t("tpr_probs_title"), y_name=t("tpr_probs_y"),
                                       text_fmt=".1%", height=330)
        figure_export.chart(fig, key="tpr_probs", width="stretch")
    best = int(probs.argmax())
    st.markdown(t("tpr_pred", caption=md_code(captions[best]), prob=float(probs[best]), total=float(probs.sum())))
    if label is not None:
        st.caption(t("tpr_truth", digit=label))


def uploaded() -> np.ndarray | None:
    """The reader's picture as an 8×8 digit, or None (nothing chosen, or a sentence said why)."""
    f = st.file_uploader(t("tpr_upload"), type=["png", "jpg", "jpeg"], key="tpr_upload",
                         help=t("tpr_upload_help", limit=lab.patches.MAX_SIDE))
    if f is None:
        st.info(t("tpr_upload_wait"))
        return None
    image, reason, values = serving.picture(f.getvalue())
    if reason is not None:
        st.warning(t(f"tpr_bad_{reason}", **values))
        return None
    digit, inverted = lab.pairing.as_digit(image)
    if inverted:
        st.caption(t("tpr_inverted"))
    return digit
