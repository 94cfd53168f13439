"""Masks and attention variants: compose a mask, see its cost and reach, apply it to the model."""
from ui.sidebar import current
from ui.views import masks

masks.render(current())
