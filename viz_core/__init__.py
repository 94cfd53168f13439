"""Pure figure builders for Glassbox.

numpy arrays + token strings in, plotly figures out (the numbers about attention
patterns, such as head metrics and rollout, are in `lab.attention`).
No torch, no streamlit: everything here runs in a test or a notebook.
Shared conventions and helpers: `viz_core.figure`; one module per topic (README.md).
"""

from .attention import head_heatmap, matrix_heatmap, query_bars
from .heads import head_metrics_chart, mark_tile, model_view
from .lines import line_view
from . import positional  # the positional-encoding lab's figures (viz_core.positional.*)
from .training import attention_over_steps, detector_curves, training_curves
from .colors import colormap_lut, plotly_colorscale, to_rgb
from .events import selected_customdata
from .labels import escape_labels, position_labels, visible_label
from .figure import fit_height

__all__ = [
    "head_heatmap", "head_metrics_chart", "line_view", "mark_tile", "matrix_heatmap", "model_view",
    "query_bars", "colormap_lut", "plotly_colorscale", "to_rgb", "selected_customdata",
    "escape_labels", "position_labels", "visible_label", "attention_over_steps", "detector_curves", "training_curves",
    "positional", "fit_height",
]
from .compare import difference, differing_positions
from .ffn import (
    activation_function_figure,
    activation_heatmap,
    share_chart,
    sparsity as ffn_sparsity,
    sparsity_chart,
    token_bars,
    top_neurons,
    vocab_bars,
)
from .residual import contribution_chart, lines_chart, value_heatmap

__all__ += [
    "activation_function_figure", "activation_heatmap", "contribution_chart", "difference",
    "differing_positions", "lines_chart", "share_chart", "ffn_sparsity", "sparsity_chart", "token_bars",
    "top_neurons", "value_heatmap", "vocab_bars",
]
