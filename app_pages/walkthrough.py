"""Q/K/V walk-through: one head, one query token, from the attention input to the attention output."""
from ui.sidebar import current
from ui.views import walkthrough

walkthrough.render(current())
