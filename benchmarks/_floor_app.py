"""Streamlit's own floor for benchmarks/first_figure.py: a bare one-file app (the repo's
.streamlit/config.toml, no sidebar, no model) that draws one element. `?figure=text` (the
default) writes one line of markdown; `?figure=plotly` draws one small plotly heat map, the
chart kind a lesson step opens on; `?figure=altair` the same heat map with altair (Vega-Lite),
the app's other chart library. What a new visitor waits for here, no app can go under with
Streamlit's frontend on the same core."""
import streamlit as st

# each figure imports its own library, so the one-line page's first run imports none of them
Z = [[(i * 7 + j * 3) % 10 / 10 for j in range(12)] for i in range(12)]
if st.query_params.get("figure") == "plotly":
    import plotly.graph_objects as go

    st.plotly_chart(go.Figure(go.Heatmap(z=Z, colorscale="Viridis")), key="ls_fig_floor")
elif st.query_params.get("figure") == "altair":
    import altair as alt
    import pandas as pd

    cells = pd.DataFrame([(i, j, z) for i, row in enumerate(Z) for j, z in enumerate(row)], columns=["q", "k", "w"])
    st.altair_chart(alt.Chart(cells).mark_rect().encode(x="k:O", y="q:O", color="w:Q"))
else:
    st.markdown("Glassbox: one line of text, nothing else.")
