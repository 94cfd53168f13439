"""Streamlit's own floor for benchmarks/first_figure.py: a bare one-file app (the repo's
.streamlit/config.toml, no sidebar, no model) that draws one element. `?figure=text` (the
default) writes one line of markdown; `?figure=plotly` draws one small plotly heat map, the
chart kind a lesson step opens on. What a new visitor waits for here, no app can go under
with Streamlit's frontend on the same core."""
import plotly.graph_objects as go
import streamlit as st

if st.query_params.get("figure") == "plotly":
    z = [[(i * 7 + j * 3) % 10 / 10 for j in range(12)] for i in range(12)]
    st.plotly_chart(go.Figure(go.Heatmap(z=z, colorscale="Viridis")), key="ls_fig_floor")
else:
    st.markdown("Glassbox: one line of text, nothing else.")
