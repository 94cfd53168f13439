"""The "Tokens from anything" page's Images (ViT) section: a picture (a held-out digit from
scikit-learn, or the reader's upload) cut into P×P patches, the patches as the sequence in
reading order, the projection to d_model beside the same map as a stride-P convolution
(max |difference| computed), then the small ViT of recipes/vit_digits.py — our own
Transformer fed with the patch vectors, with learned, no, or 2-D sinusoidal positions —
with their held-out accuracy against two baselines, the learned and the 2-D sinusoidal
position tables side by side (lab/vit_positions.py), a ViT retrained in the reader's
session (kept in that session's state only), attention from [CLS] (or a patch) over the
picture per head and as rollout, and the shuffle test (lab/patches.py; ui/serving/patches.py).
On an uploaded photo: a Hugging Face ViT folder (or hub id, fetched when asked on a
connected machine) looks at it — top-5 labels, [CLS] attention per head, rollout (lab/vit_hub.py)."""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.patches
import lab.vit_hub
import lab.vit_positions
import viz_core.positional
from viz_core.patches import grey
from lab.patches import PATCH, POSITIONS, SIDE

from ..i18n import t
from ..links import bound, choice, show_notices
from ..markup import markdown_table, md_escape
from ..serving import patches as serving
from ..sidebar import Selection
from ..widgets import figure_export, model_loader
from ..widgets.notes import misconception

SOURCES = ("digit", "upload")
SIZES = (1, 2, 4, 8, 16, 32, 64)
MAX_PANELS = 16       # patches drawn one by one, in reading order
LIVE = "_tim_live"    # this session's ViTs trained here: {positions: result}; never shared
MAX_STEPS = 600       # live training: about 15 s on one thread of this machine (the recipe's 800 took 14-23 s)
HF = "_tim_hf"        # the Hugging Face ViT this session asked for (a folder or a hub id)
PHOTO_CELLS = 112     # the photo drawn at most this many cells a side
GRID_MARGIN = 0.1     # a table "has the grid" when neighbours are this much more alike than far patches


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
        hub_vit(st.session_state["tim_upload"].getvalue())


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


def session_models(models: dict) -> tuple[dict, dict]:
    """(the ViTs this session reads: shipped, or the one trained here in its place; what was
    trained here {positions: result}). The shipped models are never changed."""
    live = st.session_state.get(LIVE, {})
    return {**models, **{pos: (r["model"], r["meta"]) for pos, r in live.items()}}, live


def vit(shipped: dict, images: np.ndarray, labels: np.ndarray, index: int) -> None:
    """The small ViTs: accuracy against baselines, the position tables, training one here,
    attention over the digit, the shuffle test."""
    models, live = session_models(shipped)
    scores = serving.scores()
    acc = {pos: live[pos]["accuracy"] if pos in live else scores[f"vit_{pos}"] for pos in POSITIONS}
    cfg = models["learned"][0].body.cfg
    st.subheader(t("tim_vit_title"))
    model0, meta0 = shipped["learned"]
    params = sum(q.numel() for q in model0.parameters()) - model0.body.embed.weight.numel()
    st.caption(t("tim_vit_intro", layers=cfg.n_layers, heads=cfg.n_heads, d=cfg.d_model, params=params,
                 seconds=float(meta0.get("seconds", 0.0)), n_train=scores["n_train"], n_test=scores["n_test"]))
    rows = [[t(f"tim_m_vit_{pos}") + (t("tim_live_mark", steps=live[pos]["steps"]) if pos in live else ""),
             f"{acc[pos]:.1%}"] for pos in ("learned", "sincos2d", "none")]
    rows += [[t(f"tim_m_{m}"), f"{scores[m]:.1%}"] for m in ("logreg", "majority")]
    st.markdown(f"**{t('tim_acc_title', n=scores['n_test'])}**")
    st.markdown(markdown_table([t("tim_col_model"), t("tim_col_acc")], rows))
    st.caption(t("tim_acc_caption"))
    position_tables(models, acc, scores["n_train"])
    train_here(shipped, scores)
    image, label = images[index], int(labels[index])
    which = choice(st.radio, t("tim_which_vit"), ("learned", "sincos2d", "none"), param="tim_vit", default="learned",
                   labels={pos: t(f"tim_m_vit_{pos}") for pos in POSITIONS}, horizontal=True)
    model = models[which][0]
    g = SIDE // PATCH
    queries = [str(i) for i in range(g * g + 1)]
    q = int(choice(st.selectbox, t("tim_query"), queries, param="tim_q", default="0",
                   labels={i: "[CLS]" if i == "0" else t("tim_query_patch", i=i) for i in queries}))
    att = lab.patches.cls_attention(model, image, q)
    st.markdown(t("tim_pred", model=t(f"tim_m_vit_{which}"), pred=int(att["probs"].argmax()),
                  prob=float(att["probs"].max()), label=label))
    heads = att["heads"]                                                   # [layer, head, g, g]
    mats = np.concatenate([heads.reshape(-1, g, g), att["rollout"][None]])
    titles = [t("tim_att_panel", layer=layer, head=head) for layer in range(heads.shape[0])
              for head in range(heads.shape[1])] + [t("tim_att_rollout")]
    qname = "[CLS]" if q == 0 else t("tim_query_patch", i=q)
    fig = viz_core.positional.matrix_grid(
        mats, panel_titles=titles, title=t("tim_att_title", q=qname), x_name=t("tim_att_x"), y_name=t("tim_att_y"),
        value_name=t("tim_att_value"), center=None, cols=5, panel_height=200)
    fig.update_xaxes(showticklabels=False)        # a picture of the patches: numbers ran into the next row's
    fig.update_yaxes(showticklabels=False)        # titles in presenter mode (hover still names row and column)
    figure_export.chart(fig, key="tim_attention", width="stretch")
    st.caption(t("tim_att_caption", least=float(att["cls"].min()), most=float(att["cls"].max())))
    shuffle(models, image)


