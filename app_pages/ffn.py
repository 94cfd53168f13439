"""The feed-forward network: activations, one neuron up close, sparsity, parameter share,
A/B comparison and ablations."""
from ui.sidebar import current
from ui.views import ffn

ffn.render(current())
