"""The "Tokens from anything" page's Images (ViT) section: a picture (a held-out digit from
scikit-learn, or the reader's upload) cut into P×P patches, the patches as the sequence in
reading order, the projection to d_model beside the same map as a stride-P convolution
(max |difference| computed), then the small ViT of recipes/vit_digits.py — our own
Transformer fed with the patch vectors — with its held-out accuracy against two
baselines, attention from [CLS] (or a patch) over the picture per head and as rollout,
and the shuffle test (lab/patches.py; ui/serving/patches.py)."""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.patches
import viz_core.positional
from lab.patches import PATCH, SIDE

from ..i18n import t
from ..links import bound, choice, show_notices
from ..markup import markdown_table
from ..serving import patches as serving
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

SOURCES = ("digit", "upload")
SIZES = (1, 2, 4, 8, 16, 32, 64)
MAX_PANELS = 16       # patches drawn one by one, in reading order


def grey(fig, ticks: bool = False):
    """A figure of grey levels on the one scale 0..1 (the picture and its patches alike), without
    axis numbers unless `ticks` (with the cuts drawn in, they would count the gaps too)."""
    fig.update_traces(zmin=0.0, zmax=1.0, selector=lambda tr: tr.type == "heatmap" and tr.hoverinfo != "skip")
    if fig.layout.coloraxis.colorscale is not None:
        fig.update_layout(coloraxis_cmin=0.0, coloraxis_cmax=1.0)
    if not ticks:
        fig.update_xaxes(showticklabels=False)
        fig.update_yaxes(showticklabels=False)
    return fig


def section(sel: Selection) -> None:
    """The section (the sidebar's selection is not read: the models here are the shipped ViTs)."""
    st.caption(t("tim_intro"))
    models = serving.vits()
    images, labels = serving.held_out()
    c1, c2 = st.columns(2)
    with c1:
        source = choice(st.radio, t("tim_source"), SOURCES, param="tim_src", default="digit", horizontal=True,
                        labels={s: t(f"tim_source_{s}") for s in SOURCES})
    if source == "digit":
        with c2:
            index = int(bound(st.number_input, t("tim_digit"), 0, len(images) - 1, 0, key="tim_i", url_default="0",
                              help=t("tim_digit_help", n=len(images))))
    show_notices()
    image = images[index] if source == "digit" else uploaded()
    if image is None:
        return
    picture(image)
    if models is None:
        st.warning(t("tim_no_model"))
    elif source == "digit":
        vit(models, images, labels, index)
    else:
        st.info(t("tim_vit_digits_only"))


def uploaded() -> np.ndarray | None:
    """The reader's picture in grey levels, or None (nothing chosen, or a sentence said why)."""
    f = st.file_uploader(t("tim_upload"), type=["png", "jpg", "jpeg"], key="tim_upload",
                         help=t("tim_upload_help", show=lab.patches.SHOW_SIDE, limit=lab.patches.MAX_SIDE))
    if f is None:
        st.info(t("tim_upload_wait"))
        return None
    image, size, reason, values = serving.picture(f.getvalue())
    if reason is not None:
        st.warning(t(f"tim_bad_{reason}", **values))
        return None
    if image.shape[::-1] != tuple(size):
        st.caption(t("tim_shrunk", w=size[0], h=size[1], w2=image.shape[1], h2=image.shape[0]))
    return image