def position_tables(models: dict, acc: dict, n_train: int) -> None:
    """The learned and the 2-D sinusoidal position tables: each patch's cosine similarity to every patch."""
    g = SIDE // PATCH
    st.markdown(f"**{t('tim_pos_title')}**")
    st.caption(t("tim_pos_intro", d=models["learned"][0].body.cfg.d_model))
    stats = {}
    cols = st.columns(2)
    for col, pos, key in zip(cols, ("learned", "sincos2d"), ("tim_pos_learned_title", "tim_pos_sincos_title")):
        table = models[pos][0].body.pos_embed.weight.detach()
        stats[pos] = lab.vit_positions.near_far(table, g, g)
        with col:
            fig = viz_core.positional.matrix_grid(
                lab.vit_positions.similarity_grids(table, g, g), title=t(key), x_name=t("tim_att_x"),
                y_name=t("tim_att_y"), value_name=t("tim_pos_value"), center=None, cols=g, panel_height=110,
                panel_titles=[t("tim_pos_panel", i=i + 1) for i in range(g * g)])
            fig.update_xaxes(showticklabels=False)
            fig.update_yaxes(showticklabels=False)
            figure_export.chart(fig, key=f"tim_pos_{pos}", width="stretch")
    grid = stats["learned"]["near"] - stats["learned"]["far"] > GRID_MARGIN
    st.caption(t("tim_pos_caption", learned_near=stats["learned"]["near"], learned_far=stats["learned"]["far"],
                 sincos_near=stats["sincos2d"]["near"], sincos_far=stats["sincos2d"]["far"],
                 verdict=t("tim_pos_grid" if grid else "tim_pos_nogrid", n_train=n_train),
                 acc_sincos=acc["sincos2d"], acc_learned=acc["learned"], acc_none=acc["none"]))


def train_here(shipped: dict, scores: dict) -> None:
    """Retrain one ViT in this session (steps capped); it replaces the shipped one here only."""
    meta = shipped["learned"][1]
    per_step = float(meta.get("seconds", 20.0)) / max(1, int(meta.get("steps", 800)))
    with st.expander(t("tim_live_title"), expanded=LIVE in st.session_state):
        st.caption(t("tim_live_intro", cap=MAX_STEPS, secs=MAX_STEPS * per_step))
        c1, c2 = st.columns(2)
        with c1:
            pos = choice(st.radio, t("tim_live_pos"), POSITIONS, param="tim_live_pos", default="learned", url=False,
                         labels={p: t(f"tim_m_vit_{p}") for p in POSITIONS}, horizontal=True)
        with c2:
            steps = st.slider(t("tim_live_steps"), 50, MAX_STEPS, 300, step=50, key="tim_live_steps")
        b1, b2 = st.columns(2)
        go = b1.button(t("tim_live_go"), key="tim_live_go", type="primary")
        if b2.button(t("tim_live_reset"), key="tim_live_reset", disabled=LIVE not in st.session_state):
            st.session_state.pop(LIVE, None)
            st.rerun()
        if go:
            bar = st.progress(0.0, text=t("tim_live_progress", step=0, steps=steps, loss=float("nan")))
            r = lab.patches.train_vit(pos, seed=0, steps=int(steps), batch=64, lr=3e-3, progress=lambda i, loss: bar.progress(
                i / steps, text=t("tim_live_progress", step=i, steps=steps, loss=loss)))
            info = {"steps": int(steps), "seconds": r.seconds, "loss": r.losses[-1]}
            st.session_state[LIVE] = {**st.session_state.get(LIVE, {}),
                                      pos: {"model": r.model, "accuracy": r.accuracy, "meta": info, **info}}
            st.rerun()
        for pos, r in st.session_state.get(LIVE, {}).items():
            st.success(t("tim_live_done", model=t(f"tim_m_vit_{pos}"), seconds=r["seconds"], steps=r["steps"],
                         loss=r["loss"], acc=r["accuracy"], shipped=scores[f"vit_{pos}"],
                         shipped_steps=int(shipped[pos][1].get("steps", 0))))


