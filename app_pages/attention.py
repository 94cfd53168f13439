"""Attention explorer: every head of every layer, one head up close, lines, metrics, rollout."""
from ui.sidebar import current
from ui.views import attention

attention.render(current())
