"""Positional-encoding lab: schemes side by side, their properties, and their effect on attention."""
from ui.sidebar import current
from ui.views import positional

positional.render(current())