def picture(image: np.ndarray) -> None:
    """The picture cut into patches, the sequence, the shapes, the projection as a convolution."""
    fits = [p for p in SIZES if p <= min(image.shape) and (min(image.shape) // p) * (max(image.shape) // p) <= 1024]
    default = next((p for p in (PATCH, 16) if p in fits), fits[-1])      # the ViT's 2, else ViT-Base's 16
    p = int(bound(st.select_slider, t("tim_patch"), fits, value=default, key="tim_p", url_default=str(default),
                  help=t("tim_patch_help")))
    show_notices()
    img = lab.patches.crop(image, p)
    h, w = img.shape
    seq = lab.patches.patchify(img, p)[0].numpy()                              # [n, p·p]
    n, k = seq.shape
    c1, c2 = st.columns(2)
    with c1:
        fig = viz_core.positional.matrix_grid(
            lab.patches.with_gaps(img, p)[None], panel_titles=[""], title=t("tim_picture_title", w=w, h=h, n=n, p=p),
            x_name=t("tim_x"), y_name=t("tim_y"), value_name=t("tim_grey"), center=None, cols=1, panel_height=320)
        figure_export.chart(grey(fig), key="tim_picture", width="stretch")
    with c2:
        shown = min(n, MAX_PANELS)
        fig = viz_core.positional.matrix_grid(
            seq[:shown].reshape(shown, p, p), panel_titles=[str(i + 1) for i in range(shown)],
            title=t("tim_order_title", shown=shown, n=n), x_name=t("tim_x"), y_name=t("tim_y"),
            value_name=t("tim_grey"), center=None, cols=4, panel_height=70)
        figure_export.chart(grey(fig), key="tim_order", width="stretch")
    if k <= 64:                      # one row per patch: the flattened sequence itself (P ≤ 8)
        fig = viz_core.positional.matrix_grid(
            seq.T[None], panel_titles=[""], title=t("tim_seq_title", n=n, k=k), x_name=t("tim_seq_y"),
            y_name=t("tim_seq_x"), value_name=t("tim_grey"), center=None, cols=1, panel_height=max(120, 14 * k))
        ticks = list(range(0, n, max(1, n // 16)))                     # numbered from 1, as the panels above
        fig.update_xaxes(tickvals=ticks, ticktext=[str(i + 1) for i in ticks])
        figure_export.chart(grey(fig, ticks=True), key="tim_sequence", width="stretch")
    models = serving.vits()
    trained = models is not None and p == PATCH and h == w == SIDE
    front = models["learned"][0].front if trained else serving.random_front(p)
    d = front.proj.out_features
    st.markdown(f"**{t('tim_shapes_title')}**")
    st.markdown(markdown_table([t("tim_col_step"), t("tim_col_shape")], [
        [t("tim_step_patches"), f"{n} × {k}"], [t("tim_step_proj", d=d, k=k), f"{n} × {d}"],
        [t("tim_step_cls"), f"{n + 1} × {d}"], [t("tim_step_pos", pos=t("tim_pos_learned")), f"{n + 1} × {d}"]]))
    diff = lab.patches.conv_difference(front, img)
    st.markdown(f"**{t('tim_conv_title')}**")
    st.caption(t("tim_conv_caption", d=d, k=k, p=p, n=n, diff=f"{diff:.2g}",
                 which=t("tim_which_trained" if trained else "tim_which_random")))
    misconception("tim_cnn", t("tim_mis_cnn_common"), t("tim_mis_cnn_shown", diff=f"{diff:.2g}"))


def vit(models: dict, images: np.ndarray, labels: np.ndarray, index: int) -> None:
    """The small ViT: accuracy against baselines, attention over the digit, the shuffle test."""
    model, meta = models["learned"]
    cfg = model.body.cfg
    scores = serving.scores()
    st.subheader(t("tim_vit_title"))
    params = sum(q.numel() for q in model.parameters()) - model.body.embed.weight.numel()
    st.caption(t("tim_vit_intro", layers=cfg.n_layers, heads=cfg.n_heads, d=cfg.d_model, params=params,
                 seconds=float(meta.get("seconds", 0.0)), n_train=scores["n_train"], n_test=scores["n_test"]))
    rows = [[t(f"tim_m_{m}"), f"{scores[s]:.1%}"] for m, s in
            (("vit_learned", "vit_learned"), ("vit_none", "vit_none"), ("logreg", "logreg"), ("majority", "majority"))]
    st.markdown(f"**{t('tim_acc_title', n=scores['n_test'])}**")
    st.markdown(markdown_table([t("tim_col_model"), t("tim_col_acc")], rows))
    st.caption(t("tim_acc_caption"))
    image, label = images[index], int(labels[index])
    g = SIDE // PATCH
    queries = [str(i) for i in range(g * g + 1)]
    q = int(choice(st.selectbox, t("tim_query"), queries, param="tim_q", default="0",
                   labels={i: "[CLS]" if i == "0" else t("tim_query_patch", i=i) for i in queries}))
    att = lab.patches.cls_attention(model, image, q)
    st.markdown(t("tim_pred", pred=int(att["probs"].argmax()), prob=float(att["probs"].max()), label=label))
    heads = att["heads"]                                                   # [layer, head, g, g]
    mats = np.concatenate([heads.reshape(-1, g, g), att["rollout"][None]])
    titles = [t("tim_att_panel", layer=layer, head=head) for layer in range(heads.shape[0])
              for head in range(heads.shape[1])] + [t("tim_att_rollout")]
    qname = "[CLS]" if q == 0 else t("tim_query_patch", i=q)
    fig = viz_core.positional.matrix_grid(
        mats, panel_titles=titles, title=t("tim_att_title", q=qname), x_name=t("tim_att_x"), y_name=t("tim_att_y"),
        value_name=t("tim_att_value"), center=None, cols=5, panel_height=200)
    figure_export.chart(fig, key="tim_attention", width="stretch")
    st.caption(t("tim_att_caption", least=float(att["cls"].min()), most=float(att["cls"].max())))
    shuffle(models, image)


def shuffle(models: dict, image: np.ndarray) -> None:
    st.markdown(f"**{t('tim_shuffle_title')}**")
    st.caption(t("tim_shuffle_intro"))
    seed = int(bound(st.number_input, t("tim_shuffle_seed"), 0, 999, 0, key="tim_seed", url_default="0"))
    show_notices()
    res = {pos: lab.patches.shuffle_test(m, image, seed) for pos, (m, _) in models.items()}
    shuffled = lab.patches.unshuffle_image(image, res["learned"]["perm"], PATCH)
    fig = viz_core.positional.matrix_grid(
        np.stack([lab.patches.with_gaps(image, PATCH), lab.patches.with_gaps(shuffled, PATCH)]),
        panel_titles=[t("tim_original_panel"), t("tim_shuffled_panel")], x_name=t("tim_x"), y_name=t("tim_y"),
        value_name=t("tim_grey"), center=None, cols=2, panel_height=260)
    figure_export.chart(grey(fig), key="tim_shuffle", width="stretch")
    rows = [[t(f"tim_m_vit_{pos}"), f"{int(r['before'].argmax())} ({r['before'].max():.0%})",
             f"{int(r['after'].argmax())} ({r['after'].max():.0%})", f"{r['max_diff']:.2g}"] for pos, r in res.items()]
    st.markdown(markdown_table([t("tim_col_model"), t("tim_col_before"), t("tim_col_after"), t("tim_col_diff")], rows))
    st.caption(t("tim_shuffle_caption", none=f"{res['none']['max_diff']:.2g}",
                 learned=f"{res['learned']['max_diff']:.2g}"))
