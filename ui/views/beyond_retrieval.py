"""Beyond softmax, section 'retrieval': RETRO's idea on what the app ships (lab/retrieval.py,
cached in ui/serving/retrieval.py). The bundled MiniLM embeds the chunks of Ecclesiastes once
per server; the reader's sentence gets its k nearest chunks (cosine, with the continuation of
each); then the sentence cut into chunks of m tokens, each chunk's neighbours, and one head of
chunked cross-attention on seeded weights with the chunk-causality mask drawn. WebGPT as one
sentence; two errors of the study notes named (strings: ui/strings/beyond_retrieval.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
from lab import retrieval

from ..figure_words import weight_terms
from ..i18n import t
from ..links import bound, choice, show_notices
from ..page import explain
from ..serving.retrieval import NEIGHBOUR_TOKENS, Chunked, Database, chunked, database, search
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

WEIGHTS = ("random", "identity")
RETRO_LAYERS = 32            # the notes' decoder depth ("… 32")
PREVIEW = 160                # characters of a continuation shown in the table
HOVER_TOKENS = 600           # up to this many neighbour tokens the figure keeps its hover (then an image)


def render(sel: Selection) -> None:  # noqa: ARG001 - the section reads no model of the sidebar
    st.header(t("bxrt_title"))
    st.markdown(t("bxrt_intro"))
    try:
        with st.spinner(t("bxrt_embedding")):
            db = database()
    except (ValueError, RuntimeError, OSError) as e:
        st.warning(t("bxrt_failed", error=explain(e)), icon=":material/error:")
        return
    st.info(t("bxrt_claim", share=7.5 / 175, n=len(db.chunks)), icon=":material/menu_book:")
    text = search_part(db)
    if text:
        cca_part(db, text)
    st.subheader(t("bxrt_notes_title"))
    st.markdown(t("bxrt_webgpt"))
    layers = retrieval.every(9, 3, RETRO_LAYERS)
    misconception("bxrt_layers", t("bxrt_mis_layers_common"),
                  t("bxrt_mis_layers_shown", L=RETRO_LAYERS, layers=", ".join(map(str, layers))))


def search_part(db: Database) -> str:
    st.subheader(t("bxrt_db_title"))
    st.markdown(t("bxrt_db_intro"))
    st.latex(r"e=\frac{\bar h}{\lVert \bar h\rVert},\quad \bar h=\frac{1}{n}\sum_{i=1}^{n} h_i,"
             r"\qquad \cos(e_q, e_c)=e_q\cdot e_c")
    docs = len({c.doc for c in db.chunks})
    st.markdown(t("bxrt_db_stats", n=len(db.chunks), size=retrieval.CHUNK_TOKENS, docs=docs, tokens=db.n_tokens,
                  seconds=db.seconds))
    c1, c2 = st.columns([5, 2])
    with c1:
        default = t("bxrt_default")
        text = bound(st.text_input, t("bxrt_query"), default, key="bx_rt_q", url_default=default, max_chars=400)
    with c2:
        k = bound(st.slider, t("bxrt_k"), 1, retrieval.MAX_K, 3, key="bx_rt_k", url_default="3")
    show_notices()
    text = (text or "").strip()
    if not text:
        st.info(t("bxrt_empty"), icon=":material/edit:")
        return ""
    try:
        idx, cos, query = search(text, int(k))
    except (ValueError, RuntimeError) as e:
        st.warning(t("bxrt_failed", error=explain(e)), icon=":material/error:")
        return ""
    rows = [{t("bxrt_col_rank"): r + 1, t("bxrt_col_cos"): float(c),
             t("bxrt_col_where"): f"{db.chunks[i].doc + 1} · {db.chunks[i].start}",
             t("bxrt_col_chunk"): db.chunks[i].text.replace("\n", " / "),
             t("bxrt_col_next"): db.chunks[i].next_text.replace("\n", " / ")[:PREVIEW]}
            for r, (i, c) in enumerate(zip(idx, cos))]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={t("bxrt_col_cos"): st.column_config.NumberColumn(format="%.3f")})
    every_cos = db.keys @ query
    st.caption(t("bxrt_table_note", norm=float(np.linalg.norm(query)), best=float(cos[0]),
                 median=float(np.median(every_cos)), n=len(db.chunks)))
    st.caption(t("bxrt_english"))
    return text


def cca_part(db: Database, text: str) -> None:
    st.subheader(t("bxrt_cca_title"))
    st.markdown(t("bxrt_cca_intro"))
    c1, c2, c3, c4 = st.columns([2, 2, 3, 2])
    with c1:
        m = bound(st.slider, t("bxrt_m"), 2, 16, 4, key="bx_rt_m", url_default="4")
    with c2:
        n_nb = bound(st.slider, t("bxrt_nb"), 1, 3, 2, key="bx_rt_nb", url_default="2")
    with c3:
        weights = choice(st.radio, t("bxrt_w"), WEIGHTS, param="bx_rt_w", default="random", horizontal=True,
                         labels={w: t(f"bxrt_w_{w}") for w in WEIGHTS})
    with c4:
        seed = bound(st.number_input, t("bxrt_seed"), 0, 1_000_000, 0, 1, key="bx_rt_seed", url_default="0",
                     disabled=weights == "identity")
    show_notices()
    try:
        r = chunked(text, int(m), int(n_nb), int(seed), weights == "identity")
    except (ValueError, RuntimeError) as e:
        st.warning(t("bxrt_failed", error=explain(e)), icon=":material/error:")
        return
    n = len(r.tokens)
    if n == 0:
        st.info(t("bxrt_empty"), icon=":material/edit:")
        return
    st.info(t("bxrt_random_weights", r=NEIGHBOUR_TOKENS), icon=":material/casino:")
    if r.cut:
        st.caption(t("bxrt_cut", n=n))
    if n < int(m):
        st.info(t("bxrt_short", n=n, m=int(m)), icon=":material/info:")
    chunk_table(db, r, int(m))
    w = r.cca
    labels = [f"{i}·{tok}" for i, tok in enumerate(r.tokens)]
    fig = vz.head_heatmap(w.weights, labels, r.nb_tokens, title=t("bxrt_fig_title"), clickable=False,
                          terms=weight_terms(), square=False, max_hover_tokens=HOVER_TOKENS)
    reads = retrieval.reads_chunk(n, int(m))
    for u in range(len(r.chunks)):
        rows = np.flatnonzero(reads == u)
        if rows.size and w.col_starts[u + 1] > w.col_starts[u]:
            fig.add_shape(type="rect", xref="x", yref="y", x0=w.col_starts[u] - 0.5, x1=w.col_starts[u + 1] - 0.5,
                          y0=rows[0] - 0.5, y1=rows[-1] + 0.5, line=dict(color="#d62728", width=2))
    for _, end in r.chunks[:-1]:                            # the reader's chunk boundaries
        fig.add_shape(type="line", xref="x", yref="y", x0=-0.5, x1=len(r.nb_tokens) - 0.5, y0=end - 0.5,
                      y1=end - 0.5, line=dict(color="#555555", width=1, dash="dot"))
    figure_export.chart(fig, key="bx_rt_cca", width="stretch")
    st.caption(t("bxrt_fig_note"))
    checks(r, reads, int(m))
    misconception("bxrt_input", t("bxrt_mis_input_common"),
                  t("bxrt_mis_input_shown", n=n, cols=len(r.nb_tokens), u=len(r.chunks)))


def chunk_table(db: Database, r: Chunked, m: int) -> None:
    reads = retrieval.reads_chunk(len(r.tokens), m)
    rows = []
    for u, ((s, e), found) in enumerate(zip(r.chunks, r.retrieved)):
        readers = np.flatnonzero(reads == u)
        by = f"{readers[0]}–{readers[-1]}" if readers.size else t("bxrt_none")
        for j, (i, c) in enumerate(found):
            rows.append({t("bxrt_col_chunk_u"): f"C{u + 1}", t("bxrt_col_text"): " ".join(r.tokens[s:e]),
                         t("bxrt_col_read_by"): by, t("bxrt_col_nb"): f"N{j + 1}", t("bxrt_col_cos"): c,
                         t("bxrt_col_chunk"): db.chunks[i].text.replace("\n", " / ")})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={t("bxrt_col_cos"): st.column_config.NumberColumn(format="%.3f")})


def checks(r: Chunked, reads: np.ndarray, m: int) -> None:
    w = r.cca
    n = len(r.tokens)
    reading = np.flatnonzero(w.mask.any(axis=1))
    sums = np.nansum(w.weights[reading], axis=1) if reading.size else np.zeros(0)
    err = float(np.abs(sums - 1).max()) if sums.size else 0.0
    ends = [e - 1 for _, e in r.chunks]                   # the last token of each chunk
    bad = sum(1 for i in range(n) for u in range(len(r.chunks))
              if w.mask[i, w.col_starts[u]:w.col_starts[u + 1]].any() and ends[u] > i)
    unread = int((~w.mask.any(axis=0)).sum())
    st.caption(t("bxrt_checks", reading=reading.size, n=n, none=n - reading.size, err=err, bad=bad, unread=unread))
