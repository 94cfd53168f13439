"""Figures of pictures cut into patches (the tokens page's Images and Pairing sections)."""
from __future__ import annotations

import plotly.graph_objects as go


def grey(fig: go.Figure, ticks: bool = False) -> go.Figure:
    """A figure of grey levels on the one scale 0..1 (the picture and its patches alike), without
    axis numbers unless `ticks` (with the cuts drawn in, they would count the gaps too).
    Heatmaps drawn without hover (the cuts between patches) keep their own colours."""
    fig.update_traces(zmin=0.0, zmax=1.0, selector=lambda tr: tr.type == "heatmap" and tr.hoverinfo != "skip")
    if fig.layout.coloraxis.colorscale is not None:
        fig.update_layout(coloraxis_cmin=0.0, coloraxis_cmax=1.0)
    if not ticks:
        fig.update_xaxes(showticklabels=False)
        fig.update_yaxes(showticklabels=False)
    return fig