def shuffle(models: dict, image: np.ndarray) -> None:
    st.markdown(f"**{t('tim_shuffle_title')}**")
    st.caption(t("tim_shuffle_intro"))
    seed = int(bound(st.number_input, t("tim_shuffle_seed"), 0, 999, 0, key="tim_seed", url_default="0"))
    show_notices()
    res = {pos: lab.patches.shuffle_test(models[pos][0], image, seed) for pos in ("learned", "sincos2d", "none")}
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
                 learned=f"{res['learned']['max_diff']:.2g}", sincos=f"{res['sincos2d']['max_diff']:.2g}"))


def hub_vit(data: bytes) -> None:
    """A Hugging Face ViT (a local folder, or a hub id fetched when asked on a connected
    machine) on the reader's photo: top-5 labels, [CLS] attention per head of a layer, rollout."""
    if not model_loader.panel_enabled():              # a public server that reads no paths
        return
    st.subheader(t("tim_hf_title"))
    st.caption(t("tim_hf_intro"))
    source = (st.text_input(t("tim_hf_source"), key="tim_hf_source", help=t("tim_hf_source_help")) or "").strip()
    if st.button(t("tim_hf_go"), key="tim_hf_go", disabled=not source):
        st.session_state[HF] = source
    asked = st.session_state.get(HF)
    if not asked:
        st.info(t("tim_hf_wait"))
        return
    with st.spinner(t("tim_hf_loading", name=md_escape(asked))):
        vit, error = serving.hub_vit(asked, model_loader.is_hub_id(asked))
    if error is not None:
        st.warning(error)
        return
    photo, reason, values = serving.photo(data)
    if photo is None:
        st.warning(t(f"tim_bad_{reason}", **values))
        return
    seen = lab.vit_hub.look(vit, photo)
    layers, heads = seen["heads"].shape[:2]
    st.caption(t("tim_hf_loaded", name=md_escape(vit.name), layers=layers, heads=heads, g=vit.grid,
                 p=vit.model.front.p, side=vit.grid * vit.model.front.p))
    if seen["top"] is None:
        st.caption(t("tim_hf_no_head"))
    else:
        st.markdown(f"**{t('tim_hf_top_title')}**")
        st.markdown(markdown_table([t("tim_hf_col_label"), t("tim_hf_col_prob")],
                                   [[md_escape(label), f"{prob:.1%}"] for label, prob in seen["top"]]))
    step = max(1, seen["pixels"].shape[0] // PHOTO_CELLS)
    grey_photo = seen["pixels"].mean(-1)
    fig = viz_core.positional.matrix_grid(
        np.stack([grey_photo, lab.vit_hub.lit(seen["pixels"], seen["rollout"])])[:, ::step, ::step],
        panel_titles=[t("tim_hf_panel_photo"), t("tim_hf_panel_rollout")], title=t("tim_hf_photo_title"),
        x_name=t("tim_x"), y_name=t("tim_y"), value_name=t("tim_grey"), center=None, cols=2, panel_height=300)
    figure_export.chart(grey(fig), key="tim_hf_photo", width="stretch")
    layer = int(st.slider(t("tim_hf_layer"), 0, layers - 1, layers - 1, key="tim_hf_layer"))
    fig = viz_core.positional.matrix_grid(
        seen["heads"][layer], panel_titles=[t("tim_att_panel", layer=layer, head=h) for h in range(heads)],
        title=t("tim_att_title", q="[CLS]"), x_name=t("tim_att_x"), y_name=t("tim_att_y"),
        value_name=t("tim_att_value"), center=None, cols=min(6, heads), panel_height=160)
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False)
    figure_export.chart(fig, key="tim_hf_heads", width="stretch")
    st.caption(t("tim_hf_caption", least=float(seen["cls"][layer].min()), most=float(seen["cls"][layer].max())))
